// BACKEND=openmp: the host lanes with the warps shared out over host_parallel_for. A warp's
// draws depend only on its own inputs, so z is bit-identical to the reference for any thread
// count and schedule.
#include <algorithm>

#include "butterfly/detail/host_parallel.hpp"
#include "butterfly/host_lanes/run.hpp"

namespace butterfly::detail {
namespace {

class openmp_backend final : public host_lanes::lanes_backend<openmp_backend> {
 public:
  std::string_view name() const override { return "openmp"; }
  std::string unavailable_reason() const override { return {}; }
  // About eight chunks per thread: enough for the dynamic schedule to even out long and
  // short documents, few enough that each chunk's scratch allocation is noise.
  template <class Range>
  void spread(std::int64_t warps, Range& range) const {
    const std::int64_t chunk =
        std::max<std::int64_t>(1, warps / (8 * static_cast<std::int64_t>(host_threads())));
    host_parallel_for(warps, chunk, range);
  }
};

}  // namespace

const backend& configured_backend() {
  static const openmp_backend b;
  return b;
}

}  // namespace butterfly::detail
