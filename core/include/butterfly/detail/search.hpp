// Pieces of the search shared by all algorithms.
#pragma once

#include <cstdint>
#include <cstring>

#include "butterfly/detail/subgroup.hpp"

namespace butterfly::detail {

// Largest float below x, for finite x > 0 (x itself otherwise).
BUTTERFLY_FN float next_below(float x) {
  if (!(x > 0.0f)) return x;
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits -= 1;
  std::memcpy(&x, &bits, sizeof bits);
  return x;
}

// The paper's stop = sum * u, kept strictly below sum. sum * u can round up to sum (with
// our 24-bit u only when sum is subnormal, with a finer u also for normal sums); the search
// would then find no entry above stop and fall through to the last topic even when its
// weight is zero.
template <class SG>
BUTTERFLY_FN varying<SG, float> stop_value(const SG& sg, const varying<SG, float>& sum,
                                           const varying<SG, float>& u) {
  const varying<SG, float> stop = sum * u;
  return sg.select(stop < sum, stop, sg.map([](float s) { return next_below(s); }, sum));
}

// Algorithm 3 for every lane at once: the smallest index in [lo, hi] whose entry exceeds
// stop (hi if none). All lanes start from the same uniform bounds, so the loop runs
// ceil(log2(hi - lo + 1)) times everywhere; lanes that have converged just hold still.
template <class SG, class Entry>
BUTTERFLY_FN varying<SG, int> binary_search(const SG& sg, const varying<SG, float>& stop, int lo,
                                            int hi, Entry entry) {
  varying<SG, int> j = lo;
  varying<SG, int> k = hi;
  while (sg.any(j < k)) {
    const auto active = j < k;
    const varying<SG, int> mid = (j + k) >> 1;
    const auto left = stop < entry(mid);
    k = sg.select(active && left, mid, k);
    j = sg.select(active && !left, mid + 1, j);
  }
  return j;
}

// A row whose weights sum to zero (or to NaN) has nothing to draw: the result is -1.
template <class SG>
BUTTERFLY_FN varying<SG, int> none_if_empty(const SG& sg, const varying<SG, float>& sum,
                                            const varying<SG, int>& j) {
  return sg.select(sum > 0.0f, j, -1);
}

}  // namespace butterfly::detail
