// Word-per-line files: vocabularies and stop-word lists.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace butterfly::io::detail {

// A vocabulary file: one non-empty word per line (surrounding blanks dropped). With
// expected >= 0 the file must have exactly that many lines; `origin` says where that
// number comes from (e.g. "W = 5 on docword.txt:2") for the error message.
std::vector<std::string> read_vocab(const std::string& path, std::int64_t expected = -1,
                                    const std::string& origin = "");

// "w0", "w1", ... for corpora read without a vocabulary file.
std::vector<std::string> placeholder_vocab(std::int64_t size);

// A stop-word file: one word per line, '#' to the end of a line is a comment, blank lines
// are skipped; words are lowercased.
std::unordered_set<std::string> read_stopwords(const std::string& path);

}  // namespace butterfly::io::detail
