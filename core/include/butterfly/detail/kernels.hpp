// Every draw algorithm's kernel type, the map from the public enum to it (what
// butterfly::warp_draw<Subgroup, algorithm> runs), and the one switch from the enum to the
// kernel that every backend's launcher uses.
#pragma once

#include <stdexcept>

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

// Calls f(kernel{}) for the kernel that implements algorithm a (host code). The kernel type,
// not the enum, names the launchers' instantiations: tests/static_checks finds the
// butterfly's GPU kernels by it.
template <class F>
void with_algorithm(algorithm a, F&& f) {
  switch (a) {
    case algorithm::basic: return f(basic{});
    case algorithm::transposed: return f(transposed{});
    case algorithm::butterfly: return f(butterfly{});
    case algorithm::warp_scan: return f(warp_scan{});
  }
  throw std::invalid_argument("butterfly: unknown algorithm");
}

}  // namespace butterfly::detail
