// The outer loop of Algorithms 4 and 6 for one warp (subgroup) q: lane r owns document
// (or row) m = qW + r and walks its tokens with the paper's master index. Token t (local to
// the slice the caller passed) is drawn with the uniform of global token first_token + t.
#pragma once

#include <cstdint>

#include "butterfly/detail/rng.hpp"
#include "butterfly/detail/sources.hpp"

namespace butterfly::detail {

template <class Algorithm, class SG, class Source>
BUTTERFLY_FN void draw_warp(const SG& sg, const Source& src, std::int64_t q,
                            const warp_scratch<SG>& ws, std::int32_t* z, std::uint64_t seed,
                            std::uint32_t iteration, std::uint64_t first_token) {
  using i64 = std::int64_t;
  const varying<SG, i64> m = q * SG::width + varying<SG, i64>(sg.lane());
  const auto real = m < src.items();
  const varying<SG, i64> m_addr = sg.select(real, m, src.items() - 1);
  const varying<SG, i64> first = src.first_token(sg, m_addr);
  const varying<SG, i64> count = sg.select(real, src.token_count(sg, m_addr), i64{0});
  if constexpr (Algorithm::caches_theta && Source::caches_theta)
    src.cache_theta(sg, q, m_addr, ws.theta_local);
  for (i64 i_master = 0; sg.any(i_master < count); ++i_master) {
    // A lane past its last token repeats it (the master-index idiom) so that every lane
    // stays awake for the shuffles, but only live lanes write. Lanes with no token at all
    // read the nearest real one.
    const auto live = i_master < count;
    const varying<SG, i64> t = first + sg.select(live, i_master, count - 1);
    const varying<SG, i64> t_addr =
        sg.select(t < 0, i64{0}, sg.select(t < src.tokens(), t, src.tokens() - 1));
    const token<SG> tok{m_addr, src.word(sg, t_addr)};
    const varying<SG, float> u = sg.map(
        [=](i64 tt) {
          return rng::token_uniform(seed, iteration, first_token + static_cast<std::uint64_t>(tt));
        },
        t_addr);
    sg.scatter(z, t_addr, Algorithm::draw(sg, src, ws, tok, u), live);
  }
}

}  // namespace butterfly::detail
