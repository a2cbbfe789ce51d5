// The z uniform of every lane at once: rng::token_uniform (rng.hpp) evaluated on the
// subgroup's lanes, the same bits. Random123's Philox works on arrays of uint32_t, one
// counter at a time, so on SIMD host lanes it ran once per lane, about a quarter of the
// butterfly's profile at W = 8, K = 240 (~115 instructions per token). Here its ten rounds are
// written on varying values, so a SIMD subgroup runs them on whole registers; where
// varying<T> is T (CUDA, HIP) this is the scalar Philox again. tests/core/rng_lanes.cpp
// checks it against Random123 bit for bit.
#pragma once

#include <cstdint>
#include <type_traits>

#include "butterfly/detail/rng.hpp"
#include "butterfly/detail/subgroup.hpp"

namespace butterfly::detail {

// A subgroup may offer sg.mulhilo(m, x, hi, lo): the high and low 32 bits of the 64-bit
// product m * x[l] on every lane, in whatever instructions its hardware has. Without it the
// product is taken in 64-bit lanes.
template <class SG, class = void>
struct has_mulhilo : std::false_type {};
template <class SG>
struct has_mulhilo<SG, std::void_t<decltype(std::declval<const SG&>().mulhilo(
                           std::uint32_t{}, std::declval<const varying<SG, std::uint32_t>&>(),
                           std::declval<varying<SG, std::uint32_t>&>(),
                           std::declval<varying<SG, std::uint32_t>&>()))>> : std::true_type {};

template <class SG>
BUTTERFLY_FN void mulhilo(const SG& sg, std::uint32_t m, const varying<SG, std::uint32_t>& x,
                          varying<SG, std::uint32_t>& hi, varying<SG, std::uint32_t>& lo) {
  if constexpr (has_mulhilo<SG>::value) {
    sg.mulhilo(m, x, hi, lo);
  } else {
    const varying<SG, std::uint64_t> p = varying<SG, std::uint64_t>(x) * std::uint64_t{m};
    lo = varying<SG, std::uint32_t>(p);
    hi = varying<SG, std::uint32_t>(p >> 32);
  }
}

// rng::token_uniform(seed, iteration, index[l]) on lane l: Philox4x32-10 with key = seed
// and counter = (index, iteration, stream::z, draw 0), as rng::bits builds them; its first
// output word as a 24-bit float. Rounds and constants as Random123's philox.h.
template <class SG>
BUTTERFLY_FN varying<SG, float> token_uniforms(const SG& sg, std::uint64_t seed,
                                               std::uint32_t iteration,
                                               const varying<SG, std::uint64_t>& index) {
  using u32 = varying<SG, std::uint32_t>;
  u32 x0(index), x1(index >> 32);
  u32 x2 = iteration;
  u32 x3 = static_cast<std::uint32_t>(rng::stream::z);
  std::uint32_t k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
  BUTTERFLY_UNROLL
  for (int round = 0; round < 10; ++round) {
    u32 hi0, lo0, hi1, lo1;
    mulhilo(sg, 0xD2511F53u, x0, hi0, lo0);
    mulhilo(sg, 0xCD9E8D57u, x2, hi1, lo1);
    x0 = hi1 ^ x1 ^ k0;
    x1 = lo1;
    x2 = hi0 ^ x3 ^ k1;
    x3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  // rng::u01: the top 24 bits, exact in float (as int32, which every SIMD ISA converts).
  return varying<SG, float>(varying<SG, std::int32_t>(x0 >> 8)) * 0x1p-24f;
}

}  // namespace butterfly::detail
