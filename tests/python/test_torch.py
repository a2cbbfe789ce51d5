"""butterfly.draw_rows on CPU torch tensors: read in place through NumPy's view, the same z as
for the NumPy array. Its own file, so that where python3-torch is missing only this test
reports skipped."""
import numpy as np
import pytest

import butterfly

torch = pytest.importorskip("torch", reason="python3-torch is not installed")


def test_a_cpu_torch_tensor_is_read_in_place():
    t = torch.rand(300, 24)
    assert butterfly._butterfly._input_address(t) == t.data_ptr()
    assert np.array_equal(butterfly.draw_rows(t, seed=1), butterfly.draw_rows(t.numpy(), seed=1))
    with pytest.raises(TypeError, match="float32"):
        butterfly.draw_rows(t.double())
    with pytest.raises(ValueError, match="C-contiguous"):
        butterfly.draw_rows(t.t())
