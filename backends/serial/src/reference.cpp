// The serial reference: the plain-array host lanes run by one thread, warp after warp. Built
// into every configuration as butterfly::reference, the executor every other one must match
// bit for bit. Its lanes' draw_warps are compiled in the files backends/serial/CMakeLists.txt
// writes (one explicit instantiation each).
#include "butterfly/host_lanes/executor.hpp"

namespace butterfly::detail {

const executor& reference_executor() {
  static const host_lanes::serial_executor<host_lanes::subgroup> e("serial");
  return e;
}

}  // namespace butterfly::detail
