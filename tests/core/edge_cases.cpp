// Documented corner cases through the public API: all-zero rows give -1, empty documents
// and padding lanes never write, any M/R/K, and outputs outside z are untouched.
#include <catch2/catch.hpp>

#include "harness.hpp"

using namespace butterfly;
using namespace butterfly::test;

TEMPLATE_TEST_CASE("edge-cases: an all-zero row draws -1 and its neighbours draw normally",
                   "[edge-cases]", Basic, Transposed, Butterfly, WarpScan) {
  for (int width : backend_widths())
    for (int K : {1, 3, 16, 40, 64, 100}) {
      const int R = 11;
      std::vector<float> w(R * K, 1.0f);
      for (int k = 0; k < K; ++k) w[4 * K + k] = 0.0f;  // row 4 all zero
      std::vector<std::int32_t> out(R, -7);
      draw_options o;
      o.method = TestType::value;
      o.width = width;
      draw_rows(w, K, out, o);
      for (int r = 0; r < R; ++r) {
        INFO("width " << width << " K " << K << " row " << r);
        if (r == 4) REQUIRE(out[r] == -1);
        else REQUIRE((out[r] >= 0 && out[r] < K));
      }
    }
}

TEMPLATE_TEST_CASE("edge-cases: a token whose products are all zero draws -1", "[edge-cases]",
                   Basic, Transposed, Butterfly, WarpScan) {
  const int K = 21, M = 5, V = 3;
  std::vector<float> theta(M * K, 1.0f), phi(V * K, 1.0f);
  for (int k = 0; k < K; ++k) theta[2 * K + k] = 0.0f;                   // document 2
  for (int k = 0; k < K; ++k) phi[1 * K + k] = (k % 2) ? 0.0f : 1.0f;    // word 1: even topics
  for (int k = 0; k < K; ++k) theta[3 * K + k] = (k % 2) ? 1.0f : 0.0f;  // doc 3: odd topics
  const std::vector<std::int64_t> offsets{0, 2, 4, 6, 8, 10};
  const std::vector<std::int32_t> words{0, 1, 0, 1, 0, 1, 1, 0, 1, 2};
  std::vector<std::int32_t> z(words.size(), -7);
  draw_options o;
  o.method = TestType::value;
  draw_topics(theta, phi, K, offsets, words, z, o);
  int empties = 0;
  for (std::size_t t = 0; t < z.size(); ++t) {
    std::size_t m = 0;
    while (offsets[m + 1] <= static_cast<std::int64_t>(t)) ++m;
    bool empty = true;
    for (int k = 0; k < K; ++k) empty = empty && theta[m * K + k] * phi[words[t] * K + k] == 0.0f;
    empties += empty;
    INFO("token " << t << " of document " << m);
    if (empty) REQUIRE(z[t] == -1);
    else REQUIRE((z[t] >= 0 && z[t] < K));
  }
  REQUIRE(empties == 3);  // both tokens of document 2, and word 1 in document 3
}

TEMPLATE_TEST_CASE("edge-cases: empty documents, padding lanes and odd M never write outside z",
                   "[edge-cases]", Basic, Transposed, Butterfly, WarpScan) {
  for (int width : backend_widths())
    for (int M : {1, 3, width - 1, width + 1, 3 * width + 2}) {
      if (M < 1) continue;
      const int K = 13, V = 7;
      std::vector<std::int64_t> offsets{0};
      std::vector<std::int32_t> words;
      for (int m = 0; m < M; ++m) {
        const int len = (m % 4 == 1) ? 0 : (m * 5) % 9;  // some empty, ragged lengths
        for (int i = 0; i < len; ++i) words.push_back((m + i) % V);
        offsets.push_back(static_cast<std::int64_t>(words.size()));
      }
      std::vector<float> theta(M * K, 0.5f), phi(V * K, 0.25f);
      // z lives inside a larger buffer with guard values on both sides.
      const int guard = 64;
      std::vector<std::int32_t> buffer(words.size() + 2 * guard, -99);
      draw_options o;
      o.method = TestType::value;
      o.width = width;
      draw_topics(theta, phi, K, offsets, words,
                  span<std::int32_t>(buffer.data() + guard, words.size()), o);
      for (std::size_t i = 0; i < buffer.size(); ++i) {
        INFO("width " << width << " M " << M << " buffer index " << i);
        const bool inside = i >= guard && i < guard + words.size();
        if (inside) REQUIRE((buffer[i] >= 0 && buffer[i] < K));
        else REQUIRE(buffer[i] == -99);
      }
    }
}

TEST_CASE("edge-cases: no documents, no words, no rows are fine", "[edge-cases]") {
  const std::vector<float> none;
  std::vector<std::int32_t> z;
  draw_topics(none, std::vector<float>(4 * 3, 1.0f), 3, std::vector<std::int64_t>{0},
              std::vector<std::int32_t>{}, z);
  draw_topics(none, none, 3, std::vector<std::int64_t>{0}, std::vector<std::int32_t>{}, z);
  draw_rows(none, 5, z);
  const std::vector<float> theta(2 * 3, 1.0f);
  draw_topics(theta, none, 3, std::vector<std::int64_t>{0, 0, 0}, std::vector<std::int32_t>{}, z);
  SUCCEED("all four calls returned without touching anything");
}
