// NumPy .npy files of little-endian float32 matrices (the model's theta and phi).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace butterfly::io {

// Format version 1.0, descr '<f4', C order, shape (rows, cols); header padded so the data
// starts at a multiple of 64 bytes. Written with write_atomic.
void write_npy(const std::string& path, const float* data, std::int64_t rows, std::int64_t cols);
// The same file with its rows made a chunk at a time: fill(first, count, out) writes rows
// [first, first + count) to out (count x cols floats), so a matrix larger than the memory
// one wants to spend on it (the LDA trainer's theta and phi) never exists whole.
using npy_rows = std::function<void(std::int64_t first, std::int64_t count, float* out)>;
void write_npy(const std::string& path, std::int64_t rows, std::int64_t cols, const npy_rows& fill);

struct npy_array {
  std::int64_t rows = 0, cols = 0;
  std::vector<float> data;  // rows * cols, C order
};

// Reads any '<f4', C-order, version 1.0 or 2.0 file of 1 or 2 dimensions; shape (n,)
// reads as rows = 1, cols = n (as numpy.atleast_2d). Anything else, or a file whose size
// does not match its header, throws input_error naming the file.
npy_array read_npy(const std::string& path);

}  // namespace butterfly::io
