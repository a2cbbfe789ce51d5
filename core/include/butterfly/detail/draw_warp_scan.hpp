// warp_scan: the lanes of a subgroup cooperate on ONE token, as CUB's WarpScan-based GPU LDA
// samplers (e.g. CuLDA_CGS) do; the paper does not cover it. Lane r holds topic j + r of a
// chunk of W consecutive topics, so both loads are contiguous and no per-lane table exists.
// Each chunk is scanned with log2(W) rounds of shuffle_up and offset by a running carry;
// the search picks the chunk by a binary search over the chunk ends and the topic inside
// it by ballot and find-first-set.
//
// Rounding: prefix[j + r] = carry_j + scan_j[r], the scan a Hillis-Steele tree, so like the
// butterfly it equals the oracle on exact weights and may differ by rounding otherwise
// (the result still depends only on the token's own weights, K and W). Because the
// in-chunk tree is not a left-to-right sum, a zero weight can carry a prefix above its
// left neighbour's; the ballot therefore also requires a positive weight, which never
// changes an exact draw (the smallest index whose exact prefix exceeds stop has a positive
// weight) and means a zero weight is never drawn.
#pragma once

#include <cstdint>

#include "butterfly/detail/draw_basic.hpp"
#include "butterfly/detail/search.hpp"
#include "butterfly/detail/sources.hpp"

namespace butterfly::detail {

// Inclusive scan across the lanes: lane r ends with x[0] + ... + x[r], Hillis-Steele order.
// The rounds are unrolled by recursion on D rather than left to BUTTERFLY_UNROLL (empty on
// host compilers): with a constant D the serial shuffle_up is a shifted copy the compiler
// vectorizes, with a loop variable it is a scalar gather.
template <int D = 1, class SG>
BUTTERFLY_FN varying<SG, float> inclusive_scan(const SG& sg, const varying<SG, float>& x) {
  if constexpr (D < SG::width) {
    return inclusive_scan<2 * D>(sg, sg.select(sg.lane() >= D, x + sg.shuffle_up(x, D), x));
  } else {
    return x;
  }
}

// On lane r, the weight of ONE token (document m, word c) at topic j + r: theta[m, j+r] *
// phi[c, j+r], both loads contiguous. Full chunks (all but the last when W does not divide
// K) use plain loads; lanes past K read nothing and get weight 0.
template <class SG, class Source>
BUTTERFLY_FN varying<SG, float> chunk_product(const SG& sg, const Source& src, std::int64_t m,
                                              std::int32_t c, int j) {
  const int K = src.K;
  const float* phi = src.phi_rows().row(c);
  if (j + SG::width <= K) {
    if constexpr (Source::has_theta) return sg.load(src.theta_rows().row(m) + j) * sg.load(phi + j);
    else return sg.load(phi + j);
  }
  const varying<SG, int> k = j + sg.lane();
  const auto in = k < K;
  if constexpr (Source::has_theta)
    return sg.gather(src.theta_rows().row(m), k, in, 0.0f) * sg.gather(phi, k, in, 0.0f);
  else return sg.gather(phi, k, in, 0.0f);
}

struct warp_scan : reads_theta_directly {
  // draw_warp walks a warp's documents token by token, each drawn with the whole subgroup
  // (draw_token), instead of one token per lane: no lane idles on a finished document, so
  // lane utilization is K / (W ceil(K / W)) whatever the lengths.
  static constexpr bool lanes_are_topics = true;
  // Its scratch is the prefix of draw_token alone: one float per chunk of W topics per lane.
  template <int W>
  static constexpr std::size_t p_floats(int K) {
    return static_cast<std::size_t>((K + W - 1) / W) * W;
  }

  // Draws one token (document or row m, word c, uniform u) with the whole subgroup; every
  // lane returns the same topic (-1 under the rule of finish_draw: an all-zero row, or
  // weights that are not finite). prefix: ceil(K/W) * W floats of scratch.
  template <class SG, class Source>
  BUTTERFLY_FN static int draw_token(const SG& sg, const Source& src, float* prefix, std::int64_t m,
                                     std::int32_t c, float u) {
    constexpr int W = SG::width;
    const int K = src.K;
    // prefix is reused token after token: the previous token's search read entries that other
    // lanes are about to overwrite here (chunk ends, read by every lane). The ballot that
    // ended that search does not order memory; the CUDA memory model asks for a warp barrier
    // (__syncwarp) between those reads and these writes. Ordering only: z is unchanged.
    sg.sync();
    float carry = 0.0f;
    for (int j = 0; j < K; j += W) {
      const varying<SG, float> p = carry + inclusive_scan(sg, chunk_product(sg, src, m, c, j));
      sg.store(prefix + j, p);
      carry = sg.shuffle(p, W - 1);
    }
    sg.sync();  // the search reads chunk ends other lanes stored
    const float sum = carry;
    if (!searchable_total(sum)) {
      // The token is the same on every lane, so every lane redraws it and lane 0 answers.
      const typename SG::mask all_lanes = varying<SG, int>(0) == 0;
      const token<SG> tok{varying<SG, std::int64_t>(m), varying<SG, std::int32_t>(c)};
      return sg.shuffle(draw_in_double(sg, src, tok, varying<SG, float>(u), all_lanes), 0);
    }
    const float stop = sum * u;  // below sum, see stop_value()

    // The first chunk whose end exceeds stop. Chunk ends never decrease (each is the last
    // one plus a non-negative total), and that chunk's total is positive. (Negative weights,
    // validate off, break the order, but the chunk found still ends above stop and starts
    // at or below it, so it holds a positive weight and the ballots below are not empty.)
    int lo = 0, hi = (K - 1) / W;
    while (lo < hi) {
      const int mid = (lo + hi) >> 1;
      if (stop < prefix[mid * W + W - 1]) hi = mid;
      else lo = mid + 1;
    }
    const int j = lo * W;
    const auto positive = chunk_product(sg, src, m, c, j) > 0.0f;
    const std::uint64_t hit = sg.ballot(positive && stop < sg.load(prefix + j));
    if (hit != 0) return j + lowest_set_bit(hit);
    // Only rounding gets here: stop lies between the last positive topic's rounded prefix
    // and the chunk end, which in exact arithmetic are equal; that topic is the draw.
    return j + highest_set_bit(sg.ballot(positive));
  }

  // The interface the other algorithms share (one token per lane, each with its own u):
  // the lanes' tokens are drawn one after another (warp_draw's per-lane members).
  template <class SG, class Source>
  BUTTERFLY_FN static varying<SG, int> draw(const SG& sg, const Source& src,
                                            const warp_scratch<SG>& ws, const token<SG>& tok,
                                            const varying<SG, float>& u) {
    const varying<SG, int> r = sg.lane();
    varying<SG, int> z = -1;
    for (int l = 0; l < SG::width; ++l) {
      const int k = draw_token(sg, src, ws.p.base, sg.shuffle(tok.m, l), sg.shuffle(tok.c, l),
                               sg.shuffle(u, l));
      z = sg.select(r == l, k, z);
    }
    return z;
  }
};

}  // namespace butterfly::detail
