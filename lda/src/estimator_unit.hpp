// Inside lda::sampler (sampler.hpp): the one interface of the four estimators (chain.hpp's
// lda::estimator), each a unit with its own buffers and schedule of steps (steps.hpp):
//   sample_unit.cpp     the paper's sampler: theta and phi drawn from their Dirichlets
//   mean_unit.cpp       their posterior means ("mean-for-mode")
//   collapsed_unit.cpp  the partially collapsed sweep (collapsed.hpp) after mean's burn-in
//   mh_unit.cpp         the Metropolis-Hastings sweep (metropolis.hpp) after mean's burn-in
//   hybrid_unit.cpp     collapsed's tables, swept by the exact draw or MH per document (hybrid.hpp)
//   phased_unit.cpp     collapsed's state and model, drawn by MH in a word and a document phase
//                       (phases.hpp)
// The sampler holds what every estimator reads and writes (chain_arrays: the state, the
// shard's corpus, the counts), draws z with butterfly's kernels where the unit does not sweep,
// keeps the host's copy of the state (sampler_parts.hpp) and the pooled sweeps (pooling.hpp).
// A unit runs its steps through the sampler (step_runner), a call per step.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "butterfly/detail/executor.hpp"
#include "butterfly/lda/chain.hpp"
#include "butterfly/lda/steps.hpp"
#include "state_array.hpp"

namespace butterfly::lda {

inline std::size_t size_of(std::int64_t n) { return static_cast<std::size_t>(n); }

// The shard's blocks of likelihood_block documents: the log-likelihood's partial sums.
inline std::int64_t likelihood_blocks_of(const chain& c) {
  return (c.part().num_docs() + likelihood_block - 1) / likelihood_block;
}

// How the units run their steps: through lda::sampler::run, the one place steps run (host
// loops or the device's kernels, timed per kind of step).
class step_runner {
 public:
  explicit step_runner(const detail::executor& b) : b_(b) {}
  virtual void run(const steps::any& s, std::int64_t n) const = 0;
  // The counts of z: on host memory the row forms (one element per row or chunk walks its
  // tokens, the faster shape for a CPU); on device memory zeroed, then one element per token
  // with an integer atomic add (count_steps.hpp), the same integers, so that no thread walks
  // a long row alone. s for `rows` rows, whose offsets on the host start at host_offsets
  // (rows + 1 of them); s for its chunks [first_chunk, end_chunk).
  void count_topics(const steps::topic_counts& s, const std::int64_t* host_offsets,
                    std::int64_t rows) const;
  void count_topics(const steps::token_partials& s) const;
  const detail::executor& executor() const { return b_; }

 protected:
  ~step_runner() = default;

 private:
  const detail::executor& b_;
};

// What every estimator reads and writes, in the executor's kernel memory: the chain's state,
// the shard's corpus and CSR helpers (chain::index), and the counts of z.
struct chain_arrays {
  chain_arrays(const chain& c, const detail::executor& b, state&& st);
  // The state on the host: on host memory the arrays the kernels work on, on device memory
  // the copy that sampler::current() refreshes when the kernels have changed the state since.
  state host;
  std::uint32_t iteration;
  bool holds;                        // sampler::holds_model: theta, phi and n_mk are kept
  detail::mirror<float> theta, phi;  // empty where !holds
  detail::mirror<std::int32_t> z;
  detail::mirror<const std::int64_t> offsets;  // the shard's documents, from 0
  detail::mirror<const std::int32_t> words;
  detail::mirror<const std::int64_t> word_offsets;  // the tokens grouped by word
  detail::mirror<const std::uint32_t> word_tokens;
  // n_mk (empty where !holds) and n_wk (empty for collapsed in one process, whose tables
  // come from z: word_buckets; with a count combiner, the combined counts).
  state_array<std::int32_t> n_mk, n_wk;
  int K;
  std::int64_t chunks;  // word chunks of the column partials (steps::word_chunk)
  // The chunks of n_k's partial sums. With a count combiner those of the column partials of
  // n_wk; on device memory the word chunks too, which spread the token partials' atomic adds.
  // Otherwise the token partials' (chunk_partials): each chunk's row of K is zeroed and summed
  // once per count, so a chunk holds at least 16 K tokens (the word chunks, V / 256 of them, at
  // K = 10,000 zeroed and summed 17 MB per count on 20news, a count per block of the sweep).
  // n_k is an integer sum: the same for any number of chunks.
  std::int64_t count_chunks;
  state_array<double> scale;  // per topic: 1 / (n_k + V beta), or 1 / phi's column sum

  // steps::topic_counts of z into `counts`: the shard's documents' rows (n_mk) or its words'
  // rows (n_wk, with the tokens grouped by word).
  steps::topic_counts document_rows(std::int32_t* counts) const;
  steps::topic_counts word_rows(std::int32_t* counts) const;
  // steps::token_partials of z (and of the pooled sweeps' topics) into `partial`: n_k's
  // partial sums per chunk of the shard's `tokens` tokens.
  steps::token_partials chunk_partials(std::int64_t tokens, std::int64_t* partial,
                                       steps::pooled_topics pooled = {}) const;
};

// One estimator: the steps after the z draw (the counts, then theta and phi) and, for
// collapsed and mh, the sweep that draws z itself after the burn-in.
class estimator_unit {
 public:
  struct context {
    const chain& c;
    const step_runner& steps;
    chain_arrays& a;
  };
  explicit estimator_unit(const context& x) : c_(x.c), steps_(x.steps), a_(x.a) {}
  virtual ~estimator_unit() = default;
  estimator_unit(const estimator_unit&) = delete;
  estimator_unit& operator=(const estimator_unit&) = delete;

  // Whether z is drawn by document sweeps after the burn-in (collapsed, mh), and whether
  // iteration i's is.
  virtual bool sweeping() const { return false; }
  bool sweeps(std::uint32_t i) const { return sweeping() && i > c_.options().burn_in; }
  // Iteration i's z by the unit's sweep (where sweeps(i)).
  virtual void sweep(std::uint32_t i);
  // After iteration i's z: the counts, then theta and phi (or, where the next iteration
  // sweeps, what it reads; theta and phi wait for refresh_model). Returns the seconds spent
  // in the count combiner.
  virtual double estimate(std::uint32_t i) = 0;
  // Makes theta and phi where estimate left them for later; whether it did.
  virtual bool refresh_model() { return false; }
  // Where the sampler holds no theta and phi (holds_model false): rows [first, first +
  // count) of phi into rows (kernel memory), and likelihood_blocks' fields that read theta
  // and phi from z instead of the arrays.
  virtual void phi_rows(std::int64_t first, std::int64_t count, float* rows);
  virtual void likelihood_from_z(steps::likelihood_blocks& step);

 protected:
  void run(const steps::any& s, std::int64_t n) const { steps_.run(s, n); }
  // The counts of z every estimator takes: n_mk (where `documents`), n_wk where kept (and
  // with `listed` mh's lists with it, steps::topic_counts), then the count combiner's sum.
  // Returns the combiner's seconds.
  double count(bool documents, std::int32_t* listed = nullptr);
  const detail::executor& executor() const { return steps_.executor(); }

  const chain& c_;
  const step_runner& steps_;
  chain_arrays& a_;
};

// Where each word's list of its tokens' topics goes (V + 1; mh's word_topics, hybrid's
// word_buckets lists), by the number of tokens of each word in the counts the sweeps read:
// the shard's, or with a count combiner the whole corpus's.
std::vector<std::int64_t> word_list_places(const chain& c);

// The unit of c.options().estimator.
std::unique_ptr<estimator_unit> make_estimator_unit(const estimator_unit::context& x);
std::unique_ptr<estimator_unit> make_sample_unit(const estimator_unit::context& x);
std::unique_ptr<estimator_unit> make_mean_unit(const estimator_unit::context& x);
std::unique_ptr<estimator_unit> make_collapsed_unit(const estimator_unit::context& x);
std::unique_ptr<estimator_unit> make_mh_unit(const estimator_unit::context& x);
std::unique_ptr<estimator_unit> make_hybrid_unit(const estimator_unit::context& x);
std::unique_ptr<estimator_unit> make_phased_unit(const estimator_unit::context& x);

}  // namespace butterfly::lda
