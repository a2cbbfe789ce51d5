// The cross-backend conformance suite, written once and compiled for whichever backend the
// build selected: the configured backend and the serial reference run side by side on the
// same inputs, at the backend's native width, and must agree bit for bit; both must also
// agree with the goldens the reference wrote, so a GPU run elsewhere is checked against a
// CPU run here.
#include <catch2/catch.hpp>

#include "cases.hpp"
#include "check.hpp"
#include "golden.hpp"

using namespace butterfly;
using namespace butterfly::conformance;

TEMPLATE_TEST_CASE("conformance: backend equals the serial reference bit for bit",
                   "[conformance]", Basic, Transposed, Butterfly, WarpScan) {
  const int width = native_width();
  for (const auto& c : conformance::all_cases()) {
    const auto want = conformance::run_reference(c, TestType::value, width);
    const auto got = conformance::run_backend(c, TestType::value, width);
    require_equal(got, want, std::string(backend_name()) + " vs reference, case " + c.name +
                                 ", width " + std::to_string(width));
    for (auto z : got) REQUIRE(z >= 0);  // every case has positive weights
  }
}

TEMPLATE_TEST_CASE("conformance: backend reproduces the goldens", "[conformance][golden]", Basic,
                   Transposed, Butterfly, WarpScan) {
  const int width = native_width();
  bool compared = false;
  for (const auto& c : conformance::all_cases()) {
    const auto golden = conformance::read_golden(conformance::golden_path(BUTTERFLY_GOLDEN_DIR, c));
    const auto it = golden.find({std::string(name(TestType::value)), width});
    if (it == golden.end()) continue;
    require_equal(conformance::run_backend(c, TestType::value, width), it->second,
                  std::string(backend_name()) + " vs golden " + c.name);
    compared = true;
  }
  INFO("no golden kept for width " << width << " (kept: 8, 16, 32, 64)");
  REQUIRE(compared);
}
