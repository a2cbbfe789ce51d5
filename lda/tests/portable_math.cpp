// lda/portable_math.hpp against independent references: glibc's long double logl/expl
// (64-bit significand, so their error is far below a double ulp) and libquadmath's cosq with
// 2 pi in quad precision (a double-precision 2 pi * u would itself be off by more than an ulp
// of cos near its zeros). Sweeps: random bit patterns over every positive normal double and
// uniform points in (0, 2) for log; uniform points over [-708, 709.7] for exp; u = (x + 0.5) 2^-32
// for every sampled 32-bit x (what the Box-Muller step passes) for cos_2pi.
// Bounds: log 1 ulp, exp 2 ulp, cos_2pi 2 ulp relative (measured: 0.84, 1.80, 1.59).
#include <catch2/catch.hpp>

#include "butterfly/lda/portable_math.hpp"

#include <quadmath.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

namespace pm = butterfly::lda::portable;

namespace {

// |got - ref| in units of the last place of ref rounded to double.
double ulp_error(double got, __float128 ref) {
  const double r = std::fabs(static_cast<double>(ref));
  const double ulp = std::nextafter(r, INFINITY) - r;
  return static_cast<double>(fabsq(static_cast<__float128>(got) - ref)) / ulp;
}

double uniform(std::mt19937_64& g) { return std::ldexp(static_cast<double>(g() >> 11), -53); }

constexpr int samples = 1 << 18;

}  // namespace

TEST_CASE("portable math: log is within 1 ulp over all positive normal doubles",
          "[portable_math]") {
  std::mt19937_64 g(11);
  for (int i = 0; i < samples; ++i) {
    const std::uint64_t bits =
        0x0010000000000000ull + g() % (0x7ff0000000000000ull - 0x0010000000000000ull);
    double wide;
    std::memcpy(&wide, &bits, sizeof wide);
    for (double x : {wide, 2.0 * uniform(g) + 0x1p-60}) {
      CAPTURE(x);
      REQUIRE(ulp_error(pm::log(x), logl(static_cast<long double>(x))) <= 1.0);
    }
  }
  CHECK(pm::log(1.0) == 0.0);
  CHECK(pm::log(0x1p-1022) == Approx(-1022 * std::log(2.0)).epsilon(1e-15));
}

TEST_CASE("portable math: exp is within 2 ulp, 0 and inf at the ends", "[portable_math]") {
  std::mt19937_64 g(12);
  for (int i = 0; i < samples; ++i) {
    const double x = -708.0 + 1417.7 * uniform(g);
    CAPTURE(x);
    REQUIRE(ulp_error(pm::exp(x), expl(static_cast<long double>(x))) <= 2.0);
  }
  CHECK(pm::exp(0.0) == 1.0);
  // Subnormal results: a few ulp of the smallest subnormal; then 0 and inf, never NaN.
  CHECK(std::fabs(pm::exp(-740.0) - std::exp(-740.0)) <= 4 * 0x1p-1074);
  CHECK(pm::exp(-746.0) == 0.0);
  CHECK(pm::exp(-1e300) == 0.0);
  CHECK(std::isinf(pm::exp(710.0)));
  CHECK(std::isinf(pm::exp(1e300)));
}

TEST_CASE("portable math: cos(2 pi u) is within 2 ulp for the uniforms Box-Muller uses",
          "[portable_math]") {
  std::mt19937_64 g(13);
  const __float128 two_pi = 2 * acosq(static_cast<__float128>(-1));
  // Every octant boundary and its neighbours, then random 32-bit words.
  for (std::uint64_t i = 0; i < samples + 64; ++i) {
    const std::uint32_t x = i < 64 ? static_cast<std::uint32_t>((i / 8) * 0x20000000u + (i % 8) - 4)
                                   : static_cast<std::uint32_t>(g());
    const double u = (static_cast<double>(x) + 0.5) * 0x1p-32;
    CAPTURE(u);
    REQUIRE(ulp_error(pm::cos_2pi(u), cosq(two_pi * u)) <= 2.0);
  }
  CHECK(pm::cos_2pi(0.5) == -1.0);
  CHECK(pm::cos_2pi(0.25) == 0.0);
}
