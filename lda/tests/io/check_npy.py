#!/usr/bin/env python3
"""Cross-checks butterfly's .npy files against NumPy itself, both directions:
numpy.load reads what write_npy wrote, and read_npy reads what numpy.save wrote
(format 1.0 and 2.0). Exit 4 (ctest skip) when NumPy is not installed."""
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("SKIP: python3 numpy is not installed (Debian: python3-numpy)")
    sys.exit(4)

tool, workdir = sys.argv[1], sys.argv[2]
os.makedirs(workdir, exist_ok=True)
rows, cols = 7, 5
i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
expected = ((i - 2 * j) / 3.0 + (i * j) * 1e-3).astype(np.float32)

ours = os.path.join(workdir, "from_butterfly.npy")
subprocess.run([tool, "write", ours, str(rows), str(cols)], check=True)
with open(ours, "rb") as f:
    version = np.lib.format.read_magic(f)
    shape, fortran, dtype = np.lib.format._read_array_header(f, version)
assert version == (1, 0), version
assert (shape, fortran, dtype) == ((rows, cols), False, np.dtype("<f4")), (shape, fortran, dtype)
loaded = np.load(ours, allow_pickle=False)
assert loaded.dtype == np.float32 and loaded.shape == (rows, cols)
assert np.array_equal(loaded, expected), (loaded, expected)
print(f"numpy.load read {ours}: {rows}x{cols} float32, values match")

for version in [(1, 0), (2, 0)]:
    theirs = os.path.join(workdir, f"from_numpy_v{version[0]}.npy")
    with open(theirs, "wb") as f:
        np.lib.format.write_array(f, expected, version=version)
    subprocess.run([tool, "check", theirs, str(rows), str(cols)], check=True)
