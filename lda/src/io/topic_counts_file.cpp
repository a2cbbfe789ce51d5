#include "butterfly/io/topic_counts_file.hpp"

#include <algorithm>
#include <charconv>
#include <ostream>

#include "butterfly/io/atomic_file.hpp"
#include "fields.hpp"
#include "line_reader.hpp"

namespace butterfly::io {
namespace {

// Formats numbers into a buffer written out a block at a time: to_chars, not the stream's
// locale-aware operator<<, which took most of the time on 10 M pairs.
class text_block {
 public:
  explicit text_block(std::ostream& out) : out_(out) { buf_.reserve(block + 64); }
  void put(char c) { buf_.push_back(c); }  // flushed by the next number or string
  void put(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= block) flush();
  }
  void put(std::int64_t x) {
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, x);
    buf_.append(digits, static_cast<std::size_t>(r.ptr - digits));
    if (buf_.size() >= block) flush();
  }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  static constexpr std::size_t block = std::size_t{1} << 20;
  std::ostream& out_;
  std::string buf_;
};

}  // namespace

void write_topic_counts(const std::string& path, std::int64_t rows,
                        const std::function<std::string_view(std::int64_t)>& name,
                        const std::function<void(std::int64_t, std::vector<topic_count>&)>& row) {
  write_atomic(path, [&](std::ostream& out) {
    text_block text(out);
    std::vector<topic_count> pairs;
    for (std::int64_t r = 0; r < rows; ++r) {
      pairs.clear();
      row(r, pairs);
      text.put(r);
      text.put(' ');
      // A blank would split the name into two fields: MALLET's readers split on them.
      for (const char c : name(r)) text.put(c == ' ' || c == '\t' ? '_' : c);
      for (const topic_count& e : pairs) {
        text.put(' ');
        text.put(std::int64_t{e.topic});
        text.put(':');
        text.put(e.count);
      }
      text.put('\n');
    }
    text.flush();
  });
}

topic_count_rows read_topic_counts(const std::string& path, int num_topics) {
  topic_count_rows rows;
  detail::line_reader in(path);
  std::vector<std::int32_t> seen;
  while (in.next()) {
    if (!in.terminated()) in.fail("line does not end with a newline (file truncated?)");
    std::string_view rest = in.line(), field;
    const std::int64_t expected = rows.rows();
    if (!detail::next_field(rest, field))
      in.fail("expected the row index " + std::to_string(expected) + ", found an empty line");
    const auto index = detail::parse_int(field);
    if (!index || *index != expected)
      in.fail("expected the row index " + std::to_string(expected) + ", found " +
              detail::quote(field));
    if (!detail::next_field(rest, field)) in.fail("expected a name after the row index");
    rows.names.emplace_back(field);
    seen.clear();
    while (detail::next_field(rest, field)) {
      const auto pair = detail::parse_pair(field);
      if (!pair)
        in.fail("expected 'topic:count' with integer topic and count, found " +
                detail::quote(field));
      const auto [topic, count] = *pair;
      if (topic < 0 || topic >= num_topics)
        in.fail("topic " + std::to_string(topic) +
                " is out of range [0, K = " + std::to_string(num_topics) + ")");
      if (count < 1)
        in.fail("count must be >= 1, found " + std::to_string(count) + " for topic " +
                std::to_string(topic));
      seen.push_back(static_cast<std::int32_t>(topic));
      rows.entries.push_back({static_cast<std::int32_t>(topic), count});
    }
    std::sort(seen.begin(), seen.end());
    const auto twice = std::adjacent_find(seen.begin(), seen.end());
    if (twice != seen.end())
      in.fail("topic " + std::to_string(*twice) + " appears twice in this row");
    rows.offsets.push_back(static_cast<std::int64_t>(rows.entries.size()));
  }
  return rows;
}

}  // namespace butterfly::io
