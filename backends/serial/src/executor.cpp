// BACKEND=serial: the reference's single thread, with the lanes in SIMD registers where W
// fits two registers (host_lanes/host_subgroup.hpp); z equals the reference's bit for bit.
#include "butterfly/host_lanes/host_subgroup.hpp"

namespace butterfly::detail {

const executor& configured_executor() {
  static const host_lanes::serial_executor<host_lanes::host_subgroup> e("serial");
  return e;
}

}  // namespace butterfly::detail
