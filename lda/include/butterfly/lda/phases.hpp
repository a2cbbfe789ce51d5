// The steps of estimator::phased (chain.hpp): Metropolis-Hastings in two phases per iteration,
// as WarpLDA (Chen, Li, Zhu, Chen, VLDB 2016) orders them, so that every count a token reads is
// its own element's, built in scratch: no V x K or M x K array, no table, and no read whose
// cost grows with K or with the document's topics.
//   word phase      element w: each token of word w, in the word's token order, takes or
//                   keeps its document proposal (drawn before the phase from its document's
//                   other tokens), accepted against the word's counts as they stand; then every
//                   token of the word draws a word proposal from the word's other tokens'
//                   final topics for the document phase.
//   document phase  element m: each token of document m, in order, takes or keeps its word
//                   proposal, accepted against the document's counts as they stand.
// Token t (document m, word w, topic o) targets
//   pi_k = (n_mk + alpha) (n_wk + beta) / (n_k + V beta)
// with t's own count taken out of every count, where in the word phase n_mk and (but for the
// word's own moves) n_k are held at the phase's start, and in the document phase n_wk and n_k
// are. Each proposal leaves t out, so the proposal's own factor cancels pi's:
//   doc proposal   q_k = n_mk + alpha (another token of the document, or with weight K alpha a
//                  uniform topic): accepted with min(1, (n_wp + beta) (n_o + V beta) /
//                  ((n_wo + beta) (n_p + V beta)))     [word phase; o the token's topic]
//   word proposal  q_k = n_wk + beta (another token of the word, or with weight K beta a
//                  uniform topic): accepted with min(1, (n_mp + alpha) (n_o + V beta) /
//                  ((n_mo + alpha) (n_p + V beta)))    [document phase]
// so each move is a Metropolis-Hastings step that leaves that target invariant, and neither
// reads the other phase's counts.
// Departures from WarpLDA: there every count is held for the whole phase ("delayed"), here an
// element's own counts are current (its tokens move one after another, each against the others
// as they stand, and the word phase's n_k follows the word's own moves): what is held is only
// the other phase's side, as collapsed holds the word counts for a sweep. WarpLDA's proposals
// may pick the token itself while its acceptances take it out, which targets pi only roughly;
// here both leave it out. A word proposal that keeps the token in, accepted exactly (its ratio
// then carries (n_wo + beta) / (n_wo - 1 + beta)), mixed worse except for nips17 at K = 1000:
// after 400 iterations ap K = 240 2,357 against 2,102, nips17 K = 240 1,611 against 1,520, nips17
// K = 1000 1,206 against 1,230 (a prototype; bench/journal/2026-12-02.md).
// The uniforms: one counter-based block per element and phase (seed, iteration, stream, the
// element, the phase) keys splitmix64 over the element's tokens, not a Philox block per token:
// three blocks per token and iteration cost 0.7x the sweep's own time (the prototype, nips17 at
// K = 1000). The bits are fixed by each element's order of operations: the same on every thread
// count and backend.
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/detail/rng.hpp"
#include "butterfly/lda/collapsed.hpp"
#include "butterfly/lda/metropolis.hpp"
#include "butterfly/lda/streams.hpp"

namespace butterfly::lda::steps {

// The random words of one element and phase: word j of the element is splitmix64's output for
// key + j (its finalizer over a Weyl sequence), the key one counter-based block.
struct element_bits {
  std::uint64_t key;
  BUTTERFLY_FN element_bits(std::uint64_t seed, std::uint32_t iteration, std::uint64_t element,
                            std::uint32_t phase) {
    const rng::philox::ctr_type b = rng::bits(seed, iteration, streams::phases, element, phase);
    key = (static_cast<std::uint64_t>(b[1]) << 32) | b[0];
  }
  BUTTERFLY_FN std::uint64_t operator()(std::uint64_t j) const {
    std::uint64_t x = key + (j + 1) * 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
};

// The phases of an element's bits.
inline constexpr std::uint32_t proposals_phase = 0, word_phase_bits = 1, document_phase_bits = 2;

// Element m: the document proposals of document m's tokens for the word phase, from z as it
// stands: token t's is another of the document's tokens' topics, picked uniformly, or with
// weight K alpha a uniform topic, so proposal k has weight n_mk + alpha without t. One entry
// per token: the topic proposed (the word phase replaces it with the word proposal).
struct document_proposals {
  const std::int64_t* offsets;  // the shard's, from 0
  const std::int32_t* z;
  int K;
  double alpha;
  std::uint64_t seed, shard_first_doc;  // the shard's first document in the corpus
  std::uint32_t iteration;
  std::int32_t* proposals;
  static constexpr std::int64_t grain = 4;
  BUTTERFLY_FN void operator()(std::int64_t m) const {
    const std::int64_t begin = offsets[m], end = offsets[m + 1], others = end - begin - 1;
    const element_bits bits(seed, iteration, shard_first_doc + static_cast<std::uint64_t>(m),
                            proposals_phase);
    for (std::int64_t t = begin; t < end; ++t) {
      const double u =
          rng::u01_32(static_cast<std::uint32_t>(bits(static_cast<std::uint64_t>(t - begin))));
      proposals[t] = picked_topic(mh_pick(u, others, alpha, K),
                                  [&](std::int64_t j) { return z[begin + j + (begin + j >= t)]; });
    }
  }
};

// Element i: the word phase of word first_word + i (see the top of the file) over its tokens
// in the order the tokens grouped by word list them, in slot i of the scratch rows: the word's
// counts (counts) and its moves' net change per topic (moved), both K, zero before and after.
// word_z holds the word's topics in that order while it runs. z and the proposals are written
// at the tokens' places: a word's tokens are scattered over the corpus, so the host fetches
// those of the token 16 on while this one moves.
struct word_phase {
  const std::int64_t* token_offsets;  // the tokens grouped by word: V + 1
  const std::uint32_t* tokens;
  const std::int64_t* totals;  // n_k at the phase's start, K
  int K;
  double beta, prior_total;  // prior_total = V beta
  std::uint64_t seed;
  std::uint32_t iteration;
  std::int32_t* z;
  std::int32_t* proposals;  // document_proposals' in, the word proposals out
  std::int32_t* word_z;     // one per token
  std::int64_t first_word;
  std::int32_t* counts;  // K per slot
  std::int32_t* moved;   // K per slot
  static constexpr std::int64_t grain = 1;
  static constexpr std::int64_t ahead = 16;

  BUTTERFLY_FN void operator()(std::int64_t i) const {
    const int K = this->K;
    std::int32_t* const z = this->z;
    std::int32_t* const proposals = this->proposals;
    std::int32_t* const word_z = this->word_z;
    const std::int64_t w = first_word + i, begin = token_offsets[w], end = token_offsets[w + 1];
    if (begin == end) return;
    std::int32_t* const n = counts + i * K;
    std::int32_t* const d = moved + i * K;
    for (std::int64_t j = begin; j < end; ++j) {
      if (fetch_ahead && j + ahead < end) {
        prefetch(z + tokens[j + ahead]);
        prefetch(proposals + tokens[j + ahead]);
      }
      word_z[j] = z[tokens[j]];
      ++n[word_z[j]];
    }
    const element_bits bits(seed, iteration, static_cast<std::uint64_t>(w), word_phase_bits);
    for (std::int64_t j = begin; j < end; ++j) {
      const std::int64_t t = tokens[j];
      const int o = word_z[j], p = proposals[t];
      int s = o;
      --n[o];
      if (p != o) {
        // n_k without the token, with the word's moves so far.
        const double to = (static_cast<double>(n[p]) + beta) *
                          (static_cast<double>(totals[o] + d[o] - 1) + prior_total);
        const double from = (static_cast<double>(n[o]) + beta) *
                            (static_cast<double>(totals[p] + d[p]) + prior_total);
        const std::uint64_t r = bits(static_cast<std::uint64_t>(j - begin));
        if (rng::u01_32(static_cast<std::uint32_t>(r)) * from < to) {
          s = p;
          --d[o];
          ++d[p];
        }
      }
      ++n[s];
      word_z[j] = s;
    }
    // The word proposals, from the word's other tokens' final topics.
    const std::int64_t others = end - begin - 1;
    for (std::int64_t j = begin; j < end; ++j) {
      const std::int64_t t = tokens[j];
      const std::uint64_t r = bits(static_cast<std::uint64_t>(j - begin));
      const double u = rng::u01_32(static_cast<std::uint32_t>(r >> 32));
      proposals[t] = picked_topic(mh_pick(u, others, beta, K), [&](std::int64_t x) {
        return word_z[begin + x + (begin + x >= j)];
      });
      d[z[t]] = 0;
      d[word_z[j]] = 0;
      z[t] = word_z[j];
    }
    for (std::int64_t j = begin; j < end; ++j) n[word_z[j]] = 0;
  }
};

// Element i: the document phase of document first_doc + i (see the top of the file), its
// counts in slot i's row of K (zero before and after). totals is n_k after the word phase.
struct document_phase {
  const std::int64_t* offsets;  // the shard's, from 0
  const std::int64_t* totals;   // n_k at the phase's start, K
  int K;
  double alpha, prior_total;            // prior_total = V beta
  std::uint64_t seed, shard_first_doc;  // the shard's first document in the corpus
  std::uint32_t iteration;
  std::int32_t* z;
  const std::int32_t* proposals;  // word_phase's
  std::int64_t first_doc;         // the document of slot 0
  std::int32_t* counts;           // K per slot
  static constexpr std::int64_t grain = 4;

  BUTTERFLY_FN void operator()(std::int64_t i) const {
    std::int32_t* const z = this->z;
    const std::int64_t m = first_doc + i, begin = offsets[m], end = offsets[m + 1];
    std::int32_t* const n = counts + i * K;
    for (std::int64_t t = begin; t < end; ++t) ++n[z[t]];
    const element_bits bits(seed, iteration, shard_first_doc + static_cast<std::uint64_t>(m),
                            document_phase_bits);
    for (std::int64_t t = begin; t < end; ++t) {
      const int o = z[t], p = proposals[t];
      --n[o];
      if (p != o) {
        const double to = (static_cast<double>(n[p]) + alpha) *
                          (static_cast<double>(totals[o] - 1) + prior_total);
        const double from =
            (static_cast<double>(n[o]) + alpha) * (static_cast<double>(totals[p]) + prior_total);
        const std::uint64_t r = bits(static_cast<std::uint64_t>(t - begin));
        if (rng::u01_32(static_cast<std::uint32_t>(r)) * from < to) z[t] = p;
      }
      ++n[z[t]];
    }
    for (std::int64_t t = begin; t < end; ++t) n[z[t]] = 0;
  }
};

}  // namespace butterfly::lda::steps
