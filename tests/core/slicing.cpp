// A corpus cut into calls (MPI shards, batches) draws exactly the z of one call over all of
// it when each call passes its first_document and first_token: the uniforms follow the
// global token number and the butterfly's lanes the global document (row) number.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "../conformance/cases.hpp"
#include "harness.hpp"

using namespace butterfly;
using namespace butterfly::test;

namespace {

using topics_fn =
    std::function<void(span<const float>, span<const float>, int, span<const std::int64_t>,
                       span<const std::int32_t>, span<std::int32_t>, const draw_options&)>;
using rows_fn =
    std::function<void(span<const float>, int, span<std::int32_t>, const draw_options&)>;

// The configured backend at its native width (0) and, with every_backend_width, at every width
// it supports, then the serial reference at every width.
struct runner {
  const char* name;
  int width;
  topics_fn topics;
  rows_fn rows;
};
std::vector<runner> runners(bool every_backend_width) {
  std::vector<runner> r{
      {"backend", 0, [](auto&&... a) { draw_topics(a...); }, [](auto&&... a) { draw_rows(a...); }}};
  for (int w : every_backend_width ? backend_widths() : std::vector<int>{})
    r.push_back({"backend", w, [](auto&&... a) { draw_topics(a...); },
                 [](auto&&... a) { draw_rows(a...); }});
  for (int w : all_widths)
    r.push_back({"reference", w, [](auto&&... a) { reference::draw_topics(a...); },
                 [](auto&&... a) { reference::draw_rows(a...); }});
  return r;
}

// Documents [cuts[i], cuts[i+1]) drawn by one call each; with_first_document = false
// leaves first_document at 0 (what callers did before it existed).
std::vector<std::int32_t> draw_sliced(const runner& run, const conformance::case_inputs& c,
                                      const std::vector<std::int64_t>& cuts, draw_options o,
                                      bool with_first_document = true) {
  std::vector<std::int32_t> z(c.words.size(), -7);
  const auto K = static_cast<std::size_t>(c.K);
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    const std::int64_t m0 = cuts[i], m1 = cuts[i + 1], t0 = c.offsets[m0], t1 = c.offsets[m1];
    std::vector<std::int64_t> offsets;
    for (std::int64_t m = m0; m <= m1; ++m) offsets.push_back(c.offsets[m] - t0);
    o.first_token = static_cast<std::uint64_t>(t0);
    o.first_document = with_first_document ? m0 : 0;
    run.topics(span<const float>(c.theta.data() + m0 * K, (m1 - m0) * K), c.phi, c.K, offsets,
               span<const std::int32_t>(c.words.data() + t0, t1 - t0),
               span<std::int32_t>(z.data() + t0, t1 - t0), o);
  }
  return z;
}

std::vector<std::int32_t> draw_rows_sliced(const runner& run, const conformance::case_inputs& c,
                                           const std::vector<std::int64_t>& cuts, draw_options o) {
  std::vector<std::int32_t> out(c.outputs(), -7);
  const auto K = static_cast<std::size_t>(c.K);
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    const std::int64_t r0 = cuts[i], r1 = cuts[i + 1];
    o.first_token = static_cast<std::uint64_t>(r0);
    run.rows(span<const float>(c.theta.data() + r0 * K, (r1 - r0) * K), c.K,
             span<std::int32_t>(out.data() + r0, r1 - r0), o);
  }
  return out;
}

draw_options options(algorithm a, int width, bool pack) {
  draw_options o;
  o.method = a;
  o.width = width;
  o.pack_warps = pack;
  o.seed = 31;
  o.iteration = 6;
  return o;
}

}  // namespace

TEMPLATE_TEST_CASE("slicing: documents 0..4 then 5..499 at K = 240 draw the z of one call",
                   "[slicing]", Basic, Transposed, Butterfly, WarpScan) {
  // The review's case: M = 500, K = 240, seed 31, iteration 6, cut after 5 documents,
  // rounding weights (squares of uniforms) and documents of up to 400 tokens.
  static const auto c = conformance::make_products("slicing", 31, 500, 2000, 240, 400);
  const std::vector<std::int64_t> whole{0, 500}, cut{0, 5, 500};
  std::size_t moved_without_first_document = 0;
  // The backend at its native width only: this case costs seconds per width (minutes under
  // the sanitizers); the cut sweep below runs the backend at every width it supports (K = 19).
  for (const runner& run : runners(false))
    for (bool pack : {true, false}) {
      INFO(run.name << " width " << run.width << " packing " << pack);
      const draw_options o = options(TestType::value, run.width, pack);
      const auto z = draw_sliced(run, c, whole, o);
      REQUIRE(std::count(z.begin(), z.end(), -7) == 0);
      REQUIRE(draw_sliced(run, c, cut, o) == z);
      const auto old = draw_sliced(run, c, cut, o, false);
      for (std::size_t t = 0; t < z.size(); ++t) moved_without_first_document += old[t] != z[t];
    }
  // The lane matters only for the butterfly; if it never mattered here, this test could
  // not tell a lane-keyed draw from one that ignores first_document.
  if (TestType::value == algorithm::butterfly) CHECK(moved_without_first_document > 0);
  else CHECK(moved_without_first_document == 0);
}

TEMPLATE_TEST_CASE("slicing: every cut of documents, and of rows, draws the z of one call",
                   "[slicing]", Basic, Transposed, Butterfly, WarpScan) {
  for (int K : {5, 19, 64}) {
    const auto c =
        conformance::make_products("sweep", 40 + static_cast<std::uint64_t>(K), 41, 30, K, 20);
    const auto rows = conformance::make_rows("rows", 50 + static_cast<std::uint64_t>(K), 75, K);
    const std::int64_t M = 41, R = 75;
    // The backend at every width it supports for K = 19 (below some widths, above others);
    // at its native width for the other K, to keep the sanitizer build's time down.
    for (const runner& run : runners(K == 19))
      for (bool pack : {true, false}) {
        INFO(run.name << " width " << run.width << " packing " << pack << " K " << K);
        const draw_options o = options(TestType::value, run.width, pack);
        const auto z = draw_sliced(run, c, {0, M}, o);
        for (std::int64_t cut = 1; cut < M; ++cut) {
          INFO("documents cut at " << cut);
          REQUIRE(draw_sliced(run, c, {0, cut, M}, o) == z);
        }
        REQUIRE(draw_sliced(run, c, {0, 3, 3, 17, 18, 40, M}, o) == z);  // empty slices too
        const auto out = draw_rows_sliced(run, rows, {0, R}, o);
        for (std::int64_t cut = 1; cut < R; ++cut) {
          INFO("rows cut at " << cut);
          REQUIRE(draw_rows_sliced(run, rows, {0, cut, R}, o) == out);
        }
        REQUIRE(draw_rows_sliced(run, rows, {0, 1, 2, 33, 70, R}, o) == out);
      }
  }
}
