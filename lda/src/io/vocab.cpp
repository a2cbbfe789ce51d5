#include "vocab.hpp"

#include <unordered_map>

#include "fields.hpp"
#include "line_reader.hpp"

namespace butterfly::io::detail {

std::vector<std::string> read_vocab(const std::string& path, std::int64_t expected,
                                    const std::string& origin) {
  line_reader in(path);
  std::vector<std::string> vocab;
  // A word on two lines would get two ids: counts split between them, and a word looked up
  // by spelling (infer) would find only one of them.
  std::unordered_map<std::string, std::int64_t> line_of;
  while (in.next()) {
    if (expected >= 0 && in.number() > expected)
      in.fail("expected " + std::to_string(expected) + " lines (" + origin + "), found more");
    const std::string_view word = trim(in.line());
    if (word.empty()) in.fail("expected a word, found an empty line");
    const auto [first, inserted] = line_of.emplace(word, in.number());
    if (!inserted)
      in.fail("word " + quote(word) + " already on " + path + ":" + std::to_string(first->second));
    vocab.emplace_back(word);
  }
  if (expected >= 0 && in.number() < expected)
    fail_at(path, in.number() + 1,
            "expected " + std::to_string(expected) + " lines (" + origin + "), found end of file");
  return vocab;
}

std::vector<std::string> placeholder_vocab(std::int64_t size) {
  std::vector<std::string> vocab;
  vocab.reserve(static_cast<std::size_t>(size));
  for (std::int64_t i = 0; i < size; ++i) vocab.push_back("w" + std::to_string(i));
  return vocab;
}

std::unordered_set<std::string> read_stopwords(const std::string& path) {
  line_reader in(path);
  std::unordered_set<std::string> words;
  while (in.next()) {
    std::string_view line = in.line();
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    std::string word(line);
    for (char& c : word)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    words.insert(std::move(word));
  }
  return words;
}

}  // namespace butterfly::io::detail
