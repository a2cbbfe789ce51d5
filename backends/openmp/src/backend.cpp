// BACKEND=openmp: the host lanes with the warps shared out over host_parallel_for. A warp's
// draws depend only on its own inputs, so z is bit-identical to the reference for any thread
// count and schedule.
#include <algorithm>

#include "butterfly/host_lanes/host_subgroup.hpp"

namespace butterfly::detail {
namespace {

// About eight chunks per thread: enough for the dynamic schedule to even out long and short
// documents, few enough that each chunk's scratch allocation is noise.
void spread_over_threads(std::int64_t warps, const chunk_body& range) {
  const std::int64_t chunk =
      std::max<std::int64_t>(1, warps / (8 * static_cast<std::int64_t>(host_threads())));
  host_parallel_for(warps, chunk, range);
}

}  // namespace

const backend& configured_backend() {
  static const host_lanes::host_lanes_backend b("openmp", spread_over_threads);
  return b;
}

}  // namespace butterfly::detail
