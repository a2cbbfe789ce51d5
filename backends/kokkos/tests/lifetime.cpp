// BACKEND=kokkos behind the backend-neutral API: a program that never mentions Kokkos works,
// and the first draw starts the Kokkos session it needs.
#include <catch2/catch.hpp>

#include <Kokkos_Core.hpp>

#include <vector>

#include "butterfly/butterfly.hpp"

TEST_CASE("kokkos backend: the first draw initializes Kokkos when the application did not",
          "[kokkos]") {
  REQUIRE(butterfly::backend_name() == "kokkos");
  REQUIRE_FALSE(Kokkos::is_initialized());
  CHECK(butterfly::backend_unavailable_reason().empty());
  std::vector<float> w(40 * 9);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i * 7) % 5);
  std::vector<std::int32_t> got(40, -2), want(40, -2);
  butterfly::draw_rows(w, 9, got);
  CHECK(Kokkos::is_initialized());
  butterfly::reference::draw_rows(w, 9, want);
  CHECK(got == want);
}
