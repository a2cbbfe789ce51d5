// The posterior-mean estimator of theta and phi (estimator::mean, chain.hpp): the mean of
// the Dirichlet a sampler would draw from, (count + prior) / (total + entries * prior).
// Every value is one IEEE division or product of exactly representable operands, rounded
// once to float, so the result is the same on every machine, build and thread count.
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/lda/gamma.hpp"

namespace butterfly::lda {

// out[k] = (counts[k] + prior) / (sum_k counts[k] + K prior), floored like dirichlet_row.
template <class Count>
BUTTERFLY_FN void posterior_mean_row(double prior, const Count* counts, int K, float* out) {
  std::int64_t total = 0;
  for (int k = 0; k < K; ++k) total += counts[k];
  const double scale = 1.0 / (static_cast<double>(total) + K * prior);
  for (int k = 0; k < K; ++k) {
    const float p = static_cast<float>((static_cast<double>(counts[k]) + prior) * scale);
    out[k] = p > probability_floor ? p : probability_floor;
  }
}

}  // namespace butterfly::lda
