// Pieces of the search shared by all algorithms.
#pragma once

#include "butterfly/detail/subgroup.hpp"

namespace butterfly::detail {

// The paper's stop = sum * u. It stays strictly below sum, so the search always finds an
// entry above stop and a zero-weight last topic is never drawn: u is a float below 1, so
// u <= 1 - 2^-24, and for a normal sum (the only kind whose draw is kept, see
// searchable_total) sum * (1 - 2^-24) is at least half an ulp below sum and rounds below
// it. A subnormal sum could round up to sum itself; those lanes are redrawn in double.
template <class SG>
BUTTERFLY_FN varying<SG, float> stop_value(const SG&, const varying<SG, float>& sum,
                                           const varying<SG, float>& u) {
  return sum * u;
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

// Whether a float total can be searched: a normal float. A zero total (all weights zero,
// or products that underflowed), a subnormal one (products that underflowed in part, so
// their rounding distorts the odds), an infinite one (sums or products that overflowed)
// or NaN goes to the double-precision redraw (finish_draw in draw_basic.hpp).
template <class T>
BUTTERFLY_FN auto searchable_total(const T& sum) {
  return sum >= 0x1p-126f && sum <= 0x1.fffffep+127f;
}

}  // namespace butterfly::detail
