// NumPy .npy files of little-endian float32 matrices (the model's theta and phi).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace butterfly::io {

// Format version 1.0, descr '<f4', C order, shape (rows, cols); header padded so the data
// starts at a multiple of 64 bytes. Written with write_atomic.
void write_npy(const std::string& path, const float* data, std::int64_t rows, std::int64_t cols);

struct npy_array {
  std::int64_t rows = 0, cols = 0;
  std::vector<float> data;  // rows * cols, C order
};

// Reads any '<f4', C-order, version 1.0 or 2.0 file of 1 or 2 dimensions; shape (n,)
// reads as rows = 1, cols = n (as numpy.atleast_2d). Anything else, or a file whose size
// does not match its header, throws input_error naming the file.
npy_array read_npy(const std::string& path);

}  // namespace butterfly::io
