// The lanes the host backends (serial, openmp, Kokkos host spaces) run at width W: SIMD
// registers while the W lanes fit in at most two registers (W <= 8 on SSE, 16 on AVX2,
// 32 on AVX-512), plain arrays above. Measured on AVX2 (ap, K = 240): at two registers the
// SIMD lanes run the butterfly and warp_scan in half the arrays' time (basic in twice,
// transposed even); at four and more they lose for three algorithms of four (the loops over
// W are unrolled only up to 16, so the values go to the stack).
// Both kinds give the same z bit for bit (tests/conformance/simd_lanes.cpp), so the
// choice is speed only.
#pragma once

#include <type_traits>

#include "butterfly/host_lanes/executor.hpp"

namespace butterfly::host_lanes {

template <int W>
using host_subgroup =
    std::conditional_t<W <= 2 * simd::simd_chunk_lanes<W>, simd_subgroup<W>, subgroup<W>>;

}  // namespace butterfly::host_lanes
