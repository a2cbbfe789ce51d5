// Corpus readers for the LDA trainer: UCI bag-of-words, LDA-C and plain text.
//
// Every malformed input throws input_error with what() = "PATH:LINE: <expected, found>"
// ("PATH: ..." when the problem is not on one line, e.g. the file cannot be opened).
// Files are read through zlib's gzFile API, so any of them may be gzip-compressed
// (detected by the magic bytes, not by the name); a gzip stream that ends early is an error.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "butterfly/io/error.hpp"

namespace butterfly::io {

struct corpus {
  // M + 1 entries, doc_offsets[0] = 0: document m owns tokens [doc_offsets[m], doc_offsets[m+1]).
  std::vector<std::int64_t> doc_offsets{0};
  // N token word ids in [0, V), grouped by document; a (doc, word, count) entry is
  // expanded count times, in file order.
  std::vector<std::int32_t> words;
  // V entries; "w<id>" placeholders when no vocabulary file was given.
  std::vector<std::string> vocab;

  std::int64_t num_docs() const { return static_cast<std::int64_t>(doc_offsets.size()) - 1; }
  std::int64_t num_tokens() const { return static_cast<std::int64_t>(words.size()); }
  std::int32_t vocab_size() const { return static_cast<std::int32_t>(vocab.size()); }
};

// Headers are claims, not facts: these bound what a claim can make the reader allocate
// before the body proves it (a corrupt "D = 10^18" must fail, not exhaust memory).
struct read_limits {
  // Total tokens (sum of counts); the default keeps token indices within int32.
  std::int64_t max_tokens = std::numeric_limits<std::int32_t>::max();
  // How many documents without entries (UCI: D beyond the documents that have entries),
  // and, without a vocabulary file, how many vocabulary ids beyond the number of entries
  // (UCI: W; LDA-C: max id + 1), a file may declare.
  std::int64_t max_unused = std::int64_t{1} << 20;
};

// UCI bag-of-words: docword = three header lines D, W, NNZ, then NNZ lines
// "docID wordID count" (1-based ids, sorted by (docID, wordID), no duplicates, count >= 1);
// documents without entries are empty documents. vocab = W non-empty lines, word i on
// line i. vocab_path "" = no vocabulary file.
corpus read_uci(const std::string& docword_path, const std::string& vocab_path);
corpus read_uci(const std::string& docword_path, const std::string& vocab_path,
                const read_limits& limits);

// LDA-C: one document per line, "N id:count id:count ..." with 0-based ids, N the number
// of pairs, no id twice on a line, count >= 1. V = vocabulary lines, or max id + 1 without
// a vocabulary file.
corpus read_ldac(const std::string& path, const std::string& vocab_path);
corpus read_ldac(const std::string& path, const std::string& vocab_path, const read_limits& limits);

// Plain text, one document per line. Tokens are maximal runs of ASCII letters, lowercased;
// stop words (one per line, '#' starts a comment) are dropped, then words found in fewer
// than min_df documents. The vocabulary is in order of first occurrence, so the result
// does not depend on hashing.
struct text_options {
  std::string stopwords_path;
  int min_df = 1;  // >= 1, else std::invalid_argument
};
corpus read_text(const std::string& path, const text_options& options = {});

// The format a corpus file's name suggests: *docword* = "uci", *.dat / *.ldac (plain or .gz)
// = "ldac", anything else "text". What butterfly-lda and the Python module guess.
std::string format_from_name(const std::string& path);

// Reads `path` in `format` ("uci", "ldac" or "text"; std::invalid_argument naming it
// otherwise). vocab_path ("" = none) applies to uci and ldac, `text` to text.
corpus read_corpus(const std::string& path, const std::string& format,
                   const std::string& vocab_path, const text_options& text = {});

// 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3) of the byte
// sequence: M, then each doc_offsets entry, N, each word, V, then each vocab entry as its
// length followed by its bytes; integers as 8-byte (words: 4-byte) little-endian. Stable
// across runs, compilers and machines.
std::uint64_t checksum(const corpus& c);

}  // namespace butterfly::io
