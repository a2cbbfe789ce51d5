#include "butterfly/io/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <streambuf>

namespace butterfly::io {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
  throw std::runtime_error(path + ": " + what + ": " + std::strerror(error));
}

// An ostream buffer writing straight to a file descriptor, so write errors keep their errno
// and the same descriptor can be fsync()ed.
class fd_buffer : public std::streambuf {
 public:
  explicit fd_buffer(int fd) : fd_(fd) { setp(buffer_, buffer_ + sizeof buffer_); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }
  // A block at least the buffer's size goes straight to the file: copying a model's hundreds
  // of MB through the buffer first would only add a pass over them.
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n < static_cast<std::streamsize>(sizeof buffer_)) return std::streambuf::xsputn(s, n);
    return drain() && write_all(s, s + n) ? n : 0;
  }

 private:
  bool drain() {
    if (!write_all(pbase(), pptr())) return false;
    setp(buffer_, buffer_ + sizeof buffer_);
    return true;
  }
  bool write_all(const char* p, const char* end) {
    while (p < end) {
      const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(end - p));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error_ = errno;
        return false;
      }
      p += n;
    }
    return true;
  }

  int fd_;
  int error_ = 0;
  char buffer_[1 << 16];
};

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Creates the temporary file next to `path`; O_EXCL so two writers never share one, and
// mode 0666 so the umask gives the new file ordinary permissions.
int create_temporary(const std::string& path, std::string& temporary) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0;; ++attempt) {
    temporary = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST || attempt == 100)
      fail(path, "cannot create temporary file " + temporary, errno);
  }
}

// The temporaries of `path` that a writer killed before its rename left behind
// (path.tmp.PID.N of a process that no longer runs) are removed, so that a run resumed after
// kill -9 in the middle of a checkpoint leaves none once it writes that file again. Another
// live process's (or this one's: another thread may be writing) are left alone. Best effort:
// a directory that cannot be read is left as it is, and the write goes on.
void remove_abandoned_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  const std::string prefix = fs::path(path).filename().string() + ".tmp.";
  std::error_code error;
  for (fs::directory_iterator it(directory_of(path), error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    pid_t pid = 0;
    const char* first = name.data() + prefix.size();
    const auto [stop, status] = std::from_chars(first, name.data() + name.size(), pid);
    if (status != std::errc() || stop == first || *stop != '.' || pid <= 0 || pid == ::getpid())
      continue;
    if (::kill(pid, 0) != 0 && errno == ESRCH) ::unlink(it->path().c_str());
  }
}

}  // namespace

void write_atomic(const std::string& path, const std::function<void(std::ostream&)>& writer,
                  survives what) {
  remove_abandoned_temporaries(path);
  std::string temporary;
  int fd = create_temporary(path, temporary);
  try {
    {
      fd_buffer buffer(fd);
      std::ostream out(&buffer);
      writer(out);
      out.flush();
      if (!out) fail(path, "cannot write " + temporary, buffer.error() ? buffer.error() : EIO);
    }
    if (what == survives::power_loss && ::fsync(fd) != 0)
      fail(path, "cannot fsync " + temporary, errno);
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0) fail(path, "cannot close " + temporary, errno);
    if (std::rename(temporary.c_str(), path.c_str()) != 0)
      fail(path, "cannot rename " + temporary + " over it", errno);
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  if (what == survives::kill) return;
  // The rename is durable only once the directory entry is on disk.
  const std::string directory = directory_of(path);
  const int dir = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0)
    fail(path, "written, but cannot open directory " + directory + " to fsync it", errno);
  const int synced = ::fsync(dir);
  const int error = errno;
  ::close(dir);
  if (synced != 0) fail(path, "written, but cannot fsync directory " + directory, error);
}

}  // namespace butterfly::io
