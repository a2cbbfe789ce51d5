// Algorithms 1 and 3: each lane builds its own full prefix-sum table and binary-searches it.
// theta and phi are read row-wise per lane, so on a GPU the W lanes touch W unrelated rows.
#pragma once

#include "butterfly/detail/search.hpp"
#include "butterfly/detail/sources.hpp"

namespace butterfly::detail {

struct basic {
  static constexpr bool caches_theta = false;

  template <class SG, class Source>
  BUTTERFLY_FN static varying<SG, int> draw(const SG& sg, const Source& src,
                                            const warp_scratch<SG>& ws, const token<SG>& tok,
                                            const varying<SG, float>& u) {
    const typename SG::mask all_lanes = varying<SG, int>(0) == 0;
    varying<SG, float> sum = 0.0f;
    for (int k = 0; k < src.K; ++k) {
      sum = sum + src.direct(sg, tok, k, all_lanes);
      ws.p.set(sg, k, sum);
    }
    const auto stop = stop_value(sg, sum, u);
    const auto j = binary_search(sg, stop, 0, src.K - 1, [&](const varying<SG, int>& mid) {
      return ws.p.get(sg, mid);
    });
    return none_if_empty(sg, sum, j);
  }
};

}  // namespace butterfly::detail
