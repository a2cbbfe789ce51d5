// The rows of tests/golden/gamma-variates.txt: Gamma variates of LDA-like rows (K = 240, the
// priors 50/240 and 0.01 plus counts: mostly zero, some small, a few large), written by
// make_gamma_golden and read back by the lda_gamma_golden tests.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "butterfly/lda/gamma.hpp"

namespace butterfly::test {

struct gamma_golden_row {
  double prior;
  lda::rng_key key;
  std::uint64_t index0;
  std::vector<std::int32_t> counts;
};

inline std::vector<gamma_golden_row> gamma_golden_rows() {
  std::mt19937_64 gen(2026);  // fully specified by the standard: the same counts everywhere
  std::vector<gamma_golden_row> rows;
  for (int r = 0; r < 8; ++r) {
    gamma_golden_row row{r % 2 ? 0.01 : 50.0 / 240,
                         {1000u + static_cast<std::uint64_t>(r), static_cast<std::uint32_t>(r + 1),
                          r % 2 ? lda::streams::phi : lda::streams::theta},
                         static_cast<std::uint64_t>(r) * 240,
                         std::vector<std::int32_t>(240)};
    for (auto& c : row.counts) {
      const auto x = gen() % 100;
      c = x < 80   ? 0
          : x < 97 ? static_cast<std::int32_t>(x % 7)
                   : static_cast<std::int32_t>(gen() % 5000);
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace butterfly::test
