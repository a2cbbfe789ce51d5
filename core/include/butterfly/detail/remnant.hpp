// What Algorithms 5 and 7 share: the theta_local cache (Algorithm 5, which Algorithm 6
// reuses), c_warp, the leading remnant of K mod W topics (ordinary per-lane prefix sums,
// since there is no whole W x W block to transpose) and the transposed product loads.
#pragma once

#include "butterfly/detail/sources.hpp"

namespace butterfly::detail {

// Algorithms 5 and 7 start each warp with Algorithm 5, "cache theta values into
// theta_local": the remnant is cached as is, each W x W block transposed, so that every
// load reads W consecutive floats of one theta row. m holds each lane's (real) document.
// Departure from the paper: lane k's row is broadcast (row[k]) rather than computed as
// q * W + k, so that a packed or shifted warp, whose documents are not q * W ..
// q * W + W - 1, caches the right rows. A source without theta (the row form) caches
// nothing.
struct caches_theta_local {
  template <class SG, class Source>
  BUTTERFLY_FN static void cache_theta(const SG& sg, const Source& src, const warp_scratch<SG>& ws,
                                       const varying<SG, std::int64_t>& m) {
    if constexpr (Source::has_theta) {
      constexpr int W = SG::width;
      const int K = src.K;
      const weight_rows theta = src.theta_rows();
      int j = 0;
      for (; j < K % W; ++j) ws.theta_local.set(sg, j, theta.at(sg, m, j));
      std::int64_t row[W];
      BUTTERFLY_UNROLL
      for (int k = 0; k < W; ++k) row[k] = sg.shuffle(m, k);
      for (; j < K; j += W) {
        BUTTERFLY_UNROLL
        for (int k = 0; k < W; ++k)
          ws.theta_local.set(sg, j + k, sg.load(theta.row(row[k]) + j));
      }
    }
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
