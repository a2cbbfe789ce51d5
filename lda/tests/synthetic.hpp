// Corpora drawn from a known LDA model, for checking that the sampler recovers it.
// Uses the standard library's generators (not the code under test).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "butterfly/lda/chain.hpp"

namespace butterfly::lda::testing {

struct synthetic_corpus {
  int K = 0;
  std::int64_t V = 0;
  std::vector<double> true_phi;  // V x K, columns sum to 1
  document_set docs;
};

inline std::vector<double> dirichlet(std::mt19937_64& gen, double a, std::size_t n) {
  std::gamma_distribution<double> g(a, 1.0);
  std::vector<double> v(n);
  double sum = 0;
  for (auto& x : v) sum += x = g(gen);
  for (auto& x : v) x /= sum;
  return v;
}

// M documents of `length` tokens over V words from K topics with phi[:,k] ~ Dirichlet(beta),
// theta[m] ~ Dirichlet(alpha).
inline synthetic_corpus make_synthetic(int K, std::int64_t V, std::int64_t M, int length,
                                       double alpha, double beta, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  synthetic_corpus c;
  c.K = K;
  c.V = V;
  c.docs.vocab_size = V;
  c.true_phi.assign(static_cast<std::size_t>(V * K), 0.0);
  std::vector<std::discrete_distribution<std::int32_t>> word_of_topic;
  for (int k = 0; k < K; ++k) {
    const auto col = dirichlet(gen, beta, static_cast<std::size_t>(V));
    for (std::int64_t w = 0; w < V; ++w) c.true_phi[w * K + k] = col[w];
    word_of_topic.emplace_back(col.begin(), col.end());
  }
  for (std::int64_t m = 0; m < M; ++m) {
    const auto theta = dirichlet(gen, alpha, static_cast<std::size_t>(K));
    std::discrete_distribution<int> topic(theta.begin(), theta.end());
    for (int i = 0; i < length; ++i) c.docs.words.push_back(word_of_topic[topic(gen)](gen));
    c.docs.doc_offsets.push_back(static_cast<std::int64_t>(c.docs.words.size()));
  }
  return c;
}

}  // namespace butterfly::lda::testing
