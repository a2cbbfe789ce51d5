// Whole-file replacement that never leaves a half-written file behind.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace butterfly::io {

// `writer` fills a new file in the same directory as `path` (created with mode 0666 minus
// the umask); it is flushed, fsync()ed and renamed over `path`, then the directory is
// fsync()ed. If `writer` throws, its exception propagates; if a step fails, a
// std::runtime_error names the path and strerror. In both cases the temporary file is
// removed and `path` keeps its old content (or stays absent).
void write_atomic(const std::string& path, const std::function<void(std::ostream&)>& writer);

}  // namespace butterfly::io
