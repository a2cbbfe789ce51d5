#include "butterfly/io/atomic_file.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.hpp"

using butterfly::io::survives;
using butterfly::io::write_atomic;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
std::size_t entries(const std::filesystem::path& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir), {}));
}
}  // namespace

// Each case for both promises: what fsync adds cannot be seen without a crash, but it must not
// change what the file holds or how a failure is reported.
TEST_CASE("atomic_file: writes a new file and replaces an old one", "[io][atomic]") {
  const survives what = GENERATE(survives::kill, survives::power_loss);
  io_test::temp_dir dir;
  const auto p = dir.path("out.txt");
  write_atomic(
      p, [](std::ostream& out) { out << "first\n"; }, what);
  CHECK(slurp(p) == "first\n");
  const std::string big(300000, 'x');  // larger than the write buffer
  write_atomic(
      p, [&](std::ostream& out) { out << big; }, what);
  CHECK(slurp(p) == big);
  CHECK(entries(dir.root()) == 1);
  // Created with 0666 minus the umask, like any other file, not mkstemp's 0600.
  const mode_t mask = umask(022);
  umask(mask);
  struct stat st {};
  REQUIRE(stat(p.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == (0666 & ~mask));
}

TEST_CASE("atomic_file: a throwing writer leaves the old file and no temporary", "[io][atomic]") {
  const survives what = GENERATE(survives::kill, survives::power_loss);
  io_test::temp_dir dir;
  const auto p = dir.write("out.txt", "old content\n");
  REQUIRE_THROWS_WITH(write_atomic(
                          p,
                          [](std::ostream& out) {
                            out << std::string(100000, 'y');
                            throw std::logic_error("writer failed");
                          },
                          what),
                      "writer failed");
  CHECK(slurp(p) == "old content\n");
  CHECK(entries(dir.root()) == 1);

  const auto fresh = dir.path("fresh.txt");
  REQUIRE_THROWS_AS(write_atomic(
                        fresh, [](std::ostream&) { throw std::runtime_error("no"); }, what),
                    std::runtime_error);
  CHECK_FALSE(std::filesystem::exists(fresh));
  CHECK(entries(dir.root()) == 1);
}

TEST_CASE("atomic_file: failures name the path and the system error", "[io][atomic]") {
  const survives what = GENERATE(survives::kill, survives::power_loss);
  io_test::temp_dir dir;
  const auto p = dir.path("no-such-dir/out.txt");
  REQUIRE_THROWS_WITH(
      write_atomic(
          p, [](std::ostream& out) { out << "x"; }, what),
      Catch::StartsWith(p + ": cannot create temporary file") && Catch::Contains("No such file"));
  // Renaming a file over a non-empty directory fails after the data was written.
  const auto target = dir.path("occupied");
  std::filesystem::create_directory(target);
  dir.write("occupied/keep", "k");
  REQUIRE_THROWS_WITH(write_atomic(
                          target, [](std::ostream& out) { out << "x"; }, what),
                      Catch::StartsWith(target + ": cannot rename"));
  CHECK(entries(dir.root()) == 1);
  CHECK(slurp(dir.path("occupied/keep")) == "k");
}

// kill -9 in the middle of a write leaves path.tmp.PID.N; the next write of path removes it,
// and only it: not a running process's temporary (this one's, which another thread may be
// writing) nor another file's.
TEST_CASE("atomic_file: a killed writer's temporary goes at the next write", "[io][atomic]") {
  io_test::temp_dir dir;
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) _exit(0);
  REQUIRE(waitpid(child, nullptr, 0) == child);  // reaped: no process has this pid now
  const std::string dead = std::to_string(child), alive = std::to_string(getpid());
  const auto p = dir.write("out.txt", "old\n");
  dir.write("out.txt.tmp." + dead + ".3", "half");
  dir.write("out.txt.tmp." + alive + ".0", "another thread's");
  dir.write("other.txt.tmp." + dead + ".0", "not out.txt's");
  dir.write("out.txt.tmp.x", "not a temporary's name");
  write_atomic(p, [](std::ostream& out) { out << "new\n"; });
  CHECK(slurp(p) == "new\n");
  CHECK_FALSE(std::filesystem::exists(dir.path("out.txt.tmp." + dead + ".3")));
  CHECK(std::filesystem::exists(dir.path("out.txt.tmp." + alive + ".0")));
  CHECK(std::filesystem::exists(dir.path("other.txt.tmp." + dead + ".0")));
  CHECK(std::filesystem::exists(dir.path("out.txt.tmp.x")));
  CHECK(entries(dir.root()) == 4);  // out.txt and the three kept
}
