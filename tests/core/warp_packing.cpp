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
struct corpus {
  int K = 0;
  std::vector<float> theta, phi;
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> words;
};

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

TEST_CASE("warp-packing: the plan cuts long documents and sorts segments by length",
          "[warp-packing]") {
  // lengths 2 0 3 2 1 7; segments of at most 3 tokens: document 5 becomes 2 + 2 + 3.
  const std::vector<std::int64_t> offsets{0, 2, 2, 5, 7, 8, 15};
  const auto plan = detail::make_warp_plan(offsets, 3);
  REQUIRE(plan.doc == std::vector<std::int64_t>{2, 5, 0, 3, 5, 5, 4});
  REQUIRE(plan.first == std::vector<std::int64_t>{2, 12, 0, 5, 8, 10, 7});
  REQUIRE(plan.count == std::vector<std::int64_t>{3, 3, 2, 2, 2, 2, 1});
  REQUIRE(detail::make_warp_plan(std::vector<std::int64_t>{0}).doc.empty());
  REQUIRE(detail::make_warp_plan(std::vector<std::int64_t>{0, 0, 0}).doc.empty());
}

TEST_CASE("warp-packing: the plan is cached per distinct doc_offsets", "[warp-packing]") {
  std::vector<std::int64_t> a{0, 1, 4, 4, 9}, b{0, 3, 4, 4, 9};
  const auto pa = detail::cached_warp_plan(a);
  REQUIRE(pa->doc == detail::make_warp_plan(a).doc);
  REQUIRE(detail::cached_warp_plan(std::vector<std::int64_t>(a)).get() == pa.get());  // equal content
  const auto pb = detail::cached_warp_plan(b);
  REQUIRE(pb.get() != pa.get());
  REQUIRE(pb->first == detail::make_warp_plan(b).first);
  a[1] = 3;  // the same storage with other content must not hit a's plan
  REQUIRE(detail::cached_warp_plan(a)->first == detail::make_warp_plan(a).first);
}

TEST_CASE("warp-packing: lane utilization, worked by hand", "[warp-packing]") {
  // W = 2, lengths 8 1 8 1: unpacked warps {8,1},{8,1} take 2*8 + 2*8 = 32 lane-steps for
  // 18 tokens; packed {8,8},{1,1} take 16 + 2 = 18. With segments of at most 4 tokens:
  // {4,4},{4,4},{1,1} take 8 + 8 + 2 = 18.
  const std::vector<std::int64_t> offsets{0, 8, 9, 17, 18};
  REQUIRE(detail::lane_utilization(offsets, 2) == Approx(18.0 / 32.0));
  REQUIRE(detail::lane_utilization(detail::make_warp_plan(offsets), 2) == Approx(1.0));
  REQUIRE(detail::lane_utilization(detail::make_warp_plan(offsets, 4), 2) == Approx(1.0));
  // W = 4: {8,1,8,1} unpacked = 32 steps; plan with 4-token segments {4,4,4,4},{1,1} = 16 + 4.
  REQUIRE(detail::lane_utilization(offsets, 4) == Approx(18.0 / 32.0));
  REQUIRE(detail::lane_utilization(detail::make_warp_plan(offsets, 4), 4) == Approx(18.0 / 20.0));
}
