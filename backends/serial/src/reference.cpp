// The serial reference: the host lanes run by one thread, warp after warp. Built into every
// configuration as butterfly::reference, the backend every other one must match bit for bit.
#include "butterfly/host_lanes/run.hpp"

namespace butterfly::detail {
namespace {

class serial_backend final : public host_lanes::lanes_backend<serial_backend> {
 public:
  std::string_view name() const override { return "serial"; }
  std::string unavailable_reason() const override { return {}; }
  template <class Range>
  void spread(std::int64_t warps, Range& range) const {
    range(0, warps);
  }
};

}  // namespace

const backend& reference_backend() {
  static const serial_backend b;
  return b;
}

}  // namespace butterfly::detail
