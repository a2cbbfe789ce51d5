// The application owns the Kokkos session; the tests run inside it.
#include <Kokkos_Core.hpp>

#include "catch_session.hpp"

int main(int argc, char** argv) {
  const Kokkos::ScopeGuard kokkos(argc, argv);
  return butterfly::test::run_catch_session(argc, argv);
}
