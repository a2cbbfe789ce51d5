// The collapsed sweep's searches (lda/collapsed.hpp) against plain loops: the n-th set bit of
// a word (BMI2's pdep where the build has it, clearing bits elsewhere: this file is built both
// ways, tests/lda/CMakeLists.txt), the n-th topic of a topic set, and the first running sum
// above a value, with and without a place skipped. The expected values come from scanning
// the bits and from std::upper_bound, not from the functions under test.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "butterfly/lda/collapsed.hpp"

using namespace butterfly;

namespace {

// The places of x's set bits, lowest first.
std::vector<int> set_places(std::uint64_t x) {
  std::vector<int> places;
  for (int i = 0; i < 64; ++i)
    if ((x >> i) & 1) places.push_back(i);
  return places;
}

}  // namespace

TEST_CASE("lda topic sets: nth_set_bit is the n-th of the set bits, lowest first", "[lda][topic_sets]") {
  std::mt19937_64 gen(5);
  std::vector<std::uint64_t> words{~std::uint64_t{0}, 1, std::uint64_t{1} << 63, 0x8000000000000001ull,
                                   0x5555555555555555ull};
  for (int i = 0; i < 200; ++i) words.push_back(gen() & gen());  // about 16 bits set
  for (int i = 0; i < 200; ++i) words.push_back(gen());
  for (const std::uint64_t x : words) {
    const std::vector<int> places = set_places(x);
    for (std::size_t n = 0; n < places.size(); ++n) {
      INFO("x = " << x << ", n = " << n);
      REQUIRE(detail::nth_set_bit(x, static_cast<int>(n)) == places[n]);
    }
  }
}

TEST_CASE("lda topic sets: nth_topic is the set's n-th topic in topic order", "[lda][topic_sets]") {
  std::mt19937_64 gen(6);
  for (const int K : {1, 64, 65, 240, 1000}) {
    const int J = lda::steps::set_words(K);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<std::uint64_t> set(static_cast<std::size_t>(J), 0);
      std::vector<int> topics;
      const int density = trial % 4;  // about K / 2, K / 4, K / 8, K / 16 topics
      for (int k = 0; k < K; ++k)
        if (gen() % (std::uint64_t{2} << density) == 0) {
          set[static_cast<std::size_t>(k / 64)] |= std::uint64_t{1} << (k % 64);
          topics.push_back(k);
        }
      for (std::size_t e = 0; e < topics.size(); ++e) {
        INFO("K = " << K << ", trial " << trial << ", place " << e << " of " << topics.size());
        REQUIRE(lda::steps::nth_topic(set.data(), static_cast<std::int64_t>(e)) == topics[e]);
      }
    }
  }
}

TEST_CASE("lda topic sets: first_above and search_without find the first running sum above v", "[lda][topic_sets]") {
  std::mt19937 gen(7);
  for (int n = 1; n <= 300; n += (n < 20 ? 1 : 37)) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> sums(static_cast<std::size_t>(n));
      double sum = 0.0;
      for (double& s : sums) s = sum += (gen() % 4 == 0) ? 0.0 : static_cast<double>(gen() % 100) / 7.0;  // ties too
      for (int q = 0; q < 50; ++q) {
        const double v = q < 10 ? sums[gen() % static_cast<unsigned>(n)]
                                : std::uniform_real_distribution<double>(-1.0, sum + 1.0)(gen);
        // The first place whose sum exceeds v, the last where none does.
        const auto above = std::upper_bound(sums.begin(), sums.end(), v) - sums.begin();
        INFO("n = " << n << ", v = " << v);
        REQUIRE(lda::steps::first_above(sums.data(), n, v) == std::min<std::int64_t>(above, n - 1));
      }
      // Skipping place s: v counts the sums without s's interval, so the place found for v is
      // the one found for v shifted past that interval (its neighbour if that is s itself).
      if (n < 2) continue;
      const std::int64_t skip = gen() % static_cast<unsigned>(n);
      const double start = skip > 0 ? sums[static_cast<std::size_t>(skip - 1)] : 0.0;
      const double width = sums[static_cast<std::size_t>(skip)] - start;
      for (int q = 0; q < 20; ++q) {
        const double v = std::uniform_real_distribution<double>(0.0, sum - width)(gen);
        const double shifted = v >= start ? v + width : v;
        std::int64_t expected = std::min<std::int64_t>(
            std::upper_bound(sums.begin(), sums.end(), shifted) - sums.begin(), n - 1);
        if (expected == skip) expected = skip + 1 < n ? skip + 1 : skip - 1;
        INFO("n = " << n << ", skip " << skip << ", v = " << v);
        REQUIRE(lda::steps::search_without(sums.data(), n, v, skip) == expected);
      }
    }
  }
}
