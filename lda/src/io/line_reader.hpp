// Reads a (possibly gzip-compressed) file line by line, counting lines for error messages.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace butterfly::io::detail {

// Throws input_error "PATH:LINE: what".
[[noreturn]] void fail_at(const std::string& path, std::int64_t line, const std::string& what);

class line_reader {
 public:
  explicit line_reader(std::string path);  // input_error "PATH: cannot open: ..." on failure
  ~line_reader();
  line_reader(const line_reader&) = delete;
  line_reader& operator=(const line_reader&) = delete;

  // Advances to the next line; false at the end of the file. A trailing "\r" is dropped.
  bool next();
  std::string_view line() const { return line_; }
  std::int64_t number() const { return number_; }  // 1-based number of line()
  bool terminated() const { return terminated_; }  // line() ended with '\n'
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& what) const { fail_at(path_, number_, what); }

 private:
  void refill();

  gzFile file_;
  std::string path_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  std::string line_;
  std::int64_t number_ = 0;
  bool terminated_ = false;
};

}  // namespace butterfly::io::detail
