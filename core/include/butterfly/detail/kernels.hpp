// Every draw algorithm's kernel type and the map from the public enum to it (what
// butterfly::warp_draw<Subgroup, algorithm> runs); the one switch from a run-time enum to
// the kernel is executor_of's.
#pragma once

#include "butterfly/detail/draw_basic.hpp"
#include "butterfly/detail/draw_butterfly.hpp"
#include "butterfly/detail/draw_transposed.hpp"
#include "butterfly/detail/draw_warp_scan.hpp"

namespace butterfly::detail {

template <algorithm A>
struct kernel_for;
template <>
struct kernel_for<algorithm::basic> {
  using type = basic;
};
template <>
struct kernel_for<algorithm::transposed> {
  using type = transposed;
};
template <>
struct kernel_for<algorithm::butterfly> {
  using type = butterfly;
};
template <>
struct kernel_for<algorithm::warp_scan> {
  using type = warp_scan;
};

}  // namespace butterfly::detail
