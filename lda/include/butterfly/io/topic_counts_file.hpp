// Sparse topic counts in MALLET's word-topic counts format (`--word-topic-counts-file`), which
// the shared held-out evaluator converts (`heldout.py convert mallet`): one line per row,
//   "index name topic:count topic:count ..."
// index the row's 0-based number, name a word (or a document's name), the pairs of the row's
// nonzero counts, count down then topic up; a row without counts is "index name". What
// butterfly-lda train writes for a model made from z (word-topic-counts.txt,
// doc-topic-counts.txt) and butterfly-lda infer and topics read back.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace butterfly::io {

struct topic_count {
  std::int32_t topic;
  std::int64_t count;
};

// Rows of topic counts: row r's pairs are entries[offsets[r], offsets[r + 1]).
struct topic_count_rows {
  std::vector<std::string> names;
  std::vector<std::int64_t> offsets{0};
  std::vector<topic_count> entries;
  std::int64_t rows() const { return static_cast<std::int64_t>(names.size()); }
};

// Writes `rows` lines, row r named name(r) (its blanks written as '_') with the pairs row(r, out)
// leaves in `out` (in the order above), with io::write_atomic.
void write_topic_counts(const std::string& path, std::int64_t rows,
                        const std::function<std::string_view(std::int64_t)>& name,
                        const std::function<void(std::int64_t, std::vector<topic_count>&)>& row);

// The file read back (rows by index: the names are for people and other tools); topics must lie in
// [0, num_topics). io::input_error "PATH:LINE: ..." on a malformed line (an index out of order, a
// topic out of range or twice, a count below 1).
topic_count_rows read_topic_counts(const std::string& path, int num_topics);

}  // namespace butterfly::io
