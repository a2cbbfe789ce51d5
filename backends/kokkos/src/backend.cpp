// The seam (core/include/butterfly/detail/backend.hpp) when BACKEND=kokkos: the host lanes
// on Kokkos's default host execution space. Kokkos's lifetime: session.hpp.
#include <Kokkos_Core.hpp>

#include "butterfly/kokkos/launch.hpp"
#include "session.hpp"

namespace butterfly::detail {
namespace {

using host_space = Kokkos::DefaultHostExecutionSpace;

class kokkos_backend final : public host_lanes::lanes_backend<kokkos_backend> {
 public:
  std::string_view name() const override { return "kokkos"; }
  std::string unavailable_reason() const override {
    return kokkos::detail::session_unavailable_reason();
  }
  template <class Range>
  void spread(std::int64_t warps, const Range& range) const {
    kokkos::detail::require_session("draw");
    kokkos::detail::host_spread(host_space(), warps, range);
  }
};

}  // namespace

const backend& configured_backend() {
  static const kokkos_backend b;
  return b;
}

}  // namespace butterfly::detail
