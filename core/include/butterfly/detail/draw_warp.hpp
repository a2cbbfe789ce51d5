// The outer loop of Algorithms 4 and 6 for one warp (subgroup) q, on the public collective
// warp_draw: lane r owns warp slot qW + r (document qW + r - lane_shift, or with warp
// packing the segment the plan put there; see sources.hpp) and walks its tokens with the
// paper's master index. Token t (local to the slice the caller passed) is drawn with the
// uniform of global token first_token + t.
#pragma once

#include <cstdint>
#include <type_traits>

#include "butterfly/detail/sources.hpp"
#include "butterfly/warp_draw.hpp"

namespace butterfly::detail {

// Algorithms whose lanes hold topics rather than documents (warp_scan) say so.
template <class Kernel, class = void>
struct lanes_are_topics : std::false_type {};
template <class Kernel>
struct lanes_are_topics<Kernel, std::void_t<decltype(Kernel::lanes_are_topics)>>
    : std::bool_constant<Kernel::lanes_are_topics> {};

// How each form's tokens reach the collective WD: its weights, and its word c (a row is
// its own word).
template <class WD, class SG>
BUTTERFLY_FN varying<SG, int> draw_lanes(const SG& sg, float* scratch, const product_form& src,
                                         const varying<SG, std::int64_t>& m,
                                         const varying<SG, std::int32_t>& c,
                                         const varying<SG, float>& u) {
  return WD::products(sg, scratch, src.K, src.theta, src.phi, m, c, u);
}
template <class WD, class SG>
BUTTERFLY_FN varying<SG, int> draw_lanes(const SG& sg, float* scratch, const row_form& src,
                                         const varying<SG, std::int64_t>&,
                                         const varying<SG, std::int32_t>& c,
                                         const varying<SG, float>& u) {
  return WD::rows(sg, scratch, src.K, src.weights, c, u);
}

template <class WD, class SG>
BUTTERFLY_FN int draw_together(const SG& sg, float* scratch, const product_form& src,
                               std::int64_t m, std::int32_t c, float u) {
  return WD::products_together(sg, scratch, src.K, src.theta, src.phi, m, c, u);
}
template <class WD, class SG>
BUTTERFLY_FN int draw_together(const SG& sg, float* scratch, const row_form& src, std::int64_t,
                               std::int32_t c, float u) {
  return WD::row_together(sg, scratch, src.K, src.weights, c, u);
}

// scratch: the warp's warp_scratch<SG>::floats<Kernel>(src.K) floats, as the collective
// takes them.
template <class Kernel, class SG, class Source>
BUTTERFLY_FN void draw_warp(const SG& sg, const Source& src, std::int64_t q, float* scratch,
                            std::int32_t* z, std::uint64_t seed, std::uint32_t iteration,
                            std::uint64_t first_token) {
  using i64 = std::int64_t;
  using WD = basic_warp_draw<SG, Kernel>;
  const varying<SG, i64> slot = q * SG::width + varying<SG, i64>(sg.lane());
  const auto real = slot < src.items();
  const lane_slot<SG> own = src.slot(sg, sg.select(real, slot, src.items() - 1));
  const varying<SG, i64>& m_addr = own.m;
  const varying<SG, i64>& first = own.first;
  const varying<SG, i64> count = sg.select(real, own.count, i64{0});
  if constexpr (lanes_are_topics<Kernel>::value) {
    // Lane l's documents one token at a time, each drawn by the whole subgroup. Every
    // lane stores the same z (one store on a CPU, a benign same-value store on a GPU).
    for (int l = 0; l < SG::width; ++l) {
      const i64 m_l = sg.shuffle(m_addr, l), begin = sg.shuffle(first, l);
      const i64 end = begin + sg.shuffle(count, l);
      for (i64 t = begin; t < end; ++t)
        z[t] = draw_together<WD>(
            sg, scratch, src, m_l, src.word_at(t),
            rng::token_uniform(seed, iteration, first_token + static_cast<std::uint64_t>(t)));
    }
  } else {
    // Called here, not through a helper like the draws: warp_draw.hpp says why. The row
    // form has no theta to cache.
    if constexpr (std::is_same_v<Source, product_form>)
      WD::cache_theta(sg, scratch, src.K, src.theta, m_addr);
    for (i64 i_master = 0; sg.any(i_master < count); ++i_master) {
      // A lane past its last token repeats it (the master-index idiom) so that every lane
      // stays awake for the shuffles, but only live lanes write. Lanes with no token at all
      // read the nearest real one.
      const auto live = i_master < count;
      const varying<SG, i64> t = first + sg.select(live, i_master, count - 1);
      const varying<SG, i64> t_addr =
          sg.select(t < 0, i64{0}, sg.select(t < src.tokens(), t, src.tokens() - 1));
      const varying<SG, std::int32_t> c = src.word(sg, t_addr);
      const varying<SG, float> u =
          token_uniforms(sg, seed, iteration, varying<SG, std::uint64_t>(t_addr) + first_token);
      sg.scatter(z, t_addr, draw_lanes<WD>(sg, scratch, src, m_addr, c, u), live);
    }
  }
}

// Warps [q_begin, q_end) of src one after another with one warp's scratch
// (warp_scratch<SG>::floats<Kernel>): how a host executor runs a range of warps on its lanes (a GPU
// kernel strides its warps over the grid instead). Host code.
template <class Kernel, class SG, class Source>
void draw_warps(const SG& sg, const Source& src, std::int32_t* z, const draw_options& o,
                std::int64_t q_begin, std::int64_t q_end, float* scratch) noexcept {
  // Local copies: the stores to z (int32) could alias the caller's src.K or o.iteration,
  // which would make the compiler reload them after every store.
  const Source s = src;
  const std::uint64_t seed = o.seed, first_token = o.first_token;
  const std::uint32_t iteration = o.iteration;
  for (std::int64_t q = q_begin; q < q_end; ++q)
    draw_warp<Kernel>(sg, s, q, scratch, z, seed, iteration, first_token);
}

}  // namespace butterfly::detail
