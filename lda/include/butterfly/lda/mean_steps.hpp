// The posterior-mean steps (estimator::mean, and the theta and phi of collapsed and mh;
// posterior_mean.hpp holds the arithmetic): theta's rows, n_k's scale, phi's entries from
// the dense n_wk or from word_buckets' sparse entries (collapsed.hpp), and the words' gaps
// that the log-likelihood reads where phi is made from those entries.
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/detail/subgroup.hpp"
#include "butterfly/lda/collapsed.hpp"
#include "butterfly/lda/count_steps.hpp"
#include "butterfly/lda/posterior_mean.hpp"

namespace butterfly::lda::steps {

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
  word_sets sets;               // the topic sets (their sizes: how many places are used),
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
      row[topics[e]] =
          posterior_mean_entry(static_cast<double>(counts[e]), prior, scale[topics[e]]);
  }
  // At entry e of word w, whose topic k is: phi[w,k] less phi at k of a word without
  // counts, at least 0.
  BUTTERFLY_FN double above_prior(std::int64_t e, int k) const {
    const double s = scale[k];
    return static_cast<double>(posterior_mean_entry(static_cast<double>(counts[e]), prior, s)) -
           static_cast<double>(posterior_mean_entry(0.0, prior, s));
  }
  BUTTERFLY_FN std::int64_t used(std::int64_t w) const {  // word w's entries: its topics
    return sets.size(w);
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

}  // namespace butterfly::lda::steps
