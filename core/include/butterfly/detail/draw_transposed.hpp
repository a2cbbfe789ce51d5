// Algorithms 4, 5 and 3: theta and phi are read transposed (every load contiguous), the
// products a[] are transposed back through memory, and each lane gets the full prefix-sum
// table that Algorithm 3 searches.
#pragma once

#include "butterfly/detail/draw_basic.hpp"
#include "butterfly/detail/remnant.hpp"
#include "butterfly/detail/search.hpp"

namespace butterfly::detail {

struct transposed : caches_theta_local {
  static constexpr bool exchanges = true;  // Algorithm 5 transposes a[] through memory
  template <class SG, class Source>
  BUTTERFLY_FN static varying<SG, int> draw(const SG& sg, const Source& src,
                                            const warp_scratch<SG>& ws, const token<SG>& tok,
                                            const varying<SG, float>& u) {
    constexpr int W = SG::width;
    const c_warp_t<SG> c_warp(sg, tok.c);
    varying<SG, float> sum = remnant_prefix(sg, src, ws, tok);
    const varying<SG, int> r = sg.lane();
    for (int j = src.K % W; j < src.K; j += W) {
      // Lane l stores its a[k] at exchange[k][l]; lane r then reads a[r] of lane k, the
      // strided "transposed access to a" (line z6aaccess) that the butterfly avoids.
      BUTTERFLY_UNROLL
      for (int k = 0; k < W; ++k)
        sg.store(ws.exchange + k * W, transposed_product(sg, src, ws.theta_local, c_warp, j, k));
      sg.sync();
      BUTTERFLY_UNROLL
      for (int k = 0; k < W; ++k) {
        sum = sum + sg.gather(ws.exchange, r * W + k);
        ws.p.set(sg, j + k, sum);
      }
      sg.sync();  // the next block overwrites exchange
    }
    const auto stop = stop_value(sg, sum, u);
    const auto j = binary_search(sg, stop, 0, src.K - 1,
                                 [&](const varying<SG, int>& mid) { return ws.p.get(sg, mid); });
    return finish_draw(sg, src, tok, u, sum, j);
  }
};

}  // namespace butterfly::detail
