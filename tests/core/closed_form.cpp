// The butterfly table of Algorithm 7 equals the closed form stated under Figure 2 of the
// paper: after the replacements, row i, column (lane) j of a block holds Z_u^{v..w}, the sum
// over topics v..w (block-relative) of lane u's products, where
//   m = i xor (i+1), k = floor(m/2), u = (i & ~m) + (j & m), v = j & ~k, w = v + k.
#include <catch2/catch.hpp>

#include "harness.hpp"

using namespace butterfly;

namespace {

template <int W>
void check_closed_form() {
  using SG = host_lanes::subgroup<W>;
  const SG sg;
  // x[lane][t]: lane's product at block topic t. Distinct small integers keep every partial
  // sum exact in float, so equality is exact.
  auto x = [](int lane, int t) { return static_cast<float>(1 + lane * W + t); };
  const int j0 = 3;  // a block that does not start at topic 0, like Figure 2's remnant of 3
  std::vector<float> table((j0 + W) * W, -1.0f);
  const detail::lane_local<SG> p{table.data()};
  typename SG::template varying<float> a[W];
  for (int k = 0; k < W; ++k)
    for (int r = 0; r < W; ++r) a[k][r] = x(k, r);  // a[k] on lane r: lane k's topic r
  detail::butterfly_block(sg, a, p, j0);

  for (int i = 0; i < W; ++i) {
    for (int j = 0; j < W; ++j) {
      const int m = i ^ (i + 1), k = m / 2;
      const int u = (i & ~m) + (j & m), v = j & ~k, w = v + k;
      float expected = 0;
      for (int t = v; t <= w; ++t) expected += x(u, t);
      // Row W-1 is not written by butterfly_block: it is the running total, which the
      // caller stores from a[W-1] (the lane's own block sum, Z_j^{0..W-1}).
      const float got = i < W - 1 ? table[(j0 + i) * W + j] : a[W - 1][j];
      INFO("W=" << W << " row i=" << i << " lane j=" << j << " expects Z_" << u << "^{" << v << ".."
                << w << "}");
      REQUIRE(got == expected);
    }
  }
  // Nothing outside the block's first W-1 rows was touched.
  for (int row = 0; row < j0; ++row)
    for (int l = 0; l < W; ++l) REQUIRE(table[row * W + l] == -1.0f);
  for (int l = 0; l < W; ++l) REQUIRE(table[(j0 + W - 1) * W + l] == -1.0f);
}

}  // namespace

TEST_CASE("closed-form: butterfly table matches Figure 2's closed form for W=4", "[closed-form]") {
  check_closed_form<4>();
}
TEST_CASE("closed-form: butterfly table matches Figure 2's closed form for W=8", "[closed-form]") {
  check_closed_form<8>();
}
TEST_CASE("closed-form: butterfly table matches Figure 2's closed form for W=16", "[closed-form]") {
  check_closed_form<16>();
}
TEST_CASE("closed-form: butterfly table matches Figure 2's closed form for W=32", "[closed-form]") {
  check_closed_form<32>();
}
TEST_CASE("closed-form: butterfly table matches Figure 2's closed form for W=64", "[closed-form]") {
  check_closed_form<64>();
}

// Figure 2 itself (W = 8, K = 19) spelled out for two entries the text singles out: the
// first row of a block holds Z_{j&1}^{j..j}; the fourth row holds lane j's own half-block.
TEST_CASE("closed-form: Figure 2 rows 3 and 6 of the first block (W=8, K=19)", "[closed-form]") {
  using SG = host_lanes::subgroup<8>;
  std::vector<float> w(8 * 19);
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 19; ++k) w[r * 19 + k] = static_cast<float>(1 + r + 8 * k);
  std::vector<float> scratch(detail::warp_scratch<SG>::floats<detail::butterfly>(19));
  const auto ws = detail::warp_scratch<SG>::carve<detail::butterfly>(scratch.data(), 19);
  const SG sg;
  const detail::row_weights src{w.data(), 19};
  const auto lane = sg.lane();
  const detail::token<SG> tok{SG::varying<std::int64_t>(lane), SG::varying<std::int32_t>(lane)};
  detail::butterfly::draw(sg, src, ws, tok, SG::varying<float>(0.5f));
  auto Z = [&](int m, int from, int to) {
    float s = 0;
    for (int k = from; k <= to; ++k) s += w[m * 19 + k];
    return s;
  };
  for (int j = 0; j < 8; ++j) {
    CHECK(ws.p.get(sg, 3)[j] == Z(j & 1, 3 + j, 3 + j));              // row 3: Z_{j&1}^{j..j}
    CHECK(ws.p.get(sg, 6)[j] == Z(j, 3 + (j & 4), 3 + (j & 4) + 3));  // row 6: half blocks
    CHECK(ws.p.get(sg, 10)[j] == Z(j, 0, 10));                        // last row: prefix sum
    CHECK(ws.p.get(sg, 18)[j] == Z(j, 0, 18));
    CHECK(ws.p.get(sg, 2)[j] == Z(j, 0, 2));  // remnant: prefix sums
  }
}
