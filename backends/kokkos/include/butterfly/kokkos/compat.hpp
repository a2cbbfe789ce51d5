// The Kokkos API differences between the versions butterfly builds against, in one place:
// Debian 12's Kokkos 3.4 (libtrilinos-kokkos-dev) and a user's own Kokkos 4.x.
#pragma once

#include <Kokkos_Core.hpp>

namespace butterfly::kokkos::compat {

// Labelled fences (Kokkos 3.6+) name the wait in Kokkos's profiling tools; 3.4 has only
// the unlabelled one.
template <class ExecSpace>
void fence(const ExecSpace& space, [[maybe_unused]] const char* label) {
#if KOKKOS_VERSION >= 30600
  space.fence(label);
#else
  space.fence();
#endif
}

// Initializes Kokkos with its warnings off (they are about environment variables the
// library does not set); 3.7 replaced InitArguments with InitializationSettings.
inline void initialize_quietly() {
#if KOKKOS_VERSION >= 30700
  Kokkos::initialize(Kokkos::InitializationSettings().set_disable_warnings(true));
#else
  Kokkos::InitArguments arguments;
  arguments.disable_warnings = true;
  Kokkos::initialize(arguments);
#endif
}

// Kokkos 4 cannot be initialized again once finalized and says so (is_finalized); before
// 4.0 a finalized Kokkos could be initialized again, so it is never "finalized for good".
inline bool finalized_for_good() {
#if KOKKOS_VERSION >= 40000
  return Kokkos::is_finalized();
#else
  return false;
#endif
}

}  // namespace butterfly::kokkos::compat
