#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <vector>

#include "butterfly/lda/gamma.hpp"

using namespace butterfly;

// Sample mean and variance of Gamma(a, 1) against a and a. Standard errors: sqrt(a / n) for
// the mean, sqrt((2a^2 + 6a) / n) for the variance (central 4th moment 3a^2 + 6a). Fixed
// seeds make the test deterministic; 5 standard errors is a two-sided level of ~6e-7 each.
TEST_CASE("lda: gamma variates have the right mean and variance", "[lda][gamma]") {
  const int n = 200000;
  for (double a : {0.01, 0.1, 0.5, 0.99, 1.0, 1.7, 12.0, 300.0}) {
    CAPTURE(a);
    const lda::rng_key key{1234, 7, rng::stream::theta};
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

TEST_CASE("lda: gamma variates are a pure function of the key", "[lda][gamma]") {
  const lda::rng_key a{1, 2, rng::stream::phi}, b{1, 2, rng::stream::theta}, c{2, 2, rng::stream::phi};
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
      lda::dirichlet_row(prior, counts.data(), K, {9, 1, rng::stream::theta}, i * K, scratch.data(),
                         row.data());
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
  lda::dirichlet_row(1e-300, zeros.data(), K, {9, 1, rng::stream::theta}, 0, scratch.data(), row.data());
  for (float p : row) CHECK(p == Approx(1.0 / K));
  // The floor keeps a product of two entries a normal float.
  CHECK(std::isnormal(lda::probability_floor * lda::probability_floor));
}
