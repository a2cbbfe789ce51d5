// The collapsed sweep's search of running sums (lda/collapsed.hpp: a draw in the word's
// bucket A or the smoothing bucket S) against std::upper_bound, with and without the token's
// own place skipped; ties (zero weights) included.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "butterfly/lda/collapsed.hpp"

using namespace butterfly;

TEST_CASE("lda searches: first_above and search_without find the first running sum above v",
          "[lda][searches]") {
  std::mt19937 gen(7);
  for (int n = 1; n <= 300; n += (n < 20 ? 1 : 37)) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> sums(static_cast<std::size_t>(n));
      double sum = 0.0;
      for (double& s : sums)
        s = sum += (gen() % 4 == 0) ? 0.0 : static_cast<double>(gen() % 100) / 7.0;  // ties too
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
