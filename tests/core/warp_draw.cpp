// The public collective butterfly::warp_draw, called the way a user calls it (a subgroup,
// scratch of scratch_floats(K), per-lane rows and uniforms), checked against expectations
// computed here without the library: prefix sums in double (harness.hpp's oracle) on
// small-integer weights, where every algorithm's float sums are exact; Random123's Philox
// for the uniforms; and the contract's -1 cases. On both host subgroups: the SIMD lanes a
// user runs and the plain-array reference.
#include <catch2/catch.hpp>

#include "butterfly/warp_draw.hpp"

#include <Random123/philox.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "butterfly/host_lanes/simd_subgroup.hpp"
#include "butterfly/host_lanes/subgroup.hpp"
#include "harness.hpp"

using namespace butterfly;
using namespace butterfly::test;

namespace {

template <class SG, class T>
auto to_lanes(const SG& sg, const std::vector<T>& v) {
  return sg.load(v.data());  // lane l reads v[l]
}
template <class SG, class V>
std::vector<int> from_lanes(const SG& sg, const V& v) {
  std::vector<int> out(SG::width);
  sg.store(out.data(), v);
  return out;
}

// Weights 0..4 (a quarter of them zero) and, per lane, a u that is a prefix-sum boundary,
// just below one, or random: the cases where a rounding slip would show.
std::vector<float> small_integers(std::size_t n, std::mt19937& gen) {
  std::uniform_int_distribution<int> d(0, 4);
  std::vector<float> w(n);
  for (auto& x : w) x = static_cast<float>(d(gen));
  return w;
}
float boundary_u(const float* w, int K, std::mt19937& gen) {
  double total = 0;
  for (int k = 0; k < K; ++k) total += w[k];
  if (!(total > 0)) return 0.5f;
  std::uniform_int_distribution<int> pick(0, K - 1);
  double prefix = 0;
  const int at = pick(gen);
  for (int k = 0; k <= at; ++k) prefix += w[k];
  const float u = static_cast<float>(prefix / total);
  switch (std::uniform_int_distribution<int>(0, 2)(gen)) {
    case 0: return u < 1.0f ? u : std::nextafter(1.0f, 0.0f);
    case 1: return u > 0.0f ? std::nextafter(u, 0.0f) : 0.0f;
    default: return std::uniform_real_distribution<float>(0.0f, 1.0f)(gen);
  }
}

// Row form: lane l draws row row[l] of an R x K matrix (rows permuted and repeated, not
// row l), several rounds with the same scratch.
template <template <int> class Lanes, int W, algorithm A>
void rows_equal_the_oracle(int K) {
  using SG = Lanes<W>;
  const SG sg;
  std::mt19937 gen(1000 * W + K);
  const int R = 3 * W;
  const std::vector<float> w = small_integers(static_cast<std::size_t>(R) * K, gen);
  std::vector<float> scratch(warp_draw<SG, A>::scratch_floats(K), -1.0f);
  for (int round = 0; round < 4; ++round) {
    std::vector<std::int32_t> row(W);
    std::vector<float> u(W);
    for (int l = 0; l < W; ++l) {
      row[l] = std::uniform_int_distribution<int>(0, R - 1)(gen);
      u[l] = boundary_u(&w[row[l] * K], K, gen);
    }
    const auto z = from_lanes(sg, warp_draw<SG, A>::rows(sg, scratch.data(), K, w.data(),
                                                         to_lanes(sg, row), to_lanes(sg, u)));
    for (int l = 0; l < W; ++l) {
      INFO("W=" << W << " K=" << K << " lane " << l << " row " << row[l] << " u=" << u[l]);
      REQUIRE(z[l] == oracle(&w[row[l] * K], K, u[l]));
    }
  }
}

// Product form: lane l is document m[l] (lanes may share one), theta cached once, then
// several tokens with different words and uniforms.
template <template <int> class Lanes, int W, algorithm A>
void products_equal_the_oracle(int K) {
  using SG = Lanes<W>;
  const SG sg;
  std::mt19937 gen(7 * W + K);
  const int M = 2 * W, V = 50;
  const std::vector<float> theta = small_integers(static_cast<std::size_t>(M) * K, gen);
  const std::vector<float> phi = small_integers(static_cast<std::size_t>(V) * K, gen);
  std::vector<std::int64_t> m(W);
  for (auto& x : m) x = std::uniform_int_distribution<int>(0, M - 1)(gen);
  using draw = warp_draw<SG, A>;
  std::vector<float> scratch(draw::scratch_floats(K));
  draw::cache_theta(sg, scratch.data(), K, theta.data(), to_lanes(sg, m));
  for (int token = 0; token < 4; ++token) {
    std::vector<std::int32_t> c(W);
    std::vector<float> u(W);
    std::vector<std::vector<float>> weights(W, std::vector<float>(K));
    for (int l = 0; l < W; ++l) {
      c[l] = std::uniform_int_distribution<int>(0, V - 1)(gen);
      for (int k = 0; k < K; ++k) weights[l][k] = theta[m[l] * K + k] * phi[c[l] * K + k];
      u[l] = boundary_u(weights[l].data(), K, gen);
    }
    const auto z =
        from_lanes(sg, draw::products(sg, scratch.data(), K, theta.data(), phi.data(),
                                      to_lanes(sg, m), to_lanes(sg, c), to_lanes(sg, u)));
    for (int l = 0; l < W; ++l) {
      INFO("W=" << W << " K=" << K << " lane " << l << " document " << m[l] << " word " << c[l]
                << " u=" << u[l]);
      REQUIRE(z[l] == oracle(weights[l].data(), K, u[l]));
    }
  }
}

template <template <int> class Lanes, algorithm A>
void every_width_and_k() {
  for_all_widths([](auto width) {
    constexpr int W = decltype(width)::value;
    for (int K : k_grid(W)) {
      rows_equal_the_oracle<Lanes, W, A>(K);
      products_equal_the_oracle<Lanes, W, A>(K);
    }
  });
}

}  // namespace

TEMPLATE_TEST_CASE("warp_draw: rows and products equal the double-precision oracle (SIMD lanes)",
                   "[warp-draw]", Basic, Transposed, Butterfly, WarpScan) {
  every_width_and_k<host_lanes::simd_subgroup, TestType::value>();
}

TEMPLATE_TEST_CASE("warp_draw: rows and products equal the double-precision oracle (array lanes)",
                   "[warp-draw]", Basic, Transposed, Butterfly, WarpScan) {
  every_width_and_k<host_lanes::subgroup, TestType::value>();
}

// The contract's special rows, one per lane of a W = 8 warp: all zero and NaN/inf give -1;
// sums that overflow float and products that underflow it are drawn in double, as the
// oracle does; zero weights are never drawn, also at u = 0 and u = 1 - 2^-24.
TEMPLATE_TEST_CASE("warp_draw: -1 and zero-weight contract", "[warp-draw]", Basic, Transposed,
                   Butterfly, WarpScan) {
  constexpr int W = 8, K = 3;
  using SG = host_lanes::simd_subgroup<W>;
  const SG sg;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> w{
      0,      0,     0,       // lane 0: all zero -> -1
      1,      nan,   1,       // lane 1: NaN -> -1
      0,      inf,   0,       // lane 2: +inf -> -1
      3e38f,  3e38f, 0,       // lane 3: the float sum overflows: drawn in double
      1e-45f, 0,     1e-45f,  // lane 4: a subnormal total: drawn in double
      0,      5,     0,       // lane 5: one positive weight at u = 0
      0,      5,     0,       // lane 6: ... and at u = 1 - 2^-24
      2,      0,     0};      // lane 7: zero weights after the only positive one, u = 1 - 2^-24
  const float u_max = std::nextafter(1.0f, 0.0f);
  const std::vector<float> u{0.5f, 0.5f, 0.5f, 0.75f, 0.75f, 0.0f, u_max, u_max};
  const std::vector<int> expected{-1, -1, -1, oracle(&w[9], K, 0.75f), oracle(&w[12], K, 0.75f),
                                  1,  1,  0};
  REQUIRE(expected[3] == 1);
  REQUIRE(expected[4] == 2);
  std::vector<std::int32_t> row(W);
  for (int l = 0; l < W; ++l) row[l] = l;
  using draw = warp_draw<SG, TestType::value>;
  std::vector<float> scratch(draw::scratch_floats(K));
  CHECK(from_lanes(sg, draw::rows(sg, scratch.data(), K, w.data(), to_lanes(sg, row),
                                  to_lanes(sg, u))) == expected);
}

// warp_scan's own form: the whole subgroup draws one distribution and every lane returns
// the index.
TEST_CASE("warp_draw: warp_scan's lanes draw one distribution together", "[warp-draw]") {
  constexpr int W = 16;
  using SG = host_lanes::simd_subgroup<W>;
  const SG sg;
  std::mt19937 gen(3);
  for (int K : k_grid(W)) {
    const int M = 3, V = 4;
    const std::vector<float> theta = small_integers(static_cast<std::size_t>(M) * K, gen);
    const std::vector<float> phi = small_integers(static_cast<std::size_t>(V) * K, gen);
    using draw = warp_draw<SG, algorithm::warp_scan>;
    std::vector<float> scratch(draw::scratch_floats(K));
    for (int m = 0; m < M; ++m)
      for (int c = 0; c < V; ++c) {
        std::vector<float> weights(K);
        for (int k = 0; k < K; ++k) weights[k] = theta[m * K + k] * phi[c * K + k];
        const float u = boundary_u(weights.data(), K, gen);
        INFO("K=" << K << " m=" << m << " c=" << c << " u=" << u);
        REQUIRE(draw::products_together(sg, scratch.data(), K, theta.data(), phi.data(), m, c, u) ==
                oracle(weights.data(), K, u));
        REQUIRE(draw::row_together(sg, scratch.data(), K, phi.data(), c, u) ==
                oracle(&phi[c * K], K, u));
      }
  }
}

// token_uniforms is Random123's Philox4x32-10 with the documented key and counter.
TEST_CASE("warp_draw: token_uniforms are the documented Philox words", "[warp-draw]") {
  constexpr int W = 8;
  using SG = host_lanes::simd_subgroup<W>;
  const SG sg;
  const std::uint64_t seed = 0x123456789abcdefull;
  const std::uint32_t iteration = 7;
  std::vector<std::uint64_t> index(W);
  for (int l = 0; l < W; ++l) index[l] = (std::uint64_t{1} << 33) + 1000 * l;
  std::vector<float> got(W);
  sg.store(got.data(), token_uniforms(sg, seed, iteration, to_lanes(sg, index)));
  for (int l = 0; l < W; ++l) {
    const r123::Philox4x32::ctr_type ctr = {{static_cast<std::uint32_t>(index[l]),
                                             static_cast<std::uint32_t>(index[l] >> 32), iteration,
                                             0}};
    const r123::Philox4x32::key_type key = {
        {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
    const std::uint32_t word = r123::Philox4x32()(ctr, key)[0];
    CHECK(got[l] == std::ldexp(static_cast<float>(word >> 8), -24));
  }
}
