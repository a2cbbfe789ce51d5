// What Algorithms 5 and 7 share: reading the theta_local cache (Algorithm 5, which
// Algorithm 6 reuses), c_warp, the leading remnant of K mod W topics (ordinary per-lane
// prefix sums, since there is no whole W x W block to transpose) and the transposed
// product loads.
#pragma once

#include "butterfly/detail/sources.hpp"

namespace butterfly::detail {

// Algorithms 5 and 7 start each warp with Algorithm 5's "cache theta values into
// theta_local" and read theta from there. That step is warp_draw's cache_theta
// (butterfly/warp_draw.hpp, which says why it is written there); the row form has no
// theta and caches nothing.
// Their scratch (warp_scratch): theta_local and p, K floats per lane each.
struct caches_theta_local {
  static constexpr bool caches_theta = true;
  static constexpr bool exchanges = false;
  template <int W>
  static constexpr std::size_t p_floats(int K) {
    return static_cast<std::size_t>(K) * W;
  }
};

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

// Lines z6remnantsumstart..z6remnantsumend: sum += theta_local[j] * phi[c, j], p[j] = sum.
// Returns the remnant's sum.
template <class SG, class Source>
BUTTERFLY_FN varying<SG, float> remnant_prefix(const SG& sg, const Source& src,
                                               const warp_scratch<SG>& ws, const token<SG>& tok) {
  const weight_rows phi = src.phi_rows();
  varying<SG, float> sum = 0.0f;
  for (int j = 0; j < src.K % SG::width; ++j) {
    varying<SG, float> product = phi.at(sg, tok.c, j);
    if constexpr (Source::has_theta) product = ws.theta_local.get(sg, j) * product;
    sum = sum + product;
    ws.p.set(sg, j, sum);
  }
  return sum;
}

// a[k] of line z6phiaccess (Algorithm 5) and of Algorithm 7: on lane r, theta_local[j+k] *
// phi[c_warp[k], j+r], the weight of lane k's token at topic j + r. The phi load is
// transposed (contiguous across lanes); theta_local was stored transposed, so its plain
// load lines up.
template <class SG, class Source>
BUTTERFLY_FN varying<SG, float> transposed_product(const SG& sg, const Source& src,
                                                   const lane_local<SG>& theta_local,
                                                   const c_warp_t<SG>& c_warp, int j, int k) {
  const varying<SG, float> phi = sg.load(src.phi_rows().row(c_warp.v[k]) + j);
  if constexpr (Source::has_theta) return theta_local.get(sg, j + k) * phi;
  else return phi;
}

}  // namespace butterfly::detail
