// BACKEND=kokkos: the executor of Kokkos's default host execution space, with the session
// the backend-neutral span API needs (session.hpp: the first call starts Kokkos when the
// application has not).
#include "butterfly/kokkos/executor.hpp"

#include "session.hpp"

namespace butterfly::detail {
namespace {

struct library_session {
  static std::string reason() { return kokkos::detail::session_unavailable_reason(); }
  static void require(const char* caller) { kokkos::detail::require_session(caller); }
};

}  // namespace

const executor& configured_executor() {
  static const kokkos::detail::host_space_executor<Kokkos::DefaultHostExecutionSpace,
                                                   library_session>
      e;
  return e;
}

}  // namespace butterfly::detail
