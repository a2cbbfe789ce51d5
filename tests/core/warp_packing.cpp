// Warp packing changes which lane draws a token, never the token's z: each token's u depends
// only on its index and each lane's draw only on its own weights.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "butterfly/detail/warp_plan.hpp"
#include "harness.hpp"

using namespace butterfly;
using namespace butterfly::test;

namespace {

// Ragged documents: mostly short, a few longer than a plan segment (256 tokens), some empty,
// M not a multiple of any width.
corpus ragged(int K, int M, int V, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> weight(0.0f, 1.0f);
  corpus c;
  c.K = K;
  for (int m = 0; m < M; ++m) {
    const int len = m % 17 == 3 ? 200 + 37 * (m % 13) : m % 5 == 0 ? 0 : 1 + (m * 7) % 23;
    for (int i = 0; i < len; ++i) c.words.push_back(static_cast<std::int32_t>(gen() % V));
    c.offsets.push_back(static_cast<std::int64_t>(c.words.size()));
  }
  c.theta.resize(static_cast<std::size_t>(M) * K);
  c.phi.resize(static_cast<std::size_t>(V) * K);
  for (float& x : c.theta) x = weight(gen) * weight(gen);  // rounding sums, some tiny
  for (float& x : c.phi) x = weight(gen) * weight(gen);
  return c;
}

}  // namespace

TEMPLATE_TEST_CASE("warp-packing: z is bit-identical with packing on and off", "[warp-packing]",
                   Basic, Transposed, Butterfly, WarpScan) {
  for (int K : {7, 16, 48, 240}) {
    const corpus c = ragged(K, 203, 61, static_cast<std::uint32_t>(K));
    for (int width : all_widths) {
      draw_options o;
      o.method = TestType::value;
      o.width = width;
      o.seed = 11;
      std::vector<std::int32_t> packed(c.words.size(), -7), unpacked(c.words.size(), -7);
      o.pack_warps = true;
      reference::draw_topics(c.theta, c.phi, K, c.offsets, c.words, packed, o);
      o.pack_warps = false;
      reference::draw_topics(c.theta, c.phi, K, c.offsets, c.words, unpacked, o);
      INFO("K " << K << " width " << width);
      REQUIRE(std::count(unpacked.begin(), unpacked.end(), -7) == 0);
      REQUIRE(packed == unpacked);
    }
  }
}

TEST_CASE("warp-packing: the plan cuts long documents and sorts segments within lane classes",
          "[warp-packing]") {
  // lengths 2 0 3 2 1 7, W = 2, segments of at most 3 tokens: document 5 becomes 2 + 2 + 3.
  // Lane 0 (documents 0, 2, 4): 3, 2, 1. Lane 1 (documents 1, 3, 5; 1 is empty): 3, 2, 2, 2.
  const std::vector<std::int64_t> offsets{0, 2, 2, 5, 7, 8, 15};
  const auto plan = detail::make_warp_plan(offsets, 2, true, 3);
  REQUIRE(plan.doc == std::vector<std::int64_t>{2, 5, 0, 3, 4, 5, 0, 5});
  REQUIRE(plan.first == std::vector<std::int64_t>{2, 12, 0, 5, 7, 8, 0, 10});
  REQUIRE(plan.count == std::vector<std::int64_t>{3, 3, 2, 2, 1, 2, 0, 2});
  // Without keep_lanes all segments form one class: 3 3 2 2 2 2 1 (documents 2 5 0 3 5 5 4).
  const auto free = detail::make_warp_plan(offsets, 2, false, 3);
  REQUIRE(free.doc == std::vector<std::int64_t>{2, 5, 0, 3, 5, 5, 4, 0});
  REQUIRE(free.first == std::vector<std::int64_t>{2, 12, 0, 5, 8, 10, 7, 0});
  REQUIRE(free.count == std::vector<std::int64_t>{3, 3, 2, 2, 2, 2, 1, 0});
  for (bool keep : {true, false}) {
    REQUIRE(detail::make_warp_plan(std::vector<std::int64_t>{0}, 4, keep).doc.empty());
    REQUIRE(detail::make_warp_plan(std::vector<std::int64_t>{0, 0, 0}, 4, keep).doc.empty());
  }
}

// The butterfly's result depends on the lane (see warp_plan.hpp), so a document must never
// move to another lane: document m of a call starting at global document first_document
// runs on lane (first_document + m) mod W.
TEST_CASE("warp-packing: every segment stays on its document's lane, (first_document + m) mod W",
          "[warp-packing]") {
  std::vector<std::int64_t> offsets{0};
  for (int m = 0; m < 997; ++m) offsets.push_back(offsets.back() + (m * 7919) % 601);
  for (int W : all_widths)
    for (std::int64_t first_document :
         {std::int64_t{0}, std::int64_t{5}, std::int64_t{67}, (std::int64_t{1} << 40) + 3}) {
      INFO("W " << W << " first_document " << first_document);
      const auto plan =
          detail::make_warp_plan(offsets, W, true, detail::default_max_segment, first_document);
      REQUIRE(plan.doc.size() % static_cast<std::size_t>(W) == 0);
      std::int64_t tokens = 0;
      for (std::size_t s = 0; s < plan.doc.size(); ++s) {
        tokens += plan.count[s];
        if (plan.count[s] > 0)
          REQUIRE((first_document + plan.doc[s]) % W == static_cast<std::int64_t>(s) % W);
      }
      REQUIRE(tokens == offsets.back());
    }
}

TEST_CASE("warp-packing: the plan is cached per distinct doc_offsets and width", "[warp-packing]") {
  std::vector<std::int64_t> a{0, 1, 4, 4, 9}, b{0, 3, 4, 4, 9};
  const auto pa = detail::cached_warp_plan(a, 2, true);
  REQUIRE(pa->doc == detail::make_warp_plan(a, 2, true).doc);
  REQUIRE(detail::cached_warp_plan(std::vector<std::int64_t>(a), 2, true).get() == pa.get());
  REQUIRE(detail::cached_warp_plan(a, 4, true).get() != pa.get());   // another width
  REQUIRE(detail::cached_warp_plan(a, 2, false).get() != pa.get());  // another lane rule
  const auto pb = detail::cached_warp_plan(b, 2, true);
  REQUIRE(pb.get() != pa.get());
  REQUIRE(pb->first == detail::make_warp_plan(b, 2, true).first);
  // The lane of document 0 is part of the key where lanes are kept, and only that lane.
  const auto shifted = detail::cached_warp_plan(a, 2, true, 1);
  REQUIRE(shifted.get() != pa.get());
  REQUIRE(shifted->doc == detail::make_warp_plan(a, 2, true, detail::default_max_segment, 1).doc);
  REQUIRE(detail::cached_warp_plan(a, 2, true, 7).get() == shifted.get());
  const auto even = detail::cached_warp_plan(a, 2, true, 6);  // lane 0, as first_document 0
  REQUIRE(even->doc == pa->doc);
  REQUIRE(detail::cached_warp_plan(a, 2, true, 0).get() == even.get());
  const auto free = detail::cached_warp_plan(a, 2, false);
  REQUIRE(detail::cached_warp_plan(a, 2, false, 1).get() == free.get());
  a[1] = 3;  // the same storage with other content must not hit a's plan
  REQUIRE(detail::cached_warp_plan(a, 2, true)->first == detail::make_warp_plan(a, 2, true).first);
}

TEST_CASE("warp-packing: lane utilization, worked by hand", "[warp-packing]") {
  // W = 2, lengths 8 1 1 8: unpacked warps {8,1},{1,8} take 2*8 + 2*8 = 32 lane-steps for
  // 18 tokens; packed within lane classes {8,8},{1,1} take 16 + 2 = 18.
  const std::vector<std::int64_t> offsets{0, 8, 9, 10, 18};
  REQUIRE(detail::lane_utilization(offsets, 2) == Approx(18.0 / 32.0));
  REQUIRE(detail::lane_utilization(detail::make_warp_plan(offsets, 2, true), 2) == Approx(1.0));
  // W = 4: one warp {8,1,1,8}; with 4-token segments lanes 0 and 3 get two segments each:
  // {4,1,1,4},{4,0,0,4} = 16 + 16 steps, no better than unpacked; without keep_lanes
  // {4,4,4,4},{1,1,0,0} = 16 + 4.
  REQUIRE(detail::lane_utilization(offsets, 4) == Approx(18.0 / 32.0));
  REQUIRE(detail::lane_utilization(detail::make_warp_plan(offsets, 4, true, 4), 4) ==
          Approx(18.0 / 32.0));
  REQUIRE(detail::lane_utilization(detail::make_warp_plan(offsets, 4, false, 4), 4) ==
          Approx(18.0 / 20.0));
}
