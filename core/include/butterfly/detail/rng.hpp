// Counter-based randomness: every random number in butterfly is a pure function of
// (seed, iteration, stream, index), so results do not depend on thread count, warp
// width, backend or MPI rank count.
#pragma once

#include <Random123/philox.h>

#include <cstdint>

#include "butterfly/detail/config.hpp"

namespace butterfly::rng {

// Independent purposes get disjoint counter spaces, one stream number each. The draw's is z;
// a library on top names its own from 1 on (the LDA's: butterfly/lda/streams.hpp).
enum class stream : std::uint32_t {
  z = 0,  // the uniform u that picks a topic / row index
};

using philox = r123::Philox4x32;

// Four 32-bit words for (seed, iteration, stream, index, draw). The key carries the seed;
// the counter carries the rest, so no two (iteration, stream, index, draw) share a block.
// `draw` numbers successive blocks for one element (e.g. rejection-sampling attempts of a
// Gamma variate); it has 24 bits.
BUTTERFLY_FN philox::ctr_type bits(std::uint64_t seed, std::uint32_t iteration, stream s,
                                   std::uint64_t index, std::uint32_t draw = 0) {
  philox::ctr_type ctr = {{static_cast<std::uint32_t>(index),
                           static_cast<std::uint32_t>(index >> 32), iteration,
                           static_cast<std::uint32_t>(s) | (draw << 8)}};
  philox::key_type key = {
      {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
  return philox()(ctr, key);
}

// A float in [0, 1) with 24 random bits: every value is exact, the largest is 1 - 2^-24.
BUTTERFLY_FN float u01(std::uint32_t x) { return static_cast<float>(x >> 8) * 0x1p-24f; }

// A double in [0, 1) with 53 random bits from two words.
BUTTERFLY_FN double u01(std::uint32_t hi, std::uint32_t lo) {
  const std::uint64_t v = (static_cast<std::uint64_t>(hi) << 21) ^ (lo >> 11);
  return static_cast<double>(v & ((std::uint64_t{1} << 53) - 1)) * 0x1p-53;
}

// A double in [0, 1) with 32 random bits (every value exact): one word per uniform, where a
// token needs several and 2^-32 is fine enough.
BUTTERFLY_FN double u01_32(std::uint32_t x) { return static_cast<double>(x) * 0x1p-32; }

// The uniform that draws token (or row) `index` in iteration `iteration`.
BUTTERFLY_FN float token_uniform(std::uint64_t seed, std::uint32_t iteration, std::uint64_t index) {
  return u01(bits(seed, iteration, stream::z, index)[0]);
}

}  // namespace butterfly::rng
