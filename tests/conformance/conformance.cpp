// The cross-backend conformance suite, written once and compiled for whichever backend the
// build selected: the configured backend and the serial reference run side by side on the
// same inputs, at the backend's native width, and must agree bit for bit; both must also
// agree with the goldens the reference wrote, so a GPU run elsewhere is checked against a
// CPU run here.
#include <catch2/catch.hpp>

#include <limits>

#include "cases.hpp"
#include "check.hpp"
#include "golden.hpp"

using namespace butterfly;
using namespace butterfly::conformance;

TEMPLATE_TEST_CASE("conformance: backend equals the serial reference bit for bit", "[conformance]",
                   Basic, Transposed, Butterfly, WarpScan) {
  const int width = default_width();
  for (const auto& c : conformance::all_cases()) {
    const auto want = conformance::run_reference(c, TestType::value, width);
    const auto got = conformance::run_backend(c, TestType::value, width);
    require_equal(got, want,
                  std::string(backend_name()) + " vs reference, case " + c.name + ", width " +
                      std::to_string(width));
    for (auto z : got) REQUIRE(z >= 0);  // every case has positive weights
  }
}

TEMPLATE_TEST_CASE("conformance: backend reproduces the goldens", "[conformance][golden]", Basic,
                   Transposed, Butterfly, WarpScan) {
  const int width = default_width();
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

// Awkward weights on every width the backend supports: the backend equals the reference bit
// for bit, and, computed here from the exact (double) products, a token draws -1 exactly when
// all its products are zero and otherwise a topic whose exact product is non-zero (zero
// weights are never drawn; overflowing, underflowing and subnormal products are redrawn in
// double, not dropped).
TEMPLATE_TEST_CASE(
    "conformance: awkward weights (zeros, all-zero rows, overflow, underflow, subnormal, K = 1, "
    "1024, 4097)",
    "[conformance][awkward]", Basic, Transposed, Butterfly, WarpScan) {
  const auto cases = conformance::awkward_cases();
  std::size_t minus_ones = 0, drawn = 0, long_docs = 0, empty_docs = 0;
  std::size_t overflow = 0, underflow = 0, subnormal = 0;  // tokens (rows) by float total
  for (const auto& c : cases) {
    // -1 where the contract says so, a topic with a non-zero product elsewhere: independent of
    // the width, so computed once per case.
    const auto doc = conformance::document_of_outputs(c);
    std::vector<std::int32_t> none(c.outputs(), 0);
    for (std::size_t t = 0; t < c.outputs(); ++t) {
      bool any = false;
      float total = 0.0f;  // the float total a float kernel would see, in topic order
      for (int k = 0; k < c.K; ++k) {
        any = any || conformance::exact_weight(c, doc[t], t, k) > 0.0;
        total += conformance::float_weight(c, doc[t], t, k);
      }
      none[t] = !any;
      overflow += !(total <= std::numeric_limits<float>::max());
      underflow += any && total == 0.0f;
      subnormal += total > 0.0f && total < std::numeric_limits<float>::min();
    }
    if (!c.rows)
      for (std::size_t m = 0; m + 1 < c.offsets.size(); ++m) {
        long_docs += c.offsets[m + 1] - c.offsets[m] > 256;
        empty_docs += c.offsets[m + 1] == c.offsets[m];
      }
    for (const int width : supported_widths()) {
      const auto want = conformance::run_reference(c, TestType::value, width);
      const auto got = conformance::run_backend(c, TestType::value, width);
      require_equal(got, want,
                    std::string(backend_name()) + " vs reference, case " + c.name + ", width " +
                        std::to_string(width));
      for (std::size_t t = 0; t < got.size(); ++t) {
        const bool ok = none[t] ? got[t] == -1
                                : got[t] >= 0 && got[t] < c.K &&
                                      conformance::exact_weight(c, doc[t], t, got[t]) > 0.0;
        if (!ok) {
          INFO("case " << c.name << ", width " << width << ", output " << t << ": z " << got[t]
                       << (none[t] ? ", expected -1 (every exact product is 0)"
                                   : ", expected a topic of non-zero weight"));
          REQUIRE(ok);
        }
        ++(none[t] ? minus_ones : drawn);
      }
    }
  }
  // The cases really hold what they are for.
  CHECK(minus_ones > 0);
  CHECK(drawn > minus_ones);
  INFO("tokens and rows whose float total overflows "
       << overflow << ", underflows to 0 " << underflow << ", is subnormal " << subnormal);
  CHECK(overflow > 0);
  CHECK(underflow > 0);
  CHECK(subnormal > 0);
  CHECK(long_docs >= 4);
  CHECK(empty_docs >= 18);
}
