// The steps of estimator::mh (chain.hpp): the collapsed estimator's chain (lda/collapsed.hpp:
// theta integrated out, each document's tokens in order, the word counts the previous
// iteration's without the token itself), but each token moves by Metropolis-Hastings
// proposals instead of a draw from its full conditional (LightLDA: Yuan et al. 2015;
// WarpLDA: Chen et al. 2016). A token of document m, word w, previous topic o, now at topic
// s (o to begin with), targets
//   pi_k = (n_mk + alpha) f_k,   f_k = (n_wk + beta) / (n_k + V beta),
// n_mk its document's other tokens as they stand, n_wk and n_k without the token's own count
// at o. Each of mh_cycles cycles proposes twice, each proposal O(1) with no table:
//   doc proposal  t ~ n_mk + alpha: the topic of another token of the document, picked
//                 uniformly, or with weight K alpha a uniform topic.
//                 Accepted with probability min(1, f_t / f_s).
//   word proposal t ~ n_wk + beta (the token's own count left in): one of the word's tokens'
//                 topics as word_topics lists them, picked uniformly, or with weight K beta
//                 a uniform topic. Accepted with probability min(1, pi_t q_s / (pi_s q_t)),
//                 q_k = n_wk + beta, which is (n_mt + alpha) h_t / ((n_ms + alpha) h_s) with
//                 h_k = f_k / q_k: 1 / (n_k + V beta) but for o.
// Each proposal leaves pi invariant, so the chain keeps the collapsed sampler's stationary
// distribution (exact in the MCMC sense, not per token). Departure from WarpLDA: its
// proposals are accepted against counts delayed for the whole phase; here only the word
// counts are (which makes documents independent, as in collapsed), the document's are current.
// A token reads four random entries (a document token's topic, the word's list, n_wt, n_mt)
// per cycle whatever K and whatever its document, where collapsed visits every topic its
// document and its word have in common. The bits are fixed by the
// order of the operations below and the counter-based uniforms (one block of four 32-bit
// uniforms per cycle: draw c of the token's index), the same on every backend.
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/detail/rng.hpp"
#include "butterfly/lda/collapsed.hpp"

namespace butterfly::lda::steps {

// Proposal cycles (a doc and a word proposal each) per token and sweep: part of the chain's
// definition.
inline constexpr int mh_cycles = 2;

// A word's list for the word proposal: the topics of its tokens in topic order, n_wk copies
// of k, `length` entries (a count row that sums to more is cut there), from its count row.
BUTTERFLY_FN void list_topics(const std::int32_t* n, int K, std::int32_t* topics,
                              std::int64_t length) {
  std::int64_t at = 0;
  for (int k = 0; k < K && at < length; ++k)
    for (std::int32_t c = 0; c < n[k] && at < length; ++c) topics[at++] = k;
}

// Element w: word w's list from the counts, in topics[offsets[w], offsets[w + 1]), the
// word's total count of tokens. With a count combiner (MPI) the counts cover the whole
// corpus and z only the shard, so this reads the combined rows; in one process the lists
// come with the counts, from z (topic_counts), the same entries in fewer steps.
struct word_topics {
  const std::int64_t* offsets;  // V + 1
  const std::int32_t* counts;   // n_wk, V x K
  int K;
  std::int32_t* topics;
  static constexpr std::int64_t grain = 16;
  BUTTERFLY_FN void operator()(std::int64_t w) const {
    list_topics(counts + w * K, K, topics + offsets[w], offsets[w + 1] - offsets[w]);
  }
};

// A proposal's pick from a uniform u: weight `listed` spread over a list's entries, then
// per_topic for each of the K topics. Returns the entry's index (>= 0), or -1 - k for topic k.
BUTTERFLY_FN std::int64_t mh_pick(double u, std::int64_t listed, double per_topic, int K) {
  const double x = u * (static_cast<double>(listed) + K * per_topic);
  if (x < static_cast<double>(listed)) return static_cast<std::int64_t>(x);
  const int k = static_cast<int>((x - static_cast<double>(listed)) / per_topic);
  return -1 - (k < K ? k : K - 1);
}

// The topic a pick (mh_pick) proposes: entry(j) for the list's entry j, k for -1 - k.
template <class Entry>
BUTTERFLY_FN int picked_topic(std::int64_t pick, const Entry& entry) {
  return pick >= 0 ? entry(pick) : static_cast<int>(-1 - pick);
}

// A token's uniforms: block c (four 32-bit words) for cycle c: the doc proposal's pick and
// acceptance, the word proposal's pick and acceptance.
using mh_uniforms = rng::philox::ctr_type;
BUTTERFLY_FN mh_uniforms mh_block(std::uint64_t seed, std::uint32_t iteration, std::uint64_t index,
                                  int c) {
  return rng::bits(seed, iteration, rng::stream::z, index, static_cast<std::uint32_t>(c));
}

// The word's side of a token's proposals, from the V x K counts: its row of n_wk and its
// list of its tokens' topics (word_topics), in which the word proposal picks a place.
struct dense_word {
  const std::int32_t* counts;  // n_wk row of the word (own count included)
  const std::int32_t* topics;  // the word's word_topics
  std::int64_t tokens;         // their number, n_w
  BUTTERFLY_FN std::int32_t count(int k) const { return counts[k]; }
  BUTTERFLY_FN int topic(std::int64_t i) const { return topics[i]; }
};

// The word's side from collapsed's compact tables (word_buckets with lists): the word's
// topic set as stored (word_sets.hpp), its entries' counts, one per topic it has in topic
// order, and its list. n_wk is found by the topic's rank in the set: at most four reads
// whatever K (the mask's only where the set is not dense), and no V x K array.
struct compact_word {
  stored_set set;              // the word's topic set
  const std::int32_t* counts;  // its entries' counts
  const std::int32_t* topics;  // its list
  std::int64_t tokens;         // its length, n_w
  BUTTERFLY_FN std::int32_t count(int k) const { return set.contains(k) ? counts[set.rank(k)] : 0; }
  BUTTERFLY_FN int topic(std::int64_t i) const { return topics[i]; }
};

// What a token's proposals read: its word (dense_word or compact_word), the topic totals,
// the document's counts without the token, and the document's tokens.
template <class Word>
struct mh_token {
  Word word;                        // n_wk (own count included) and the word proposal's list
  const double* scale;              // 1 / (n_k + V beta), own count included
  const std::int64_t* totals;       // n_k
  const std::int32_t* doc_counts;   // n_mk without the token
  const std::int32_t* doc_z;        // the document's topics as they stand
  std::int64_t length, self;        // the document's tokens; the token's place among them
  int K, o;                         // topics; the token's previous topic
  double alpha, beta, prior_total;  // prior_total = V beta

  // f_k for k != o: the word's weight of topic k (o's, without the token's own count, is
  // move's f_o).
  BUTTERFLY_FN double f(int k) const {
    return (static_cast<double>(word.count(k)) + beta) * scale[k];
  }
  // The proposals' topics, from their picks.
  BUTTERFLY_FN int doc_topic(std::int64_t j) const {
    return picked_topic(j, [this](std::int64_t i) { return doc_z[i < self ? i : i + 1]; });
  }
  BUTTERFLY_FN int word_topic(std::int64_t i) const {
    return picked_topic(i, [this](std::int64_t x) { return word.topic(x); });
  }
  BUTTERFLY_FN std::int64_t doc_pick(std::uint32_t u) const {
    return mh_pick(rng::u01_32(u), length - 1, alpha, K);
  }
  BUTTERFLY_FN std::int64_t word_pick(std::uint32_t u) const {
    return mh_pick(rng::u01_32(u), word.tokens, beta, K);
  }

  // The topic after `cycles` cycles from o, cycle c reading the uniforms block(c) (a block
  // kept ahead, or drawn where the cycle needs it, which holds fewer registers on a device).
  template <class Blocks>
  BUTTERFLY_FN int move(const Blocks& block, int cycles) const {
    // h_o = f_o / (n_wo + beta); h_k = scale[k] for the other topics.
    const std::int32_t n_wo = word.count(o);
    const double f_o =
        (static_cast<double>(n_wo - 1) + beta) / (static_cast<double>(totals[o] - 1) + prior_total);
    const double h_o = f_o / (static_cast<double>(n_wo) + beta);
    int s = o;
    double f_s = f_o;
    for (int c = 0; c < cycles; ++c) {
      const mh_uniforms r = block(c);
      int t = doc_topic(doc_pick(r[0]));
      if (t != s) {
        const double f_t = t == o ? f_o : f(t);
        if (rng::u01_32(r[1]) * f_s < f_t) {
          s = t;
          f_s = f_t;
        }
      }
      t = word_topic(word_pick(r[2]));
      if (t != s) {
        const double to = (static_cast<double>(doc_counts[t]) + alpha) * (t == o ? h_o : scale[t]);
        const double from =
            (static_cast<double>(doc_counts[s]) + alpha) * (s == o ? h_o : scale[s]);
        if (rng::u01_32(r[3]) * from < to) {
          s = t;
          f_s = t == o ? f_o : f(t);
        }
      }
    }
    return s;
  }
};

// Token t of the document [begin, end) with the document's counts n and its word's side: the
// rest from a sweep step's fields (mh_documents', hybrid_documents'), which share their names.
template <class Step, class Word>
BUTTERFLY_FN mh_token<Word> mh_token_of(const Step& s, const Word& word, std::int64_t begin,
                                        std::int64_t end, std::int64_t t, const std::int32_t* n) {
  return {word,      s.scale, s.totals, n,       s.z + begin, end - begin,
          t - begin, s.K,     s.z[t],   s.alpha, s.beta,      s.prior_total};
}

// Element m: one sweep over document m's tokens in order. doc_counts row m holds the counts
// of document m's topics in z before and after, and during the sweep those of its other
// tokens as they stand.
// The entries a token's proposals read are scattered over arrays of the corpus's size, and
// they are known ahead, the uniforms being counter-based: while token t moves, the host
// fetches the word-list entries of token t + 2's picks and the counts of token t + 1's
// proposed topics (its doc picks' topics may still change by then, which only costs a miss).
struct mh_documents {
  const std::int64_t* offsets;       // the shard's, from 0
  const std::int32_t* words;         // the shard's
  const std::int32_t* word_counts;   // n_wk of the previous iteration, V x K
  const std::int64_t* word_offsets;  // V + 1, word_topics' places
  const std::int32_t* topics;        // word_topics of the same counts
  const std::int64_t* totals;        // n_k of the previous iteration, K
  const double* scale;               // 1 / (n_k + V beta), K
  int K;
  double alpha, beta, prior_total;  // prior_total = V beta
  std::uint64_t seed, first_token;
  std::uint32_t iteration;
  std::int32_t* z;           // the previous iteration's topics in, this iteration's out
  std::int32_t* doc_counts;  // n_mk, M x K
  static constexpr std::int64_t grain = 4;
  static constexpr int ahead = 2;  // tokens

  BUTTERFLY_FN mh_token<dense_word> token(std::int64_t begin, std::int64_t end, std::int64_t t,
                                          const std::int32_t* n) const {
    const std::int64_t w = words[t], at = word_offsets[w];
    return mh_token_of(*this,
                       dense_word{word_counts + w * K, topics + at, word_offsets[w + 1] - at},
                       begin, end, t, n);
  }

  BUTTERFLY_FN void operator()(std::int64_t m) const {
    const std::int64_t begin = offsets[m], end = offsets[m + 1];
    std::int32_t* n = doc_counts + m * K;
    mh_uniforms blocks[ahead + 1][mh_cycles];  // tokens t .. t + ahead, round robin
    for (std::int64_t t = begin; t < end && t < begin + ahead; ++t)
      for (int c = 0; c < mh_cycles; ++c)
        blocks[(t - begin) % (ahead + 1)][c] =
            mh_block(seed, iteration, first_token + static_cast<std::uint64_t>(t), c);
    for (std::int64_t t = begin; t < end; ++t) {
      if (t + ahead < end) {
        mh_uniforms* b = blocks[(t + ahead - begin) % (ahead + 1)];
        const mh_token<dense_word> later = token(begin, end, t + ahead, n);
        for (int c = 0; c < mh_cycles; ++c) {
          b[c] = mh_block(seed, iteration, first_token + static_cast<std::uint64_t>(t + ahead), c);
          const std::int64_t i = later.word_pick(b[c][2]);
          if (i >= 0) prefetch(later.word.topics + i);
        }
      }
      if (t + 1 < end) {
        const mh_uniforms* b = blocks[(t + 1 - begin) % (ahead + 1)];
        const mh_token<dense_word> next = token(begin, end, t + 1, n);
        prefetch(next.word.counts + next.o);
        for (int c = 0; c < mh_cycles; ++c) {
          prefetch(next.word.counts + next.doc_topic(next.doc_pick(b[c][0])));
          prefetch(next.word.counts + next.word_topic(next.word_pick(b[c][2])));
        }
      }
      const mh_token<dense_word> now = token(begin, end, t, n);
      --n[now.o];
      const mh_uniforms* const mine = blocks[(t - begin) % (ahead + 1)];
      z[t] = now.move([mine](int c) { return mine[c]; }, mh_cycles);
      ++n[z[t]];
    }
  }
};

}  // namespace butterfly::lda::steps
