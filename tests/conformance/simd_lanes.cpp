// The SIMD host lanes against the plain-array lanes (host_lanes/subgroup.hpp, the reference)
// at equal W, as the host backends (serial, openmp, Kokkos host spaces) run them: the lanes
// of host_lanes/host_subgroup.hpp, which are SIMD registers at the widths that fit two
// registers (W <= 8 on SSE2, 16 on AVX2, 32 on AVX-512) and the reference's own arrays above.
// All four algorithms, product and row form, warp packing on and off, at every width where
// the two differ; at the golden widths also against the goldens the reference wrote. (This
// file once instantiated the SIMD lanes at every width, 4 to 64, which no backend runs
// above two registers: five times the compile time, three times per CI build. The public
// collective on SIMD lanes of every width is held against the oracle by core/warp_draw.cpp.)
//
// Backend-neutral code, so built in the serial builds only (CMakeLists.txt): for the build's
// host ISA (conformance_simd; also under the sanitizers) and, in the plain serial build, for
// SSE2 alone (conformance_simd_sse), so that run checks that two ISAs give the reference's
// z; BUTTERFLY_EXPECT_REGISTER_BYTES makes sure each binary really got the ISA it was meant
// to. The other backends' conformance tests compare their configured lanes with the
// reference through the public API.
#include <catch2/catch.hpp>

#include <algorithm>
#include <type_traits>

#include "butterfly/detail/draw.hpp"
#include "butterfly/host_lanes/host_subgroup.hpp"
#include "cases.hpp"
#include "check.hpp"
#include "golden.hpp"

using namespace butterfly;
using namespace butterfly::conformance;

namespace {

const host_lanes::serial_executor<host_lanes::host_subgroup> host_lanes_run("host lanes");
// The reference executor is the array lanes on one thread, already compiled in the library:
// instantiating them here again doubled this file's compile time.
const detail::executor& array_lanes = detail::reference_executor();

// The widths at which the host lanes are SIMD registers, not the reference's arrays.
std::vector<int> simd_widths() {
  std::vector<int> widths;
  for (int width : host_lanes_run.widths())
    detail::with_width<4, 8, 16, 32, 64>(width, [&](auto w) {
      if (std::is_same_v<host_lanes::host_subgroup<w.value>, host_lanes::simd_subgroup<w.value>>)
        widths.push_back(w.value);
    });
  return widths;
}

// The conformance cases plus documents longer than a warp-plan segment (256 tokens), so
// that packing both cuts and reorders.
std::vector<case_inputs> cases() {
  auto all = all_cases();
  all.push_back(make_products("long-docs", 6, 40, 100, 48, 700));
  return all;
}

std::vector<std::int32_t> run_on(const detail::executor& e, const case_inputs& c, algorithm a,
                                 int width, bool pack) {
  draw_options o = case_options(a, width);
  o.pack_warps = pack;
  std::vector<std::int32_t> z(c.outputs(), -2);
  if (c.rows) {
    const detail::rows_args args{c.theta, c.K, z};
    detail::draw(e, "simd conformance", args, args, o, detail::memory::host);
  } else {
    const detail::topics_args args{c.theta, c.phi, c.K, c.offsets, c.words, z};
    detail::draw(e, "simd conformance", args, args, o, detail::memory::host);
  }
  return z;
}

}  // namespace

TEST_CASE("simd lanes: compiled for the intended ISA", "[conformance][simd]") {
  INFO("simd_register_bytes " << host_lanes::simd::simd_register_bytes);
#ifdef BUTTERFLY_EXPECT_REGISTER_BYTES
  REQUIRE(host_lanes::simd::simd_register_bytes == BUTTERFLY_EXPECT_REGISTER_BYTES);
#else
  REQUIRE(host_lanes::simd::simd_register_bytes >= 16);
#endif
}

TEMPLATE_TEST_CASE("simd lanes equal the array lanes bit for bit at every width they run",
                   "[conformance][simd]", Basic, Transposed, Butterfly, WarpScan) {
  const std::vector<int> widths = simd_widths();
  INFO("simd_register_bytes " << host_lanes::simd::simd_register_bytes);
  REQUIRE(widths.size() >= 2);  // 4 and 8 even on SSE2
  for (const auto& c : cases())
    for (int width : widths)
      for (bool pack : {false, true}) {
        if (pack && c.rows) continue;  // rows have no warp plan
        const std::string what = "case " + c.name + ", width " + std::to_string(width) +
                                 (pack ? ", packed" : ", unpacked") + ", " +
                                 std::to_string(host_lanes::simd::simd_register_bytes) +
                                 "-byte registers";
        const auto want = run_on(array_lanes, c, TestType::value, width, false);
        for (auto z : want) REQUIRE(z >= 0);  // every case has positive weights
        require_equal(run_on(host_lanes_run, c, TestType::value, width, pack), want, what);
      }
}

// At the golden widths the host lanes run in SIMD registers (the arrays' are
// reference_goldens').
TEMPLATE_TEST_CASE("simd lanes reproduce the goldens", "[conformance][simd][golden]", Basic,
                   Transposed, Butterfly, WarpScan) {
  const std::vector<int> widths = simd_widths();
  int compared = 0;
  for (const auto& c : all_cases()) {
    const auto golden = read_golden(golden_path(BUTTERFLY_GOLDEN_DIR, c));
    for (int width : golden_widths) {
      if (std::find(widths.begin(), widths.end(), width) == widths.end()) continue;
      const auto it = golden.find({std::string(name(TestType::value)), width});
      if (it == golden.end()) continue;
      require_equal(run_on(host_lanes_run, c, TestType::value, width, false), it->second,
                    "simd lanes vs golden " + c.name + ", width " + std::to_string(width));
      ++compared;
    }
  }
  REQUIRE(compared > 0);
}
