// Reads a (possibly gzip-compressed) file line by line, counting lines for error messages.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <future>
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
  // One gzread of a block: its size, or zlib's state after a read that gave nothing.
  struct block {
    int size = 0, code = Z_OK, error = 0;  // error: errno after the read
    std::string message;                   // gzerror's text
  };
  block read_block(std::vector<char>& into);
  void refill();

  gzFile file_;
  std::string path_;
  // The block being parsed, and the next one, inflated on a second thread meanwhile.
  std::vector<char> buffer_, ahead_;
  std::future<block> pending_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  std::string_view line_;  // in buffer_, or in carry_ where it spans two blocks
  std::string carry_;
  std::int64_t number_ = 0;
  bool terminated_ = false;
};

}  // namespace butterfly::io::detail
