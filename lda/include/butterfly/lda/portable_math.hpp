// The double-precision functions the Gamma step needs (log, exp, cos(2 pi u)), written from
// +, -, *, / and integer/bit operations only, so that they give the same bits on every
// machine and compiler: glibc picks FMA or non-FMA code for log/exp at run time (so two
// x86-64 machines may disagree in the last bit), and a GPU's libm is another code again.
// IEEE-754 makes each +, -, *, / correctly rounded; the same sequence of them is the same
// bits anywhere, provided no compiler fuses a*b+c into an FMA (see BUTTERFLY_NO_CONTRACT).
//
// Accuracy (lda/tests/portable_math.cpp checks it against long double / __float128
// references over sweeps of the domains): log within 1 ulp, exp within 2 ulp (normal
// results), cos_2pi within 2 ulp relative, for u = (x + 0.5) 2^-32 as the Gamma step passes.
//
// Every function is branch-free (selects only), so that GCC vectorizes loops that call them
// (gamma_row in butterfly/lda/gamma.hpp), and BUTTERFLY_FN, so the same source is device code
// under nvcc/hipcc.
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"

// Contraction (a*b+c -> fma) would change bits between compilers and targets. The host build
// passes -ffp-contract=off (cmake/Warnings.cmake); nvcc needs --fmad=false and hipcc
// -ffp-contract=off, which the cuda and hip backends pass. Under clang each function also
// says so itself, which holds under clang's default and hipcc's: `clang++ -march=haswell
// -ffp-contract=fast-honor-pragmas -S` of gamma_row has no FMA instruction, and Debian's
// hipcc (clang 15) compiles gamma_variate for gfx90a with its default to as many f64 FMAs as
// with -ffp-contract=off (54, all inside the correctly rounded division and sqrt sequences;
// 167 with -ffp-contract=fast). An explicit -ffp-contract=fast overrides it (clang documents
// that it disregards pragmas). GCC and nvcc have no such pragma and rely on the flags.
#if defined(__clang__)
#define BUTTERFLY_NO_CONTRACT _Pragma("clang fp contract(off)")
#else
#define BUTTERFLY_NO_CONTRACT
#endif

namespace butterfly::lda::portable {

BUTTERFLY_FN std::uint64_t to_bits(double x) {
  std::uint64_t u;
  __builtin_memcpy(&u, &x, sizeof u);
  return u;
}

BUTTERFLY_FN double from_bits(std::uint64_t u) {
  double x;
  __builtin_memcpy(&x, &u, sizeof x);
  return x;
}

// c ? a : b by bit masks. Written as a ternary, GCC (with its default -ftrapping-math) keeps
// a branch and does not vectorize the loop around it; as bit operations it does.
BUTTERFLY_FN double select(bool c, double a, double b) {
  const std::uint64_t mask = 0 - static_cast<std::uint64_t>(c);
  return from_bits((to_bits(a) & mask) | (to_bits(b) & ~mask));
}

// Natural log for positive normal finite x (subnormals, 0, inf and NaN are outside the
// domain: the Gamma step never makes them). x = 2^k * m with m in [sqrt(2)/2, sqrt(2)), then
// log(m) = log(1 + f) = 2 atanh(s), s = f / (2 + f), with fdlibm's minimax polynomial
// (e_log.c, Lg1..Lg7) for the odd series, and k * log(2) in two parts.
BUTTERFLY_FN double log(double x) {
  BUTTERFLY_NO_CONTRACT
  // Adding 1 - sqrt(2)/2 (as bits) to x carries into the exponent exactly when m >= sqrt(2);
  // an unsigned shift then reads k + 1023 (x is positive, so no sign bit gets in the way).
  const std::uint64_t shifted = to_bits(x) + (0x3ff0000000000000ull - 0x3fe6a09e667f3bcdull);
  const std::uint64_t biased_k = shifted >> 52;
  const double m = from_bits((shifted & 0x000fffffffffffffull) + 0x3fe6a09e667f3bcdull);
  // k as a double without an int64 -> double conversion (none in AVX2): 2^52 + biased_k
  // spelled in bits, minus 2^52 + 1023, both exact.
  const double k = from_bits(0x4330000000000000ull | biased_k) - (0x1p52 + 1023.0);
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s, w = z * z;
  const double t1 = w * (3.999999999940941908e-01 +
                         w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
  const double t2 = z * (6.666666666666735130e-01 +
                         w * (2.857142874366239149e-01 +
                              w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
  const double r = t1 + t2;
  const double hfsq = 0.5 * f * f;
  constexpr double ln2_hi = 6.93147180369123816490e-01;  // 0x3fe62e42fee00000: k * ln2_hi is exact
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  return k * ln2_hi - ((hfsq - (s * (hfsq + r) + k * ln2_lo)) - f);
}

// e^x for finite x: 0 below about -745.1, +inf above about 709.8, subnormal in between as the
// product of two powers of two rounds it. x = n log(2) + r, |r| <= log(2)/2, and e^r by the
// degree-11 polynomial interpolating it at the Chebyshev nodes of that interval (relative
// error 1.7e-17 before rounding; coefficients from mpmath at 200 bits, rounded once), in
// Estrin's form: a third of Horner's dependency chain, which is what bounds a vectorized loop.
BUTTERFLY_FN double exp(double x) {
  BUTTERFLY_NO_CONTRACT
  // Clamp so that n fits the scaling below; the clamped ends still give 0 and inf.
  x = select(x < -1100.0, -1100.0, x);
  x = select(x > 1100.0, 1100.0, x);
  // n = round(x / log 2) by the 1.5 * 2^52 trick: the sum's low bits hold n.
  constexpr double shifter = 0x1.8p52;
  const double t = x * 1.4426950408889634 + shifter;
  const double n = t - shifter;
  constexpr double ln2_hi = 6.93147180369123816490e-01;
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  const double r = (x - n * ln2_hi) - n * ln2_lo;
  const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const double p01 = 1.0 + r;  // c0 = c1 = 1 after rounding
  const double p23 = 0x1.0000000000011p-1 + 0x1.555555555555ap-3 * r;
  const double p45 = 0x1.555555554f0cfp-5 + 0x1.111111110f225p-7 * r;
  const double p67 = 0x1.6c16c187fbe02p-10 + 0x1.a01a01b14378fp-13 * r;
  const double p89 = 0x1.a01991ac8730ap-16 + 0x1.71ddf5749d126p-19 * r;
  const double pab = 0x1.28b4057f44145p-22 + 0x1.af631d0059becp-26 * r;
  const double p = (p01 + r2 * p23) + (r4 * (p45 + r2 * p67) + r8 * (p89 + r2 * pab));
  // 2^n as two factors 2^n1 * 2^n2 (n1 = n / 2 rounded, |n1|, |n2| <= 794), so that results
  // down in the subnormals and up at 2^1024 come out right without a branch.
  const double t1 = n * 0.5 + shifter;
  const std::uint64_t n1 = to_bits(t1) - to_bits(shifter);  // two's complement
  const std::uint64_t n2 = (to_bits(t) - to_bits(shifter)) - n1;
  return p * from_bits((n1 + 1023) << 52) * from_bits((n2 + 1023) << 52);
}

// c[0] x^(N-1) + ... + c[N-1] by Horner's rule: r = c[i] + x r, in that order.
template <int N>
BUTTERFLY_FN double horner(double x, const double (&c)[N]) {
  BUTTERFLY_NO_CONTRACT
  double r = c[0];
  BUTTERFLY_UNROLL
  for (int i = 1; i < N; ++i) r = c[i] + x * r;
  return r;
}

// cos(2 pi u) for u in (0, 1) (any finite u with |u| < 2^51 works). Reduction by exact
// steps: a = |u - round(u)| in [0, 1/2], then one of cos(2 pi a), -sin(2 pi (a - 1/4)),
// -cos(2 pi (1/2 - a)) with an argument of at most 1/8 turn, each a Taylor polynomial in
// that argument (coefficients (2 pi)^j / j! rounded once; truncation below 2^-60).
BUTTERFLY_FN double cos_2pi(double u) {
  BUTTERFLY_NO_CONTRACT
  constexpr double shifter = 0x1.8p52;
  const double nearest = (u + shifter) - shifter;  // round to nearest
  double a = u - nearest;                          // exact: |a| <= 1/2
  a = select(a < 0.0, -a, a);
  const bool middle = (a > 0.125) & (a < 0.375);                       // cos = -sin(2 pi (a - 1/4))
  const bool far = a >= 0.375;                                         // cos = -cos(2 pi (1/2 - a))
  const double b = select(middle, a - 0.25, select(far, 0.5 - a, a));  // exact (Sterbenz)
  const double b2 = b * b;
  const double c = horner(b2, {0x1.20c62c2f2d7f5p-2, -0x1.b6e24f44b128fp+0, 0x1.f9d38a3763cc3p+2,
                               -0x1.a6d1f2a204a8cp+4, 0x1.e1f506891babbp+5, -0x1.55d3c7e3cbffap+6,
                               0x1.03c1f081b5ac4p+6, -0x1.3bd3cc9be45dep+4, 1.0});
  double s = horner(b2, {0x1.aaec32af93359p-4, -0x1.6fadb9f155744p-1, 0x1.e8f434d018d63p+1,
                         -0x1.e3074fde8871fp+3, 0x1.50783487ee782p+5, -0x1.32d2cce62bd86p+6,
                         0x1.466bc6775aae2p+6, -0x1.4abbce625be53p+5, 0x1.921fb54442d18p+2});
  s = b * s;
  return select(middle, -s, select(far, -c, c));
}

}  // namespace butterfly::lda::portable
