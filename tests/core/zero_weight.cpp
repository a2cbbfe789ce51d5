// Zero-weight topics are never drawn: at topic 0, at topic K-1, in runs, with u = 0 and
// u = 1 - 2^-24 (where sum * u can round up to sum), on exact and on rounding weights.
#include <catch2/catch.hpp>

#include <random>

#include "harness.hpp"

using namespace butterfly;
using namespace butterfly::test;

namespace {

// Weights of row r for K topics: positive random floats (sums round) with zeros at topic
// 0, topic K-1 and a run in the middle, varying with the row.
std::vector<float> zero_pattern(int W, int K, std::mt19937& gen, bool integers) {
  std::uniform_real_distribution<float> pos(0.001f, 1.0f);
  std::vector<float> w(static_cast<std::size_t>(W) * K);
  for (int r = 0; r < W; ++r) {
    for (int k = 0; k < K; ++k) w[r * K + k] = integers ? static_cast<float>(1 + k % 5) : pos(gen);
    w[r * K + 0] = 0;
    w[r * K + K - 1] = 0;
    const int run_start = (r * 7) % K, run_len = 1 + r % (K / 2 + 1);
    for (int k = run_start; k < std::min(K, run_start + run_len); ++k) w[r * K + k] = 0;
    if (r % 3 == 0)  // one lonely positive weight between zeros
      for (int k = 0; k < K; ++k) w[r * K + k] = 0;
    bool any_positive = false;
    for (int k = 0; k < K; ++k) any_positive = any_positive || w[r * K + k] > 0;
    if (!any_positive) w[r * K + K / 2] = integers ? 3.0f : pos(gen);
  }
  return w;
}

template <algorithm A, int W>
void check_width() {
  std::mt19937 gen(99 + W);
  std::uniform_real_distribution<float> any_u(0.0f, 1.0f);
  for (int K : k_grid(W)) {
    if (K < 3) continue;  // needs a positive topic between the zeros at both ends
    for (bool integers : {true, false}) {
      const auto w = zero_pattern(W, K, gen, integers);
      std::vector<float> u(W);
      // The two ends of the uniform's range, then many random u.
      for (int round = 0; round < 200; ++round) {
        for (int r = 0; r < W; ++r)
          u[r] = round == 0   ? 0.0f
                 : round == 1 ? 1.0f - 0x1p-24f
                              : std::min(any_u(gen), 1.0f - 0x1p-24f);
        const auto z = draw_rows_with_u<W, A>(w, K, u);
        for (int r = 0; r < W; ++r) {
          INFO("W=" << W << " K=" << K << " row " << r << " u=" << u[r]
                    << (integers ? " integer" : " rounding") << " weights, drew " << z[r]);
          REQUIRE(z[r] >= 0);
          REQUIRE(z[r] < K);
          REQUIRE(w[r * K + z[r]] > 0.0f);
        }
      }
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("zero-weight: topics with zero weight are never drawn", "[zero-weight]", Basic,
                   Transposed, Butterfly, WarpScan) {
  for_all_widths([](auto W) { check_width<TestType::value, W.value>(); });
}

// With a 24-bit u, sum * (1 - 2^-24) stays below a normal sum, but rounds up to the sum
// itself when the sum is subnormal; the last topic has zero weight, so drawing it would be
// the bug this guards against. (Such lanes are now redrawn in double, where stop stays
// below the total; the test holds whichever path draws them.)
TEMPLATE_TEST_CASE("zero-weight: u = 1 - 2^-24 never reaches a zero last topic", "[zero-weight]",
                   Basic, Transposed, Butterfly, WarpScan) {
  constexpr int W = 8;
  const float u_max = 1.0f - 0x1p-24f;
  int rounded_up = 0;
  for (int K : {2, 7, 8, 9, 19, 64}) {
    std::vector<float> w(W * K);
    for (int r = 0; r < W; ++r)
      for (int k = 0; k < K - 1; ++k)  // multiples of the smallest subnormal: exact sums
        w[r * K + k] = static_cast<float>(1 + (r * 131 + k * 17) % 97) * 0x1p-149f;
    for (int r = 0; r < W; ++r) {
      float s = 0;
      for (int k = 0; k < K; ++k) s += w[r * K + k];
      rounded_up += (s * u_max == s);
    }
    const auto z = draw_rows_with_u<W, TestType::value>(w, K, std::vector<float>(W, u_max));
    for (int r = 0; r < W; ++r) {
      INFO("K=" << K << " row " << r);
      REQUIRE(z[r] == K - 2);  // the last positive topic
    }
  }
  INFO("the case must actually occur for the test to mean anything");
  REQUIRE(rounded_up > 0);
}

// A case found by random search: the paper's Algorithm 9 alone rebuilds lane 3's last
// midpoint as highValue - y, which rounds to about 1e-10 instead of 0, so a tiny stop
// steers it into topic 0, whose weight is zero. The draw's guard must catch it.
TEST_CASE("zero-weight: the butterfly's rounding trap is caught (regression)", "[zero-weight]") {
  constexpr int W = 4, K = 4;
  using SG = host_lanes::subgroup<W>;
  const std::vector<float> w{0x1.59081ep+12f, 0x1.376f88p-3f,  0x1.38b46cp+4f, 0x1.47fdbap-11f,
                             0x0p+0f,         0x1.26f6fp+3f,   0x1.e1e504p+6f, 0x1.72369cp-10f,
                             0x1.faca3p-21f,  0x1.24a1a6p-12f, 0x0p+0f,        0x1.dbcaf2p-26f,
                             0x0p+0f,         0x1.d6031ep-7f,  0x1.ba0632p-6f, 0x1.02f304p-6f};
  const std::vector<float> u{0.5f, 0.5f, 0.5f, 0x1.4p-30f};

  // The unguarded search of the paper (Algorithms 7 and 9 on one block).
  const SG sg;
  std::vector<float> scratch(detail::warp_scratch<SG>::floats<detail::butterfly>(K));
  const auto ws = detail::warp_scratch<SG>::carve<detail::butterfly>(scratch.data(), K);
  SG::varying<float> a[W];
  for (int k = 0; k < W; ++k)
    for (int r = 0; r < W; ++r) a[k][r] = w[k * K + r];
  detail::butterfly_block(sg, a, ws.p, 0);
  const SG::varying<float> sum = a[W - 1];
  ws.p.set(sg, W - 1, sum);
  SG::varying<float> uu;
  for (int r = 0; r < W; ++r) uu[r] = u[r];
  const auto unguarded = detail::butterfly_search_block(sg, ws.p, detail::stop_value(sg, sum, uu),
                                                        SG::varying<int>(0));
  INFO("if this premise fails, the trap is no longer reproduced by these inputs");
  REQUIRE(unguarded.j[3] == 0);
  REQUIRE(w[3 * K + 0] == 0.0f);

  const auto z = draw_rows_with_u<W, algorithm::butterfly>(w, K, u);
  REQUIRE(z[3] == 1);
  REQUIRE(z[3] == oracle(&w[3 * K], K, u[3]));
}
