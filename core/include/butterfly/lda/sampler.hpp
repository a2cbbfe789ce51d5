// The uncollapsed Gibbs sampler for LDA of the paper's evaluation. One iteration:
//   1. z[t] ~ theta[m,:] * phi[w,:]            (butterfly::draw_topics on the configured backend)
//   2. count n_mk, n_wk (and n_k)              from z
//   3. theta[m,:] ~ Dirichlet(alpha + n_m,:)   phi[:,k] ~ Dirichlet(beta + n_:,k)
// The state after iteration i is a pure function of (seed, i, corpus, hyperparameters,
// algorithm): every random number is keyed by (seed, iteration, stream, index), and every
// host reduction runs over fixed chunks combined in chunk order, so any thread count gives
// the same bits (which is also what makes checkpoint/resume exact).
#pragma once

#include <cstdint>
#include <vector>

#include "butterfly/butterfly.hpp"

namespace butterfly::lda {

struct hyperparameters {
  int num_topics = 20;
  double alpha = 0.1;  // symmetric Dirichlet prior on each theta[m,:]
  double beta = 0.01;  // symmetric Dirichlet prior on each phi[:,k]
};
// Throws std::invalid_argument naming the bad value.
void check(const hyperparameters& h);

// Documents as the sampler sees them: CSR over word ids in [0, vocab_size).
struct documents {
  span<const std::int64_t> doc_offsets;  // M + 1 entries
  span<const std::int32_t> words;        // N entries
  std::int64_t vocab_size = 0;
  std::int64_t num_docs() const { return doc_offsets.empty() ? 0 : std::int64_t(doc_offsets.size()) - 1; }
  std::int64_t num_tokens() const { return std::int64_t(words.size()); }
};

// An owning version, for documents the program builds (held-out splits, remapped input).
struct document_set {
  std::vector<std::int64_t> doc_offsets{0};
  std::vector<std::int32_t> words;
  std::int64_t vocab_size = 0;
  documents view() const { return {doc_offsets, words, vocab_size}; }
};

struct state {
  std::uint32_t iteration = 0;   // iterations completed; 0 is the initial state
  std::vector<float> theta;      // M x K row-major, each row sums to 1
  std::vector<float> phi;        // V x K row-major, each column sums to 1
  std::vector<std::int32_t> z;   // N topic assignments of the last iteration
};

struct iteration_seconds {
  double z_draw = 0;  // butterfly::draw_topics
  double rest = 0;    // counts and Dirichlet draws
};

// sum_k a[k] * b[k] in double, added in a fixed order (the same bits on every build).
double dot(const float* a, const float* b, int K);

class sampler {
 public:
  // docs must outlive the sampler.
  sampler(documents docs, hyperparameters h, std::uint64_t seed, algorithm method);

  // Iteration 0: z uniform at random, then theta and phi drawn from the counts.
  state initial_state() const;
  // Advances s by one iteration.
  iteration_seconds iterate(state& s) const;
  // log p(w | theta, phi) = sum over tokens t of log sum_k theta[m(t),k] phi[w(t),k].
  double log_likelihood(const state& s) const;

  const documents& docs() const { return docs_; }
  const hyperparameters& hyper() const { return h_; }

 private:
  void draw_theta_phi(state& s) const;

  documents docs_;
  hyperparameters h_;
  std::uint64_t seed_;
  algorithm method_;
  // Token ids grouped by word (CSR over words): n_wk is counted row by row from it, so
  // each word's counts are owned by one chunk and no per-thread V x K copies are needed.
  std::vector<std::int64_t> word_offsets_;
  std::vector<std::int64_t> word_tokens_;
};

}  // namespace butterfly::lda
