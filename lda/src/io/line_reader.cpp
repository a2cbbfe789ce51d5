#include "line_reader.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

#include "butterfly/io/error.hpp"

namespace butterfly::io::detail {

namespace {
// Large enough that the handovers between the threads cost nothing next to a block's inflate.
constexpr std::size_t block_size = std::size_t{1} << 20;
}  // namespace

void fail_at(const std::string& path, std::int64_t line, const std::string& what) {
  throw input_error(path + ":" + std::to_string(line) + ": " + what);
}

line_reader::line_reader(std::string path)
    : path_(std::move(path)), buffer_(block_size), ahead_(block_size) {
  errno = 0;
  file_ = gzopen(path_.c_str(), "rb");
  if (file_ == nullptr)
    throw input_error(path_ + ": cannot open: " + (errno ? std::strerror(errno) : "out of memory"));
  gzbuffer(file_, 1u << 17);
  pending_ = std::async(std::launch::async, [this] { return read_block(ahead_); });
}

line_reader::~line_reader() {
  if (pending_.valid()) pending_.wait();  // the read in flight uses file_ and ahead_
  gzclose(file_);
}

line_reader::block line_reader::read_block(std::vector<char>& into) {
  block b;
  errno = 0;
  b.size = gzread(file_, into.data(), static_cast<unsigned>(into.size()));
  b.error = errno;
  if (b.size <= 0) b.message = gzerror(file_, &b.code);
  return b;
}

// The block read ahead becomes the one parsed, and the next read starts; errors are reported
// when the parse reaches them, at the line it is on.
void line_reader::refill() {
  const block b = pending_.get();
  if (b.size > 0) {
    std::swap(buffer_, ahead_);
    begin_ = 0;
    end_ = static_cast<std::size_t>(b.size);
    pending_ = std::async(std::launch::async, [this] { return read_block(ahead_); });
    return;
  }
  // zlib reports a gzip stream cut short as end of input with Z_BUF_ERROR.
  if (b.code == Z_BUF_ERROR) fail_at(path_, number_ + 1, "gzip stream ends early (file truncated)");
  if (b.code == Z_ERRNO)
    fail_at(path_, number_ + 1, std::string("cannot read: ") + std::strerror(b.error));
  if (b.code != Z_OK || b.size < 0) {
    // gzerror's text starts with the path; keep only zlib's own words.
    std::string text = b.message;
    if (text.compare(0, path_.size() + 2, path_ + ": ") == 0) text.erase(0, path_.size() + 2);
    fail_at(path_, number_ + 1, "corrupt gzip data (" + text + ")");
  }
  eof_ = true;
}

bool line_reader::next() {
  // A line inside the block is viewed where it lies; only one that spans blocks is copied.
  carry_.clear();
  terminated_ = false;
  bool any = false, carried = false;
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
      begin_ += static_cast<std::size_t>(newline - start) + 1;
      terminated_ = true;
      if (carried) {
        carry_.append(start, newline);
        line_ = carry_;
      } else {
        line_ = std::string_view(start, static_cast<std::size_t>(newline - start));
      }
      break;
    }
    carry_.append(start, end_ - begin_);
    carried = true;
    begin_ = end_;
  }
  if (!any) return false;
  if (!terminated_) line_ = carry_;
  if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
  ++number_;
  return true;
}

}  // namespace butterfly::io::detail
