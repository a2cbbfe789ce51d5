// The serial reference: the plain-array host lanes run by one thread, warp after warp. Built
// into every configuration as butterfly::reference, the executor every other one must match
// bit for bit.
#include "butterfly/host_lanes/executor.hpp"

namespace butterfly {

BUTTERFLY_ARRAY_LANES()  // the one copy of the array lanes every host executor links to

}  // namespace butterfly

namespace butterfly::detail {

const executor& reference_executor() {
  static const host_lanes::serial_executor<host_lanes::subgroup> e("serial");
  return e;
}

}  // namespace butterfly::detail
