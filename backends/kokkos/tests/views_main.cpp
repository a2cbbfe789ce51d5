// The application owns the Kokkos session; the tests run inside it.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <Kokkos_Core.hpp>

int main(int argc, char** argv) {
  const Kokkos::ScopeGuard kokkos(argc, argv);
  return Catch::Session().run(argc, argv);
}
