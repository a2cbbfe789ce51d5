// The steps of one LDA iteration after the z draw (and the initial z before the first),
// each written once as a function of one element index: lda::sampler runs them on its
// executor (run_steps.hpp), as host loops over executor::for_each on host memory and as
// the device backend's grid-stride kernels on device memory. Every element writes only its
// own outputs, and every floating-point sum inside an element runs in a fixed order, so the trained model is
// the same bits on every backend, thread count and grid. On the host integer counts are each
// owned by one element (a document's row, a word's row); on a device they are spread over
// the tokens (token_topic_counts, token_partial_counts: one element per token, an integer
// atomic add), whose sums do not depend on the order of the adds, so the counts are the same.
//
// The iteration (chain.hpp) in these steps:
//   counts:  topic_counts (n_mk per document m, then n_wk per word w); on a device
//            zero_entries, then token_topic_counts (per token) and for mh's lists word_topics
//   mean:    posterior_mean_rows (theta), token_partials (on a device zero_entries +
//            token_partial_counts; with MPI column_partials<int32, int64>) + mean_scale (the
//            n_k per topic), posterior_mean_entries (phi)
//   sample:  gamma_entries (theta, then phi), dirichlet_rows (theta),
//            column_partials<double, double> + sum_scale + dirichlet_columns (phi)
//   collapsed: collapsed_documents (the z draw itself, lda/collapsed.hpp), then n_mk and the
//            mean's n_k (scale, totals), word_buckets (from z; from n_wk with MPI) and
//            scale_sums; theta as in mean and phi by posterior_mean_words (posterior_mean_entries
//            with MPI), when asked for
//   mh:      as collapsed, with the words' lists (topic_counts' listed, or with MPI
//            word_topics) and mh_documents (lda/metropolis.hpp) in word_buckets' and
//            collapsed_documents' places
//   evaluation: likelihood_blocks (the log-likelihood's partial sums)
#pragma once

#include <cfloat>
#include <cstdint>
#include <variant>

#include "butterfly/detail/config.hpp"
#include "butterfly/detail/portable_math.hpp"
#include "butterfly/detail/rng.hpp"
#include "butterfly/lda/collapsed.hpp"
#include "butterfly/lda/gamma.hpp"
#include "butterfly/lda/metropolis.hpp"
#include "butterfly/lda/posterior_mean.hpp"

namespace butterfly::lda {

// sum_k a[k] * b[k] in double, added in a fixed order (the same bits on every build and
// device). Four fixed accumulators: the order of the additions is part of the definition,
// and the independent chains keep the loop from being latency-bound. Float products are
// exact in double.
BUTTERFLY_FN double dot(const float* a, const float* b, int K) {
  double acc[4] = {0, 0, 0, 0};
  int k = 0;
  for (; k + 4 <= K; k += 4)
    for (int j = 0; j < 4; ++j) acc[j] += double(a[k + j]) * double(b[k + j]);
  for (; k < K; ++k) acc[0] += double(a[k]) * double(b[k]);
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

}  // namespace butterfly::lda

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
// document that starts with a few topics also mixes into its own topics sooner
// (bench/RESULTS.md, issue 23, seventh session). Tokens that take uniform topics get the
// same ones either way.
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
      const auto r = rng::bits(seed, 0, rng::stream::z, first_token + static_cast<std::uint64_t>(t));
      if (start_topics == 0 || t - begin < start_topics)
        z[t] = static_cast<std::int32_t>((std::uint64_t{r[0]} * static_cast<std::uint64_t>(K)) >> 32);
      else
        z[t] = z[begin + static_cast<std::int64_t>((std::uint64_t{r[1]} * start_topics) >> 32)];
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
  const std::int64_t* tokens;   // null: the identity
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

// Element c: row c of partial (chunks x K) counts the topics of the tokens in chunk c (the
// tokens cut into `chunks` equal ranges): with mean_scale, n_k from z in O(tokens), the same
// integers as column_partials of n_wk in O(V K). Not with a count combiner (MPI), whose
// combined n_wk covers tokens this z does not. With `pooled`, the pooled sweeps' topics too.
// The host's form; a device's is token_partial_counts.
struct token_partials {
  const std::int32_t* z;
  std::int64_t tokens, chunks;
  int K;
  std::int64_t* partial;
  pooled_topics pooled = {};
  static constexpr std::int64_t grain = 1;
  BUTTERFLY_FN void operator()(std::int64_t c) const {
    const std::int64_t length = (tokens + chunks - 1) / chunks;
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
  const std::int64_t* tokens;   // null: the identity
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

// Element t: token t adds 1 to token_partials' row of its chunk at its topic (and at its
// topic in each pooled sweep), into partial zeroed before: token_partials' integers.
struct token_partial_counts {
  const std::int32_t* z;
  std::int64_t tokens, chunks;
  int K;
  std::int64_t* partial;  // chunks x K, zeroed
  pooled_topics pooled = {};
  static constexpr std::int64_t grain = 1 << 12;
  BUTTERFLY_FN void operator()(std::int64_t t) const {
    const std::int64_t length = (tokens + chunks - 1) / chunks;
    std::int64_t* const p = partial + (t / length) * K;
    detail::atomic_add(p + z[t], std::int64_t{1});
    for (int s = 0; s < pooled.sweeps; ++s)
      detail::atomic_add(p + pooled.topics[s * pooled.stride + t], std::int64_t{1});
  }
};

// Element m: row m of out = the posterior mean of Dirichlet(prior + counts row m).
struct posterior_mean_rows {
  double prior;
  const std::int32_t* counts;
  int K;
  float* out;
  static constexpr std::int64_t grain = 64;
  BUTTERFLY_FN void operator()(std::int64_t m) const {
    posterior_mean_row(prior, counts + m * K, K, out + m * K);
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

// Element k: scale[k] = 1 / (n_k + V beta), n_k the sum of the integer partials (also
// written to totals[k] when totals is not null).
struct mean_scale {
  const std::int64_t* partial;  // chunks x K
  std::int64_t chunks;
  int K;
  double prior_total;  // V beta
  double* scale;
  std::int64_t* totals;
  static constexpr std::int64_t grain = 64;
  BUTTERFLY_FN void operator()(std::int64_t k) const {
    std::int64_t n_k = 0;
    for (std::int64_t c = 0; c < chunks; ++c) n_k += partial[c * K + k];
    scale[k] = 1.0 / (static_cast<double>(n_k) + prior_total);
    if (totals) totals[k] = n_k;
  }
};

// Element i = w K + k: phi[w,k] = (n_wk + beta) scale[k], floored.
struct posterior_mean_entries {
  const std::int32_t* counts;
  const double* scale;
  int K;
  double prior;
  float* out;
  static constexpr std::int64_t grain = 1 << 14;
  BUTTERFLY_FN void at(std::int64_t i, std::int64_t k) const {
    out[i] = posterior_mean_entry(static_cast<double>(counts[i]), prior, scale[k]);
  }
  BUTTERFLY_FN void operator()(std::int64_t i) const { at(i, i % K); }
  void range(std::int64_t begin, std::int64_t end) const {
    row_segments(begin, end, K, [this](std::int64_t i, std::int64_t k, std::int64_t n) {
      for (std::int64_t j = 0; j < n; ++j) at(i + j, k + j);
    });
  }
};

// Element w: row w of phi as posterior_mean_entries writes it, from word_buckets' entries
// (collapsed.hpp) instead of a V x K row of counts: the prior's value for every topic, then
// the word's topics with their counts.
struct posterior_mean_words {
  const std::int64_t* entries;  // word_buckets': V + 1 places,
  const std::uint64_t* bits;    // the topic sets (how many of the places are used),
  const std::int32_t* topics;   // the topics and their counts
  const std::int32_t* counts;
  const double* scale;
  int K;
  double prior;
  float* out;
  static constexpr std::int64_t grain = 16;
  BUTTERFLY_FN void operator()(std::int64_t w) const {
    float* row = out + w * K;
    for (int k = 0; k < K; ++k) row[k] = posterior_mean_entry(0.0, prior, scale[k]);
    const std::int64_t end = entries[w] + used(w);
    for (std::int64_t e = entries[w]; e < end; ++e)
      row[topics[e]] = posterior_mean_entry(static_cast<double>(counts[e]), prior, scale[topics[e]]);
  }
  // At entry e of word w, whose topic k is: phi[w,k] less phi at k of a word without
  // counts, at least 0.
  BUTTERFLY_FN double above_prior(std::int64_t e, int k) const {
    const double s = scale[k];
    return static_cast<double>(posterior_mean_entry(static_cast<double>(counts[e]), prior, s)) -
           static_cast<double>(posterior_mean_entry(0.0, prior, s));
  }
  BUTTERFLY_FN std::int64_t used(std::int64_t w) const {  // word w's entries: its topics
    std::int64_t n = 0;
    for (int j = 0; j < set_words(K); ++j) n += detail::set_bits(bits[w * set_words(K) + j]);
    return n;
  }
};

// Element w: out[w] = the sum over word w's topics of phi[w,k] less the row of a word without
// counts (posterior_mean_words::above_prior), in entry order: what likelihood_blocks adds for
// the word's topics that a document does not have (times that document's theta there).
struct word_gaps {
  posterior_mean_words rows;  // out unused
  double* out;
  static constexpr std::int64_t grain = 16;
  BUTTERFLY_FN void operator()(std::int64_t w) const {
    double sum = 0.0;
    const std::int64_t end = rows.entries[w] + rows.used(w);
    for (std::int64_t e = rows.entries[w]; e < end; ++e) sum += rows.above_prior(e, rows.topics[e]);
    out[w] = sum;
  }
};

// Element i: out[i] = Gamma(prior + counts[i], 1), keyed by index0 + i. The host runs
// ranges through gamma_row (vectorized, the same bits: tests/lda/gamma.cpp).
struct gamma_entries {
  double prior;
  const std::int32_t* counts;
  rng_key key;
  std::uint64_t index0;
  double* out;
  static constexpr std::int64_t grain = 1 << 12;
  BUTTERFLY_FN void operator()(std::int64_t i) const {
    out[i] = gamma_variate(prior + static_cast<double>(counts[i]), key,
                           index0 + static_cast<std::uint64_t>(i));
  }
  void range(std::int64_t begin, std::int64_t end) const {
    gamma_row(prior, counts + begin, static_cast<int>(end - begin), key,
              index0 + static_cast<std::uint64_t>(begin), out + begin);
  }
};

// Element m: row m of out, the Dirichlet row of the Gamma variates g row m.
struct dirichlet_rows {
  const double* g;
  int K;
  float* out;
  static constexpr std::int64_t grain = 64;
  BUTTERFLY_FN void operator()(std::int64_t m) const { dirichlet_normalise(g + m * K, K, out + m * K); }
};

// Element k: scale[k] = 1 / (column k's sum), 0 when every variate of the column underflowed.
struct sum_scale {
  const double* partial;  // chunks x K
  std::int64_t chunks;
  int K;
  double* scale;
  static constexpr std::int64_t grain = 64;
  BUTTERFLY_FN void operator()(std::int64_t k) const {
    double sum = 0.0;
    for (std::int64_t c = 0; c < chunks; ++c) sum += partial[c * K + k];
    scale[k] = sum > 0.0 ? 1.0 / sum : 0.0;
  }
};

// Element i = w K + k: phi[w,k] = g[w,k] / column sum, floored; a column whose variates all
// underflowed becomes uniform. The variate passes through float first, raised to FLT_MIN so
// no denormal arithmetic follows: anything that small ends at the floor either way.
struct dirichlet_columns {
  const double* g;
  const double* scale;
  int K;
  float uniform;  // 1 / V
  float* out;
  static constexpr std::int64_t grain = 1 << 14;
  BUTTERFLY_FN void at(std::int64_t i, std::int64_t k) const {
    const double s = scale[k];
    const float p = static_cast<float>(g[i] > FLT_MIN ? g[i] : FLT_MIN);
    const float q = s > 0.0 ? static_cast<float>(p * s) : uniform;
    out[i] = q > probability_floor ? q : probability_floor;
  }
  BUTTERFLY_FN void operator()(std::int64_t i) const { at(i, i % K); }
  void range(std::int64_t begin, std::int64_t end) const {
    row_segments(begin, end, K, [this](std::int64_t i, std::int64_t k, std::int64_t n) {
      for (std::int64_t j = 0; j < n; ++j) at(i + j, k + j);
    });
  }
};

// Element b: the log-likelihood of documents [b block, (b + 1) block) of the shard,
// sum over their tokens t of log dot(theta[m(t),:], phi[w(t),:]), tokens in order. Where
// theta and phi are null (a sampler that holds neither: estimator::collapsed, sampler.cpp),
// both are read sparsely from z and word_buckets' entries (the held arrays' floats, made
// where they are needed): theta[m,:] is theta0, its value at a topic the document does not
// have, except at the document's topics, and phi[w,:] is the row of a word without counts
// except at w's topics (above it there, word_gaps sums by how much), so
//   dot = theta0 sum(prior row) + sum over the document's topics (theta_k - theta0) prior_k
//       + theta0 gap_w + sum over the topics of both (theta_k - theta0) (phi_wk - prior_k),
// the first line once per document, the second per token in O(K / 64 + the topics of both)
// from the two topic sets, as the sweep finds X's topics (collapsed.hpp), instead of O(K)
// or O(w's topics). Every term is at least 0. Departure from the held arrays' sum (the same
// value, other roundings: within 1e-12 relative, tests/lda/metrics.cpp); the same bits on
// every backend. The log is detail/portable_math.hpp's (glibc's differs between machines in
// the last bit, a GPU's libm from both); dot is at least K floor^2, a normal double, within
// its domain. A token of the same word as the token before it in its document (the UCI and
// LDA-C readers put a document's tokens of one word together) adds the same log again,
// computed once: the same bits, half the dots on 20news.
struct likelihood_blocks {
  const std::int64_t* offsets;  // the shard's, from 0
  const std::int32_t* words;    // the shard's
  const float* theta;
  const float* phi;
  int K;
  std::int64_t docs, block;
  double* partial;
  // With theta and phi null: z, alpha, word_buckets' entries (word_rows' out unused), the
  // words' gaps and the scratch rows per element (K counts, K floats, set_words(K) bits).
  const std::int32_t* z = nullptr;
  double alpha = 0.0;
  posterior_mean_words word_rows{};
  const double* gaps = nullptr;
  std::int32_t* counts = nullptr;
  float* rows = nullptr;
  std::uint64_t* bits = nullptr;
  static constexpr std::int64_t grain = 1;
  BUTTERFLY_FN void operator()(std::int64_t b) const {
    const std::int64_t end = (b + 1) * block < docs ? (b + 1) * block : docs;
    double sum = 0.0;
    if (theta) {
      for (std::int64_t m = b * block; m < end; ++m) {
        double term = 0.0;
        for (std::int64_t t = offsets[m]; t < offsets[m + 1]; ++t) {
          const std::int64_t w = words[t];
          if (t == offsets[m] || w != words[t - 1]) term = detail::portable::log(dot(theta + m * K, phi + w * K, K));
          sum += term;
        }
      }
      partial[b] = sum;
      return;
    }
    const int J = set_words(K);
    std::int32_t* const n = counts + b * K;
    float* const prior_row = rows + b * K;
    std::uint64_t* const set = bits + b * J;
    double prior_sum = 0.0;
    for (int k = 0; k < K; ++k) prior_sum += prior_row[k] = posterior_mean_entry(0.0, word_rows.prior, word_rows.scale[k]);
    for (std::int64_t m = b * block; m < end; ++m) {
      topic_counts{offsets + m, nullptr, z, K, n}(0);  // document m's row of n_mk
      const double doc_scale = posterior_mean_scale(offsets[m + 1] - offsets[m], K, alpha);  // theta row m's
      const float theta0 = posterior_mean_entry(0.0, alpha, doc_scale);
      const auto above_theta0 = [&](int k) {
        return static_cast<double>(posterior_mean_entry(static_cast<double>(n[k]), alpha, doc_scale)) -
               static_cast<double>(theta0);
      };
      for (int j = 0; j < J; ++j) set[j] = 0;
      for (std::int64_t t = offsets[m]; t < offsets[m + 1]; ++t) set[z[t] / 64] |= std::uint64_t{1} << (z[t] % 64);
      double doc_dot = static_cast<double>(theta0) * prior_sum;
      for (int j = 0; j < J; ++j)
        for (std::uint64_t d = set[j]; d != 0; d &= d - 1) {
          const int k = 64 * j + detail::lowest_set_bit(d);
          doc_dot += above_theta0(k) * static_cast<double>(prior_row[k]);
        }
      double term = 0.0;
      for (std::int64_t t = offsets[m]; t < offsets[m + 1]; ++t) {
        const std::int64_t w = words[t];
        if (t == offsets[m] || w != words[t - 1]) {
          const std::uint64_t* const word_set = word_rows.bits + w * J;
          double dot_w = static_cast<double>(theta0) * gaps[w];
          std::int64_t place = word_rows.entries[w];
          for (int j = 0; j < J; ++j) {
            const std::uint64_t ws = word_set[j];
            for (std::uint64_t both = set[j] & ws; both != 0; both &= both - 1) {
              const int i = detail::lowest_set_bit(both), k = 64 * j + i;
              dot_w += above_theta0(k) * word_rows.above_prior(place + detail::set_bits(ws & below(i)), k);
            }
            place += detail::set_bits(ws);
          }
          term = detail::portable::log(doc_dot + dot_w);
        }
        sum += term;
      }
    }
    partial[b] = sum;
  }
};

// One of the steps; a class (not an alias) so the backend seam can declare it.
class any : public std::variant<initial_topics, keep_topics, topic_counts, posterior_mean_rows,
                                column_partials<std::int32_t, std::int64_t>, token_partials, mean_scale,
                                posterior_mean_entries, posterior_mean_words, gamma_entries, dirichlet_rows,
                                column_partials<double, double>, sum_scale, dirichlet_columns,
                                likelihood_blocks, word_gaps, word_buckets, scale_sums, collapsed_documents,
                                word_topics, mh_documents, zero_entries<std::int32_t>,
                                zero_entries<std::int64_t>, token_topic_counts, token_partial_counts> {
 public:
  using variant::variant;
};

}  // namespace butterfly::lda::steps
