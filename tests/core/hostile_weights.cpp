// What each hostile weight draws, through the public API (configured backend at its native
// width, and the serial reference at every width): sums and products that overflow or
// underflow float are drawn correctly, non-finite weights give -1 without validate,
// negative ones an index in [-1, K), and validate (on by default) rejects both.
// Expected values come from an exact computation in double written here.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <set>

#include "butterfly/detail/rng.hpp"
#include "harness.hpp"

using namespace butterfly;
using namespace butterfly::test;
using Catch::Matchers::Contains;

namespace {

constexpr std::uint64_t seed = 5;
constexpr std::uint32_t iteration = 2;
const float inf = std::numeric_limits<float>::infinity();
const float not_a_number = std::numeric_limits<float>::quiet_NaN();

float u_of(std::uint64_t t) { return rng::token_uniform(seed, iteration, t); }

// The exact draw: products and prefix sums in double (products of floats are exact there),
// stop = total * u, the first prefix above stop; -1 unless the total is positive and finite.
int exact_draw(const std::vector<double>& w, float u) {
  double total = 0;
  for (double x : w) total += x;
  if (!(total > 0 && total < std::numeric_limits<double>::infinity())) return -1;
  const double stop = total * static_cast<double>(u);
  double prefix = 0;
  for (std::size_t k = 0; k < w.size(); ++k)
    if (stop < (prefix += w[k])) return static_cast<int>(k);
  return -2;  // unreachable: the last prefix is the total
}

std::vector<double> row_of(const std::vector<float>& weights, int K, std::size_t r) {
  return std::vector<double>(weights.begin() + static_cast<std::ptrdiff_t>(r * K),
                             weights.begin() + static_cast<std::ptrdiff_t>((r + 1) * K));
}

using rows_fn =
    std::function<void(span<const float>, int, span<std::int32_t>, const draw_options&)>;
using topics_fn =
    std::function<void(span<const float>, span<const float>, int, span<const std::int64_t>,
                       span<const std::int32_t>, span<std::int32_t>, const draw_options&)>;

// The configured backend at width 0 (native) and at every width it supports, then the
// serial reference at every width.
template <class F>
void for_each_runner(F f) {
  {
    INFO("configured backend " << backend_name() << ", native width");
    f(rows_fn([](auto&&... a) { draw_rows(a...); }),
      topics_fn([](auto&&... a) { draw_topics(a...); }), 0);
  }
  for (int width : backend_widths()) {
    INFO("configured backend " << backend_name() << ", width " << width);
    f(rows_fn([](auto&&... a) { draw_rows(a...); }),
      topics_fn([](auto&&... a) { draw_topics(a...); }), width);
  }
  for (int width : all_widths) {
    INFO("serial reference, width " << width);
    f(rows_fn([](auto&&... a) { reference::draw_rows(a...); }),
      topics_fn([](auto&&... a) { reference::draw_topics(a...); }), width);
  }
}

draw_options options_for(algorithm a, int width, bool validate) {
  draw_options o;
  o.method = a;
  o.seed = seed;
  o.iteration = iteration;
  o.width = width;
  o.validate = validate;
  return o;
}

// Rows with ordinary[r] set have exact float sums and are drawn as harness.hpp's oracle
// (the float stop) draws them; the others as the exact computation does. Validate on and off.
void require_rows(algorithm a, const std::vector<float>& w, int K,
                  const std::function<bool(std::size_t)>& ordinary) {
  const std::size_t R = w.size() / static_cast<std::size_t>(K);
  for_each_runner([&](const rows_fn& rows, const topics_fn&, int width) {
    for (bool validate : {true, false}) {
      std::vector<std::int32_t> out(R, -7);
      rows(w, K, out, options_for(a, width, validate));
      for (std::size_t r = 0; r < R; ++r) {
        INFO("K " << K << " row " << r << " validate " << validate);
        REQUIRE(out[r] == (ordinary(r) ? oracle(&w[r * K], K, u_of(r))
                                       : exact_draw(row_of(w, K, r), u_of(r))));
      }
    }
  });
}

// Product form: document m has one token of word m (V = M); ordinary[m] as in require_rows.
void require_products(algorithm a, const std::vector<float>& theta, const std::vector<float>& phi,
                      int K, const std::function<bool(std::size_t)>& ordinary) {
  const std::size_t M = theta.size() / static_cast<std::size_t>(K);
  std::vector<std::int64_t> offsets(M + 1);
  std::vector<std::int32_t> words(M);
  for (std::size_t m = 0; m <= M; ++m) offsets[m] = static_cast<std::int64_t>(m);
  for (std::size_t m = 0; m < M; ++m) words[m] = static_cast<std::int32_t>(m);
  for_each_runner([&](const rows_fn&, const topics_fn& topics, int width) {
    std::vector<std::int32_t> z(M, -7);
    topics(theta, phi, K, offsets, words, z, options_for(a, width, true));
    for (std::size_t m = 0; m < M; ++m) {
      std::vector<double> w(static_cast<std::size_t>(K));
      std::vector<float> products(static_cast<std::size_t>(K));
      for (int k = 0; k < K; ++k) {
        w[k] = static_cast<double>(theta[m * K + k]) * static_cast<double>(phi[m * K + k]);
        products[k] = theta[m * K + k] * phi[m * K + k];
      }
      INFO("K " << K << " document " << m);
      REQUIRE(z[m] == (ordinary(m) ? oracle(products.data(), K, u_of(m)) : exact_draw(w, u_of(m))));
    }
  });
}

}  // namespace

TEMPLATE_TEST_CASE("overflow: finite weights whose float sum overflows are drawn exactly",
                   "[hostile]", Basic, Transposed, Butterfly, WarpScan) {
  // [3e38, 3e38] (the issue: always 1 before) and K = 1000 x 1e36 (always 340), among
  // ordinary rows that must not change; 40 rows so that both halves get drawn.
  for (int K : {2, 1000}) {
    const int R = 40;
    std::vector<float> w(static_cast<std::size_t>(R) * K);
    for (int r = 0; r < R; ++r)
      for (int k = 0; k < K; ++k)
        w[r * K + k] = r % 4 == 3 ? 1.0f + static_cast<float>((r + k) % 3)  // ordinary row
                       : K == 2   ? 3e38f
                                  : 1e36f * (r % 4 == 1 && k % 2 ? 0.5f : 1.0f);
    require_rows(TestType::value, w, K, [](std::size_t r) { return r % 4 == 3; });
    // The draw spreads: every topic of [3e38, 3e38] is drawn, 1000 x 1e36 draws many.
    std::vector<std::int32_t> out(R);
    draw_rows(w, K, out, options_for(TestType::value, 0, true));
    std::set<std::int32_t> seen(out.begin(), out.end());
    CHECK(seen.size() >= (K == 2 ? 2u : 20u));
  }
}

TEMPLATE_TEST_CASE(
    "overflow: products that overflow float (theta * phi > 3.4e38) are drawn exactly", "[hostile]",
    Basic, Transposed, Butterfly, WarpScan) {
  // 2^66 ~ 7e19: products of at least 2^132 overflow float's 2^128; documents m % 5 == 0
  // have theta 1/2 and exact float products and sums.
  for (int K : {3, 19, 70}) {
    const int M = 37;
    std::vector<float> theta(static_cast<std::size_t>(M) * K), phi(theta.size());
    for (int m = 0; m < M; ++m)
      for (int k = 0; k < K; ++k) {
        theta[m * K + k] = m % 5 == 0 ? 0.5f : 0x1p66f * static_cast<float>(1 + (m * k) % 7);
        phi[m * K + k] = m % 3 == 0 && k % 2 ? 0.0f : 0x1p66f * static_cast<float>(1 + k % 3);
      }
    require_products(TestType::value, theta, phi, K, [](std::size_t m) { return m % 5 == 0; });
  }
}

TEMPLATE_TEST_CASE("overflow: products that underflow float are drawn exactly, not as -1",
                   "[hostile][underflow]", Basic, Transposed, Butterfly, WarpScan) {
  // theta 1e-30 * phi 1e-30 = 1e-60 is 0 in float (the issue: -1); around 2^-150 products
  // round to 0 or to the smallest subnormal, which would distort the odds.
  for (int K : {2, 9, 40}) {
    const int M = 29;
    std::vector<float> theta(static_cast<std::size_t>(M) * K), phi(theta.size());
    for (int m = 0; m < M; ++m)
      for (int k = 0; k < K; ++k) {
        const float scale = m % 2 ? 1e-30f : 0x1p-75f;
        theta[m * K + k] = scale * static_cast<float>(1 + (m + k) % 5);
        phi[m * K + k] = m % 7 == 6 ? 0.0f : scale * static_cast<float>(1 + (m * k) % 3);
      }
    require_products(TestType::value, theta, phi, K, [](std::size_t) { return false; });
  }
}

TEMPLATE_TEST_CASE("non-finite: NaN and infinite weights draw -1 without validate, throw with it",
                   "[hostile]", Basic, Transposed, Butterfly, WarpScan) {
  const std::vector<float> bad{not_a_number, inf, -inf};
  for (int K : {1, 5, 33}) {
    // Row r: ordinary, except every third row holds bad[r % 3] at column r % K, and one
    // row holds +inf next to zeros only (inf * 1 in rows, a NaN-free +inf total).
    const int R = 24;
    std::vector<float> w(static_cast<std::size_t>(R) * K);
    for (int r = 0; r < R; ++r)
      for (int k = 0; k < K; ++k) w[r * K + k] = 0.25f * static_cast<float>(1 + (r + k) % 4);
    for (int r = 0; r < R; r += 3) w[r * K + r % K] = bad[static_cast<std::size_t>(r / 3) % 3];
    for (int k = 0; k < K; ++k) w[1 * K + k] = k == K - 1 ? inf : 0.0f;
    for_each_runner([&](const rows_fn& rows, const topics_fn&, int width) {
      std::vector<std::int32_t> out(R, -7);
      REQUIRE_THROWS_WITH(rows(w, K, out, options_for(TestType::value, width, true)),
                          Contains("weights[0,0]") && Contains("is NaN"));
      rows(w, K, out, options_for(TestType::value, width, false));
      for (int r = 0; r < R; ++r) {
        INFO("K " << K << " row " << r);
        if (r % 3 == 0 || r == 1) REQUIRE(out[r] == -1);
        else REQUIRE(out[r] == oracle(&w[r * K], K, u_of(r)));
      }
    });
  }
  // Product form: a non-finite theta or phi entry spoils the token even where the other
  // factor is 0 (inf * 0 is NaN).
  const int K = 6;
  std::vector<float> theta(4 * K, 1.0f), phi(3 * K, 2.0f);
  theta[1 * K + 2] = inf;         // document 1
  phi[2 * K + 4] = not_a_number;  // word 2
  theta[3 * K + 0] = -inf;        // document 3, with phi[0,0] = 0
  phi[0 * K + 0] = 0.0f;
  const std::vector<std::int64_t> offsets{0, 2, 4, 6, 8};
  const std::vector<std::int32_t> words{0, 1, 0, 1, 2, 1, 0, 1};
  for_each_runner([&](const rows_fn&, const topics_fn& topics, int width) {
    std::vector<std::int32_t> z(words.size(), -7);
    REQUIRE_THROWS_WITH(
        topics(theta, phi, K, offsets, words, z, options_for(TestType::value, width, true)),
        Contains("theta[1,2]") && Contains("is infinite"));
    topics(theta, phi, K, offsets, words, z, options_for(TestType::value, width, false));
    const std::vector<std::int32_t> spoiled{0, 0, 1, 1, 1, 0, 1, 1};
    for (std::size_t t = 0; t < words.size(); ++t) {
      INFO("token " << t);
      if (spoiled[t]) REQUIRE(z[t] == -1);
      else REQUIRE((z[t] >= 0 && z[t] < K));
    }
  });
}

TEMPLATE_TEST_CASE(
    "negative: validate rejects negative weights, and without it every draw is "
    "-1 or a topic below K",
    "[hostile]", Basic, Transposed, Butterfly, WarpScan) {
  // [1, -1, 1] (the issue: 2 with basic, 0 with butterfly) and random signs, including
  // rows whose total is negative or zero; z lives between guard values.
  std::mt19937 gen(17);
  std::uniform_real_distribution<float> any_weight(-1.0f, 1.0f);
  for (int K : {3, 8, 19, 100}) {
    const int R = 45;
    std::vector<float> w(static_cast<std::size_t>(R) * K);
    for (float& x : w) x = any_weight(gen);
    for (int k = 0; k < K; ++k) w[0 * K + k] = k % 2 ? -1.0f : 1.0f;
    for (int k = 0; k < K; ++k) w[1 * K + k] = -0.5f;  // negative total: -1
    for_each_runner([&](const rows_fn& rows, const topics_fn&, int width) {
      const std::size_t guard = 8;
      std::vector<std::int32_t> buffer(R + 2 * guard, -99);
      const span<std::int32_t> out(buffer.data() + guard, static_cast<std::size_t>(R));
      REQUIRE_THROWS_WITH(rows(w, K, out, options_for(TestType::value, width, true)),
                          Contains("is negative"));
      rows(w, K, out, options_for(TestType::value, width, false));
      for (std::size_t i = 0; i < buffer.size(); ++i) {
        INFO("K " << K << " buffer index " << i);
        if (i < guard || i >= guard + R) REQUIRE(buffer[i] == -99);
        else REQUIRE((buffer[i] >= -1 && buffer[i] < K));
      }
      REQUIRE(out[1] == -1);
    });
  }
}

TEST_CASE("non-finite: validate is on by default", "[hostile]") {
  std::vector<float> w{1.0f, not_a_number};
  std::vector<std::int32_t> out(1);
  REQUIRE(draw_options{}.validate);
  REQUIRE_THROWS_WITH(draw_rows(w, 2, out), Contains("draw_rows") && Contains("weights[0,1]"));
  REQUIRE_THROWS_AS(reference::draw_rows(w, 2, out), std::invalid_argument);
}
