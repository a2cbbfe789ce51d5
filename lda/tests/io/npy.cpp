#include "butterfly/io/npy.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "support.hpp"

using butterfly::io::read_npy;
using butterfly::io::write_npy;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
std::string le_float(float x) {
  const std::uint32_t b = bits(x);
  return {static_cast<char>(b & 0xff), static_cast<char>(b >> 8 & 0xff),
          static_cast<char>(b >> 16 & 0xff), static_cast<char>(b >> 24)};
}
}  // namespace

TEST_CASE("npy: header bytes follow the NumPy format 1.0 spec", "[io][npy]") {
  io_test::temp_dir dir;
  const float data[6] = {1.0f, -2.5f, 0.0f, 3.25f, 1e-3f, -0.0f};
  const auto p = dir.path("m.npy");
  write_npy(p, data, 2, 3);
  // magic, version 1.0, little-endian uint16 HEADER_LEN = 118, the dict, spaces and '\n'
  // so that 10 + 118 = 128 is a multiple of 64; then the data, little-endian.
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  std::string expected =
      std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict + std::string(58, ' ') + "\n";
  REQUIRE(expected.size() == 128);
  for (const float x : data) expected += le_float(x);
  CHECK(slurp(p) == expected);
}

TEST_CASE("npy: what write_npy writes reads back bit for bit", "[io][npy]") {
  io_test::temp_dir dir;
  const std::vector<float> data = {0.1f,
                                   -1e30f,
                                   std::numeric_limits<float>::denorm_min(),
                                   std::numeric_limits<float>::infinity(),
                                   -0.0f,
                                   std::numeric_limits<float>::quiet_NaN(),
                                   7.0f,
                                   65504.0f};
  for (const auto& [rows, cols] :
       std::vector<std::pair<std::int64_t, std::int64_t>>{{2, 4}, {8, 1}, {1, 8}}) {
    const auto p = dir.path("m.npy");
    write_npy(p, data.data(), rows, cols);
    CHECK(slurp(p).size() % 64 == 8 * 4 % 64);  // 64-aligned header + 32 data bytes
    const auto a = read_npy(p);
    CHECK(a.rows == rows);
    CHECK(a.cols == cols);
    REQUIRE(a.data.size() == data.size());
    for (std::size_t i = 0; i < data.size(); ++i) CHECK(bits(a.data[i]) == bits(data[i]));
  }
  write_npy(dir.path("empty.npy"), nullptr, 0, 5);
  const auto e = read_npy(dir.path("empty.npy"));
  CHECK(e.rows == 0);
  CHECK(e.cols == 5);
  CHECK(e.data.empty());
}

TEST_CASE("npy: reads 1-D and version 2.0 files as numpy writes them", "[io][npy]") {
  io_test::temp_dir dir;
  // Version 2.0: uint32 header length. numpy pads its header with extra spaces; the dict
  // may also come in another key order.
  const std::string dict = "{'shape': (3,), 'fortran_order': False, 'descr': '<f4', }";
  std::string header = dict + std::string(64 - (12 + dict.size() + 1) % 64, ' ') + "\n";
  const auto n = static_cast<char>(header.size());
  std::string file = std::string("\x93NUMPY\x02\x00", 8) + std::string{n, 0, 0, 0} + header;
  file += le_float(1.5f) + le_float(-2.0f) + le_float(3.0f);
  const auto a = read_npy(dir.write("v2.npy", file));
  CHECK(a.rows == 1);
  CHECK(a.cols == 3);
  CHECK(a.data == std::vector<float>{1.5f, -2.0f, 3.0f});
}

TEST_CASE("npy error: files that are not float32 C-order matrices", "[io][npy][error]") {
  io_test::temp_dir dir;
  const auto make = [&](const std::string& dict, const std::string& payload) {
    std::string header = dict + "\n";
    return dir.write("bad.npy", std::string("\x93NUMPY\x01\x00", 8) +
                                    std::string{static_cast<char>(header.size()), 0} + header +
                                    payload);
  };
  const std::string four(4, '\0');
  const auto p = dir.path("bad.npy");
  REQUIRE_INPUT_ERROR(read_npy(dir.write("bad.npy", "PK\x03\x04 not numpy")), p + ":", "magic");
  REQUIRE_INPUT_ERROR(
      read_npy(make("{'descr': '>f4', 'fortran_order': False, 'shape': (1, 1), }", four)), p + ":",
      "descr is '>f4'");
  REQUIRE_INPUT_ERROR(
      read_npy(make("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }", four)), p + ":",
      "descr is '<f8'");
  REQUIRE_INPUT_ERROR(
      read_npy(make("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 1), }", four)), p + ":",
      "Fortran order");
  REQUIRE_INPUT_ERROR(
      read_npy(make("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1), }", four)),
      p + ":", "3 dimensions");
  REQUIRE_INPUT_ERROR(
      read_npy(make("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1), }", four)), p + ":",
      "shape needs 8 data bytes, the file has 4");
  REQUIRE_INPUT_ERROR(read_npy(make("{'descr': '<f4', 'fortran_order': False, 'shape': "
                                    "(999999999999999999, 999999999999999999), }",
                                    four)),
                      p + ":", "more data than the file holds");
  REQUIRE_INPUT_ERROR(read_npy(make("{'descr': '<f4', 'shape': (1, 1), }", four)), p + ":",
                      "lacks");
  REQUIRE_INPUT_ERROR(read_npy(dir.write("bad.npy", std::string("\x93NUMPY\x01\x00\xff\x00{", 11))),
                      p + ":", "ends inside the header");
  REQUIRE_INPUT_ERROR(read_npy(dir.write("bad.npy", std::string("\x93NUMPY\x03\x00", 8))), p + ":",
                      "version 3.0");
  REQUIRE_INPUT_ERROR(read_npy(dir.path("missing.npy")), dir.path("missing.npy") + ": cannot open",
                      "No such file");
}

// The rows-at-a-time writer (the LDA trainer's theta and phi): the same bytes as the whole
// matrix's, over several chunks (about 16 MiB each: here 2 rows of 2,097,152 floats), and a
// fill that fails leaves no file.
TEST_CASE("npy: a matrix written a chunk of rows at a time is the matrix written whole",
          "[io][npy]") {
  io_test::temp_dir dir;
  const std::int64_t rows = 3, cols = 2097152;
  std::vector<float> data(static_cast<std::size_t>(rows * cols));
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<float>(i % 1000) * 0.5f - 7.0f;
  write_npy(dir.path("whole.npy"), data.data(), rows, cols);
  std::vector<std::pair<std::int64_t, std::int64_t>> asked;
  write_npy(dir.path("rows.npy"), rows, cols,
            [&](std::int64_t first, std::int64_t count, float* out) {
              asked.emplace_back(first, count);
              for (std::int64_t i = 0; i < count * cols; ++i)
                out[i] = data[static_cast<std::size_t>(first * cols + i)];
            });
  CHECK(asked == std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 2}, {2, 1}});
  CHECK(slurp(dir.path("rows.npy")) == slurp(dir.path("whole.npy")));
  CHECK_THROWS_WITH(write_npy(dir.path("failed.npy"), rows, cols,
                              [](std::int64_t first, std::int64_t, float*) {
                                if (first > 0) throw std::runtime_error("row source failed");
                              }),
                    "row source failed");
  CHECK(!std::filesystem::exists(dir.path("failed.npy")));
}
