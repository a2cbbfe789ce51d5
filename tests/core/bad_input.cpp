// Bad shapes and indices always throw std::invalid_argument naming the argument and value;
// NaN, infinite and negative weights are rejected when validate is on.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "harness.hpp"

using namespace butterfly;
using namespace butterfly::test;
using Catch::Matchers::Contains;

namespace {

struct inputs {
  int K = 4;
  std::vector<float> theta = std::vector<float>(3 * 4, 1.0f);  // M = 3
  std::vector<float> phi = std::vector<float>(5 * 4, 1.0f);    // V = 5
  std::vector<std::int64_t> offsets{0, 2, 2, 5};
  std::vector<std::int32_t> words{0, 4, 1, 2, 3};
  std::vector<std::int32_t> z = std::vector<std::int32_t>(5);
  draw_options o;
  void draw() { draw_topics(theta, phi, K, offsets, words, z, o); }
};

}  // namespace

TEMPLATE_TEST_CASE("bad-input: shapes, ids and widths are rejected with a clear message",
                   "[bad-input]", Basic, Transposed, Butterfly, WarpScan) {
  inputs in;
  in.o.method = TestType::value;
  REQUIRE_NOTHROW(in.draw());

  SECTION("K = 0") {
    in.K = 0;
    REQUIRE_THROWS_WITH(in.draw(), Contains("num_topics (K) must be at least 1, got 0"));
    std::vector<std::int32_t> out(2);
    REQUIRE_THROWS_WITH(draw_rows(std::vector<float>{}, 0, out, in.o), Contains("num_topics"));
  }
  SECTION("word id out of range") {
    in.words[3] = 5;
    REQUIRE_THROWS_WITH(in.draw(), Contains("words[3] = 5") && Contains("V = 5"));
    in.words[3] = -1;
    REQUIRE_THROWS_WITH(in.draw(), Contains("words[3] = -1"));
  }
  SECTION("theta of the wrong size") {
    in.theta.pop_back();
    REQUIRE_THROWS_WITH(in.draw(), Contains("theta must have M * K = 3 * 4 = 12 entries, got 11"));
  }
  SECTION("phi not a multiple of K") {
    in.phi.pop_back();
    REQUIRE_THROWS_WITH(in.draw(), Contains("phi must have V * K entries") && Contains("got 19"));
  }
  SECTION("z of the wrong size") {
    in.z.resize(4);
    REQUIRE_THROWS_WITH(in.draw(), Contains("z must have one entry per word, N = 5, got 4"));
  }
  SECTION("offsets that do not describe the words") {
    in.offsets = {0, 3, 2, 5};
    REQUIRE_THROWS_WITH(in.draw(), Contains("non-decreasing") && Contains("doc_offsets[2] = 2"));
    in.offsets = {1, 2, 2, 5};
    REQUIRE_THROWS_WITH(in.draw(), Contains("doc_offsets[0] must be 0, got 1"));
    in.offsets = {0, 2, 2, 4};
    REQUIRE_THROWS_WITH(in.draw(), Contains("must equal the number of words, 5"));
    in.offsets.clear();
    REQUIRE_THROWS_WITH(in.draw(), Contains("doc_offsets must have M + 1 entries"));
  }
  SECTION("row form shapes") {
    std::vector<float> w(3 * 4, 1.0f);
    std::vector<std::int32_t> out(2);
    REQUIRE_THROWS_WITH(draw_rows(w, 4, out, in.o),
                        Contains("out must have one entry per row, R = 3, got 2"));
    w.pop_back();
    out.resize(3);
    REQUIRE_THROWS_WITH(draw_rows(w, 4, out, in.o), Contains("weights must have R * K entries"));
  }
  SECTION("unsupported width") {
    in.o.width = 12;
    REQUIRE_THROWS_WITH(in.draw(), Contains("width 12 is not supported"));
  }
  SECTION("the exception type is std::invalid_argument") {
    in.K = -3;
    REQUIRE_THROWS_AS(in.draw(), std::invalid_argument);
  }
}

TEMPLATE_TEST_CASE("bad-input: validate rejects NaN, infinite and negative weights", "[bad-input]",
                   Basic, Transposed, Butterfly, WarpScan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (auto [value, word] : {std::pair<float, const char*>{nan, "is NaN"},
                             {inf, "is infinite"},
                             {-inf, "is infinite"},
                             {-0.5f, "is negative"}}) {
    inputs in;
    in.o.method = TestType::value;
    in.phi[2 * 4 + 3] = value;
    in.o.validate = false;
    in.draw();  // without validate: no check, no crash (what it draws: hostile_weights.cpp)
    in.o.validate = true;
    REQUIRE_THROWS_WITH(in.draw(), Contains("phi[2,3]") && Contains(word));
    in.phi[2 * 4 + 3] = 1.0f;
    in.theta[1 * 4 + 0] = value;
    REQUIRE_THROWS_WITH(in.draw(), Contains("theta[1,0]") && Contains(word));

    std::vector<float> w(2 * 3, 1.0f);
    w[5] = value;
    std::vector<std::int32_t> out(2);
    REQUIRE_THROWS_WITH(draw_rows(w, 3, out, in.o), Contains("weights[1,2]") && Contains(word));
  }
}

TEST_CASE("bad-input: unknown algorithm names list the valid ones", "[bad-input]") {
  REQUIRE(parse_algorithm("butterfly") == algorithm::butterfly);
  REQUIRE_THROWS_WITH(parse_algorithm("fast"), Contains("unknown algorithm 'fast'") &&
                                                   Contains("basic, transposed, butterfly"));
}

// Token (row) t draws with the uniform of global token first_token + t and document m runs
// on the lane of global document first_document + m: numbers that do not fit are rejected
// rather than wrapped.
TEMPLATE_TEST_CASE("bad-input: first_token overflow and out-of-range first_document are rejected",
                   "[bad-input]", Basic, Transposed, Butterfly, WarpScan) {
  constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();
  constexpr std::int64_t i64_max = std::numeric_limits<std::int64_t>::max();
  inputs in;  // N = 5 tokens, M = 3 documents
  in.o.method = TestType::value;
  in.o.first_token = u64_max - 4;  // the last token is 2^64 - 1 exactly
  REQUIRE_NOTHROW(in.draw());
  in.o.first_token = u64_max - 3;
  REQUIRE_THROWS_WITH(in.draw(), Contains("draw_topics") &&
                                     Contains("options.first_token = 18446744073709551612") &&
                                     Contains("5 tokens"));
  in.o.first_token = 0;

  in.o.first_document = i64_max - 2;  // the last document is 2^63 - 1 exactly
  REQUIRE_NOTHROW(in.draw());
  in.o.first_document = i64_max - 1;
  REQUIRE_THROWS_WITH(
      in.draw(), Contains("options.first_document = 9223372036854775806") && Contains("M = 3"));
  in.o.first_document = -1;
  REQUIRE_THROWS_WITH(in.draw(), Contains("options.first_document must be a document number") &&
                                     Contains("got -1"));
  in.o.first_document = 0;

  std::vector<float> w(4 * 3, 1.0f);  // R = 4
  std::vector<std::int32_t> out(4);
  in.o.first_token = u64_max - 3;
  REQUIRE_NOTHROW(draw_rows(w, 3, out, in.o));
  REQUIRE_NOTHROW(reference::draw_rows(w, 3, out, in.o));
  in.o.first_token = u64_max - 2;
  REQUIRE_THROWS_WITH(draw_rows(w, 3, out, in.o),
                      Contains("draw_rows") &&
                          Contains("options.first_token = 18446744073709551613") &&
                          Contains("4 rows"));
  REQUIRE_THROWS_WITH(reference::draw_rows(w, 3, out, in.o),
                      Contains("butterfly::reference::draw_rows") && Contains("first_token"));
  // Nothing to draw, nothing to number.
  REQUIRE_NOTHROW(draw_rows(std::vector<float>{}, 3, span<std::int32_t>(), in.o));
}
