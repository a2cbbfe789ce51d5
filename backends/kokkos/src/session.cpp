#include "session.hpp"

#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include <Kokkos_Core.hpp>

namespace butterfly::kokkos::detail {
namespace {

void finalize_at_exit() {
  if (Kokkos::is_initialized()) Kokkos::finalize();
}

}  // namespace

std::string session_unavailable_reason() {
  if (Kokkos::is_finalized())
    return "Kokkos has been finalized and cannot be initialized again in this process";
  return {};
}

void require_session(const char* caller) {
  static std::mutex m;
  const std::lock_guard<std::mutex> lock(m);
  const std::string why = session_unavailable_reason();
  if (!why.empty()) throw std::runtime_error(std::string("butterfly::") + caller + ": " + why);
  if (Kokkos::is_initialized()) return;
  Kokkos::initialize(Kokkos::InitializationSettings().set_disable_warnings(true));
  // Registered after Kokkos's own statics exist, so it runs before they are destroyed.
  std::atexit(finalize_at_exit);
}

}  // namespace butterfly::kokkos::detail
