// The steps of estimator::sample, the paper's uncollapsed Gibbs sampler: theta and phi drawn
// from their Dirichlet posteriors through Gamma variates (gamma.hpp), theta by rows and phi
// by columns (column sums over fixed word chunks, count_steps.hpp's column_partials).
#pragma once

#include <cfloat>
#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/lda/count_steps.hpp"
#include "butterfly/lda/gamma.hpp"

namespace butterfly::lda::steps {

// Element i: out[i] = Gamma(prior + counts[i], 1), keyed by index0 + i. The host runs
// ranges through gamma_row (vectorized, the same bits: lda/tests/gamma.cpp).
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
  BUTTERFLY_FN void operator()(std::int64_t m) const {
    dirichlet_normalise(g + m * K, K, out + m * K);
  }
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

}  // namespace butterfly::lda::steps
