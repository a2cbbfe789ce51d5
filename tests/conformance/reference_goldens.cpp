// The goldens must still be what the serial reference computes at every kept width, so an
// accidental change to the reference cannot hide behind a stale golden file. Runs in every
// build, with or without a device.
#include <catch2/catch.hpp>

#include "cases.hpp"
#include "check.hpp"
#include "golden.hpp"

using namespace butterfly;
using namespace butterfly::conformance;

// The goldens themselves must still be what the reference computes at every kept width,
// so an accidental change to the reference cannot hide behind a stale golden file.
TEMPLATE_TEST_CASE("conformance: reference still matches its goldens at every kept width",
                   "[conformance][golden]", Basic, Transposed, Butterfly, WarpScan) {
  for (const auto& c : conformance::all_cases()) {
    const auto golden = conformance::read_golden(conformance::golden_path(BUTTERFLY_GOLDEN_DIR, c));
    for (int w : conformance::golden_widths) {
      const auto it = golden.find({std::string(name(TestType::value)), w});
      REQUIRE(it != golden.end());
      require_equal(conformance::run_reference(c, TestType::value, w), it->second,
                    "reference vs golden " + c.name + " width " + std::to_string(w));
    }
  }
}
