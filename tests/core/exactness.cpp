// With small-integer weights every partial sum is exact in float, so basic, transposed,
// butterfly and the double-precision oracle must draw the same index for every u, in
// particular at, just below and just above each prefix-sum boundary.
#include <catch2/catch.hpp>

#include <random>

#include "harness.hpp"

using namespace butterfly;
using namespace butterfly::test;

namespace {

// The u values to try for one row: each boundary P_k / S (rounded to float) and its two
// float neighbours, plus both ends of the range the Philox uniform can produce.
std::vector<float> boundary_us(const float* w, int K) {
  double s = 0;
  for (int k = 0; k < K; ++k) s += w[k];
  std::vector<float> us{0.0f, 1.0f - 0x1p-24f};
  double prefix = 0;
  for (int k = 0; k < K && s > 0; ++k) {
    prefix += w[k];
    const float at = static_cast<float>(prefix / s);
    for (float u : {std::nextafter(at, 0.0f), at, std::nextafter(at, 1.0f)})
      if (u >= 0.0f && u < 1.0f) us.push_back(u);
  }
  return us;
}

// Runs `draw(u)` for every lane's boundary set (lanes cycle through their own lists) and
// compares each lane with the oracle on that lane's weights.
template <int W, class Draw>
void compare_with_oracle(const std::vector<float>& weights, int K, Draw draw, const char* form) {
  std::vector<std::vector<float>> us(W);
  std::size_t rounds = 0;
  for (int r = 0; r < W; ++r) {
    us[r] = boundary_us(&weights[r * K], K);
    rounds = std::max(rounds, us[r].size());
  }
  std::vector<float> u(W);
  for (std::size_t round = 0; round < rounds; ++round) {
    for (int r = 0; r < W; ++r) u[r] = us[r][round % us[r].size()];
    const std::vector<int> got = draw(u);
    for (int r = 0; r < W; ++r) {
      const int want = oracle(&weights[r * K], K, u[r]);
      if (got[r] != want) {
        INFO(form << " W=" << W << " K=" << K << " lane " << r << " u=" << u[r]);
        REQUIRE(got[r] == want);
      }
    }
  }
}

template <algorithm A, int W>
void exactness_for_width() {
  std::mt19937 gen(1234 + W);
  for (int K : k_grid(W)) {
    // Row form: weights in 0..7, about one in four zero.
    std::vector<float> weights(W * K);
    std::uniform_int_distribution<int> small(-2, 7);
    for (float& x : weights) x = static_cast<float>(std::max(0, small(gen)));
    compare_with_oracle<W>(
        weights, K,
        [&](const std::vector<float>& u) { return draw_rows_with_u<W, A>(weights, K, u); }, "rows");

    // Product form: theta and phi in 0..3, so products are 0..9; lane r's token has word
    // (5r + 1) mod V.
    const int V = W + 3;
    std::vector<float> theta(W * K), phi(V * K);
    std::uniform_int_distribution<int> tiny(-1, 3);
    for (float& x : theta) x = static_cast<float>(std::max(0, tiny(gen)));
    for (float& x : phi) x = static_cast<float>(std::max(0, tiny(gen)));
    std::vector<std::int32_t> words(W);
    std::vector<float> products(W * K);
    for (int r = 0; r < W; ++r) {
      words[r] = (5 * r + 1) % V;
      for (int k = 0; k < K; ++k) products[r * K + k] = theta[r * K + k] * phi[words[r] * K + k];
    }
    compare_with_oracle<W>(
        products, K,
        [&](const std::vector<float>& u) {
          return draw_products_with_u<W, A>(theta, phi, K, words, u);
        },
        "products");
  }
}

}  // namespace

TEMPLATE_TEST_CASE("exactness: draws equal the double oracle at every prefix-sum boundary",
                   "[exactness]", Basic, Transposed, Butterfly, WarpScan) {
  for_all_widths([](auto W) { exactness_for_width<TestType::value, W.value>(); });
}
