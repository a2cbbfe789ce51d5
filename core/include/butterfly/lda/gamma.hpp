// Gamma and Dirichlet variates for the uncollapsed Gibbs sampler. Every variate is a pure
// function of (seed, iteration, stream, index): attempt number d of a rejection loop reads
// the Philox block rng::bits(seed, iteration, stream, index, d), so a value never depends
// on which thread drew it or on what was drawn before.
#pragma once

#include <cmath>
#include <cstdint>

#include "butterfly/detail/rng.hpp"

namespace butterfly::lda {

// Every theta and phi entry is at least this. A product of two floors, 2^-124, is still a
// normal float (FLT_MIN = 2^-126), so theta[m,k] * phi[w,k] never underflows to zero or to
// a slow denormal in the z draw, no row of products sums to zero, and log p(w) is finite.
// The mass moved onto floored entries is below K * 2^-62 per row: invisible in float.
inline constexpr float probability_floor = 0x1p-62f;

// A double in (0, 1): never 0, so its log is finite; 32 random bits are plenty for the
// acceptance tests and Box-Muller below (the normal's tails are cut at 6.8 sigma).
inline double open_u01(std::uint32_t x) { return (static_cast<double>(x) + 0.5) * 0x1p-32; }

struct rng_key {
  std::uint64_t seed;
  std::uint32_t iteration;
  rng::stream stream;
};

// Gamma(shape, 1) for shape > 0, in double.
//
// shape >= 1: Marsaglia & Tsang (2000), one Philox block per attempt (two words for a
// Box-Muller normal, one for the acceptance uniform); acceptance is above 95 %.
//
// shape < 1 (a zero count plus alpha or beta; most of the K x (M + V) entries each
// iteration): the rejection method of Ahrens & Dieter as numpy draws it for shape < 1. We use
// it rather than the boost Gamma(shape + 1) * U^(1/shape): the boost needs a normal and a
// Marsaglia-Tsang step before its pow, i.e. five transcendental calls, where this needs a log
// and an exp on most attempts, and these entries dominate the cost of an LDA iteration.
// For tiny shapes the result underflows double (to 0) with probability about
// 1e-308^shape; callers floor after normalising, so that is harmless.
inline double gamma_variate(double shape, const rng_key& key, std::uint64_t index) {
  if (shape >= 1.0) {
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    // 2^24 attempts (the width of the draw counter) would need 2^24 rejections in a row.
    for (std::uint32_t attempt = 0;; ++attempt) {
      const auto r = rng::bits(key.seed, key.iteration, key.stream, index, attempt);
      const double x = std::sqrt(-2.0 * std::log(open_u01(r[0]))) *
                       std::cos(6.283185307179586 * open_u01(r[1]));
      double v = 1.0 + c * x;
      if (v <= 0.0) continue;
      v = v * v * v;
      const double u = open_u01(r[2]);
      const double x2 = x * x;
      if (u < 1.0 - 0.0331 * x2 * x2) return d * v;  // squeeze: no log on most attempts
      if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) return d * v;
    }
  }
  for (std::uint32_t attempt = 0;; ++attempt) {
    const auto r = rng::bits(key.seed, key.iteration, key.stream, index, attempt);
    const double u = open_u01(r[0]);
    const double e_u = open_u01(r[1]);  // E = -log(e_u) is Exp(1)
    if (u <= 1.0 - shape) {
      const double x = std::exp(std::log(u) / shape);  // u^(1/shape)
      if (x <= 1.0 - e_u) return x;                    // squeeze: 1 - e_u <= -log(e_u)
      if (x <= -std::log(e_u)) return x;
    } else {
      const double y = -std::log((1.0 - u) / shape);
      const double x = std::exp(std::log(1.0 - shape + shape * y) / shape);
      if (x <= y - std::log(e_u)) return x;
    }
  }
}

// One Dirichlet(prior + counts[0..K)) row into out[0..K) (float, floored), drawing the
// Gamma variate of entry k at index index0 + k. Gamma values and their sum stay in double.
// `scratch` holds K doubles. A row whose Gamma draws all underflow (only possible when every
// count is zero and the prior is tiny) becomes uniform rather than 0/0.
template <class Count>
void dirichlet_row(double prior, const Count* counts, int K, const rng_key& key,
                   std::uint64_t index0, double* scratch, float* out) {
  double sum = 0.0;
  for (int k = 0; k < K; ++k) {
    scratch[k] = gamma_variate(prior + static_cast<double>(counts[k]), key, index0 + k);
    sum += scratch[k];
  }
  if (!(sum > 0.0)) {
    for (int k = 0; k < K; ++k) out[k] = 1.0f / static_cast<float>(K);
    return;
  }
  const double inv = 1.0 / sum;
  for (int k = 0; k < K; ++k) {
    const float p = static_cast<float>(scratch[k] * inv);
    out[k] = p > probability_floor ? p : probability_floor;
  }
}

}  // namespace butterfly::lda
