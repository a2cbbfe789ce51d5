// Helper for check_npy.py: writes, or checks, the matrix m[i][j] = (i - 2j) / 3 + i*j*1e-3
// (rounded to float32) so numpy and butterfly can each read what the other wrote.
//   npy_tool write PATH ROWS COLS     npy_tool check PATH ROWS COLS (exit 1 on mismatch)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "butterfly/io/npy.hpp"

namespace {
float value(std::int64_t i, std::int64_t j) {
  return static_cast<float>(static_cast<double>(i - 2 * j) / 3.0 +
                            static_cast<double>(i * j) * 1e-3);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: npy_tool write|check PATH ROWS COLS\n");
    return 2;
  }
  const std::string mode = argv[1], path = argv[2];
  const std::int64_t rows = std::atoll(argv[3]), cols = std::atoll(argv[4]);
  if (mode == "write") {
    std::vector<float> m;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) m.push_back(value(i, j));
    butterfly::io::write_npy(path, m.data(), rows, cols);
    return 0;
  }
  const auto a = butterfly::io::read_npy(path);
  if (a.rows != rows || a.cols != cols) {
    std::fprintf(stderr, "%s: shape (%lld, %lld), expected (%lld, %lld)\n", path.c_str(),
                 static_cast<long long>(a.rows), static_cast<long long>(a.cols),
                 static_cast<long long>(rows), static_cast<long long>(cols));
    return 1;
  }
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      if (a.data[static_cast<std::size_t>(i * cols + j)] != value(i, j)) {
        std::fprintf(stderr, "%s: element (%lld, %lld) differs\n", path.c_str(),
                     static_cast<long long>(i), static_cast<long long>(j));
        return 1;
      }
  std::printf("%s: %lld x %lld values match\n", path.c_str(), static_cast<long long>(rows),
              static_cast<long long>(cols));
  return 0;
}
