// The posterior-mean estimator of theta and phi (estimator::mean, chain.hpp): the mean of
// the Dirichlet a sampler would draw from, (count + prior) / (total + entries * prior).
// Every value is one IEEE division or product of exactly representable operands, rounded
// once to float, so the result is the same on every machine, build and thread count.
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/lda/gamma.hpp"

namespace butterfly::lda {

// (count + prior) * scale, scale = 1 / (the total + entries * prior), floored like
// dirichlet_row: one entry of theta or phi.
BUTTERFLY_FN float posterior_mean_entry(double count, double prior, double scale) {
  const float p = static_cast<float>((count + prior) * scale);
  return p > probability_floor ? p : probability_floor;
}

// The scale of a row of K entries whose counts sum to total.
BUTTERFLY_FN double posterior_mean_scale(std::int64_t total, int K, double prior) {
  return 1.0 / (static_cast<double>(total) + K * prior);
}

// out[k] = (counts[k] + prior) / (sum_k counts[k] + K prior).
template <class Count>
BUTTERFLY_FN void posterior_mean_row(double prior, const Count* counts, int K, float* out) {
  std::int64_t total = 0;
  for (int k = 0; k < K; ++k) total += counts[k];
  const double scale = posterior_mean_scale(total, K, prior);
  for (int k = 0; k < K; ++k)
    out[k] = posterior_mean_entry(static_cast<double>(counts[k]), prior, scale);
}

}  // namespace butterfly::lda
