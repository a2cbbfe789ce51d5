// lanes<T, W>: one value per SIMD lane, held in a plain array so that the host compiler can
// keep it in vector registers. Arithmetic, bitwise and comparison operators act lane by
// lane; a plain T on either side is broadcast (a uniform value meeting a varying one).
#pragma once

#include <type_traits>

#include "butterfly/detail/config.hpp"

namespace butterfly::host_lanes {

template <class T, int W>
struct lanes {
  static_assert(W > 0 && (W & (W - 1)) == 0, "the lane count must be a power of two");
  T v[W];

  lanes() = default;
  // Implicit on purpose: a uniform value may stand wherever a varying one is expected.
  BUTTERFLY_FN lanes(T x) {
    for (int l = 0; l < W; ++l) v[l] = x;
  }
  template <class U, class = std::enable_if_t<!std::is_same_v<U, T>>>
  BUTTERFLY_FN explicit lanes(const lanes<U, W>& o) {
    for (int l = 0; l < W; ++l) v[l] = static_cast<T>(o.v[l]);
  }
  BUTTERFLY_FN T& operator[](int l) { return v[l]; }
  BUTTERFLY_FN const T& operator[](int l) const { return v[l]; }
};

template <class X>
struct lane_width : std::integral_constant<int, 0> {};
template <class T, int W>
struct lane_width<lanes<T, W>> : std::integral_constant<int, W> {};

template <class A, class B>
inline constexpr int common_width =
    lane_width<A>::value > lane_width<B>::value ? lane_width<A>::value : lane_width<B>::value;

template <class T, int W>
BUTTERFLY_FN const T& lane_value(const lanes<T, W>& a, int l) {
  return a.v[l];
}
template <class T>
BUTTERFLY_FN const T& lane_value(const T& a, int) {
  return a;
}

template <class X>
struct lane_type {
  using type = X;
};
template <class T, int W>
struct lane_type<lanes<T, W>> {
  using type = T;
};

// Applies f lane by lane to one or two operands, either of which may be uniform.
template <class A, class B, class F>
BUTTERFLY_FN auto zip(const A& a, const B& b, F f) {
  constexpr int W = common_width<A, B>;
  using R = decltype(f(std::declval<typename lane_type<A>::type>(),
                       std::declval<typename lane_type<B>::type>()));
  lanes<R, W> r;
  for (int l = 0; l < W; ++l) r.v[l] = f(lane_value(a, l), lane_value(b, l));
  return r;
}

template <class A, class B>
inline constexpr bool any_lanes =
    (lane_width<A>::value | lane_width<B>::value) != 0 &&
    std::is_arithmetic_v<typename lane_type<A>::type>&& std::is_arithmetic_v<
        typename lane_type<B>::type>;

#define BUTTERFLY_LANES_BINARY(op)                                       \
  template <class A, class B, class = std::enable_if_t<any_lanes<A, B>>> \
  BUTTERFLY_FN auto operator op(const A& a, const B& b) {                \
    return zip(a, b, [](auto x, auto y) { return x op y; });             \
  }
BUTTERFLY_LANES_BINARY(+)
BUTTERFLY_LANES_BINARY(-)
BUTTERFLY_LANES_BINARY(*)
BUTTERFLY_LANES_BINARY(/)
BUTTERFLY_LANES_BINARY(&)
BUTTERFLY_LANES_BINARY(|)
BUTTERFLY_LANES_BINARY(^)
BUTTERFLY_LANES_BINARY(<<)
BUTTERFLY_LANES_BINARY(>>)
BUTTERFLY_LANES_BINARY(<)
BUTTERFLY_LANES_BINARY(<=)
BUTTERFLY_LANES_BINARY(>)
BUTTERFLY_LANES_BINARY(>=)
BUTTERFLY_LANES_BINARY(==)
BUTTERFLY_LANES_BINARY(!=)
BUTTERFLY_LANES_BINARY(&&)
BUTTERFLY_LANES_BINARY(||)
#undef BUTTERFLY_LANES_BINARY

#define BUTTERFLY_LANES_ASSIGN(op)                                                   \
  template <class T, int W, class B>                                                 \
  BUTTERFLY_FN lanes<T, W>& operator op##=(lanes<T, W>& a, const B& b) {             \
    for (int l = 0; l < W; ++l) a.v[l] = static_cast<T>(a.v[l] op lane_value(b, l)); \
    return a;                                                                        \
  }
BUTTERFLY_LANES_ASSIGN(+)
BUTTERFLY_LANES_ASSIGN(-)
BUTTERFLY_LANES_ASSIGN(*)
BUTTERFLY_LANES_ASSIGN(&)
BUTTERFLY_LANES_ASSIGN(|)
BUTTERFLY_LANES_ASSIGN(^)
#undef BUTTERFLY_LANES_ASSIGN

template <class T, int W>
BUTTERFLY_FN auto operator!(const lanes<T, W>& a) {
  return zip(a, 0, [](auto x, int) { return !x; });
}
template <class T, int W>
BUTTERFLY_FN auto operator~(const lanes<T, W>& a) {
  return zip(a, 0, [](auto x, int) { return static_cast<T>(~x); });
}
template <class T, int W>
BUTTERFLY_FN auto operator-(const lanes<T, W>& a) {
  return zip(a, 0, [](auto x, int) { return static_cast<T>(-x); });
}

}  // namespace butterfly::host_lanes
