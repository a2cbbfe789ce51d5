// Writes tests/golden/gamma-variates.txt (make_gamma_golden FILE): one line per row of
// gamma_golden_cases.hpp, its K variates as C99 hex floats. A regression golden: recorded
// once (native build, AVX2), so that every later build and ISA must reproduce those bits.
#include <cstdio>
#include <vector>

#include "gamma_golden_cases.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_gamma_golden FILE\n");
    return 2;
  }
  std::FILE* f = std::fopen(argv[1], "w");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  for (const auto& row : butterfly::test::gamma_golden_rows()) {
    std::vector<double> g(row.counts.size());
    butterfly::lda::gamma_row(row.prior, row.counts.data(), static_cast<int>(g.size()), row.key,
                              row.index0, g.data());
    for (std::size_t k = 0; k < g.size(); ++k) std::fprintf(f, k ? " %a" : "%a", g[k]);
    std::fprintf(f, "\n");
  }
  return std::fclose(f) == 0 ? 0 : 1;
}
