#include "line_reader.hpp"

#include <cerrno>
#include <cstring>

#include "butterfly/io/error.hpp"

namespace butterfly::io::detail {

void fail_at(const std::string& path, std::int64_t line, const std::string& what) {
  throw input_error(path + ":" + std::to_string(line) + ": " + what);
}

line_reader::line_reader(std::string path) : path_(std::move(path)), buffer_(std::size_t{1} << 16) {
  errno = 0;
  file_ = gzopen(path_.c_str(), "rb");
  if (file_ == nullptr)
    throw input_error(path_ + ": cannot open: " + (errno ? std::strerror(errno) : "out of memory"));
  gzbuffer(file_, 1u << 17);
}

line_reader::~line_reader() { gzclose(file_); }

void line_reader::refill() {
  errno = 0;
  const int n = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
  int code = Z_OK;
  const char* message = gzerror(file_, &code);
  if (n > 0) {
    begin_ = 0;
    end_ = static_cast<std::size_t>(n);
    return;
  }
  // zlib reports a gzip stream cut short as end of input with Z_BUF_ERROR.
  if (code == Z_BUF_ERROR) fail_at(path_, number_ + 1, "gzip stream ends early (file truncated)");
  if (code == Z_ERRNO)
    fail_at(path_, number_ + 1, std::string("cannot read: ") + std::strerror(errno));
  if (code != Z_OK || n < 0) {
    // gzerror's text starts with the path; keep only zlib's own words.
    std::string text = message;
    if (text.compare(0, path_.size() + 2, path_ + ": ") == 0) text.erase(0, path_.size() + 2);
    fail_at(path_, number_ + 1, "corrupt gzip data (" + text + ")");
  }
  eof_ = true;
}

bool line_reader::next() {
  line_.clear();
  terminated_ = false;
  bool any = false;
  for (;;) {
    if (begin_ == end_) {
      if (eof_) break;
      refill();
      continue;
    }
    any = true;
    const char* start = buffer_.data() + begin_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
    if (newline != nullptr) {
      line_.append(start, newline);
      begin_ += static_cast<std::size_t>(newline - start) + 1;
      terminated_ = true;
      break;
    }
    line_.append(start, end_ - begin_);
    begin_ = end_;
  }
  if (!any) return false;
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  ++number_;
  return true;
}

}  // namespace butterfly::io::detail
