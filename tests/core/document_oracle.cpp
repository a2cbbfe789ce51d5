// An oracle for ragged multi-token documents through the public API, on the configured
// backend at every width it supports, every algorithm, packing on and off, with non-zero
// first_token and first_document. Weights are small integers, so every product and prefix
// sum is exact and all four algorithms must draw the same z. The expected z is computed here:
// the document of each token from doc_offsets, the token's own uniform from the documented
// mapping (README "Reproducible": the first word of Philox4x32-10(key = seed, counter =
// (first_token + t, iteration, stream z)) as a 24-bit u; the test calls the RNG primitive for
// the Philox block only), and the selection by cumulative sum of theta row times phi row,
// written out below without the library's search.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/rng.hpp"
#include "harness.hpp"

using namespace butterfly;
using namespace butterfly::test;

namespace {

constexpr std::uint64_t seed = 0x5eed0021;
constexpr std::uint32_t iteration = 9;

// The token's uniform: the documented mapping, spelt out from the Philox block.
float uniform_of(std::uint64_t global_token) {
  const auto block = rng::bits(seed, iteration, rng::stream::z, global_token);
  return static_cast<float>(block[0] >> 8) * 0x1p-24f;  // 24 bits: k / 2^24, k < 2^24
}

// The smallest k whose exact prefix sum exceeds stop = float(sum) * u (the float product the
// README documents, kept below sum); -1 when every weight is zero.
int select(const std::vector<double>& weights, float u) {
  double sum = 0;
  for (double w : weights) sum += w;
  if (sum == 0) return -1;
  const float fsum = static_cast<float>(sum);  // exact: integer sums far below 2^24
  float stop = fsum * u;
  if (!(stop < fsum)) stop = std::nextafter(fsum, 0.0f);
  double prefix = 0;
  for (std::size_t k = 0; k < weights.size(); ++k) {
    prefix += weights[k];
    if (static_cast<double>(stop) < prefix) return static_cast<int>(k);
  }
  return static_cast<int>(weights.size()) - 1;  // not reached: stop < sum
}

// Ragged documents: empty ones, short ones, and ones longer than a warp-plan segment (256
// tokens); integer weights in {0, 1, 2, 3}, about a third zero, one all-zero theta row and one
// all-zero phi row (their tokens draw -1).
corpus make_corpus(int K, int M, int V, std::uint32_t salt) {
  std::uint32_t x = 2463534242u ^ salt;
  auto next = [&x] {  // xorshift32: test data only
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
  };
  corpus c;
  c.K = K;
  for (int m = 0; m < M; ++m) {
    int len = static_cast<int>(next() % 23);
    if (m % 7 == 3) len = 0;
    if (m % 11 == 5) len = 257 + static_cast<int>(next() % 300);
    for (int i = 0; i < len; ++i) c.words.push_back(static_cast<std::int32_t>(next() % V));
    c.offsets.push_back(static_cast<std::int64_t>(c.words.size()));
  }
  auto weight = [&next] { return static_cast<float>(next() % 6 < 2 ? 0 : next() % 3 + 1); };
  c.theta.resize(static_cast<std::size_t>(M) * K);
  c.phi.resize(static_cast<std::size_t>(V) * K);
  for (float& w : c.theta) w = weight();
  for (float& w : c.phi) w = weight();
  for (int k = 0; k < K; ++k) c.theta[static_cast<std::size_t>(4 * K + k)] = 0.0f;  // document 4
  if (V > 2)
    for (int k = 0; k < K; ++k) c.phi[static_cast<std::size_t>(2 * K + k)] = 0.0f;  // word 2
  return c;
}

std::vector<std::int32_t> expected_topics(const corpus& c, std::uint64_t first_token) {
  const std::size_t K = static_cast<std::size_t>(c.K);
  std::vector<std::int32_t> z;
  std::vector<double> weights(K);
  for (std::size_t m = 0; m + 1 < c.offsets.size(); ++m)
    for (std::int64_t t = c.offsets[m]; t < c.offsets[m + 1]; ++t) {
      const std::size_t w = static_cast<std::size_t>(c.words[static_cast<std::size_t>(t)]);
      for (std::size_t k = 0; k < K; ++k)
        weights[k] =
            static_cast<double>(c.theta[m * K + k]) * static_cast<double>(c.phi[w * K + k]);
      z.push_back(select(weights, uniform_of(first_token + static_cast<std::uint64_t>(t))));
    }
  return z;
}

}  // namespace

TEMPLATE_TEST_CASE("document-oracle: ragged multi-token documents draw the z computed in the test",
                   "[document-oracle]", Basic, Transposed, Butterfly, WarpScan) {
  const std::uint64_t first_token =
      (std::uint64_t{1} << 33) + 12345;  // past 32 bits: both counter words
  const std::int64_t first_document = 77;
  std::size_t minus_ones = 0, tokens = 0;
  for (const int K : {1, 7, 40, 130}) {
    const corpus c = make_corpus(K, 60, 19, static_cast<std::uint32_t>(K));
    const auto want = expected_topics(c, first_token);
    for (std::int32_t z : want) minus_ones += z == -1;
    tokens += want.size();
    for (const int width : backend_widths())
      for (const bool pack : {true, false}) {
        draw_options o;
        o.method = TestType::value;
        o.seed = seed;
        o.iteration = iteration;
        o.first_token = first_token;
        o.first_document = first_document;
        o.width = width;
        o.pack_warps = pack;
        std::vector<std::int32_t> z(c.words.size(), -7);
        draw_topics(c.theta, c.phi, K, c.offsets, c.words, z, o);
        for (std::size_t t = 0; t < z.size(); ++t)
          if (z[t] != want[t]) {
            INFO("K " << K << ", width " << width << ", packing " << pack
                      << ": first difference at token " << t);
            REQUIRE(z[t] == want[t]);
          }
      }
  }
  CHECK(minus_ones > 0);  // all-zero document 4 and word 2
  CHECK(minus_ones < tokens / 2);
}

TEMPLATE_TEST_CASE(
    "document-oracle: rows draw the z computed in the test with a non-zero first_token",
    "[document-oracle]", Basic, Transposed, Butterfly, WarpScan) {
  const std::uint64_t first_token = 987654321;
  for (const int K : {1, 9, 100}) {
    const corpus c = make_corpus(K, 301, 1, static_cast<std::uint32_t>(K + 1000));
    const std::size_t R = c.offsets.size() - 1;
    std::vector<std::int32_t> want(R);
    std::vector<double> weights(static_cast<std::size_t>(K));
    for (std::size_t r = 0; r < R; ++r) {
      for (int k = 0; k < K; ++k)
        weights[static_cast<std::size_t>(k)] =
            c.theta[r * static_cast<std::size_t>(K) + static_cast<std::size_t>(k)];
      want[r] = select(weights, uniform_of(first_token + r));
    }
    for (const int width : backend_widths()) {
      draw_options o;
      o.method = TestType::value;
      o.seed = seed;
      o.iteration = iteration;
      o.first_token = first_token;
      o.width = width;
      std::vector<std::int32_t> out(R, -7);
      draw_rows(c.theta, K, out, o);
      for (std::size_t r = 0; r < R; ++r)
        if (out[r] != want[r]) {
          INFO("K " << K << ", width " << width << ": first difference at row " << r);
          REQUIRE(out[r] == want[r]);
        }
    }
  }
}
