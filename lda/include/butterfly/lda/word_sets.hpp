// The words' topic sets of collapsed's tables (collapsed.hpp's word_buckets), stored compactly.
// A word's set has K bits, set_words(K) 64-bit words of them, but a word of n_w tokens has at
// most n_w topics, so at most min(n_w, set_words(K)) of those words are nonempty. Above 64 set
// words (K > 4096) a word with fewer tokens than set words stores only its nonempty words, in
// order, with a mask of which they are, and a word with at least as many all its set's words
// (its room is the whole set either way), so the words that carry most tokens find a set word
// with no count of the mask. On 20news at K = 10,000 the dense sets were 8.8 M words (70 MB, more
// than the words' entries); stored this way they take at most 1.2 M. Up to 64 set words every
// word keeps its whole set at w set_words(K), a place the sweep computes without a read, so it
// fetches a token's set word two tokens ahead: the stored form's read of the word's place first
// cost 1.1-1.2x the seconds per iteration at K = 1000 (bench/RESULTS.md), where the dense sets
// are small (10 K / 64 bytes a word). The sweep's X reads a word's set words only where both its
// document and the word have topics (the mask marks the word's nonempty words).
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/detail/subgroup.hpp"

namespace butterfly::lda::steps {

// 64-bit words per topic set of K topics (bit k of word k / 64), and per mask of a set's
// nonempty words (bit j of mask word j / 64: a topic in 64 j .. 64 j + 63).
BUTTERFLY_FN int set_words(int K) { return (K + 63) / 64; }
BUTTERFLY_FN int mask_words(int K) { return set_words(set_words(K)); }
BUTTERFLY_FN std::uint64_t below(int i) { return (std::uint64_t{1} << i) - 1; }  // bits 0 .. i - 1
// The number of topics in a word of a set. __CUDA_ARCH__ names nvcc's device pass, which has
// __popcll instead of the GCC/Clang builtin.
BUTTERFLY_FN int set_bits(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return __builtin_popcountll(x);
#endif
}

// One word's set as word_sets stores it: its mask words (bit j of mask word j / 64: the set's
// word j is nonempty) and its stored words in order of j, all of them (dense) or the nonempty
// ones, each with its rank (the set's topics in the stored words before it). A topic's entry
// (word_buckets' entries, in topic order) is the word's first entry + rank(k).
struct stored_set {
  const std::uint64_t* mask;
  const std::uint64_t* words;
  const std::uint16_t* ranks;
  bool dense;
  BUTTERFLY_FN bool nonempty(int j) const { return (mask[j / 64] >> (j % 64) & 1) != 0; }
  // The place of the set's word j among the stored words. Not dense: where it is if nonempty,
  // where it would go if not; past the first mask word (K > 4096) the earlier ones' counts.
  BUTTERFLY_FN int place(int j) const {
    if (dense) return j;
    int p = set_bits(mask[j / 64] & below(j % 64));
    for (int q = 0; q < j / 64; ++q) p += set_bits(mask[q]);
    return p;
  }
  // For the readers, mask word q of the words to look at: all of a dense set's (it stores
  // every word, an empty one as zero, so a reader need not read its mask), else the mask's.
  // The writers keep the mask itself (nonempty), which must stay the nonempty words.
  BUTTERFLY_FN std::uint64_t stored_mask(int q) const {
    return dense ? ~std::uint64_t{0} : mask[q];
  }
  BUTTERFLY_FN bool contains(int k) const {
    return (stored_mask(k / 4096) >> (k / 64 % 64) & 1) != 0 &&
           (words[place(k / 64)] >> (k % 64) & 1) != 0;
  }
  // Topic k's place among the set's topics (k in it).
  BUTTERFLY_FN std::int64_t rank(int k) const {
    const int p = place(k / 64);
    return ranks[p] + set_bits(words[p] & below(k % 64));
  }
};

// The largest sets whose every word keeps its whole set (see the top), and word w's room for
// stored set words, of its n_w tokens in the corpus.
constexpr int dense_set_words = 64;
BUTTERFLY_FN std::int64_t set_room(int K, std::int64_t n_w) {
  return set_words(K) <= dense_set_words || n_w > set_words(K) ? set_words(K) : n_w;
}

// The words' sets. Word w's head, head_words() 64-bit words from heads + w * head_words(), is
// one read for what a token of the word needs first: the place of its stored words (bits 0-39:
// there are fewer stored words than tokens), its set's size (bits 40-62: at most K <= 65,536
// topics), whether it is dense (bit 63), then its mask words. Its stored words go from
// places[w], room for set_room(K, n_w) of them (a word of n_w tokens has at most
// min(n_w, set_words(K)) nonempty words): dense where the room is the whole set. The head
// repeats places[w] for the sweep's reads.
struct word_sets {
  int K;
  const std::int64_t* places;  // V + 1 (the writers' room)
  std::uint64_t* heads;        // V x head_words()
  std::uint64_t* words;        // the stored words
  std::uint16_t* ranks;        // their ranks

  static constexpr int place_bits = 40, dense_bit = 63;
  static BUTTERFLY_FN int head_words(int K) { return 1 + steps::mask_words(K); }
  BUTTERFLY_FN int mask_words() const { return steps::mask_words(K); }
  BUTTERFLY_FN int head_words() const { return head_words(K); }
  BUTTERFLY_FN const std::uint64_t* head(std::int64_t w) const { return heads + w * head_words(); }
  BUTTERFLY_FN std::uint64_t* mask(std::int64_t w) const { return heads + w * head_words() + 1; }
  // Every word's whole set at w set_words(K).
  BUTTERFLY_FN bool all_dense() const { return set_words(K) <= dense_set_words; }
  // The set's topics: where every set is dense from its last word and rank, the lines its
  // sweep reads anyway, else from the head.
  BUTTERFLY_FN std::int64_t size(std::int64_t w) const {
    if (all_dense()) {
      const std::int64_t last = (w + 1) * set_words(K) - 1;
      return ranks[last] + set_bits(words[last]);
    }
    return static_cast<std::int64_t>(head(w)[0] >> place_bits & below(dense_bit - place_bits));
  }
  BUTTERFLY_FN stored_set of(std::int64_t w) const {
    if (all_dense()) {
      const std::int64_t first = w * set_words(K);
      return {mask(w), words + first, ranks + first, true};
    }
    const std::uint64_t h = head(w)[0];
    const auto first = static_cast<std::int64_t>(h & below(place_bits));
    return {mask(w), words + first, ranks + first, (h >> dense_bit) != 0};
  }
  // For the readers (of, size and what uses them): the sets of words [first, ...) as those of
  // words 0, 1, ...
  BUTTERFLY_FN word_sets from(std::int64_t first) const {
    word_sets s = *this;
    s.places += first;
    s.heads += first * head_words();
    if (all_dense()) {
      s.words += first * set_words(K);
      s.ranks += first * set_words(K);
    }
    return s;
  }
  BUTTERFLY_FN bool contains(std::int64_t w, int k) const { return of(w).contains(k); }
  BUTTERFLY_FN std::int64_t rank(std::int64_t w, int k) const { return of(w).rank(k); }

  // The writers (word_buckets, word_bucket_moves) read the room from places: the word's set
  // as it is being written, and its stored words.
  BUTTERFLY_FN bool dense(std::int64_t w) const {
    return places[w + 1] - places[w] == set_words(K);
  }
  BUTTERFLY_FN stored_set writing(std::int64_t w) const {
    return {mask(w), words + places[w], ranks + places[w], dense(w)};
  }
  BUTTERFLY_FN std::uint64_t& stored_word(std::int64_t w, int j) const {
    return words[places[w] + writing(w).place(j)];
  }
  BUTTERFLY_FN std::int64_t stored_words(std::int64_t w) const {
    if (dense(w)) return set_words(K);
    std::int64_t n = 0;
    for (int q = 0; q < mask_words(); ++q) n += set_bits(mask(w)[q]);
    return n;
  }
  // The stored words' ranks from the stored words, and the head's place, size and form.
  BUTTERFLY_FN void write_ranks(std::int64_t w) const {
    const std::int64_t first = places[w], end = first + stored_words(w);
    std::uint64_t r = 0;
    for (std::int64_t p = first; p < end; r += set_bits(words[p++]))
      ranks[p] = static_cast<std::uint16_t>(r);
    heads[w * head_words()] = static_cast<std::uint64_t>(first) | r << place_bits |
                              static_cast<std::uint64_t>(dense(w)) << dense_bit;
  }
  // The set's word j, empty until now, made nonempty: not dense, a zero word stored at its
  // place, the later ones moved up by one (the room suffices where every stored word holds a
  // topic of one of the word's tokens).
  BUTTERFLY_FN void insert(std::int64_t w, int j) const {
    if (!dense(w)) {
      const std::int64_t p = places[w] + writing(w).place(j);
      for (std::int64_t e = places[w] + stored_words(w); e > p; --e) words[e] = words[e - 1];
      words[p] = 0;
    }
    mask(w)[j / 64] |= std::uint64_t{1} << (j % 64);
  }
  // The set's words left at zero out of the mask; not dense, their places given up, the later
  // ones moved down into them.
  BUTTERFLY_FN void drop_empty(std::int64_t w) const {
    const bool all = dense(w);
    std::int64_t from = places[w], to = from;
    for (int q = 0; q < mask_words(); ++q) {
      std::uint64_t& m = mask(w)[q];
      std::uint64_t kept = 0;
      for (std::uint64_t left = m; left != 0; left &= left - 1) {
        const int j = 64 * q + detail::lowest_set_bit(left);
        const std::int64_t at = all ? places[w] + j : from++;
        if (words[at] == 0) continue;
        if (!all) words[to++] = words[at];
        kept |= left & (std::uint64_t{0} - left);  // left's lowest bit
      }
      m = kept;
    }
  }
};

}  // namespace butterfly::lda::steps
