// The .npy format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
#include "butterfly/io/npy.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "butterfly/io/atomic_file.hpp"
#include "butterfly/io/error.hpp"

namespace butterfly::io {

namespace {

constexpr char magic[] = "\x93NUMPY";
constexpr std::size_t magic_size = 6;
constexpr std::size_t alignment = 64;  // numpy >= 1.14 aligns the data to 64 bytes
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr bool little_endian_host = true;
#else
constexpr bool little_endian_host = false;
#endif

std::uint32_t float_bits(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

float bits_float(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw input_error(path + ": not a float32 .npy matrix: " + what);
}

// A tiny reader of the header's Python dict literal, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
class dict_reader {
 public:
  dict_reader(const std::string& path, std::string_view text) : path_(path), text_(text) {}

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n')) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c))
      bad(path_, std::string("header: expected '") + c + "' at offset " + std::to_string(pos_));
  }
  std::string_view quoted() {
    skip_space();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
      bad(path_, "header: expected a quoted string at offset " + std::to_string(pos_));
    const char q = text_[pos_++];
    const std::size_t end = text_.find(q, pos_);
    if (end == text_.npos) bad(path_, "header: unterminated string");
    const std::string_view s = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return s;
  }
  std::string_view word() {
    skip_space();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  std::int64_t number() {
    const std::string_view w = word();
    std::int64_t v = 0;
    if (w.empty() || w.size() > 18) bad(path_, "header: bad dimension '" + std::string(w) + "'");
    for (const char c : w) {
      if (c < '0' || c > '9') bad(path_, "header: bad dimension '" + std::string(w) + "'");
      v = v * 10 + (c - '0');
    }
    return v;
  }
  bool at_end() {
    skip_space();
    return pos_ == text_.size();
  }

 private:
  const std::string& path_;
  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

void write_npy(const std::string& path, std::int64_t rows, std::int64_t cols,
               const npy_rows& fill) {
  if (rows < 0 || cols < 0 ||
      (cols > 0 && rows > std::numeric_limits<std::int64_t>::max() / 4 / cols))
    throw std::invalid_argument("write_npy: bad shape (" + std::to_string(rows) + ", " +
                                std::to_string(cols) + ")");
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(cols) + "), }";
  // Pad with spaces, then '\n', so magic + version + length + header fills whole 64-byte blocks.
  const std::size_t prefix = magic_size + 2 + 2;
  header.append((alignment - (prefix + header.size() + 1) % alignment) % alignment, ' ');
  header += '\n';
  // Chunks of about 16 MiB of rows (at least one row): each chunk is a few parallel loops of
  // the sampler, and on busy cores every loop may wait a time slice for its sleeping worker
  // (1 MiB chunks made 20news's files at K = 1000 take 10x longer with two threads than one).
  const std::int64_t chunk_rows =
      cols > 0 ? std::max<std::int64_t>(1, (std::int64_t{1} << 22) / cols) : rows;
  write_atomic(path, [&](std::ostream& out) {
    out.write(magic, magic_size);
    const char version_and_length[4] = {1, 0, static_cast<char>(header.size() & 0xff),
                                        static_cast<char>(header.size() >> 8)};
    out.write(version_and_length, 4);
    out << header;
    std::vector<float> values;
    std::vector<char> bytes;
    for (std::int64_t first = 0; first < rows && cols > 0; first += chunk_rows) {
      const std::int64_t count = std::min(chunk_rows, rows - first);
      values.resize(static_cast<std::size_t>(count * cols));
      fill(first, count, values.data());
      const auto size = static_cast<std::streamsize>(values.size() * 4);
      if (little_endian_host) {  // '<f4' is the floats' own bytes
        out.write(reinterpret_cast<const char*>(values.data()), size);
        continue;
      }
      bytes.resize(values.size() * 4);
      for (std::size_t i = 0; i < values.size(); ++i) {
        const std::uint32_t bits = float_bits(values[i]);
        for (std::size_t b = 0; b < 4; ++b)
          bytes[4 * i + b] = static_cast<char>((bits >> (8 * b)) & 0xff);
      }
      out.write(bytes.data(), size);
    }
  });
}

void write_npy(const std::string& path, const float* data, std::int64_t rows, std::int64_t cols) {
  if (data == nullptr && rows > 0 && cols > 0)
    throw std::invalid_argument("write_npy: data is null");
  write_npy(path, rows, cols, [&](std::int64_t first, std::int64_t count, float* out) {
    std::copy(data + first * cols, data + (first + count) * cols, out);
  });
}

npy_array read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path + ": cannot open: " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const auto file_size = static_cast<std::int64_t>(in.tellg());
  in.seekg(0);
  if (file_size < 0) throw input_error(path + ": cannot read");

  unsigned char start[12] = {};
  in.read(reinterpret_cast<char*>(start), 8);
  if (!in || std::memcmp(start, magic, magic_size) != 0) bad(path, "no \\x93NUMPY magic");
  const int major = start[6];
  if (major != 1 && major != 2)
    bad(path, "format version " + std::to_string(major) + "." + std::to_string(start[7]) +
                  " (1.0 and 2.0 are read)");
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  in.read(reinterpret_cast<char*>(start + 8), static_cast<std::streamsize>(length_bytes));
  if (!in) bad(path, "file ends inside the header");
  std::int64_t header_length = 0;
  for (std::size_t b = length_bytes; b-- > 0;) header_length = header_length * 256 + start[8 + b];
  const std::int64_t data_start = 8 + static_cast<std::int64_t>(length_bytes) + header_length;
  if (data_start > file_size) bad(path, "file ends inside the header");
  std::string header(static_cast<std::size_t>(header_length), '\0');
  in.read(header.data(), header_length);
  if (!in) bad(path, "file ends inside the header");

  dict_reader dict(path, header);
  std::string descr;
  bool fortran = true, has_fortran = false, has_shape = false;
  std::vector<std::int64_t> shape;
  dict.expect('{');
  while (!dict.accept('}')) {
    const std::string_view key = dict.quoted();
    dict.expect(':');
    if (key == "descr") {
      descr = dict.quoted();
    } else if (key == "fortran_order") {
      const std::string_view value = dict.word();
      if (value != "True" && value != "False")
        bad(path, "header: fortran_order is '" + std::string(value) + "'");
      fortran = value == "True";
      has_fortran = true;
    } else if (key == "shape") {
      dict.expect('(');
      while (!dict.accept(')')) {
        if (shape.size() == 3) bad(path, "more than 2 dimensions");
        shape.push_back(dict.number());
        if (!dict.accept(',')) {
          dict.expect(')');
          break;
        }
      }
      has_shape = true;
    } else {
      bad(path, "header: unknown key '" + std::string(key) + "'");
    }
    if (!dict.accept(',')) {
      dict.expect('}');
      break;
    }
  }
  if (!dict.at_end()) bad(path, "header: text after the dict");
  if (descr.empty() || !has_fortran || !has_shape)
    bad(path, "header lacks descr, fortran_order or shape");
  if (descr != "<f4")
    bad(path, "descr is '" + descr + "', only '<f4' (little-endian float32) is read");
  if (fortran) bad(path, "Fortran order is not supported");
  if (shape.empty() || shape.size() > 2)
    bad(path, std::to_string(shape.size()) + " dimensions (1 or 2 are read)");

  npy_array a;
  a.rows = shape.size() == 2 ? shape[0] : 1;
  a.cols = shape.back();
  // Compare with the file size before allocating: the header cannot make us allocate more
  // than the file holds.
  const std::int64_t payload = file_size - data_start;
  if (a.cols != 0 && a.rows > payload / 4 / a.cols + 1)
    bad(path, "shape needs more data than the file holds");
  const std::int64_t n = a.rows * a.cols;
  if (n * 4 != payload)
    bad(path, "shape needs " + std::to_string(n * 4) + " data bytes, the file has " +
                  std::to_string(payload));
  a.data.resize(static_cast<std::size_t>(n));
  std::vector<unsigned char> bytes(static_cast<std::size_t>(payload));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(payload));
  if (!in) throw input_error(path + ": cannot read the data");
  for (std::int64_t i = 0; i < n; ++i) {
    const unsigned char* p = bytes.data() + 4 * i;
    a.data[static_cast<std::size_t>(i)] =
        bits_float(std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
                   std::uint32_t{p[3]} << 24);
  }
  return a;
}

}  // namespace butterfly::io
