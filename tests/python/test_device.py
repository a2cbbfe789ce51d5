"""GPU arrays (__cuda_array_interface__) drawn in place, on a build whose backend has device
memory: torch CUDA tensors where torch sees a CUDA device, else butterfly.device_array (the
emulated device's only kind). The same z as for the host arrays. Skipped, saying why, on a
build without device memory or without a device."""
import numpy as np
import pytest

import butterfly

if butterfly.backend not in ("cuda", "hip", "emulated"):
    pytest.skip(f"this build's backend ({butterfly.backend}) has no device memory", allow_module_level=True)
if butterfly.backend_unavailable_reason():
    pytest.skip(f"no device: {butterfly.backend_unavailable_reason()}", allow_module_level=True)


def torch_cuda():
    try:
        import torch
    except ImportError:
        return None
    return torch if butterfly.backend == "cuda" and torch.cuda.is_available() else None


def to_device(a):
    torch = torch_cuda()
    return torch.from_numpy(a).cuda() if torch else butterfly.device_array(a)


def to_host(d):
    return d.cpu().numpy() if hasattr(d, "cpu") else d.to_host()


def test_draw_rows_on_device_arrays_equals_the_host_draw():
    weights = np.random.default_rng(3).random((300, 37), dtype=np.float32)
    weights[5] = 0  # a row of zeros gets -1 on both
    out = to_device(np.full(300, -7, dtype=np.int32))
    for method in butterfly.algorithms:
        butterfly.draw_rows(to_device(weights), method=method, seed=11, out=out)
        assert np.array_equal(to_host(out), butterfly.draw_rows(weights, method=method, seed=11)), method


def test_draw_topics_on_device_arrays_equals_the_host_draw():
    rng = np.random.default_rng(4)
    K, V, M = 24, 50, 40
    theta = rng.random((M, K), dtype=np.float32)
    phi = rng.random((V, K), dtype=np.float32)
    lengths = rng.integers(0, 30, M)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    words = rng.integers(0, V, offsets[-1]).astype(np.int32)
    z = to_device(np.zeros(offsets[-1], dtype=np.int32))
    butterfly.draw_topics(to_device(theta), to_device(phi), to_device(offsets), to_device(words), seed=5,
                          iteration=2, out=z)
    assert np.array_equal(to_host(z), butterfly.draw_topics(theta, phi, offsets, words, seed=5, iteration=2))


def test_device_arrays_are_checked_like_host_arrays():
    weights = to_device(np.ones((4, 3), dtype=np.float32))
    with pytest.raises(TypeError, match="out: a GPU input needs out="):
        butterfly.draw_rows(weights)
    with pytest.raises(ValueError, match="out has 3 entries, needs 4"):
        butterfly.draw_rows(weights, out=to_device(np.zeros(3, dtype=np.int32)))
    with pytest.raises(TypeError, match="typestr <i4"):
        butterfly.draw_rows(weights, out=to_device(np.zeros(4, dtype=np.int64)))


def test_device_array_round_trip():
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    d = butterfly.device_array(a)
    assert d.__cuda_array_interface__["shape"] == (3, 4)
    assert d.__cuda_array_interface__["typestr"] == "<i8"
    assert np.array_equal(d.to_host(), a)
    with pytest.raises(ValueError, match="C-contiguous"):
        butterfly.device_array(a.T)
