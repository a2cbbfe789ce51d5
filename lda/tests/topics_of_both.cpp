// The walk the collapsed sweep's X and the log-likelihood's sparse dot share
// (lda/collapsed.hpp, fold_topics_of_both) against the intersection of two topic lists: the
// topics both a document and a word have, but the one left out, in topic order, each with its
// place among the word's entries (the word's first place + the topic's rank among its topics).
// Words stored dense and compact (K > 4096: two mask words), and every set dense (K <= 4096).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "butterfly/lda/collapsed.hpp"

using namespace butterfly;
using lda::steps::set_words;

namespace {

// The words' sets as word_buckets writes them (word_sets' writers), from each word's topics and
// its number of tokens (its room: lda::steps::set_room).
struct sets_of_words {
  int K;
  std::vector<std::int64_t> places;
  std::vector<std::uint64_t> heads, words;
  std::vector<std::uint16_t> ranks;
  lda::steps::word_sets view() {
    return {K, places.data(), heads.data(), words.data(), ranks.data()};
  }
  sets_of_words(int K_, const std::vector<std::set<int>>& topics,
                const std::vector<std::int64_t>& tokens)
      : K(K_), places(topics.size() + 1, 0) {
    for (std::size_t w = 0; w < topics.size(); ++w)
      places[w + 1] = places[w] + lda::steps::set_room(K, tokens[w]);
    heads.assign(topics.size() * static_cast<std::size_t>(lda::steps::word_sets::head_words(K)), 0);
    words.assign(static_cast<std::size_t>(places.back()), 0);
    ranks.assign(words.size(), 0);
    const lda::steps::word_sets s = view();
    for (std::size_t w = 0; w < topics.size(); ++w) {
      const auto word = static_cast<std::int64_t>(w);
      for (const int k : topics[w]) {
        if (!s.writing(word).nonempty(k / 64)) s.insert(word, k / 64);
        s.stored_word(word, k / 64) |= std::uint64_t{1} << (k % 64);
      }
      s.write_ranks(word);
    }
  }
};

// A document's slot: its topic set, then its nonempty set words (collapsed.hpp, slot_words).
std::vector<std::uint64_t> slot_of(int K, const std::set<int>& topics) {
  std::vector<std::uint64_t> slot(static_cast<std::size_t>(lda::steps::slot_words(K)), 0);
  std::uint64_t* const used = slot.data() + set_words(K);
  for (const int k : topics) {
    slot[static_cast<std::size_t>(k / 64)] |= std::uint64_t{1} << (k % 64);
    used[k / 4096] |= std::uint64_t{1} << (k / 64 % 64);
  }
  return slot;
}

std::set<int> some_topics(std::mt19937& gen, int K, int count) {
  std::set<int> topics;
  while (static_cast<int>(topics.size()) < count)
    topics.insert(static_cast<int>(gen() % static_cast<unsigned>(K)));
  return topics;
}

void require_walk(int K, std::uint32_t seed) {
  std::mt19937 gen(seed);
  // Word 0 compact where K > 4096 (fewer tokens than set words), word 1 dense (more tokens
  // than set words), word 2 one topic, word 3 none. The document has all of word 0's topics,
  // word 2's, and an eighth of K at random.
  std::vector<std::set<int>> word_topics = {
      some_topics(gen, K, 6), some_topics(gen, K, K / 3), {K - 1}, {}};
  const std::vector<std::int64_t> tokens = {6, 10 * set_words(K), 1, 0};
  std::set<int> doc = some_topics(gen, K, K / 8);
  for (const int k : word_topics[0]) doc.insert(k);  // every topic of word 0 shared
  doc.insert(K - 1);
  sets_of_words sets(K, word_topics, tokens);
  const lda::steps::word_sets ws = sets.view();
  const std::vector<std::uint64_t> slot = slot_of(K, doc);
  const std::uint64_t* const used = slot.data() + set_words(K);
  for (std::size_t w = 0; w < word_topics.size(); ++w) {
    const std::vector<int> listed(word_topics[w].begin(), word_topics[w].end());
    // Left out: none, a topic of both (word 0's all are the document's too, word 2's one is),
    // and a topic of the document alone.
    std::vector<int> excepts = {-1};
    if (!listed.empty()) excepts.push_back(listed[listed.size() / 2]);
    const auto alone =
        std::find_if(doc.begin(), doc.end(), [&](int k) { return word_topics[w].count(k) == 0; });
    if (alone != doc.end()) excepts.push_back(*alone);
    for (const int except : excepts) {
      std::vector<std::pair<int, std::int64_t>> expected;
      const std::int64_t at = 1000 * static_cast<std::int64_t>(w);  // the word's first entry
      for (std::size_t r = 0; r < listed.size(); ++r)
        if (doc.count(listed[r]) != 0 && listed[r] != except)
          expected.emplace_back(listed[r], at + static_cast<std::int64_t>(r));
      std::vector<std::pair<int, std::int64_t>> walked;
      const std::size_t count = lda::steps::fold_topics_of_both(
          ws, ws.of(static_cast<std::int64_t>(w)), slot.data(), used, at, except, std::size_t{0},
          [&](std::size_t c, int k, std::int64_t p) {
            walked.emplace_back(k, p);
            return c + 1;
          });
      INFO("K " << K << ", word " << w << " (" << listed.size() << " topics, dense "
                << ws.of(static_cast<std::int64_t>(w)).dense << "), except " << except);
      CHECK(walked == expected);
      CHECK(count == expected.size());
    }
  }
}

}  // namespace

TEST_CASE(
    "lda topics of both: the walk visits the intersection but the topic left out, in "
    "topic order, each at its rank among the word's entries",
    "[lda][collapsed]") {
  for (const int K : {70, 1000, 4096, 4200, 10000})
    for (std::uint32_t seed = 1; seed <= 3; ++seed) require_walk(K, seed);
}
