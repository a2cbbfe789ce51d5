// Warp packing (options.pack_warps) must never change z, on every backend: the configured
// backend with packing on equals itself with packing off and the serial reference. The host
// spans, and on GPU and Kokkos builds the paths that upload the plan, all run through here.
#include <catch2/catch.hpp>

#include "butterfly/detail/warp_plan.hpp"
#include "cases.hpp"
#include "check.hpp"

using namespace butterfly;
using namespace butterfly::conformance;

namespace {

// The conformance cases plus documents longer than a segment (256 tokens), so the plan
// both cuts and reorders.
std::vector<case_inputs> packing_cases() {
  std::vector<case_inputs> cases;
  for (auto& c : all_cases())
    if (!c.rows) cases.push_back(std::move(c));
  cases.push_back(make_products("long-docs", 6, 40, 100, 48, 700));
  return cases;
}

std::vector<std::int32_t> run_packed(const case_inputs& c, algorithm a, int width, bool pack) {
  draw_options o = case_options(a, width);
  o.pack_warps = pack;
  std::vector<std::int32_t> z(c.outputs(), -2);
  draw_topics(c.theta, c.phi, c.K, c.offsets, c.words, z, o);
  return z;
}

}  // namespace

TEMPLATE_TEST_CASE("conformance: packing on equals packing off on the configured backend",
                   "[conformance][packing]", Basic, Transposed, Butterfly, WarpScan) {
  const int width = default_width();
  for (const auto& c : packing_cases()) {
    // Otherwise the test could not fail: the plan must move some document off its slot.
    const auto plan =
        detail::make_warp_plan(c.offsets, width, detail::lane_dependent(TestType::value));
    bool moved = plan.doc.size() != c.offsets.size() - 1;
    for (std::size_t s = 0; !moved && s < plan.doc.size(); ++s)
      moved = plan.doc[s] != static_cast<std::int64_t>(s);
    INFO("case " << c.name << ", width " << width);
    REQUIRE(moved);

    const auto off = run_packed(c, TestType::value, width, false);
    require_equal(run_packed(c, TestType::value, width, true), off,
                  std::string(backend_name()) + " packed vs unpacked, case " + c.name);
    require_equal(off, run_reference(c, TestType::value, width),
                  std::string(backend_name()) + " unpacked vs reference, case " + c.name);
  }
}
