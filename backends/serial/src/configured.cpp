// BACKEND=serial: the reference's single thread, with the lanes in SIMD registers where W
// fits two registers (host_lanes/host_subgroup.hpp); z equals the reference's bit for bit.
#include "butterfly/host_lanes/host_subgroup.hpp"

namespace butterfly::detail {

const backend& configured_backend() {
  static const host_lanes::host_lanes_backend b(
      "serial", [](std::int64_t warps, const chunk_body& range) { range(0, warps); });
  return b;
}

}  // namespace butterfly::detail
