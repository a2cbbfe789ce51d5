// The cross-backend conformance suite, written once and compiled for whichever backend the
// build selected: the configured backend and the serial reference run side by side on the
// same inputs, at the backend's native width, and must agree bit for bit; both must also
// agree with the goldens the reference wrote, so a GPU run elsewhere is checked against a
// CPU run here.
#include <catch2/catch.hpp>

#include "cases.hpp"
#include "golden.hpp"

using namespace butterfly;

namespace {

struct Basic {
  static constexpr algorithm value = algorithm::basic;
};
struct Transposed {
  static constexpr algorithm value = algorithm::transposed;
};
struct Butterfly {
  static constexpr algorithm value = algorithm::butterfly;
};
struct WarpScan {
  static constexpr algorithm value = algorithm::warp_scan;
};

void require_equal(const std::vector<std::int32_t>& got, const std::vector<std::int32_t>& want,
                   const std::string& what) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) {
      INFO(what << ": first difference at output " << i);
      REQUIRE(got[i] == want[i]);
    }
}

}  // namespace

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
  INFO("no golden kept for width " << width << " (kept: 16, 32, 64)");
  REQUIRE(compared);
}

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
