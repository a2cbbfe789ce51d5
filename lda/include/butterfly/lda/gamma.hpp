// Gamma and Dirichlet variates for the uncollapsed Gibbs sampler. Every variate is a pure
// function of (seed, iteration, stream, index): attempt number d of a rejection loop reads
// the Philox block rng::bits(seed, iteration, stream, index, d), so a value never depends
// on which thread drew it or on what was drawn before. The math is lda/portable_math.hpp
// (+, -, *, / and sqrt only, never the platform's libm), so a variate is the same bits on
// every x86-64 machine whatever its SIMD width, and (with contraction off) on GPUs.
#pragma once

#include <cmath>
#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/lda/portable_math.hpp"
#include "butterfly/lda/streams.hpp"

namespace butterfly::lda {

// Every theta and phi entry is at least this. A product of two floors, 2^-124, is still a
// normal float (FLT_MIN = 2^-126), so theta[m,k] * phi[w,k] never underflows to zero or to
// a slow denormal in the z draw, no row of products sums to zero, and log p(w) is finite.
// The mass moved onto floored entries is below K * 2^-62 per row: invisible in float.
inline constexpr float probability_floor = 0x1p-62f;

// A double in (0, 1): never 0, so its log is finite; 32 random bits are plenty for the
// acceptance tests and Box-Muller below (the normal's tails are cut at 6.8 sigma).
BUTTERFLY_FN double open_u01(std::uint32_t x) { return (static_cast<double>(x) + 0.5) * 0x1p-32; }

struct rng_key {
  std::uint64_t seed;
  std::uint32_t iteration;
  rng::stream stream;
};

// One attempt of a rejection sampler: the candidate, and whether it is accepted. Each
// sampler has a quick test (a squeeze: no further log) and the full test; the full
// acceptance is "squeeze or exact test", so a candidate the squeeze accepts is accepted by
// both, with the same bits. Both are written without branches (both sides computed, then
// selected), so one source serves the scalar loop and the vectorized passes of gamma_row.
struct gamma_attempt {
  double value;
  std::uint64_t accepted;  // 0 or 1; as wide as value (a bool member keeps GCC from vectorizing)
};

// Marsaglia & Tsang (2000) for shape >= 1: d = shape - 1/3, c = 1 / sqrt(9 d); a Box-Muller
// normal from words 0 and 1, the acceptance uniform from word 2; acceptance is above 95 %,
// mostly by the squeeze u < 1 - 0.0331 x^4.
struct marsaglia_tsang {
  double d, c;
  BUTTERFLY_FN explicit marsaglia_tsang(double shape)
      : d(shape - 1.0 / 3.0), c(1.0 / std::sqrt(9.0 * (shape - 1.0 / 3.0))) {}

  struct candidate {
    double x, v;    // the normal and (1 + c x)^3 (1 where 1 + c x <= 0)
    bool positive;  // 1 + c x > 0
  };
  BUTTERFLY_FN candidate propose(std::uint32_t w0, std::uint32_t w1) const {
    BUTTERFLY_NO_CONTRACT
    namespace pm = butterfly::lda::portable;
    const double x = std::sqrt(-2.0 * pm::log(open_u01(w0))) * pm::cos_2pi(open_u01(w1));
    const double v1 = 1.0 + c * x;
    const bool positive = v1 > 0.0;
    return {x, pm::select(positive, v1 * v1 * v1, 1.0), positive};  // 1.0: log's domain
  }
  BUTTERFLY_FN gamma_attempt quick(std::uint32_t w0, std::uint32_t w1, std::uint32_t w2) const {
    BUTTERFLY_NO_CONTRACT
    const candidate p = propose(w0, w1);
    const double x2 = p.x * p.x;
    return {d * p.v, std::uint64_t(p.positive & (open_u01(w2) < 1.0 - 0.0331 * x2 * x2))};
  }
  BUTTERFLY_FN gamma_attempt full(std::uint32_t w0, std::uint32_t w1, std::uint32_t w2) const {
    BUTTERFLY_NO_CONTRACT
    namespace pm = butterfly::lda::portable;
    const candidate p = propose(w0, w1);
    const double u = open_u01(w2), x2 = p.x * p.x;
    const bool squeeze = u < 1.0 - 0.0331 * x2 * x2;
    const bool exact = pm::log(u) < 0.5 * x2 + d * (1.0 - p.v + pm::log(p.v));
    return {d * p.v, std::uint64_t(p.positive & (squeeze | exact))};
  }
};

// shape < 1 (a zero count plus alpha or beta; most of the K x (M + V) entries each
// iteration): the rejection method of Ahrens & Dieter (GS) as numpy draws it for shape < 1,
// with u from word 0 and E = -log(e_u) ~ Exp(1) from word 1. We use it rather than the boost
// Gamma(shape + 1) * U^(1/shape), which needs a normal and a Marsaglia-Tsang step before its
// pow. For tiny shapes the result underflows double (to 0) with probability about
// 1e-308^shape; callers floor after normalising, so that is harmless.
struct ahrens_dieter {
  double shape, inv_shape;
  BUTTERFLY_FN explicit ahrens_dieter(double a) : shape(a), inv_shape(1.0 / a) {}

  // u <= 1 - shape: x = u^(1/shape), accepted when x <= E; squeeze x <= 1 - e_u <= E. The
  // quick pass takes only this side (at alpha = 0.21 four in five entries, at beta = 0.01
  // 99 in 100) and only its squeeze.
  BUTTERFLY_FN gamma_attempt quick(std::uint32_t w0, std::uint32_t w1, std::uint32_t) const {
    BUTTERFLY_NO_CONTRACT
    namespace pm = butterfly::lda::portable;
    const double u = open_u01(w0);
    const double x = pm::exp(pm::log(u) * inv_shape);
    return {x, std::uint64_t((u <= 1.0 - shape) & (x <= 1.0 - open_u01(w1)))};
  }
  // The other side: y = -log((1 - u) / shape), x = (1 - shape + shape y)^(1/shape),
  // accepted when x <= y + E.
  BUTTERFLY_FN gamma_attempt full(std::uint32_t w0, std::uint32_t w1, std::uint32_t) const {
    BUTTERFLY_NO_CONTRACT
    namespace pm = butterfly::lda::portable;
    const double u = open_u01(w0), e_u = open_u01(w1);
    const double e = -pm::log(e_u);
    const bool first = u <= 1.0 - shape;
    const double l1 = pm::log(pm::select(first, u, (1.0 - u) * inv_shape));
    const double y = -l1;
    const double l2 = pm::log(pm::select(first, 1.0, 1.0 - shape + shape * y));
    const double x = pm::exp(pm::select(first, l1, l2) * inv_shape);
    const bool squeeze = first & (x <= 1.0 - e_u);
    return {x, std::uint64_t(squeeze | (x <= pm::select(first, e, y + e)))};
  }
};

template <class Sampler>
BUTTERFLY_FN double gamma_attempts(const Sampler& s, const rng_key& key, std::uint64_t index) {
  // 2^24 attempts (the width of the draw counter) would need 2^24 rejections in a row.
  for (std::uint32_t attempt = 0;; ++attempt) {
    const auto r = rng::bits(key.seed, key.iteration, key.stream, index, attempt);
    const gamma_attempt a = s.full(r[0], r[1], r[2]);
    if (a.accepted) return a.value;
  }
}

// Gamma(shape, 1) for finite shape > 0, in double.
BUTTERFLY_FN double gamma_variate(double shape, const rng_key& key, std::uint64_t index) {
  if (shape >= 1.0) return gamma_attempts(marsaglia_tsang(shape), key, index);
  return gamma_attempts(ahrens_dieter(shape), key, index);
}

namespace gamma_impl {

// Up to gamma_block entries of one sampler, attempt by attempt, vectorized: Philox for every
// open entry; the quick test for all of them; the full test for those the quick one left
// open; the rejected ones go on to the next attempt. Each pass is a loop without branches
// that GCC vectorizes, over compacted arrays (no gathers); in between, scalar loops store the
// accepted values and compact the rest. An entry sees the attempts 0, 1, 2, ... of
// gamma_variate with the same tests, so it gets the same bits. shape[j] belongs in
// out[pos[j]]; both arrays are compacted in place.
inline constexpr int gamma_block = 64;

template <class Sampler>
inline void gamma_block_attempts(double* shape, int* pos, int n, const rng_key& key,
                                 std::uint64_t index0, double* out) {
  std::uint32_t w0[gamma_block], w1[gamma_block], w2[gamma_block];
  double value[gamma_block];
  std::uint64_t done[gamma_block];  // 64 bits wide like the doubles: one vector width per loop
  for (std::uint32_t attempt = 0; n > 0; ++attempt) {
    for (int j = 0; j < n; ++j) {
      const auto r = rng::bits(key.seed, key.iteration, key.stream,
                               index0 + static_cast<std::uint64_t>(pos[j]), attempt);
      w0[j] = r[0];
      w1[j] = r[1];
      w2[j] = r[2];
    }
    for (int j = 0; j < n; ++j) {
      const gamma_attempt a = Sampler(shape[j]).quick(w0[j], w1[j], w2[j]);
      value[j] = a.value;
      done[j] = a.accepted;
    }
    int m = 0;
    for (int j = 0; j < n; ++j) {  // store the accepted, compact the open (m <= j)
      if (done[j]) out[pos[j]] = value[j];
      shape[m] = shape[j];
      pos[m] = pos[j];
      w0[m] = w0[j];
      w1[m] = w1[j];
      w2[m] = w2[j];
      m += !done[j];
    }
    for (int j = 0; j < m; ++j) {
      const gamma_attempt a = Sampler(shape[j]).full(w0[j], w1[j], w2[j]);
      value[j] = a.value;
      done[j] = a.accepted;
    }
    n = 0;
    for (int j = 0; j < m; ++j) {  // store the accepted, keep the rejected for the next attempt
      if (done[j]) out[pos[j]] = value[j];
      shape[n] = shape[j];
      pos[n] = pos[j];
      n += !done[j];
    }
  }
}

}  // namespace gamma_impl

// Gamma(prior + counts[k], 1) into out[k] for k in [0, K), variate k keyed by index0 + k:
// the same bits as gamma_variate(prior + counts[k], key, index0 + k) (lda/tests/gamma.cpp),
// 2-3.5x faster than that loop (bench/gamma.cpp). Entries are
// split by sampler (shape < 1 or >= 1; in LDA most shapes are the prior alone), so each
// vectorized pass runs one sampler on every lane.
template <class Count>
void gamma_row(double prior, const Count* counts, int K, const rng_key& key, std::uint64_t index0,
               double* out) {
  using gamma_impl::gamma_block;
  double small[gamma_block], large[gamma_block];
  int small_pos[gamma_block], large_pos[gamma_block];
  for (int k0 = 0; k0 < K; k0 += gamma_block) {
    const int n = K - k0 < gamma_block ? K - k0 : gamma_block;
    int ns = 0, nl = 0;
    for (int k = k0; k < k0 + n; ++k) {  // compaction without branches
      const double shape = prior + static_cast<double>(counts[k]);
      const bool is_small = shape < 1.0;
      small[ns] = large[nl] = shape;
      small_pos[ns] = large_pos[nl] = k;
      ns += is_small;
      nl += !is_small;
    }
    gamma_impl::gamma_block_attempts<ahrens_dieter>(small, small_pos, ns, key, index0, out);
    gamma_impl::gamma_block_attempts<marsaglia_tsang>(large, large_pos, nl, key, index0, out);
  }
}

// Normalises K Gamma variates g[0..K) (double) into a Dirichlet row out[0..K) (float,
// floored). A row whose Gamma draws all underflowed (only possible when every count is zero
// and the prior is tiny) becomes uniform rather than 0/0.
BUTTERFLY_FN void dirichlet_normalise(const double* g, int K, float* out) {
  double sum = 0.0;
  for (int k = 0; k < K; ++k) sum += g[k];
  if (!(sum > 0.0)) {
    for (int k = 0; k < K; ++k) out[k] = 1.0f / static_cast<float>(K);
    return;
  }
  const double inv = 1.0 / sum;
  for (int k = 0; k < K; ++k) {
    const float p = static_cast<float>(g[k] * inv);
    out[k] = p > probability_floor ? p : probability_floor;
  }
}

// One Dirichlet(prior + counts[0..K)) row into out[0..K) (float, floored), drawing the
// Gamma variate of entry k at index index0 + k. Gamma values and their sum stay in double.
// `scratch` holds K doubles.
template <class Count>
void dirichlet_row(double prior, const Count* counts, int K, const rng_key& key,
                   std::uint64_t index0, double* scratch, float* out) {
  gamma_row(prior, counts, K, key, index0, scratch);
  dirichlet_normalise(scratch, K, out);
}

}  // namespace butterfly::lda
