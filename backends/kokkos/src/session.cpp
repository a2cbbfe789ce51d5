#include "session.hpp"

#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "butterfly/kokkos/compat.hpp"

namespace butterfly::kokkos::detail {
namespace {

void finalize_at_exit() {
  if (Kokkos::is_initialized()) Kokkos::finalize();
}

}  // namespace

std::string session_unavailable_reason() {
  if (compat::finalized_for_good())
    return "Kokkos has been finalized and cannot be initialized again in this process";
  return {};
}

void require_session(const char* caller) {
  static std::mutex m;
  const std::lock_guard<std::mutex> lock(m);
  const std::string why = session_unavailable_reason();
  if (!why.empty()) throw std::runtime_error(std::string("butterfly::") + caller + ": " + why);
  if (Kokkos::is_initialized()) return;
  compat::initialize_quietly();
  // Registered after Kokkos's own statics exist, so it runs before they are destroyed.
  std::atexit(finalize_at_exit);
}

}  // namespace butterfly::kokkos::detail
