#include <catch2/catch.hpp>

#include "butterfly/lda/gamma.hpp"

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

using namespace butterfly;

// Sample mean and variance of Gamma(a, 1) against a and a. Standard errors: sqrt(a / n) for
// the mean, sqrt((2a^2 + 6a) / n) for the variance (central 4th moment 3a^2 + 6a). Fixed
// seeds make the test deterministic; 5 standard errors (5 sigma) is a two-sided level of
// ~6e-7 each. Shapes: the LDA priors (beta 0.01, alpha 50/240 = 0.2083) alone and with
// counts, both sides of the switch between the two samplers at 1, and very large shapes.
TEST_CASE("lda: gamma variates have the right mean and variance", "[lda][gamma]") {
  const int n = 200000;
  for (double a : {0.01, 0.1, 0.2083, 0.5, 0.99, 1.0, 1.7, 3.5, 12.0, 100.0, 300.0, 1e4}) {
    CAPTURE(a);
    const lda::rng_key key{1234, 7, lda::streams::theta};
    double sum = 0, sum2 = 0;
    for (int i = 0; i < n; ++i) {
      const double g = lda::gamma_variate(a, key, static_cast<std::uint64_t>(i));
      REQUIRE(g >= 0.0);
      REQUIRE(std::isfinite(g));
      sum += g;
      sum2 += g * g;
    }
    const double mean = sum / n, var = sum2 / n - mean * mean;
    CHECK(std::abs(mean - a) < 5 * std::sqrt(a / n));
    CHECK(std::abs(var - a) < 5 * std::sqrt((2 * a * a + 6 * a) / n));
  }
}

// The whole distribution, not just two moments: Pearson's chi-square over 20 bins of equal
// Gamma(a) probability (edges from boost's inverse regularized incomplete gamma), 100,000
// variates per shape, fixed seeds; each p-value must exceed 1e-4. Both samplers, and both
// sides of Ahrens-Dieter (the second is taken with probability `a`).
TEST_CASE("lda: gamma variates follow the Gamma distribution (chi-square)", "[lda][gamma]") {
  const int n = 100000, bins = 20;
  for (double a : {0.01, 0.2083, 0.7, 1.0, 3.5, 100.0}) {
    CAPTURE(a);
    std::vector<double> edge(bins - 1);
    for (int b = 1; b < bins; ++b)
      edge[b - 1] = boost::math::gamma_p_inv(a, static_cast<double>(b) / bins);
    std::vector<int> count(bins, 0);
    const lda::rng_key key{77, 3, lda::streams::phi};
    for (int i = 0; i < n; ++i) {
      const double g = lda::gamma_variate(a, key, static_cast<std::uint64_t>(i));
      ++count[std::upper_bound(edge.begin(), edge.end(), g) - edge.begin()];
    }
    const double expected = static_cast<double>(n) / bins;
    double chi2 = 0;
    for (int c : count) chi2 += (c - expected) * (c - expected) / expected;
    const double p =
        boost::math::cdf(boost::math::complement(boost::math::chi_squared(bins - 1), chi2));
    CAPTURE(chi2, p);
    CHECK(p > 1e-4);
  }
}

// gamma_row runs the first attempts in vectorized passes; it must give gamma_variate's bits,
// for every K (blocks of 64, partial blocks), both samplers mixed in one row, and rows
// where one sampler has no entry.
TEST_CASE("lda: gamma_row gives gamma_variate's bits", "[lda][gamma]") {
  std::mt19937_64 gen(5);
  for (int K : {1, 2, 7, 63, 64, 65, 240, 1000}) {
    for (double prior : {1e-3, 0.01, 50.0 / 240, 0.5, 0.999, 1.0, 2.5}) {
      CAPTURE(K, prior);
      std::vector<std::int32_t> counts(static_cast<std::size_t>(K));
      std::vector<double> row(static_cast<std::size_t>(K));
      for (int r = 0; r < 20; ++r) {
        // Mostly zeros, some small and a few large counts (as in n_mk and n_wk).
        for (auto& c : counts) {
          const auto x = gen() % 100;
          c = x < 80   ? 0
              : x < 97 ? static_cast<std::int32_t>(x % 5)
                       : static_cast<std::int32_t>(gen() % 20000);
        }
        const lda::rng_key key{gen(), static_cast<std::uint32_t>(r),
                               r % 2 ? lda::streams::phi : lda::streams::theta};
        const std::uint64_t index0 = gen() >> 8;
        lda::gamma_row(prior, counts.data(), K, key, index0, row.data());
        for (int k = 0; k < K; ++k) {
          const double scalar =
              lda::gamma_variate(prior + counts[k], key, index0 + static_cast<std::uint64_t>(k));
          CAPTURE(k, counts[k], row[k], scalar);
          REQUIRE(std::memcmp(&row[k], &scalar, sizeof scalar) == 0);
        }
      }
    }
  }
}

TEST_CASE("lda: gamma variates are a pure function of the key", "[lda][gamma]") {
  const lda::rng_key a{1, 2, lda::streams::phi}, b{1, 2, lda::streams::theta},
      c{2, 2, lda::streams::phi};
  CHECK(lda::gamma_variate(0.3, a, 5) == lda::gamma_variate(0.3, a, 5));
  CHECK(lda::gamma_variate(3.0, a, 5) == lda::gamma_variate(3.0, a, 5));
  CHECK(lda::gamma_variate(0.3, a, 5) != lda::gamma_variate(0.3, a, 6));
  CHECK(lda::gamma_variate(0.3, a, 5) != lda::gamma_variate(0.3, b, 5));
  CHECK(lda::gamma_variate(3.0, a, 5) != lda::gamma_variate(3.0, c, 5));
}

TEST_CASE("lda: Dirichlet rows are normalised and floored, never zero or NaN", "[lda][gamma]") {
  const int K = 7;
  std::vector<int> counts = {0, 0, 0, 5, 0, 0, 0};
  std::vector<double> scratch(K);
  std::vector<float> row(K);
  for (double prior : {1e-9, 1e-3, 0.1, 2.0}) {
    for (std::uint64_t i = 0; i < 2000; ++i) {
      lda::dirichlet_row(prior, counts.data(), K, {9, 1, lda::streams::theta}, i * K,
                         scratch.data(), row.data());
      double sum = 0;
      for (float p : row) {
        REQUIRE(p >= lda::probability_floor);
        REQUIRE(p <= 1.0f);
        sum += p;
      }
      REQUIRE(sum == Approx(1.0).epsilon(1e-5));
    }
  }
  // With a vanishing prior every draw underflows: the row falls back to uniform.
  std::vector<int> zeros(K, 0);
  lda::dirichlet_row(1e-300, zeros.data(), K, {9, 1, lda::streams::theta}, 0, scratch.data(),
                     row.data());
  for (float p : row) CHECK(p == Approx(1.0 / K));
  // The floor keeps a product of two entries a normal float.
  CHECK(std::isnormal(lda::probability_floor * lda::probability_floor));
}
