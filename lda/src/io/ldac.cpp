// LDA-C reader (Blei's lda-c "N id:count ..." lines).
#include <algorithm>
#include <string>

#include "butterfly/io/corpus.hpp"
#include "fields.hpp"
#include "line_reader.hpp"
#include "vocab.hpp"

namespace butterfly::io {

corpus read_ldac(const std::string& path, const std::string& vocab_path) {
  return read_ldac(path, vocab_path, read_limits{});
}

corpus read_ldac(const std::string& path, const std::string& vocab_path,
                 const read_limits& limits) {
  corpus c;
  const bool has_vocab = !vocab_path.empty();
  if (has_vocab) c.vocab = detail::read_vocab(vocab_path);
  // Ids must leave room for V = max id + 1 in an int32.
  const std::int64_t id_limit =
      has_vocab ? c.vocab_size() : std::numeric_limits<std::int32_t>::max();
  const std::string id_range =
      has_vocab ? "[0, V = " + std::to_string(id_limit) + ") (V = lines of " + vocab_path + ")"
                : "[0, " + std::to_string(id_limit) + ")";

  detail::line_reader in(path);
  std::vector<std::int64_t> line_ids;
  std::int64_t entries = 0, max_id = -1, max_id_line = 0;
  while (in.next()) {
    if (!in.terminated()) in.fail("line does not end with a newline (file truncated?)");
    std::string_view rest = in.line(), field;
    if (!detail::next_field(rest, field))
      in.fail("expected the number of pairs N, found an empty line");
    const auto n = detail::parse_int(field);
    if (!n || *n < 0)
      in.fail("expected the number of pairs N (a non-negative integer), found " +
              detail::quote(field));
    line_ids.clear();
    while (detail::next_field(rest, field)) {
      const auto pair = detail::parse_pair(field);
      if (!pair)
        in.fail("expected 'id:count' with integer id and count, found " + detail::quote(field));
      const auto [id, count] = *pair;
      if (id < 0 || id >= id_limit)
        in.fail("word id " + std::to_string(id) + " is out of range " + id_range);
      if (count < 1)
        in.fail("count must be >= 1, found " + std::to_string(count) + " for word id " +
                std::to_string(id));
      if (count > limits.max_tokens - c.num_tokens())
        in.fail("more than " + std::to_string(limits.max_tokens) + " tokens in the corpus");
      c.words.insert(c.words.end(), static_cast<std::size_t>(count), static_cast<std::int32_t>(id));
      line_ids.push_back(id);
      if (id > max_id) {
        max_id = id;
        max_id_line = in.number();
      }
    }
    if (static_cast<std::int64_t>(line_ids.size()) != *n)
      in.fail("N = " + std::to_string(*n) + " but the line has " + std::to_string(line_ids.size()) +
              " id:count pairs");
    std::sort(line_ids.begin(), line_ids.end());
    const auto twice = std::adjacent_find(line_ids.begin(), line_ids.end());
    if (twice != line_ids.end())
      in.fail("word id " + std::to_string(*twice) + " appears twice in this document");
    entries += *n;
    c.doc_offsets.push_back(c.num_tokens());
  }
  if (!has_vocab) {
    if (max_id + 1 > entries + limits.max_unused)
      detail::fail_at(
          path, max_id_line,
          "word id " + std::to_string(max_id) + " but only " + std::to_string(entries) +
              " entries in the file: without a vocabulary file this id is surely corrupt");
    c.vocab = detail::placeholder_vocab(max_id + 1);
  }
  return c;
}

}  // namespace butterfly::io
