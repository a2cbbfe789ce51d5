// The lanes the host backends (serial, openmp, Kokkos host spaces) run at width W: SIMD
// registers while the W lanes fit in one register (W <= 4 on SSE, 8 on AVX2, 16 on
// AVX-512), plain arrays above. Measured (bench/RESULTS.md, issue 12): with two or more
// registers per varying value the SIMD lanes spill and ran 1-5x slower than the arrays at
// W = 16 on AVX2, while at one register they are the fastest host path. Both kinds give
// the same z bit for bit (tests/conformance/simd_lanes.cpp), so the choice is speed only.
#pragma once

#include <type_traits>

#include "butterfly/host_lanes/run.hpp"

namespace butterfly::host_lanes {

template <int W>
using host_subgroup = std::conditional_t<simd::simd_chunk_lanes<W> == W, simd_subgroup<W>,
                                         subgroup<W>>;

using host_lanes_backend = basic_lanes_backend<host_subgroup>;

}  // namespace butterfly::host_lanes
