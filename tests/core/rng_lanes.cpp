// The lane-wise Philox (detail/rng_lanes.hpp) draws the bits of Random123's Philox, the
// scalar rng::token_uniform, on every lane: on the plain-array lanes (the 64-bit product)
// and on the SIMD lanes (pmuludq where the ISA has it) at every host width, for indices
// whose high word is zero, nonzero and all ones, and seeds with either half zero.
#include <catch2/catch.hpp>

#include "butterfly/detail/rng_lanes.hpp"

#include <cstdint>

#include "butterfly/host_lanes/simd_subgroup.hpp"
#include "butterfly/host_lanes/subgroup.hpp"

using namespace butterfly;

namespace {

template <class SG>
void check_against_random123() {
  const SG sg;
  using u64 = detail::varying<SG, std::uint64_t>;
  const u64 lane(sg.lane());
  for (std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{42}, std::uint64_t{0xfedcba9800000000},
                             std::uint64_t{0x0123456789abcdef}})
    for (std::uint32_t iteration : {0u, 7u, 0xffffffffu})
      for (std::uint64_t first :
           {std::uint64_t{0}, std::uint64_t{1000003}, std::uint64_t{0xfffffffe},
            std::uint64_t{0x123400000000}, ~std::uint64_t{0} - 200}) {
        const u64 index = lane * std::uint64_t{3} + first;
        const auto u = detail::token_uniforms(sg, seed, iteration, index);
        for (int l = 0; l < SG::width; ++l) {
          INFO("W=" << SG::width << " seed=" << seed << " iteration=" << iteration
                    << " index=" << index[l]);
          REQUIRE(u[l] == rng::token_uniform(seed, iteration, index[l]));
        }
      }
}

}  // namespace

TEST_CASE("lane-wise Philox equals Random123 on the array lanes", "[rng]") {
  check_against_random123<host_lanes::subgroup<4>>();
  check_against_random123<host_lanes::subgroup<64>>();
}

TEST_CASE("lane-wise Philox equals Random123 on the SIMD lanes", "[rng]") {
  check_against_random123<host_lanes::simd_subgroup<4>>();
  check_against_random123<host_lanes::simd_subgroup<8>>();
  check_against_random123<host_lanes::simd_subgroup<16>>();
  check_against_random123<host_lanes::simd_subgroup<64>>();
}
