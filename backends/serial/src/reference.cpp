// The serial reference: the plain-array host lanes run by one thread, warp after warp. Built
// into every configuration as butterfly::reference, the backend every other one must match
// bit for bit.
#include "butterfly/host_lanes/run.hpp"

namespace butterfly::host_lanes {

BUTTERFLY_ARRAY_LANES()  // the one copy of the array lanes every host backend links to

}  // namespace butterfly::host_lanes

namespace butterfly::detail {

const backend& reference_backend() {
  static const host_lanes::array_lanes_backend b(
      "serial", [](std::int64_t warps, const chunk_body& range) { range(0, warps); });
  return b;
}

}  // namespace butterfly::detail
