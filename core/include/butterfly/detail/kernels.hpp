// Every draw algorithm's kernel type, and the one switch from the public enum to it that
// every backend's launcher uses.
#pragma once

#include <stdexcept>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/draw_basic.hpp"
#include "butterfly/detail/draw_butterfly.hpp"
#include "butterfly/detail/draw_transposed.hpp"
#include "butterfly/detail/draw_warp_scan.hpp"

namespace butterfly::detail {

// Calls f(kernel{}) for the kernel that implements algorithm a (host code).
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
