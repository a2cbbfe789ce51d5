// The seam (core/include/butterfly/detail/backend.hpp) when BACKEND=kokkos: the host lanes
// on Kokkos's default host execution space. Kokkos's lifetime: session.hpp.
#include <Kokkos_Core.hpp>

#include "butterfly/kokkos/launch.hpp"
#include "session.hpp"

namespace butterfly::detail {
namespace {

void spread_on_host_space(std::int64_t warps, const chunk_body& range) {
  kokkos::detail::require_session("draw");
  kokkos::detail::host_spread(Kokkos::DefaultHostExecutionSpace(), warps, range);
}

}  // namespace

const backend& configured_backend() {
  static const host_lanes::host_lanes_backend b("kokkos", spread_on_host_space,
                                           kokkos::detail::session_unavailable_reason);
  return b;
}

}  // namespace butterfly::detail
