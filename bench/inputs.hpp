// Benchmark inputs drawn from the LDA priors, so that the weights look like a sampler's:
// theta rows ~ Dirichlet(alpha), phi columns ~ Dirichlet(beta). std::gamma_distribution
// is fine here (the library's own Gamma sampler is for reproducible training, not needed
// for benchmark inputs). Fixed seeds: every run times the same numbers. Entries are floored
// at lda::probability_floor exactly as the trainer floors them: unfloored Dirichlet(0.01)
// draws are 38% zeros and 7% subnormals, and subnormal arithmetic made the draw look 4x
// slower than it is in training.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "butterfly/lda/gamma.hpp"

namespace butterfly::bench {

// rows x cols, each row ~ Dirichlet(alpha) over its cols entries (normalized in double).
inline std::vector<float> dirichlet_rows(std::int64_t rows, int cols, double alpha,
                                         std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::gamma_distribution<double> gamma(alpha, 1.0);
  std::vector<float> out(static_cast<std::size_t>(rows) * cols);
  std::vector<double> g(cols);
  for (std::int64_t r = 0; r < rows; ++r) {
    double s = 0;
    for (auto& x : g) s += x = gamma(gen);
    for (int k = 0; k < cols; ++k)
      out[static_cast<std::size_t>(r) * cols + k] =
          std::max(static_cast<float>(s > 0 ? g[k] / s : 0.0), lda::probability_floor);
  }
  return out;
}

// V x K phi whose every column (topic) ~ Dirichlet(beta) over the V words.
inline std::vector<float> dirichlet_columns(std::int64_t V, int K, double beta,
                                            std::uint64_t seed) {
  const std::vector<float> t = dirichlet_rows(K, static_cast<int>(V), beta, seed);
  std::vector<float> phi(static_cast<std::size_t>(V) * K);
  for (int k = 0; k < K; ++k)
    for (std::int64_t v = 0; v < V; ++v)
      phi[static_cast<std::size_t>(v) * K + k] = t[static_cast<std::size_t>(k) * V + v];
  return phi;
}

}  // namespace butterfly::bench
