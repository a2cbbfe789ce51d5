// UCI bag-of-words reader. The format promises sorted, duplicate-free entries and exact
// header counts; every promise is checked, since a violated one means a damaged file.
#include <string>

#include "butterfly/io/corpus.hpp"
#include "fields.hpp"
#include "line_reader.hpp"
#include "vocab.hpp"

namespace butterfly::io {

namespace {

using detail::line_reader;

std::int64_t read_header_count(line_reader& in, const char* name) {
  const std::string expected = std::string("expected ") + name + " (a non-negative integer)";
  if (!in.next()) detail::fail_at(in.path(), in.number() + 1, expected + ", found end of file");
  std::string_view rest = in.line(), field, extra;
  if (!detail::next_field(rest, field)) in.fail(expected + ", found an empty line");
  const auto value = detail::parse_int(field);
  if (!value || *value < 0) in.fail(expected + ", found " + detail::quote(field));
  if (detail::next_field(rest, extra))
    in.fail(expected + " alone on the line, found also " + detail::quote(extra));
  return *value;
}

std::int64_t read_id(line_reader& in, std::string_view field, const char* name, std::int64_t max,
                     const char* max_name) {
  const auto value = detail::parse_int(field);
  if (!value)
    in.fail(std::string("expected an integer ") + name + ", found " + detail::quote(field));
  if (*value < 1 || *value > max)
    in.fail(std::string(name) + " " + std::to_string(*value) + " is out of range [1, " + max_name +
            " = " + std::to_string(max) + "]");
  return *value;
}

// A line "docID wordID count" field by field, every violation named; values into `entry`.
void read_entry(line_reader& in, std::int64_t D, std::int64_t W, std::int64_t (&entry)[3]) {
  std::string_view rest = in.line(), fields[3], extra;
  int found = 0;
  while (found < 3 && detail::next_field(rest, fields[found])) ++found;
  if (found < 3) in.fail("expected 3 fields 'docID wordID count', found " + std::to_string(found));
  if (detail::next_field(rest, extra))
    in.fail("expected 3 fields 'docID wordID count', found an extra field " + detail::quote(extra));
  entry[0] = read_id(in, fields[0], "docID", D, "D");
  entry[1] = read_id(in, fields[1], "wordID", W, "W");
  const auto count = detail::parse_int(fields[2]);
  if (!count) in.fail("expected an integer count, found " + detail::quote(fields[2]));
  if (*count < 1) in.fail("count must be >= 1, found " + std::to_string(*count));
  entry[2] = *count;
}

// The common line: three runs of at most 18 digits, one space or tab between them. False for
// anything else, which read_entry then parses (or refuses) field by field. Splitting the
// fields and from_chars took most of the parse's time (perf, 2 M lines of 20news).
bool read_plain_entry(std::string_view line, std::int64_t (&entry)[3]) {
  const char *p = line.data(), *end = p + line.size();
  for (int i = 0; i < 3; ++i) {
    if (i > 0) {
      if (p == end || (*p != ' ' && *p != '\t')) return false;
      ++p;
    }
    const char* digits = p;
    std::int64_t x = 0;
    for (; p != end && p - digits < 18 && *p >= '0' && *p <= '9'; ++p) x = 10 * x + (*p - '0');
    if (p == digits) return false;
    entry[i] = x;
  }
  return p == end;
}

}  // namespace

corpus read_uci(const std::string& docword_path, const std::string& vocab_path) {
  return read_uci(docword_path, vocab_path, read_limits{});
}

corpus read_uci(const std::string& docword_path, const std::string& vocab_path,
                const read_limits& limits) {
  line_reader in(docword_path);
  const std::int64_t D = read_header_count(in, "the number of documents D");
  const std::int64_t W = read_header_count(in, "the vocabulary size W");
  const std::int64_t NNZ = read_header_count(in, "the number of entries NNZ");
  if (W > std::numeric_limits<std::int32_t>::max())
    detail::fail_at(docword_path, 2, "W = " + std::to_string(W) + " does not fit a 32-bit word id");
  const std::string nnz_origin = "NNZ = " + std::to_string(NNZ) + " on line 3";

  corpus c;
  std::int64_t entries = 0, prev_doc = 0, prev_word = 0, empty_docs = 0;
  const auto check_empty_docs = [&](std::int64_t more) {
    empty_docs += more;
    if (empty_docs > limits.max_unused)
      in.fail("more than " + std::to_string(limits.max_unused) +
              " documents without entries (D = " + std::to_string(D) +
              " on line 1): the header is probably corrupt");
  };
  while (in.next()) {
    if (!in.terminated()) in.fail("line does not end with a newline (file truncated?)");
    if (entries == NNZ)
      in.fail("expected end of file after " + nnz_origin + " entries, found more lines");
    std::int64_t entry[3];
    if (!read_plain_entry(in.line(), entry) || entry[0] < 1 || entry[0] > D || entry[1] < 1 ||
        entry[1] > W || entry[2] < 1)
      read_entry(in, D, W, entry);
    const std::int64_t doc = entry[0], word = entry[1], count = entry[2];
    if (doc == prev_doc && word == prev_word)
      in.fail("duplicate entry for (docID " + std::to_string(doc) + ", wordID " +
              std::to_string(word) + ")");
    if (doc < prev_doc || (doc == prev_doc && word < prev_word))
      in.fail("entry (" + std::to_string(doc) + ", " + std::to_string(word) + ") comes after (" +
              std::to_string(prev_doc) + ", " + std::to_string(prev_word) +
              "): UCI files are sorted by (docID, wordID)");
    if (doc > prev_doc) {
      // Documents prev_doc + 1 .. doc - 1 have no entries: they start (and end) here.
      check_empty_docs(doc - prev_doc - 1);
      while (c.num_docs() + 1 < doc) c.doc_offsets.push_back(c.num_tokens());
    }
    if (count > limits.max_tokens - c.num_tokens())
      in.fail("more than " + std::to_string(limits.max_tokens) + " tokens in the corpus");
    c.words.insert(c.words.end(), static_cast<std::size_t>(count),
                   static_cast<std::int32_t>(word - 1));
    prev_doc = doc;
    prev_word = word;
    ++entries;
  }
  if (entries < NNZ)
    detail::fail_at(docword_path, in.number() + 1,
                    "expected " + std::to_string(NNZ - entries) + " more entries (" + nnz_origin +
                        "), found end of file");
  check_empty_docs(D - prev_doc);
  while (c.num_docs() < D) c.doc_offsets.push_back(c.num_tokens());

  if (vocab_path.empty()) {
    if (W > entries + limits.max_unused)
      detail::fail_at(docword_path, 2,
                      "W = " + std::to_string(W) + " is far more than the " +
                          std::to_string(entries) + " entries: the header is probably corrupt");
    c.vocab = detail::placeholder_vocab(W);
  } else {
    c.vocab = detail::read_vocab(vocab_path, W,
                                 "W = " + std::to_string(W) + " on " + docword_path + ":2");
  }
  return c;
}

}  // namespace butterfly::io
