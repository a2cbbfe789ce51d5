"""butterfly.draw_rows / draw_topics: the C++ API's z bit for bit (checked against
draw_tool, a C++ program), arrays read in place, and clear errors for what is not."""
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import butterfly

METHODS = ["basic", "transposed", "butterfly", "warp_scan"]
# The backends whose kernels read device memory: they draw __cuda_array_interface__ arrays in place.
DEVICE_BACKENDS = ("cuda", "hip", "emulated")
# A width other than the default that the backend has kernels for (4 on the host, 64 on the
# emulated device).
OTHER_WIDTH = min(w for w in butterfly.supported_widths if w != butterfly.default_width)


def cpp(*args, tmp_path):
    """Runs draw_tool (the C++ API) and returns its z, or raises ValueError with its message."""
    out = tmp_path / "z.npy"
    done = subprocess.run([os.environ["BUTTERFLY_DRAW_TOOL"], *map(str, args), str(out)], capture_output=True,
                          text=True)
    if done.returncode == 3:
        raise ValueError(done.stderr)
    assert done.returncode == 0, done.stderr
    return np.load(out)[0].astype(np.int32)


def save(tmp_path, name, a):
    """a as a float32 .npy matrix (a vector as 1 x n; ids < 2^24 stay exact)."""
    a = np.asarray(a, dtype=np.float32)
    path = tmp_path / name
    np.save(path, a[None, :] if a.ndim == 1 else a)
    return path


def test_identity_matrix_draws_its_diagonal():
    assert butterfly.draw_rows(np.eye(4, dtype=np.float32)).tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("K", [1, 7, 33, 240])
def test_rows_are_the_cpp_apis(method, K, tmp_path):
    rng = np.random.default_rng(K)
    w = rng.gamma(0.3, size=(517, K)).astype(np.float32)
    w[5] = 0  # a row of zeros draws -1
    for seed, iteration, width in [(0, 0, 0), (12345678901, 7, OTHER_WIDTH)]:
        z = butterfly.draw_rows(w, method=method, seed=seed, iteration=iteration, width=width)
        assert z.dtype == np.int32 and z.shape == (517,)
        assert np.array_equal(z, cpp("rows", save(tmp_path, "w.npy", w), method, seed, iteration, width,
                                     tmp_path=tmp_path))
        assert z[5] == -1 and ((z >= 0) & (z < K)).sum() == 516


@pytest.mark.parametrize("method", METHODS)
def test_topics_are_the_cpp_apis(method, tmp_path):
    rng = np.random.default_rng(3)
    K, V, M = 19, 50, 40
    theta = rng.dirichlet(np.full(K, 0.2), size=M).astype(np.float32)
    phi = rng.dirichlet(np.full(V, 0.1), size=K).T.astype(np.float32).copy()
    lengths = rng.integers(0, 300, size=M)
    doc_offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    words = rng.integers(0, V, size=doc_offsets[-1]).astype(np.int32)
    z = butterfly.draw_topics(theta, phi, doc_offsets, words, method=method, seed=99, iteration=3)
    expected = cpp("topics", save(tmp_path, "theta.npy", theta), save(tmp_path, "phi.npy", phi),
                   save(tmp_path, "offsets.npy", doc_offsets), save(tmp_path, "words.npy", words), method, 99, 3, 0,
                   tmp_path=tmp_path)
    assert np.array_equal(z, expected)


def test_arrays_are_read_in_place_and_out_is_written_in_place():
    w = np.ones((1000, 16), dtype=np.float32)
    assert butterfly._butterfly._input_address(w) == w.ctypes.data
    view = np.ones((2000, 16), dtype=np.float32)[500:1500]  # a contiguous view into a larger buffer
    assert butterfly._butterfly._input_address(view) == view.ctypes.data
    out = np.full(1000, -7, dtype=np.int32)
    z = butterfly.draw_rows(w, out=out, seed=5)
    assert z is out and np.array_equal(out, butterfly.draw_rows(w, seed=5))


@pytest.mark.parametrize("bad", [np.float64, np.float16, np.int32])
def test_other_dtypes_are_a_type_error_that_says_how_to_convert(bad):
    with pytest.raises(TypeError, match=r"weights must be a float32 array, got .*numpy.ascontiguousarray"):
        butterfly.draw_rows(np.eye(4, dtype=bad))
    with pytest.raises(TypeError, match="float32"):
        butterfly.draw_rows([[1.0, 0.0]])  # a list would become float64: never converted silently


def test_shapes_and_layouts_are_value_errors():
    w = np.ones((8, 4), dtype=np.float32)
    with pytest.raises(ValueError, match="weights must be 2-D, got 1-D"):
        butterfly.draw_rows(np.ones(4, dtype=np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        butterfly.draw_rows(np.asfortranarray(w))
    with pytest.raises(ValueError, match="C-contiguous"):
        butterfly.draw_rows(np.ones((8, 8), dtype=np.float32)[:, ::2])
    with pytest.raises(ValueError, match="at least one column"):
        butterfly.draw_rows(np.ones((8, 0), dtype=np.float32))
    with pytest.raises(TypeError, match="out must be a int32 array"):
        butterfly.draw_rows(w, out=np.zeros(8, dtype=np.int64))
    with pytest.raises(ValueError, match="out has 7 entries, needs 8"):
        butterfly.draw_rows(w, out=np.zeros(7, dtype=np.int32))
    readonly = np.zeros(8, dtype=np.int32)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        butterfly.draw_rows(w, out=readonly)
    theta, phi = np.ones((2, 3), np.float32), np.ones((5, 4), np.float32)
    offsets, words = np.array([0, 1, 2], np.int64), np.array([0, 1], np.int32)
    with pytest.raises(ValueError, match="theta has 3 columns and phi 4"):
        butterfly.draw_topics(theta, phi, offsets, words)
    with pytest.raises(TypeError, match="doc_offsets must be a int64 array"):
        butterfly.draw_topics(theta, phi[:, :3].copy(), offsets.astype(np.int32), words)
    with pytest.raises(TypeError, match="words must be a int32 array"):
        butterfly.draw_topics(theta, phi[:, :3].copy(), offsets, words.astype(np.int64))


def test_cpp_invalid_argument_is_a_value_error_with_the_same_message(tmp_path):
    w = np.ones((6, 5), dtype=np.float32)
    w[3, 2] = np.nan
    with pytest.raises(ValueError) as from_python:
        butterfly.draw_rows(w)
    with pytest.raises(ValueError) as from_cpp:
        cpp("rows", save(tmp_path, "w.npy", w), "butterfly", 0, 0, 0, tmp_path=tmp_path)
    assert str(from_python.value) == str(from_cpp.value) and "NaN" in str(from_python.value)
    assert butterfly.draw_rows(w, validate=False)[3] == -1
    with pytest.raises(ValueError, match="width"):
        butterfly.draw_rows(np.eye(4, dtype=np.float32), width=3)
    with pytest.raises(ValueError, match="basic"):  # the message lists the valid names
        butterfly.draw_rows(np.eye(4, dtype=np.float32), method="fast")
    theta, phi = np.ones((1, 2), np.float32), np.ones((3, 2), np.float32)
    with pytest.raises(ValueError, match="word"):
        butterfly.draw_topics(theta, phi, np.array([0, 1], np.int64), np.array([3], np.int32))


# No test of "the GIL is released during the draw" (python/src/draws.cpp holds a
# py::gil_scoped_release around each draw): whether another Python thread gets to run while one
# thread is inside C++ depends on the OS scheduler, and the draw calls nothing back that a test
# could synchronize on. The test that was here counted in a second thread during a large draw:
# on a loaded machine it could fail with a correct module, and with a switch interval of 1e-4 s
# the second thread could also run before the draw began and pass with the GIL held.


def test_version_and_backend_are_visible():
    import tomllib

    project = tomllib.loads((Path(os.environ["BUTTERFLY_SOURCE_DIR"]) / "pyproject.toml").read_text())["project"]
    assert butterfly.__version__ == project["version"]
    assert butterfly.backend in ("serial", "openmp", "cuda", "hip", "kokkos", "emulated")
    assert butterfly.default_width in butterfly.supported_widths
    assert butterfly.algorithms == tuple(METHODS)


def test_native_width_is_default_width_deprecated():
    with pytest.warns(DeprecationWarning, match="renamed butterfly.default_width"):
        assert butterfly.native_width == butterfly.default_width


def test_gpu_arrays_are_refused_by_a_host_build_and_checked_by_a_device_build():
    class FakeDeviceArray:  # what torch CUDA tensors and CuPy arrays expose
        __cuda_array_interface__ = {"shape": (4, 4), "typestr": "<f4", "data": (0, False), "version": 3}

    if butterfly.backend in DEVICE_BACKENDS:
        # Drawn in place there (test_device.py); its interface is checked before any memory is read.
        with pytest.raises(TypeError, match="out: a GPU input needs out="):
            butterfly.draw_rows(FakeDeviceArray())
        return
    with pytest.raises(TypeError, match=r"weights is a GPU array .* backend is " + butterfly.backend):
        butterfly.draw_rows(FakeDeviceArray())
    with pytest.raises(TypeError, match="theta is a GPU array"):
        butterfly.draw_topics(FakeDeviceArray(), None, None, None)
