// The tokens of a corpus or shard grouped by word: chain::shard_index's word_tokens for a
// shard, the phased sweeps' grouping of the whole corpus under a count combiner
// (phased_unit.cpp), and topic_counts' of the whole corpus under several processes.
#pragma once

#include <cstdint>
#include <vector>

#include "butterfly/lda/chain.hpp"

namespace butterfly::lda {

// Where each of V words' tokens start once grouped by word (V + 1: each word's tokens counted,
// running sums). The words must lie in [0, V).
inline std::vector<std::int64_t> word_offsets(span<const std::int32_t> words, std::int64_t V) {
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(V) + 1, 0);
  for (const std::int32_t w : words) ++offsets[static_cast<std::size_t>(w) + 1];
  for (std::size_t w = 1; w < offsets.size(); ++w) offsets[w] += offsets[w - 1];
  return offsets;
}

// The token numbers 0 .. words.size() - 1 grouped by word, in token order within a word, each
// word's at the places offsets gives (V + 1: each word's tokens counted, running sums): a
// counting sort. 32-bit numbers: words holds fewer than 2^32 tokens (the caller checks).
inline std::vector<std::uint32_t> tokens_by_word(span<const std::int32_t> words,
                                                 const std::vector<std::int64_t>& offsets) {
  std::vector<std::uint32_t> out(words.size());
  std::vector<std::int64_t> next(offsets.begin(), offsets.end() - 1);
  for (std::size_t t = 0; t < words.size(); ++t)
    out[static_cast<std::size_t>(next[static_cast<std::size_t>(words[t])]++)] =
        static_cast<std::uint32_t>(t);
  return out;
}

}  // namespace butterfly::lda
