// Whole-file replacement that never leaves a half-written file behind.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace butterfly::io {

// What a finished write_atomic survives.
enum class survives {
  // The process's death at any point (kill -9, an exception): `path` is the old file or the
  // new one, whole. The model files: syncing them would wait for the disk (a second for the
  // 376 MB of wiki-lead's at K = 1000), which WarpLDA does not.
  kill,
  // Also the machine's (power loss, kernel crash): the file is fsync()ed before the rename
  // and the directory after it. Checkpoints, which exist to outlive a crash.
  power_loss,
};

// `writer` fills a new file in the same directory as `path` (created with mode 0666 minus
// the umask); it is flushed and renamed over `path` (fsync()ed as `what` asks). If `writer`
// throws, its exception propagates; if a step fails, a std::runtime_error names the path and
// strerror. In both cases the temporary file is removed and `path` keeps its old content (or
// stays absent). Temporaries of `path` left by a writer that was killed (whose process no
// longer runs) are removed first.
void write_atomic(const std::string& path, const std::function<void(std::ostream&)>& writer,
                  survives what = survives::kill);

}  // namespace butterfly::io
