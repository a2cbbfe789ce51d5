// The outer loop of Algorithms 4 and 6 for one warp (subgroup) q: lane r owns warp slot
// qW + r (document qW + r - lane_shift, or with warp packing the segment the plan put
// there; see sources.hpp) and walks its tokens with the paper's master index. Token t
// (local to the slice the caller passed) is drawn with the uniform of global token
// first_token + t.
#pragma once

#include <cstdint>
#include <type_traits>

#include "butterfly/detail/rng_lanes.hpp"
#include "butterfly/detail/sources.hpp"

namespace butterfly::detail {

// Algorithms whose lanes hold topics rather than documents (warp_scan) say so.
template <class Algorithm, class = void>
struct lanes_are_topics : std::false_type {};
template <class Algorithm>
struct lanes_are_topics<Algorithm, std::void_t<decltype(Algorithm::lanes_are_topics)>>
    : std::bool_constant<Algorithm::lanes_are_topics> {};

template <class Algorithm, class SG, class Source>
BUTTERFLY_FN void draw_warp(const SG& sg, const Source& src, std::int64_t q,
                            const warp_scratch<SG>& ws, std::int32_t* z, std::uint64_t seed,
                            std::uint32_t iteration, std::uint64_t first_token) {
  using i64 = std::int64_t;
  const varying<SG, i64> slot = q * SG::width + varying<SG, i64>(sg.lane());
  const auto real = slot < src.items();
  const lane_slot<SG> own = src.slot(sg, sg.select(real, slot, src.items() - 1));
  const varying<SG, i64>& m_addr = own.m;
  const varying<SG, i64>& first = own.first;
  const varying<SG, i64> count = sg.select(real, own.count, i64{0});
  if constexpr (lanes_are_topics<Algorithm>::value) {
    Algorithm::draw_items(sg, src, ws, m_addr, first, count, z, seed, iteration, first_token);
    return;
  } else {
    Algorithm::cache_theta(sg, src, ws, m_addr);
    for (i64 i_master = 0; sg.any(i_master < count); ++i_master) {
      // A lane past its last token repeats it (the master-index idiom) so that every lane
      // stays awake for the shuffles, but only live lanes write. Lanes with no token at all
      // read the nearest real one.
      const auto live = i_master < count;
      const varying<SG, i64> t = first + sg.select(live, i_master, count - 1);
      const varying<SG, i64> t_addr =
          sg.select(t < 0, i64{0}, sg.select(t < src.tokens(), t, src.tokens() - 1));
      const token<SG> tok{m_addr, src.word(sg, t_addr)};
      const varying<SG, float> u = token_uniforms(
          sg, seed, iteration, varying<SG, std::uint64_t>(t_addr) + first_token);
      sg.scatter(z, t_addr, Algorithm::draw(sg, src, ws, tok, u), live);
    }
  }
}

}  // namespace butterfly::detail
