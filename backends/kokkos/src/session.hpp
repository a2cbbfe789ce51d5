// Who owns Kokkos's lifetime: the application, whenever it wants to. The span functions and
// host_parallel_for are backend-neutral (a program written against butterfly.hpp must run
// unchanged on every backend), so when the application has not initialized Kokkos, the
// first of them to run does it with Kokkos's defaults (which honour OMP_NUM_THREADS and the
// KOKKOS_* variables) and finalizes it at exit. An application that configures Kokkos
// itself must therefore initialize it before its first butterfly call; the View API
// (butterfly/kokkos/draw.hpp) never initializes anything, since holding Views already
// requires a live Kokkos.
#pragma once

#include <string>

namespace butterfly::kokkos::detail {

// Why Kokkos cannot be used in this process, or empty.
std::string session_unavailable_reason();

// Initializes Kokkos if nobody has; throws std::runtime_error naming `caller` if it has
// been finalized.
void require_session(const char* caller);

}  // namespace butterfly::kokkos::detail
