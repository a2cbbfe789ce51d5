// Algorithms 6, 7 and 8 (with 9): transposed loads, a butterfly-patterned table of partial
// sums built with log2(W) rounds of shuffle_xor, and a search that rebuilds the few prefix
// sums it needs from that table.
#pragma once

#include "butterfly/detail/draw_basic.hpp"
#include "butterfly/detail/remnant.hpp"
#include "butterfly/detail/search.hpp"

namespace butterfly::detail {

// The b and i loops of Algorithm 7 for one block starting at topic j. On entry a[k] on lane
// r is lane k's weight at topic j + r. On exit rows j .. j+W-2 of p hold the butterfly
// table (closed form under Figure 2 of the paper) and a[W-1] the lane's own block total.
// Each row d is written exactly once: in round b, the rows d with d + 1 = (2i+1) 2^b.
template <class SG>
BUTTERFLY_FN void butterfly_block(const SG& sg, varying<SG, float> (&a)[SG::width],
                                  const lane_local<SG>& p, int j) {
  constexpr int W = SG::width;
  constexpr int log2W = log2_exact(W);
  const varying<SG, int> r = sg.lane();
  BUTTERFLY_UNROLL
  for (int b = 0; b < log2W; ++b) {
    const int bit = 1 << b;
    const auto upper = (r & bit) != 0;
    // Not in the loop condition: UBSan's division check there detaches GCC's unroll
    // annotation from the loop (a warning in the sanitizer build).
    const int pairs = W / (2 * bit);
    BUTTERFLY_UNROLL
    for (int i = 0; i < pairs; ++i) {
      const int d = 2 * bit * i + (bit - 1);
      const varying<SG, float> h = sg.select(upper, a[d], a[d + bit]);
      const varying<SG, float> v = sg.shuffle_xor(h, bit);
      a[d] = sg.select(upper, a[d + bit], a[d]);
      a[d + bit] = a[d] + v;
      p.set(sg, j + d, a[d]);
    }
  }
}

template <class SG>
struct block_search_result {
  varying<SG, int> j;
  varying<SG, float> lowValue, highValue;
};

// Algorithm 9: binary search inside the lane's block at blockBase, every midpoint rebuilt as
// lowValue + y or highValue - y from one butterfly-table entry that a partner lane fetches
// from its own column (indexed by our blockBase) and passes over with shuffle_xor.
template <class SG>
BUTTERFLY_FN block_search_result<SG> butterfly_search_block(const SG& sg, const lane_local<SG>& p,
                                                            const varying<SG, float>& stop,
                                                            const varying<SG, int>& blockBase) {
  constexpr int W = SG::width;
  const varying<SG, int> r = sg.lane();
  const auto has_low = blockBase > 0;
  varying<SG, float> lowValue =
      sg.select(has_low, p.get(sg, sg.select(has_low, blockBase - 1, 0)), 0.0f);
  varying<SG, float> highValue = p.get(sg, blockBase + (W - 1));
  varying<SG, int> flip = 0;
  constexpr int log2W = log2_exact(W);
  BUTTERFLY_UNROLL
  for (int b = 0; b < log2W; ++b) {
    const int bit = (W / 2) >> b;
    const int mask = ((W - 1) * (2 * bit)) & (W - 1);
    varying<SG, float> y = 0.0f;
    const int pairs = W / (2 * bit);  // not in the loop condition, as in butterfly_block
    BUTTERFLY_UNROLL
    for (int i = 0; i < pairs; ++i) {
      const int d = (bit - 1) + 2 * bit * i;
      const varying<SG, int> him = (d & mask) + (r & ~mask);
      const varying<SG, int> hisBlockBase = sg.shuffle(blockBase, him);
      const varying<SG, float> t = sg.shuffle_xor(p.get(sg, hisBlockBase + d), flip);
      y = sg.select(((r ^ d) & mask) == 0, t, y);
    }
    const varying<SG, float> compareValue = sg.select((r & bit) != 0, highValue - y, lowValue + y);
    const auto below = stop < compareValue;
    highValue = sg.select(below, compareValue, highValue);
    lowValue = sg.select(below, lowValue, compareValue);
    flip = flip ^ sg.select(below, r & bit, ~r & bit);
  }
  return {blockBase + (flip ^ r), lowValue, highValue};
}

struct butterfly : caches_theta_local {
  template <class SG, class Source>
  BUTTERFLY_FN static varying<SG, int> draw(const SG& sg, const Source& src,
                                            const warp_scratch<SG>& ws, const token<SG>& tok,
                                            const varying<SG, float>& u) {
    constexpr int W = SG::width;
    const int K = src.K;
    const int remnant = K % W;
    const int blocks = K / W;
    const c_warp_t<SG> c_warp(sg, tok.c);
    varying<SG, float> sum = remnant_prefix(sg, src, ws, tok);
    for (int j = remnant; j < K; j += W) {
      varying<SG, float> a[W];
      BUTTERFLY_UNROLL
      for (int k = 0; k < W; ++k) a[k] = transposed_product(sg, src, ws.theta_local, c_warp, j, k);
      butterfly_block(sg, a, ws.p, j);
      sum = sum + a[W - 1];
      // The paper writes p[W-1]; the block's last row, p[j+W-1], is meant (Figure 2).
      ws.p.set(sg, j + W - 1, sum);
    }

    // Algorithm 8.
    const auto stop = stop_value(sg, sum, u);
    const int searchBase = remnant + (W - 1);
    const varying<SG, int> block = binary_search(
        sg, stop, 0, blocks - 1,
        [&](const varying<SG, int>& mid) { return ws.p.get(sg, mid * W + searchBase); });
    const varying<SG, int> blockBase = remnant + block * W;
    varying<SG, int> j = blockBase;
    typename SG::mask suspect = j != j;
    if (blocks > 0) {
      const auto found = butterfly_search_block(sg, ws.p, stop, blockBase);
      j = found.j;
      // Departure from the paper: a midpoint rebuilt as highValue - y can round above the
      // true prefix sum and steer the search into a run of zero weights. The true interval
      // of a zero-weight topic is empty, so only a rounding-narrow interval can hide one;
      // those few lanes check their weight and, if it is zero, redo the draw with
      // Algorithm 1, which cannot pick a zero weight.
      suspect = found.highValue - found.lowValue <= sum * 0x1p-16f;
    }
    if (remnant > 0) {
      // The paper's p[m, blockBase-1] is the lane's own p[blockBase-1].
      const auto in_remnant = stop < ws.p.get(sg, blockBase - 1);
      varying<SG, int> i_first = remnant - 1;
      for (int i = remnant - 1; i >= 0; --i)
        i_first = sg.select(stop < ws.p.get(sg, i), i, i_first);
      j = sg.select(in_remnant, i_first, j);
      suspect = suspect && !in_remnant;
    }
    if (sg.any(suspect)) {
      // Lanes whose total finish_draw redraws in double need no check here.
      const auto zero = own_product(sg, src, tok, j, suspect) == 0.0f;
      const auto redo = suspect && zero && searchable_total(sum);
      if (sg.any(redo)) j = sg.select(redo, basic::draw(sg, src, ws, tok, u), j);
    }
    return finish_draw(sg, src, tok, u, sum, j);
  }
};

}  // namespace butterfly::detail
