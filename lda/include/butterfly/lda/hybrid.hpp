// The steps of estimator::hybrid (chain.hpp): the collapsed estimator's chain (collapsed.hpp:
// theta integrated out, each document's tokens in order, the word counts the previous
// iteration's), each document swept by one of two moves chosen by its length alone, as LDA*
// (Yu et al., VLDB 2017) picks a sampler per document by length:
//   short documents  collapsed's exact draw (collapsed_documents), whose cost per token grows
//                    with the topics the document and the word share and with K / 64;
//   long documents   Metropolis-Hastings (metropolis.hpp: mh_cycles cycles of a doc and a word
//                    proposal), whose cost per token does not grow with the document's topics
//                    or with K: a long document starts with hundreds of topics, and its first
//                    sweeps by the exact draw cost tens of times WarpLDA's.
// Both moves leave each token's target (n_mk + alpha) f_k invariant, and the choice reads no
// state (a choice that read the document's topics would change the stationary distribution),
// so the chain keeps collapsed's. Departure from mh_documents: the word's side reads
// collapsed's compact tables (compact_word: the word's topic set, its entries and its list)
// instead of a V x K row, so no array grows with V K. The bits are fixed by the operations'
// order and the counter-based uniforms (mh's blocks for a long document's tokens, collapsed's
// for a short one's), the same on every backend.
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/lda/collapsed.hpp"
#include "butterfly/lda/metropolis.hpp"

namespace butterfly::lda::steps {

// Element i: document first_doc + i by collapsed_documents where it has at most
// long_document tokens, else by Metropolis-Hastings over slot i's counts (counted from z).
struct hybrid_documents : collapsed_documents {
  std::int64_t long_document;        // the longest document drawn exactly
  const std::int64_t* list_offsets;  // word_buckets' lists
  const std::int32_t* lists;
  // A device's kernel for this step is compiled for 2 resident blocks of threads, not 4: a
  // long document's token holds its word's tables, its document's and its proposals' values
  // at once, more than 64 registers (the static checks found spills at 4).
  static constexpr int min_blocks = 2;

  // Token t of the document [begin, end), with the document's counts n.
  BUTTERFLY_FN mh_token<compact_word> token(std::int64_t begin, std::int64_t end, std::int64_t t,
                                            const std::int32_t* n) const {
    const std::int64_t w = words[t], list = list_offsets[w];
    return mh_token_of(*this,
                       compact_word{sets.of(w), word_counts + word_entries[w], lists + list,
                                    list_offsets[w + 1] - list},
                       begin, end, t, n);
  }

  BUTTERFLY_FN void operator()(std::int64_t i) const {
    const std::int64_t m = first_doc + i, begin = offsets[m], end = offsets[m + 1];
    if (end - begin <= long_document) return collapsed_documents::operator()(i);
    const int K = this->K;
    std::int32_t* const z = this->z;
    std::int32_t* const n = doc_counts + i * K;
    for (int k = 0; k < K; ++k) n[k] = 0;
    for (std::int64_t t = begin; t < end; ++t) ++n[z[t]];
    // On the host, token t + 1's uniforms are drawn while t moves and what its proposals will
    // read is fetched (its word's set word and its rank, its list entries, scattered over arrays
    // of the corpus's size). A device hides that latency with other threads, and there a cycle's
    // uniforms are drawn where it needs them: the registers of a second token would spill.
    // The uniforms are counter-based: the same either way.
    mh_uniforms blocks[fetch_ahead ? 2 : 1][mh_cycles];
    for (std::int64_t t = begin; t < end; ++t) {
      const std::uint64_t index = first_token + static_cast<std::uint64_t>(t);
      const mh_token<compact_word> now = token(begin, end, t, n);
      --n[now.o];
      if constexpr (fetch_ahead) {
        mh_uniforms* const mine = blocks[(t - begin) % 2];
        if (t == begin)
          for (int c = 0; c < mh_cycles; ++c) mine[c] = mh_block(seed, iteration, index, c);
        if (t + 1 < end) {
          mh_uniforms* const next_blocks = blocks[(t + 1 - begin) % 2];
          const mh_token<compact_word> next = token(begin, end, t + 1, n);
          const stored_set& set = next.word.set;
          const int place = set.place(next.o / 64);  // a read of the mask only where not dense
          prefetch(set.words + place);
          prefetch(set.ranks + place);
          for (int c = 0; c < mh_cycles; ++c) {
            next_blocks[c] = mh_block(seed, iteration, index + 1, c);
            const std::int64_t p = next.word_pick(next_blocks[c][2]);
            if (p >= 0) prefetch(next.word.topics + p);
          }
        }
        z[t] = now.move([mine](int c) { return mine[c]; }, mh_cycles);
      } else {
        z[t] = now.move([&](int c) { return mh_block(seed, iteration, index, c); }, mh_cycles);
      }
      ++n[z[t]];
    }
  }
};

}  // namespace butterfly::lda::steps
