// Goodness of fit: for each algorithm, 2^20 (> 10^6) draws from fixed random (non-exact)
// weights through the public API, compared with the weights by Pearson's chi-square test.
// Significance level: alpha = 1e-3 per case, with fixed seeds, so the outcome is
// deterministic; a correct sampler fails a given case with probability 1e-3.
#include <catch2/catch.hpp>

#include <boost/math/distributions/chi_squared.hpp>

#include <random>

#include "harness.hpp"

using namespace butterfly;
using namespace butterfly::test;

namespace {

constexpr double alpha = 1e-3;

// All tokens of all documents share one theta row and one word, so every draw comes from
// the same distribution; documents are spread over many warps and the padding is exercised.
double chi_square_p_value(algorithm a, int K, int width, std::uint64_t seed) {
  std::mt19937 gen(static_cast<std::uint32_t>(seed * 7919 + K));
  std::uniform_real_distribution<float> weight(0.05f, 1.0f);
  std::vector<float> t(K), p(K);
  for (float& x : t) x = weight(gen);
  for (float& x : p) x = weight(gen);
  if (K > 4) t[K / 3] = 0.0f;  // a zero-weight topic: expected count 0, must be drawn 0 times

  const std::int64_t N = std::int64_t{1} << 20;
  const int M = 1021;  // prime: documents of unequal length, a partial last warp
  std::vector<std::int64_t> offsets(M + 1);
  for (int m = 0; m <= M; ++m) offsets[m] = N * m / M;
  std::vector<float> theta(static_cast<std::size_t>(M) * K);
  for (int m = 0; m < M; ++m) std::copy(t.begin(), t.end(), theta.begin() + m * K);
  std::vector<std::int32_t> words(N, 0), z(N);
  draw_options o;
  o.method = a;
  o.seed = seed;
  o.width = width;
  draw_topics(theta, p, K, offsets, words, z, o);

  std::vector<double> observed(K, 0.0);
  for (auto k : z) {
    REQUIRE((k >= 0 && k < K));
    observed[k] += 1;
  }
  double total = 0;
  for (int k = 0; k < K; ++k) total += static_cast<double>(t[k]) * p[k];
  double chi2 = 0;
  int dof = -1;
  for (int k = 0; k < K; ++k) {
    const double expected = N * (static_cast<double>(t[k]) * p[k]) / total;
    if (expected == 0) {
      REQUIRE(observed[k] == 0);
      continue;
    }
    chi2 += (observed[k] - expected) * (observed[k] - expected) / expected;
    ++dof;
  }
  if (dof < 1) return 1.0;  // a single possible outcome: nothing to test beyond the above
  return boost::math::cdf(boost::math::complement(boost::math::chi_squared(dof), chi2));
}

}  // namespace

TEMPLATE_TEST_CASE("goodness-of-fit: chi-square over 2^20 draws at alpha = 1e-3",
                   "[goodness-of-fit]", Basic, Transposed, Butterfly, WarpScan) {
  for (auto [K, width] : {std::pair{3, 4}, {17, 16}, {48, 16}, {240, 32}, {1000, 8}, {100, 64}}) {
    const double p = chi_square_p_value(TestType::value, K, backend_width(width), 2024);
    INFO("K = " << K << ", width = " << backend_width(width) << ", p-value = " << p);
    CHECK(p > alpha);
  }
}

// draw_rows on skewed weights: a few heavy topics and many tiny ones (and zeros), the shape of
// a trained LDA row. 2^18 identical rows (one distribution, every lane and warp position),
// Pearson's chi-square against the weights at alpha = 1e-3; the tiny topics expect about 20
// draws each, enough for the chi-square approximation, so a sampler that loses (or
// over-draws) the light tail fails.
TEMPLATE_TEST_CASE(
    "goodness-of-fit: draw_rows on skewed weights (3 heavy topics, 58 tiny), chi-square at alpha = "
    "1e-3",
    "[goodness-of-fit]", Basic, Transposed, Butterfly, WarpScan) {
  const int K = 64;
  const std::int64_t R = std::int64_t{1} << 18;
  std::mt19937 gen(21);
  std::uniform_real_distribution<float> tiny(0.01f, 0.02f);
  std::vector<float> row(K);
  for (float& x : row) x = tiny(gen);
  row[5] = 100.0f;
  row[37] = 50.0f;
  row[63] = 20.0f;
  for (int k : {0, 20, 40}) row[k] = 0.0f;
  std::vector<float> weights(static_cast<std::size_t>(R) * K);
  for (std::int64_t r = 0; r < R; ++r) std::copy(row.begin(), row.end(), weights.begin() + r * K);
  double total = 0;
  for (float x : row) total += x;
  for (int preferred : {8, 32}) {
    const int width = backend_width(preferred);
    draw_options o;
    o.method = TestType::value;
    o.seed = 77;
    o.width = width;
    std::vector<std::int32_t> out(static_cast<std::size_t>(R));
    draw_rows(weights, K, out, o);
    std::vector<double> observed(K, 0.0);
    std::int64_t out_of_range = 0;
    for (auto k : out) {
      if (k >= 0 && k < K) observed[k] += 1;
      else ++out_of_range;
    }
    REQUIRE(out_of_range == 0);
    double chi2 = 0, min_expected = 1e300;
    int dof = -1;
    for (int k = 0; k < K; ++k) {
      const double expected = static_cast<double>(R) * row[k] / total;
      if (expected == 0) {
        REQUIRE(observed[k] == 0);
        continue;
      }
      min_expected = std::min(min_expected, expected);
      chi2 += (observed[k] - expected) * (observed[k] - expected) / expected;
      ++dof;
    }
    const double p = boost::math::cdf(boost::math::complement(boost::math::chi_squared(dof), chi2));
    INFO("width " << width << ", smallest expected count " << min_expected << ", chi2 " << chi2
                  << " on " << dof << " degrees of freedom, p-value " << p);
    REQUIRE(min_expected > 5);
    CHECK(p > alpha);
  }
}
