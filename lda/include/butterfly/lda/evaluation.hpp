// Held-out evaluation and inference with phi fixed (document completion; Wallach et al.,
// "Evaluation methods for topic models", 2009).
#pragma once

#include <cstdint>
#include <vector>

#include "butterfly/lda/chain.hpp"

namespace butterfly::lda {

struct holdout_split {
  document_set train;                  // the documents the sampler sees, in corpus order
  document_set test;                   // the held-out documents, in corpus order
  std::vector<std::int64_t> test_ids;  // their 0-based ids in the full corpus
};

// Holds out exactly round(fraction * M) documents: those with the smallest Philox keys
// rng::bits(seed, 0, holdout, m), a deterministic, seed-keyed choice. fraction in [0, 1).
holdout_split split_holdout(const documents& all, double fraction, std::uint64_t seed);

struct fold_in_options {
  int sweeps = 20;  // Gibbs sweeps of z and theta; the second half is averaged
  std::uint64_t seed = 0;
};

// Estimates theta (K floats) for a document of `words` with phi fixed: starting from a
// uniform theta, alternate z ~ theta * phi and theta ~ Dirichlet(alpha + n); the estimate
// is the mean of E[theta | z] = (alpha + n) / (L + K alpha) over the last sweeps/2 sweeps.
// Randomness comes from stream fold_in keyed by `doc_key` (a document id < 2^32).
void estimate_theta(const std::int32_t* words, std::int64_t length, const float* phi,
                    const hyperparameters& h, const fold_in_options& o, std::uint64_t doc_key,
                    float* theta_out);

// estimate_theta for every document of docs (theta: M x K).
std::vector<float> infer_theta(const documents& docs, const std::vector<float>& phi,
                               const hyperparameters& h, const fold_in_options& o);

struct perplexity_result {
  double perplexity = 0;      // exp(-log_likelihood / scored_tokens)
  double log_likelihood = 0;  // sum over scored tokens of log sum_k theta_est[k] phi[w,k]
  std::int64_t scored_tokens = 0;
};

// Documents per block of the perplexity sums (partials are kept per block).
inline constexpr std::int64_t completion_block = 16;

// Per-block partial sums of completion_perplexity for the blocks [first_block, end_block)
// of `test`: one process of a distributed run scores some blocks, and the partials of all
// blocks in block order give the same bits as one process scoring them all.
struct perplexity_partials {
  std::vector<double> log_likelihood;
  std::vector<std::int64_t> scored_tokens;
};
perplexity_partials completion_partials(const documents& test, std::int64_t first_block,
                                        std::int64_t end_block, const std::vector<float>& phi,
                                        const hyperparameters& h, const fold_in_options& o);
// The partials of every block of a test set, in block order, summed.
perplexity_result combine(const perplexity_partials& p);

// Document completion: each held-out document's tokens at even positions (0, 2, 4, ...)
// estimate its theta (estimate_theta), the tokens at odd positions are scored. We
// interleave instead of cutting the document in two halves because UCI and LDA-C files list
// a document's words sorted by id, so a cut would observe one part of the vocabulary and
// score another.
perplexity_result completion_perplexity(const documents& test, const std::vector<float>& phi,
                                        const hyperparameters& h, const fold_in_options& o);

}  // namespace butterfly::lda
