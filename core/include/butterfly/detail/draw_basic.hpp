// Algorithms 1 and 3: each lane builds its own full prefix-sum table and binary-searches it.
// theta and phi are read row-wise per lane, so on a GPU the W lanes touch W unrelated rows.
//
// Also the double-precision redraw that every algorithm falls back on (finish_draw): a
// lane whose float total is not a normal float redraws with Algorithm 1 in double.
#pragma once

#include "butterfly/detail/search.hpp"
#include "butterfly/detail/sources.hpp"

namespace butterfly::detail {

// Line z1prodstart of Algorithm 1: a[k] = theta[m, k] * phi[c, k], each lane from its own
// rows (k uniform or per lane), multiplied in T (float, or double for the redraw). Lanes
// outside `live` load nothing and get 0.
template <class T = float, class SG, class Source, class Index>
BUTTERFLY_FN varying<SG, T> own_product(const SG& sg, const Source& src, const token<SG>& tok,
                                        const Index& k, const typename SG::mask& live) {
  const varying<SG, T> phi(src.phi_rows().at(sg, tok.c, k, live));
  if constexpr (Source::has_theta)
    return varying<SG, T>(src.theta_rows().at(sg, tok.m, k, live)) * phi;
  else return phi;
}

// Algorithm 1 with the linear search of Algorithm 2, in double precision, on the lanes in
// `redo` (the others load nothing and get -1). Products of floats are exact in double and
// neither overflow nor underflow, and a sum of up to 2^31 of them cannot overflow, so a
// row whose float total overflowed or underflowed is drawn at double's precision. The
// second pass adds in the same order as the first, so its last prefix is the total,
// which exceeds stop = total * u (u < 1, the total a normal double): every redo lane with
// a positive finite total finds a topic, and the first prefix above stop belongs to a
// positive weight. A total that is zero, NaN or infinite (the weights had an infinity or
// a NaN) gives -1.
template <class SG, class Source>
BUTTERFLY_FN varying<SG, int> draw_in_double(const SG& sg, const Source& src, const token<SG>& tok,
                                             const varying<SG, float>& u,
                                             const typename SG::mask& redo) {
  using f64 = varying<SG, double>;
  const int K = src.K;
  f64 sum = 0.0;
  for (int k = 0; k < K; ++k) sum = sum + own_product<double>(sg, src, tok, k, redo);
  const auto drawable = redo && sum > 0.0 && sum <= 0x1.fffffffffffffp+1023;
  const f64 stop = sum * f64(u);
  f64 prefix = 0.0;
  varying<SG, int> j = -1;
  for (int k = 0; k < K && sg.any(drawable && j < 0); ++k) {
    const auto open = drawable && j < 0;
    prefix = prefix + own_product<double>(sg, src, tok, k, open);
    j = sg.select(open && stop < prefix, k, j);
  }
  return j;
}

// The result of a lane's draw: j when the lane's float total sum was a normal float (the
// float table was searchable), otherwise the draw redone in double precision. Zero,
// subnormal, infinite and NaN totals are rare (all-zero rows; products or sums that
// underflow or overflow float; weights that are not finite), so ordinary inputs pay one
// any() per token. Departure from the paper, which assumes sums that fit a float.
template <class SG, class Source>
BUTTERFLY_FN varying<SG, int> finish_draw(const SG& sg, const Source& src, const token<SG>& tok,
                                          const varying<SG, float>& u,
                                          const varying<SG, float>& sum,
                                          const varying<SG, int>& j) {
  const auto redo = !searchable_total(sum);
  if (!sg.any(redo)) return j;
  return sg.select(redo, draw_in_double(sg, src, tok, u, redo), j);
}

// Algorithms that read theta straight from its rows have nothing to cache per warp; their
// scratch (warp_scratch) is p, K floats per lane unless the algorithm says otherwise.
struct reads_theta_directly {
  static constexpr bool caches_theta = false;
  static constexpr bool exchanges = false;
  template <int W>
  static constexpr std::size_t p_floats(int K) {
    return static_cast<std::size_t>(K) * W;
  }
};

struct basic : reads_theta_directly {
  template <class SG, class Source>
  BUTTERFLY_FN static varying<SG, int> draw(const SG& sg, const Source& src,
                                            const warp_scratch<SG>& ws, const token<SG>& tok,
                                            const varying<SG, float>& u) {
    const typename SG::mask all_lanes = varying<SG, int>(0) == 0;
    varying<SG, float> sum = 0.0f;
    for (int k = 0; k < src.K; ++k) {
      sum = sum + own_product(sg, src, tok, k, all_lanes);
      ws.p.set(sg, k, sum);
    }
    const auto stop = stop_value(sg, sum, u);
    const auto j = binary_search(sg, stop, 0, src.K - 1,
                                 [&](const varying<SG, int>& mid) { return ws.p.get(sg, mid); });
    return finish_draw(sg, src, tok, u, sum, j);
  }
};

}  // namespace butterfly::detail
