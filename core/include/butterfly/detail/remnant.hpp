// The leading remnant of K mod W topics, shared by Algorithms 5 and 7: ordinary per-lane
// prefix sums, since there is no whole W x W block to transpose.
#pragma once

#include "butterfly/detail/sources.hpp"

namespace butterfly::detail {

template <class SG, class Source>
BUTTERFLY_FN varying<SG, float> remnant_prefix(const SG& sg, const Source& src,
                                               const warp_scratch<SG>& ws, const token<SG>& tok) {
  varying<SG, float> sum = 0.0f;
  for (int j = 0; j < src.K % SG::width; ++j) {
    sum = sum + src.remnant(sg, ws.theta_local, tok, j);
    ws.p.set(sg, j, sum);
  }
  return sum;
}

// c_warp[k] = shuffle(c, k): every lane learns every lane's word (Algorithm 7, line z9shuffle).
// Algorithm 5 builds the same values through a W x W array in memory; the broadcast
// shuffle gives them without the round trip, so both algorithms use it.
template <class SG>
struct c_warp_t {
  std::int32_t v[SG::width];
  BUTTERFLY_FN c_warp_t(const SG& sg, const varying<SG, std::int32_t>& c) {
    BUTTERFLY_UNROLL
    for (int k = 0; k < SG::width; ++k) v[k] = sg.shuffle(c, k);
  }
};

}  // namespace butterfly::detail
