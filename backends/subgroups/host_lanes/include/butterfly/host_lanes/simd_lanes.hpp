// simd_lanes<T, W>: W lanes held in SIMD registers, with the operators of lanes<T, W>
// (lanes.hpp) and the same results bit for bit. Built on GCC/Clang vector extensions: the
// compiler emits whatever instructions the target ISA has (SSE2, AVX2, AVX-512) for the
// same lane-by-lane IEEE operations, so the ISA changes the speed, never the bits (the
// build keeps -ffp-contract=off: nothing may fuse a*b+c on one ISA and not another).
//
// The logical width W is independent of the ISA: the lanes are cut into N = W / L chunks
// of L = min(W, register bytes / 4) lanes, one register of floats each, so W = 16 is one
// AVX-512 register, two AVX2 registers or four SSE registers. Every type uses the same
// L, so converting int to int64 or float to double keeps each lane in its chunk (64-bit
// chunks span two registers; they are off the hot loops).
//
// Masks are 32-bit lanes holding 0 or -1, the result of a float or int comparison.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "butterfly/detail/config.hpp"

// Every function here is inlined: GCC's and clang's note that a 32- or 64-byte vector argument
// or result would be passed differently with AVX or AVX-512 concerns no call that exists. Not
// popped at the end of the header: the compilers emit the note where templates are
// instantiated, at the end of the including file.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

// Its own namespace: the operators below would otherwise collide with lanes.hpp's.
namespace butterfly::host_lanes::simd {

#if defined(__AVX512F__)
inline constexpr int simd_register_bytes = 64;
#elif defined(__AVX__)
inline constexpr int simd_register_bytes = 32;
#else
inline constexpr int simd_register_bytes = 16;  // SSE2, the x86-64 baseline
#endif

// Lanes per chunk for logical width W.
template <int W>
inline constexpr int simd_chunk_lanes = W < simd_register_bytes / 4 ? W : simd_register_bytes / 4;

// One chunk of L lanes of T as a GCC vector; integer lanes of T's size index a shuffle.
template <class T, int L>
struct simd_chunk {
  typedef T type __attribute__((vector_size(sizeof(T) * L)));
};
template <class T, int L>
using chunk_t = typename simd_chunk<T, L>::type;
template <class T>
using same_size_int = std::conditional_t<
    sizeof(T) == 8, std::int64_t,
    std::conditional_t<sizeof(T) == 4, std::int32_t,
                       std::conditional_t<sizeof(T) == 2, std::int16_t, std::int8_t>>>;

template <int W>
struct simd_mask;

template <class T, int W>
struct simd_lanes {
  static_assert(W > 0 && (W & (W - 1)) == 0, "the lane count must be a power of two");
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "masks are simd_mask");
  static constexpr int L = simd_chunk_lanes<W>;
  static constexpr int N = W / L;
  using chunk = chunk_t<T, L>;
  chunk c[N];

  simd_lanes() = default;
  // Implicit on purpose, as lanes<T, W>'s: a uniform value stands for a varying one.
  BUTTERFLY_FN simd_lanes(T x) {
    T a[W];
    for (int l = 0; l < W; ++l) a[l] = x;
    *this = from_array(a);  // compiles to one broadcast
  }
  // Lane l = a[l]. Filling an array and loading it whole (rather than writing lane by lane
  // into an uninitialized vector) is what the compiler turns into a broadcast or a gather.
  BUTTERFLY_FN static simd_lanes from_array(const T (&a)[W]) {
    simd_lanes r;
    for (int i = 0; i < N; ++i) std::memcpy(&r.c[i], a + i * L, sizeof r.c[i]);
    return r;
  }
  template <class U, class = std::enable_if_t<!std::is_same_v<U, T>>>
  BUTTERFLY_FN explicit simd_lanes(const simd_lanes<U, W>& o) {
    for (int i = 0; i < N; ++i) c[i] = __builtin_convertvector(o.c[i], chunk);
  }
  BUTTERFLY_FN T operator[](int l) const { return c[l / L][l % L]; }
};

template <int W>
struct simd_mask {
  static constexpr int L = simd_chunk_lanes<W>;
  static constexpr int N = W / L;
  using chunk = chunk_t<std::int32_t, L>;
  chunk c[N];  // 0 or -1 per lane

  simd_mask() = default;
  // From a comparison result: integer lanes of any size holding 0 or -1.
  template <class C>
  BUTTERFLY_FN static chunk narrow(const C& x) {
    return __builtin_convertvector(x, chunk);
  }
  BUTTERFLY_FN bool operator[](int l) const { return c[l / L][l % L] != 0; }
  // The mask widened to lanes of T's size, for a blend of T.
  template <class T>
  BUTTERFLY_FN chunk_t<same_size_int<T>, L> as(int i) const {
    return __builtin_convertvector(c[i], chunk_t<same_size_int<T>, L>);
  }
};

template <class X>
struct simd_lane_type {
  using type = X;
};
template <class T, int W>
struct simd_lane_type<simd_lanes<T, W>> {
  using type = T;
};
template <class X>
struct simd_width : std::integral_constant<int, 0> {};
template <class T, int W>
struct simd_width<simd_lanes<T, W>> : std::integral_constant<int, W> {};

template <class A, class B>
inline constexpr int simd_common_width =
    simd_width<A>::value > simd_width<B>::value ? simd_width<A>::value : simd_width<B>::value;

template <class A, class B>
inline constexpr bool any_simd =
    (simd_width<A>::value | simd_width<B>::value) != 0 &&
    std::is_arithmetic_v<typename simd_lane_type<A>::type>&& std::is_arithmetic_v<
        typename simd_lane_type<B>::type>;

// x as simd_lanes<T, W>: converted lane by lane, or broadcast if uniform.
template <class T, int W, class X>
BUTTERFLY_FN simd_lanes<T, W> simd_as(const X& x) {
  if constexpr (std::is_same_v<X, simd_lanes<T, W>>) return x;
  else if constexpr (simd_width<X>::value != 0) return simd_lanes<T, W>(x);
  else return simd_lanes<T, W>(static_cast<T>(x));
}

// Arithmetic and bitwise operators: both sides converted to the type the scalar operator
// yields (the usual arithmetic conversions, as lanes<T, W>'s lambdas apply them per lane).
#define BUTTERFLY_SIMD_BINARY(op)                                                \
  template <class A, class B, class = std::enable_if_t<any_simd<A, B>>>          \
  BUTTERFLY_FN auto operator op(const A& a, const B& b) {                        \
    constexpr int W = simd_common_width<A, B>;                                   \
    using R = decltype(std::declval<typename simd_lane_type<A>::type>()          \
                           op std::declval<typename simd_lane_type<B>::type>()); \
    const simd_lanes<R, W> x = simd_as<R, W>(a), y = simd_as<R, W>(b);           \
    simd_lanes<R, W> r;                                                          \
    for (int i = 0; i < r.N; ++i) r.c[i] = x.c[i] op y.c[i];                     \
    return r;                                                                    \
  }
BUTTERFLY_SIMD_BINARY(+)
BUTTERFLY_SIMD_BINARY(-)
BUTTERFLY_SIMD_BINARY(*)
BUTTERFLY_SIMD_BINARY(/)
BUTTERFLY_SIMD_BINARY(&)
BUTTERFLY_SIMD_BINARY(|)
BUTTERFLY_SIMD_BINARY(^)
BUTTERFLY_SIMD_BINARY(<<)
BUTTERFLY_SIMD_BINARY(>>)
#undef BUTTERFLY_SIMD_BINARY

// Comparisons: both sides in their common type, the result a mask.
#define BUTTERFLY_SIMD_COMPARE(op)                                                      \
  template <class A, class B, class = std::enable_if_t<any_simd<A, B>>>                 \
  BUTTERFLY_FN simd_mask<simd_common_width<A, B>> operator op(const A& a, const B& b) { \
    constexpr int W = simd_common_width<A, B>;                                          \
    using C = decltype(std::declval<typename simd_lane_type<A>::type>() +               \
                       std::declval<typename simd_lane_type<B>::type>());               \
    const simd_lanes<C, W> x = simd_as<C, W>(a), y = simd_as<C, W>(b);                  \
    simd_mask<W> r;                                                                     \
    for (int i = 0; i < r.N; ++i) r.c[i] = simd_mask<W>::narrow(x.c[i] op y.c[i]);      \
    return r;                                                                           \
  }
BUTTERFLY_SIMD_COMPARE(<)
BUTTERFLY_SIMD_COMPARE(<=)
BUTTERFLY_SIMD_COMPARE(>)
BUTTERFLY_SIMD_COMPARE(>=)
BUTTERFLY_SIMD_COMPARE(==)
BUTTERFLY_SIMD_COMPARE(!=)
#undef BUTTERFLY_SIMD_COMPARE

#define BUTTERFLY_SIMD_ASSIGN(op)                                                  \
  template <class T, int W, class B>                                               \
  BUTTERFLY_FN simd_lanes<T, W>& operator op##=(simd_lanes<T, W>& a, const B& b) { \
    a = simd_lanes<T, W>(a op b);                                                  \
    return a;                                                                      \
  }
BUTTERFLY_SIMD_ASSIGN(+)
BUTTERFLY_SIMD_ASSIGN(-)
BUTTERFLY_SIMD_ASSIGN(*)
BUTTERFLY_SIMD_ASSIGN(&)
BUTTERFLY_SIMD_ASSIGN(|)
BUTTERFLY_SIMD_ASSIGN(^)
#undef BUTTERFLY_SIMD_ASSIGN

template <class T, int W>
BUTTERFLY_FN simd_lanes<T, W> operator-(const simd_lanes<T, W>& a) {
  simd_lanes<T, W> r;
  for (int i = 0; i < r.N; ++i) r.c[i] = -a.c[i];
  return r;
}
template <class T, int W, class = std::enable_if_t<std::is_integral_v<T>>>
BUTTERFLY_FN simd_lanes<T, W> operator~(const simd_lanes<T, W>& a) {
  simd_lanes<T, W> r;
  for (int i = 0; i < r.N; ++i) r.c[i] = ~a.c[i];
  return r;
}

#define BUTTERFLY_SIMD_MASK_BINARY(op, vop)                                             \
  template <int W>                                                                      \
  BUTTERFLY_FN simd_mask<W> operator op(const simd_mask<W>& a, const simd_mask<W>& b) { \
    simd_mask<W> r;                                                                     \
    for (int i = 0; i < r.N; ++i) r.c[i] = a.c[i] vop b.c[i];                           \
    return r;                                                                           \
  }
BUTTERFLY_SIMD_MASK_BINARY(&&, &)
BUTTERFLY_SIMD_MASK_BINARY(||, |)
BUTTERFLY_SIMD_MASK_BINARY(&, &)
BUTTERFLY_SIMD_MASK_BINARY(|, |)
BUTTERFLY_SIMD_MASK_BINARY(^, ^)
BUTTERFLY_SIMD_MASK_BINARY(==, ==)
BUTTERFLY_SIMD_MASK_BINARY(!=, ^)
#undef BUTTERFLY_SIMD_MASK_BINARY

template <int W>
BUTTERFLY_FN simd_mask<W> operator!(const simd_mask<W>& a) {
  simd_mask<W> r;
  for (int i = 0; i < r.N; ++i) r.c[i] = ~a.c[i];
  return r;
}

}  // namespace butterfly::host_lanes::simd
