// The log-likelihood of the shard's tokens under theta and phi, as partial sums per block
// of documents (lda::chain::log_likelihood_partials; the sampler's held-out evaluation).
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/detail/subgroup.hpp"
#include "butterfly/lda/collapsed.hpp"
#include "butterfly/lda/count_steps.hpp"
#include "butterfly/lda/mean_steps.hpp"
#include "butterfly/lda/portable_math.hpp"
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

// Element b: the log-likelihood of documents [b block, (b + 1) block) of the shard,
// sum over their tokens t of log dot(theta[m(t),:], phi[w(t),:]), tokens in order. Where
// theta and phi are null (a sampler that holds neither: estimator::collapsed, sampler.cpp),
// both are read sparsely from z and word_buckets' entries (the held arrays' floats, made
// where they are needed): theta[m,:] is theta0, its value at a topic the document does not
// have, except at the document's topics, and phi[w,:] is the row of a word without counts
// except at w's topics (above it there, word_gaps sums by how much), so
//   dot = theta0 sum(prior row) + sum over the document's topics (theta_k - theta0) prior_k
//       + theta0 gap_w + sum over the topics of both (theta_k - theta0) (phi_wk - prior_k),
// the first line once per document, the second per token in O(the set words both have
// topics in + the topics of both) from the two topic sets, as the sweep finds X's topics
// (collapsed.hpp's fold_topics_of_both), instead of O(K) or O(w's topics). Every term is at
// least 0. Departure from the held arrays' sum (the same value, other roundings: within 1e-12
// relative, lda/tests/metrics.cpp); the same bits on every backend. The log is
// lda/portable_math.hpp's (glibc's differs between machines in the last bit, a GPU's libm from
// both); dot is at least K floor^2, a normal double, within its domain. A token of the same word as
// the token before it in its document (the UCI and LDA-C readers put a document's tokens of one
// word together) adds the same log again, computed once: the same bits, half the dots on 20news.
struct likelihood_blocks {
  const std::int64_t* offsets;  // the shard's, from 0
  const std::int32_t* words;    // the shard's
  const float* theta;
  const float* phi;
  int K;
  std::int64_t docs, block;
  double* partial;
  // With theta and phi null: z, alpha, word_buckets' entries (word_rows' out unused), the
  // words' gaps and the scratch rows per element (K counts, K floats, slot_words(K) bits).
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
          if (t == offsets[m] || w != words[t - 1])
            term = portable::log(dot(theta + m * K, phi + w * K, K));
          sum += term;
        }
      }
      partial[b] = sum;
      return;
    }
    const int J = set_words(K), M = mask_words(K);
    std::int32_t* const n = counts + b * K;
    float* const prior_row = rows + b * K;
    std::uint64_t* const set = bits + b * slot_words(K);
    std::uint64_t* const used = set + J;  // the set's nonempty words
    double prior_sum = 0.0;
    for (int k = 0; k < K; ++k)
      prior_sum += prior_row[k] = posterior_mean_entry(0.0, word_rows.prior, word_rows.scale[k]);
    for (std::int64_t m = b * block; m < end; ++m) {
      topic_counts{offsets + m, nullptr, z, K, n}(0);  // document m's row of n_mk
      const double doc_scale =
          posterior_mean_scale(offsets[m + 1] - offsets[m], K, alpha);  // theta row m's
      const float theta0 = posterior_mean_entry(0.0, alpha, doc_scale);
      const auto above_theta0 = [&](int k) {
        return static_cast<double>(
                   posterior_mean_entry(static_cast<double>(n[k]), alpha, doc_scale)) -
               static_cast<double>(theta0);
      };
      for (int j = 0; j < slot_words(K); ++j) set[j] = 0;
      for (std::int64_t t = offsets[m]; t < offsets[m + 1]; ++t) {
        set[z[t] / 64] |= std::uint64_t{1} << (z[t] % 64);
        used[z[t] / 4096] |= std::uint64_t{1} << (z[t] / 64 % 64);
      }
      double doc_dot = static_cast<double>(theta0) * prior_sum;
      for (int q = 0; q < M; ++q)
        for (std::uint64_t left = used[q]; left != 0; left &= left - 1) {
          const int j = 64 * q + detail::lowest_set_bit(left);
          for (std::uint64_t d = set[j]; d != 0; d &= d - 1) {
            const int k = 64 * j + detail::lowest_set_bit(d);
            doc_dot += above_theta0(k) * static_cast<double>(prior_row[k]);
          }
        }
      double term = 0.0;
      for (std::int64_t t = offsets[m]; t < offsets[m + 1]; ++t) {
        const std::int64_t w = words[t];
        if (t == offsets[m] || w != words[t - 1]) {
          const double dot_w = fold_topics_of_both(
              word_rows.sets, word_rows.sets.of(w), set, used, word_rows.entries[w], -1,
              static_cast<double>(theta0) * gaps[w], [&](double d, int k, std::int64_t p) {
                return d + above_theta0(k) * word_rows.above_prior(p, k);
              });
          term = portable::log(doc_dot + dot_w);
        }
        sum += term;
      }
    }
    partial[b] = sum;
  }
};

}  // namespace butterfly::lda::steps
