// Every draw algorithm's kernel type, the map from the public enum to it (what
// butterfly::warp_draw runs), and the one switch from a run-time enum to a compile-time
// one that every backend's launcher uses.
#pragma once

#include <stdexcept>
#include <type_traits>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/draw_basic.hpp"
#include "butterfly/detail/draw_butterfly.hpp"
#include "butterfly/detail/draw_transposed.hpp"
#include "butterfly/detail/draw_warp_scan.hpp"

namespace butterfly::detail {

template <algorithm A>
struct kernel_for;
template <>
struct kernel_for<algorithm::basic> { using type = basic; };
template <>
struct kernel_for<algorithm::transposed> { using type = transposed; };
template <>
struct kernel_for<algorithm::butterfly> { using type = butterfly; };
template <>
struct kernel_for<algorithm::warp_scan> { using type = warp_scan; };

// Calls f(std::integral_constant<algorithm, a>{}) (host code); draw_warp takes that type.
template <class F>
void with_algorithm(algorithm a, F&& f) {
  switch (a) {
    case algorithm::basic: return f(std::integral_constant<algorithm, algorithm::basic>{});
    case algorithm::transposed:
      return f(std::integral_constant<algorithm, algorithm::transposed>{});
    case algorithm::butterfly: return f(std::integral_constant<algorithm, algorithm::butterfly>{});
    case algorithm::warp_scan: return f(std::integral_constant<algorithm, algorithm::warp_scan>{});
  }
  throw std::invalid_argument("butterfly: unknown algorithm");
}

}  // namespace butterfly::detail
