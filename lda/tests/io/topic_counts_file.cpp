#include "butterfly/io/topic_counts_file.hpp"

#include <fstream>
#include <sstream>

#include "support.hpp"

using butterfly::io::read_topic_counts;
using butterfly::io::topic_count;
using butterfly::io::write_topic_counts;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("topic counts: MALLET's line format, written and read back", "[io][topic_counts]") {
  io_test::temp_dir dir;
  const std::vector<std::string> names = {"cat", "new york", "dog"};
  const std::vector<std::vector<topic_count>> rows = {
      {{3, 7}, {0, 2}, {2, 2}}, {}, {{1, 12345678901}}};
  const auto p = dir.path("counts.txt");
  write_topic_counts(
      p, 3, [&](std::int64_t r) { return std::string_view(names[r]); },
      [&](std::int64_t r, std::vector<topic_count>& out) { out = rows[r]; });
  // The pairs as given (the caller's order), a blank in a name written as '_'.
  CHECK(slurp(p) == "0 cat 3:7 0:2 2:2\n1 new_york\n2 dog 1:12345678901\n");
  const auto back = read_topic_counts(p, 4);
  REQUIRE(back.rows() == 3);
  CHECK(back.names == std::vector<std::string>{"cat", "new_york", "dog"});
  CHECK(back.offsets == std::vector<std::int64_t>{0, 3, 3, 4});
  CHECK(back.entries[0].topic == 3);
  CHECK(back.entries[0].count == 7);
  CHECK(back.entries[3].count == 12345678901);
  // gzip read like every input; an empty file has no rows.
  CHECK(read_topic_counts(dir.write_gz("c.txt.gz", "0 w 1:1\n"), 2).rows() == 1);
  CHECK(read_topic_counts(dir.write("empty.txt", ""), 2).rows() == 0);
}

TEST_CASE("topic counts error: malformed lines name the file and line",
          "[io][topic_counts][error]") {
  io_test::temp_dir dir;
  const auto p = dir.path("c.txt");
  REQUIRE_INPUT_ERROR(read_topic_counts(dir.write("c.txt", "0 a 1:2\n2 b\n"), 3),
                      p + ":2:", "expected the row index 1, found '2'");
  REQUIRE_INPUT_ERROR(read_topic_counts(dir.write("c.txt", "0\n"), 3),
                      p + ":1:", "expected a name after the row index");
  REQUIRE_INPUT_ERROR(read_topic_counts(dir.write("c.txt", "0 a 3:1\n"), 3),
                      p + ":1:", "topic 3 is out of range [0, K = 3)");
  REQUIRE_INPUT_ERROR(read_topic_counts(dir.write("c.txt", "0 a 1:0\n"), 3),
                      p + ":1:", "count must be >= 1, found 0 for topic 1");
  REQUIRE_INPUT_ERROR(read_topic_counts(dir.write("c.txt", "0 a 1:2 1:3\n"), 3),
                      p + ":1:", "topic 1 appears twice in this row");
  REQUIRE_INPUT_ERROR(read_topic_counts(dir.write("c.txt", "0 a 1-2\n"), 3), p + ":1:",
                      "expected 'topic:count' with integer topic and count, found '1-2'");
  REQUIRE_INPUT_ERROR(read_topic_counts(dir.write("c.txt", "0 a 1:2"), 3),
                      p + ":1:", "does not end with a newline");
}
