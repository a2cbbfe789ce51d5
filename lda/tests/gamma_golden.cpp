// Regression golden: the Gamma variates of tests/golden/gamma-variates.txt, recorded once by
// make_gamma_golden, must come out bit for bit from gamma_row and from gamma_variate. This
// file is built twice, for the host ISA (-march=native: AVX2 or AVX-512 vector passes) and
// for SSE2 alone (-mno-avx), so one ctest run shows two ISAs giving the same bits; the
// portable math (no libm, contraction off) is what makes that hold.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gamma_golden_cases.hpp"

using namespace butterfly;

TEST_CASE("lda: gamma variates reproduce the regression golden, " BUTTERFLY_GAMMA_ISA " build",
          "[lda][gamma][golden]") {
  std::ifstream in(BUTTERFLY_GAMMA_GOLDEN);
  REQUIRE(in.good());
  for (const auto& row : test::gamma_golden_rows()) {
    std::string line;
    REQUIRE(std::getline(in, line));
    std::istringstream fields(line);
    const int K = static_cast<int>(row.counts.size());
    std::vector<double> got(static_cast<std::size_t>(K));
    lda::gamma_row(row.prior, row.counts.data(), K, row.key, row.index0, got.data());
    for (int k = 0; k < K; ++k) {
      std::string hex;
      REQUIRE(fields >> hex);
      const double want = std::strtod(hex.c_str(), nullptr);
      const double scalar = lda::gamma_variate(row.prior + row.counts[k], row.key,
                                               row.index0 + static_cast<std::uint64_t>(k));
      CAPTURE(k, row.counts[k], hex);
      REQUIRE(got[k] == want);
      REQUIRE(scalar == want);
    }
  }
}
