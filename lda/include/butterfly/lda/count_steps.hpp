// The counting steps of an LDA iteration (steps.hpp): the initial z, the topic counts n_mk
// and n_wk of z (row forms for the host, one element per token with an integer atomic add
// on a device), the per-chunk partials of the topic totals n_k, and the kept topics of the
// pooled sweeps. Every estimator counts; the partials also serve the sample estimator's
// column sums of phi.
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/detail/rng.hpp"
#include "butterfly/lda/metropolis.hpp"

namespace butterfly::lda::steps {

// Words per column partial of phi: partial sums over these fixed word ranges, added in
// range order, define the bits of every column sum.
inline constexpr std::int64_t word_chunk = 256;

// `grain` in each step: elements per executor::for_each chunk on the host backends (rows are
// heavier than entries). It changes no result. A step may also have range(begin, end), the
// host's form of the same elements (the host backends call it instead of one element at a
// time): the same operations per element in the same order, arranged so that GCC
// vectorizes them and no index needs a division.

// Cuts the entries [begin, end) of an array with rows of K into the pieces of one row each:
// f(i, k, n) for the n entries i, i + 1, ... in columns k, k + 1, ..., so a host loop over a
// piece is contiguous and needs no division.
template <class F>
inline void row_segments(std::int64_t begin, std::int64_t end, std::int64_t K, F&& f) {
  for (std::int64_t i = begin; i < end;) {
    const std::int64_t k = i % K, n = end - i < K - k ? end - i : K - k;
    f(i, k, n);
    i += n;
  }
}

// Element m: the initial topics of document m's tokens, keyed by their whole-corpus numbers.
// start_topics == 0: each token's topic uniform over K. Otherwise (sampler_options::
// start_topics) the document's first start_topics tokens' topics are uniform and each later
// token copies one of theirs, chosen uniformly by the token's second random word, so the
// document starts with at most start_topics topics. Not in the paper (its chain starts
// uniform): a sweep's cost grows with the topics of the document (collapsed.hpp), and a
// document that starts with a few topics also mixes into its own topics sooner (the
// figures: lda::default_start_topics). Tokens that take uniform topics get the same ones
// either way.
struct initial_topics {
  std::uint64_t seed, first_token;
  int K;
  std::uint32_t start_topics;
  const std::int64_t* offsets;  // the shard's documents (M + 1, from 0)
  std::int32_t* z;
  static constexpr std::int64_t grain = 64;
  BUTTERFLY_FN void operator()(std::int64_t m) const {
    const std::int64_t begin = offsets[m], end = offsets[m + 1];
    for (std::int64_t t = begin; t < end; ++t) {
      const auto r =
          rng::bits(seed, 0, rng::stream::z, first_token + static_cast<std::uint64_t>(t));
      if (start_topics == 0 || t - begin < start_topics)
        z[t] =
            static_cast<std::int32_t>((std::uint64_t{r[0]} * static_cast<std::uint64_t>(K)) >> 32);
      else z[t] = z[begin + static_cast<std::int64_t>((std::uint64_t{r[1]} * start_topics) >> 32)];
    }
  }
};

// Earlier sweeps' topics counted with z's (sampler_options::average): sweeps arrays of 16-bit
// topics, `stride` apart, indexed as z is. None by default.
struct pooled_topics {
  const std::uint16_t* topics = nullptr;
  int sweeps = 0;
  std::int64_t stride = 0;
};

// Element t: kept[t] = z[t], a topic below 65,536 (lda::chain's K at most), as 16 bits.
struct keep_topics {
  const std::int32_t* z;
  std::uint16_t* kept;
  static constexpr std::int64_t grain = 1 << 14;
  BUTTERFLY_FN void operator()(std::int64_t t) const { kept[t] = static_cast<std::uint16_t>(z[t]); }
};

// Element r: row r of counts (rows x K), the topics of the tokens of row r of a CSR:
// tokens [offsets[r], offsets[r + 1]) themselves (n_mk: a document's tokens are
// contiguous), or tokens[i] for i in that range (n_wk: the tokens grouped by word). Each row
// is written by one element, so no atomics are needed. With `pooled`, the same tokens'
// topics in the pooled sweeps too. The host's form; a device's is token_topic_counts.
// With `listed` (the words' rows, estimator::mh in one process): also row r's list of its
// tokens' topics in listed[offsets[r], offsets[r + 1]) (word_topics' list, metropolis.hpp),
// as its tokens' topics are counted: a short list by sorting them as they come (n^2 / 4
// steps against the row's K), a long one from the counted row while it is in cache.
struct topic_counts {
  const std::int64_t* offsets;  // rows + 1
  const std::uint32_t* tokens;  // null: the identity
  const std::int32_t* z;
  int K;
  std::int32_t* counts;
  std::int32_t* listed = nullptr;
  pooled_topics pooled = {};
  static constexpr std::int64_t grain = 64;
  BUTTERFLY_FN void operator()(std::int64_t r) const {
    std::int32_t* n = counts + r * K;
    for (int k = 0; k < K; ++k) n[k] = 0;
    const std::int64_t begin = offsets[r], length = offsets[r + 1] - begin;
    std::int32_t* list = listed ? listed + begin : nullptr;
    const bool sort = list && length * length <= 4 * static_cast<std::int64_t>(K);
    for (std::int64_t i = 0; i < length; ++i) {
      const std::int64_t t = tokens ? tokens[begin + i] : begin + i;
      const std::int32_t k = z[t];
      ++n[k];
      for (int s = 0; s < pooled.sweeps; ++s) ++n[pooled.topics[s * pooled.stride + t]];
      if (sort) {  // insertion sort, as the topics come
        std::int64_t j = i;
        for (; j > 0 && list[j - 1] > k; --j) list[j] = list[j - 1];
        list[j] = k;
      }
    }
    if (list && !sort) list_topics(n, K, list, length);
  }
};

// Element i: row c = first_chunk + i of partial (chunks x K) counts the topics of the tokens in
// chunk c (the tokens cut into `chunks` equal ranges): with mean_scale, n_k from z in
// O(tokens), the same integers as column_partials of n_wk in O(V K). Not with a count combiner
// (MPI), whose combined n_wk covers tokens this z does not. With `pooled`, the pooled sweeps'
// topics too. The rows of chunks [first_chunk, end_chunk) are counted, the others kept: a
// block of a sweep moves only its own tokens' topics (chunks_of). The host's form; a device's
// is token_partial_counts.
// Tokens per chunk of token_partials' rows (the last chunk may hold fewer, or none).
BUTTERFLY_FN std::int64_t chunk_length(std::int64_t tokens, std::int64_t chunks) {
  return (tokens + chunks - 1) / chunks;
}

struct token_partials {
  const std::int32_t* z;
  std::int64_t tokens, chunks;
  int K;
  std::int64_t* partial;
  pooled_topics pooled = {};
  std::int64_t first_chunk = 0, end_chunk = 0;
  static constexpr std::int64_t grain = 1;
  BUTTERFLY_FN std::int64_t length() const { return chunk_length(tokens, chunks); }
  // The chunks that hold tokens [first, end): the rows to count again after those moved.
  BUTTERFLY_FN void chunks_of(std::int64_t first, std::int64_t end) {
    first_chunk = first < end ? first / length() : 0;
    end_chunk = first < end ? (end - 1) / length() + 1 : 0;
  }
  BUTTERFLY_FN void operator()(std::int64_t i) const {
    const std::int64_t c = first_chunk + i, length = this->length();
    const std::int64_t end = (c + 1) * length < tokens ? (c + 1) * length : tokens;
    std::int64_t* p = partial + c * K;
    for (int k = 0; k < K; ++k) p[k] = 0;
    for (std::int64_t t = c * length; t < end; ++t) ++p[z[t]];
    for (int s = 0; s < pooled.sweeps; ++s)
      for (std::int64_t t = c * length; t < end; ++t) ++p[pooled.topics[s * pooled.stride + t]];
  }
};

// The counts on a device (lda::sampler picks them where the kernels read device memory; the
// host keeps topic_counts and token_partials, faster there): the counts zeroed (zero_entries:
// device memory comes uninitialized), then one element per token adds 1 where the row forms
// add it, with an integer atomic add (detail::atomic_add). A long row (n_k's ranges of
// tokens/chunks, a word of 14,193 tokens) is spread over as many threads as it has tokens
// instead of walked by one. Integer sums do not depend on the order of the adds: the counts
// are the row forms' exactly.

// Element i: out[i] = 0.
template <class T>
struct zero_entries {
  T* out;
  static constexpr std::int64_t grain = 1 << 14;
  BUTTERFLY_FN void operator()(std::int64_t i) const { out[i] = 0; }
};

// Element i: the token at place offsets[0] + i of topic_counts' CSR (rows + 1 offsets) adds 1
// to its row's count of its topic (and of its topic in each pooled sweep): topic_counts
// without `listed` (mh's lists come from the counts, word_topics), into counts zeroed before.
// Its row is the last r with offsets[r] <= the place (a binary search; the places of a warp
// are mostly in one row, so its loads are mostly one).
struct token_topic_counts {
  const std::int64_t* offsets;  // rows + 1
  std::int64_t rows;
  const std::uint32_t* tokens;  // null: the identity
  const std::int32_t* z;
  int K;
  std::int32_t* counts;  // rows x K, zeroed
  pooled_topics pooled = {};
  static constexpr std::int64_t grain = 1 << 12;
  BUTTERFLY_FN void operator()(std::int64_t i) const {
    const std::int64_t place = offsets[0] + i;
    std::int64_t row = 0, above = rows;  // offsets[row] <= place < offsets[above]
    while (above - row > 1) {
      const std::int64_t mid = row + (above - row) / 2;
      if (offsets[mid] <= place) row = mid;
      else above = mid;
    }
    const std::int64_t t = tokens ? tokens[place] : place;
    std::int32_t* const n = counts + row * K;
    detail::atomic_add(n + z[t], std::int32_t{1});
    for (int s = 0; s < pooled.sweeps; ++s)
      detail::atomic_add(n + pooled.topics[s * pooled.stride + t], std::int32_t{1});
  }
};

// Element i: token t = first_token + i adds 1 to token_partials' row of its chunk at its topic
// (and at its topic in each pooled sweep), into rows zeroed before: token_partials' integers.
struct token_partial_counts {
  const std::int32_t* z;
  std::int64_t tokens, chunks;
  int K;
  std::int64_t* partial;  // chunks x K, the rows of the counted chunks zeroed
  pooled_topics pooled = {};
  std::int64_t first_token = 0;
  static constexpr std::int64_t grain = 1 << 12;
  BUTTERFLY_FN void operator()(std::int64_t i) const {
    const std::int64_t t = first_token + i;
    std::int64_t* const p = partial + (t / chunk_length(tokens, chunks)) * K;
    detail::atomic_add(p + z[t], std::int64_t{1});
    for (int s = 0; s < pooled.sweeps; ++s)
      detail::atomic_add(p + pooled.topics[s * pooled.stride + t], std::int64_t{1});
  }
};

// Element c K + k: the sum of column k of `values` (rows x K) over rows [c word_chunk,
// (c + 1) word_chunk), rows in increasing order.
template <class In, class Sum>
struct column_partials {
  const In* values;
  std::int64_t rows;
  int K;
  Sum* partial;  // chunks x K
  static constexpr std::int64_t grain = 64;
  BUTTERFLY_FN std::int64_t end_of(std::int64_t c) const {
    return (c + 1) * word_chunk < rows ? (c + 1) * word_chunk : rows;
  }
  BUTTERFLY_FN void operator()(std::int64_t i) const {
    const std::int64_t c = i / K, k = i % K;
    Sum sum = 0;
    for (std::int64_t w = c * word_chunk; w < end_of(c); ++w) sum += values[w * K + k];
    partial[i] = sum;
  }
  // Row by row through the chunk, all of the piece's columns at once (partial is chunks x K,
  // so a piece of it is one chunk's columns k, k + 1, ...).
  void range(std::int64_t begin, std::int64_t end) const {
    row_segments(begin, end, K, [this](std::int64_t i, std::int64_t k, std::int64_t n) {
      const std::int64_t c = i / K;
      Sum* p = partial + i;
      for (std::int64_t j = 0; j < n; ++j) p[j] = 0;
      for (std::int64_t w = c * word_chunk; w < end_of(c); ++w)
        for (std::int64_t j = 0; j < n; ++j) p[j] += values[w * K + k + j];
    });
  }
};

}  // namespace butterfly::lda::steps
