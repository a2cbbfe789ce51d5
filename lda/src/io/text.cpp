// Plain-text reader: tokenizes, drops stop words and rare words, numbers words in order of
// first occurrence.
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "butterfly/io/corpus.hpp"
#include "line_reader.hpp"
#include "vocab.hpp"

namespace butterfly::io {

namespace {
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace

corpus read_text(const std::string& path, const text_options& options) {
  if (options.min_df < 1)
    throw std::invalid_argument("read_text: min_df must be >= 1, got " +
                                std::to_string(options.min_df));
  const auto stopwords = options.stopwords_path.empty()
                             ? std::unordered_set<std::string>{}
                             : detail::read_stopwords(options.stopwords_path);

  // First pass numbers every word; rare words are removed once document frequencies are known.
  corpus all;
  std::unordered_map<std::string, std::int32_t> ids;
  std::vector<std::int64_t> df, last_doc;
  detail::line_reader in(path);
  std::string word;
  while (in.next()) {
    const std::int64_t doc = all.num_docs();
    const std::string_view line = in.line();
    for (std::size_t i = 0; i < line.size();) {
      if (!is_letter(line[i])) {
        ++i;
        continue;
      }
      word.clear();
      for (; i < line.size() && is_letter(line[i]); ++i) word += lower(line[i]);
      if (stopwords.count(word)) continue;
      auto [it, added] = ids.try_emplace(word, static_cast<std::int32_t>(ids.size()));
      if (added) {
        if (ids.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
          in.fail("more distinct words than a 32-bit word id can number");
        all.vocab.push_back(word);
        df.push_back(0);
        last_doc.push_back(-1);
      }
      const std::int32_t id = it->second;
      if (last_doc[static_cast<std::size_t>(id)] != doc) {
        last_doc[static_cast<std::size_t>(id)] = doc;
        ++df[static_cast<std::size_t>(id)];
      }
      all.words.push_back(id);
    }
    all.doc_offsets.push_back(all.num_tokens());
  }
  if (options.min_df == 1) return all;

  corpus kept;
  std::vector<std::int32_t> new_id(all.vocab.size(), -1);
  for (std::size_t w = 0; w < all.vocab.size(); ++w) {
    if (df[w] < options.min_df) continue;
    new_id[w] = kept.vocab_size();
    kept.vocab.push_back(std::move(all.vocab[w]));
  }
  for (std::int64_t m = 0; m < all.num_docs(); ++m) {
    for (std::int64_t t = all.doc_offsets[static_cast<std::size_t>(m)];
         t < all.doc_offsets[static_cast<std::size_t>(m) + 1]; ++t) {
      const std::int32_t id =
          new_id[static_cast<std::size_t>(all.words[static_cast<std::size_t>(t)])];
      if (id >= 0) kept.words.push_back(id);
    }
    kept.doc_offsets.push_back(kept.num_tokens());
  }
  return kept;
}

}  // namespace butterfly::io
