// lda::sampler runs the iterations of an lda::chain (chain.hpp): it keeps the chain's state
// where the backend's kernels read it, and runs each iteration there: device memory on
// CUDA/HIP builds (theta, phi, z, the counts, the corpus and the warp plan stay on the GPU
// across iterations), host memory on the host backends (where nothing is copied at all).
// Each iteration is the z draw (butterfly's kernels) and the steps of lda/steps.hpp, all on
// the backend; the host sees the state only through current(), current_phi(), current_z()
// and theta_rows / phi_rows, which copy it back when it has changed since the last call
// (checkpoints, the final model, held-out evaluation), and the log-likelihood's partial
// sums. estimator::collapsed without a burn-in keeps z and no theta, phi or n_mk at all
// (holds_model()): those calls make theta and phi from z.
// lda::chain::iterate is this sampler around one iteration.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "butterfly/detail/executor.hpp"
#include "butterfly/lda/chain.hpp"

namespace butterfly::lda {
namespace steps {
class any;  // steps.hpp
}

class sampler {
 public:
  // The chain's initial state (iteration 0), made on backend `where`: z at random
  // (sampler_options::start_topics), then theta and phi from the counts. c must outlive the
  // sampler. Throws std::runtime_error when `where` cannot run here.
  explicit sampler(const chain& c, const detail::executor& where = detail::configured_executor());
  // Continues from `resumed` (e.g. a checkpoint), copied to the backend; std::invalid_argument
  // when its sizes do not fit the chain's documents and topics, or its kept topics the sweeps
  // the chain has pooled by its iteration (sampler_options::average). Where the sampler makes
  // theta and phi from z (holds_model() false) they may be empty, and given they are dropped.
  sampler(const chain& c, state resumed,
          const detail::executor& where = detail::configured_executor());
  ~sampler();
  sampler(const sampler&) = delete;
  sampler& operator=(const sampler&) = delete;

  // One iteration, on the backend.
  iteration_seconds iterate();
  std::uint32_t iteration() const;

  // The state on the host, copied back from the backend when it changed since the last call.
  const state& current();
  // phi alone on the host (what held-out evaluation needs), copied back likewise; z alone
  // (what a checkpoint of a chain whose theta and phi are z's needs: holds_model).
  const std::vector<float>& current_phi();
  const std::vector<std::int32_t>& current_z();
  // The topics of the earlier sweeps the model pools, as state::kept holds them (what a
  // checkpoint needs besides z: sampler_options::average).
  const std::vector<std::uint16_t>& current_kept();
  // How many such sweeps it has kept by now (current_kept() holds that many times the
  // shard's tokens; the same number on every process of a run).
  std::size_t kept_sweeps() const;
  // Rows [first, first + count) of the current theta (the shard's documents) or phi (words)
  // into out (count x K floats, host memory): current()'s values without a host copy of the
  // whole model (the trainer writes its files through these). std::invalid_argument when
  // the rows do not exist. Where the chain pools sweeps (sampler_options::average), the
  // posterior means of the topics of z and of the pooled sweeps before this iteration.
  void theta_rows(std::int64_t first, std::int64_t count, float* out);
  void phi_rows(std::int64_t first, std::int64_t count, float* out);
  // Whether the sampler keeps theta and phi as arrays. Not for estimator::collapsed without a
  // burn-in: its sweeps read only z and tables made from it, theta and phi are the posterior
  // means of z's counts and are made from z where they are read (current(), theta_rows,
  // phi_rows, log_likelihood_partials), so it holds no M x K or V x K array at all.
  bool holds_model() const;
  // chain::log_likelihood_partials of the current state, computed on the backend: only the
  // partial sums are copied back.
  std::vector<double> log_likelihood_partials();
  // The state, moved out where the backend's memory is host memory; the sampler is spent.
  state take();
  // n_mk (documents x K) and n_wk (V x K, after the chain's count combiner) of the last
  // iteration, copied to the host (n_wk counted from z where the sampler keeps none).
  std::vector<std::int32_t> document_topic_counts() const;
  std::vector<std::int32_t> word_topic_counts() const;

  // Bytes copied between host and device memory by this process so far (the backend's
  // counter; 0 where the kernels read host memory).
  std::uint64_t copied_bytes() const;
  // Seconds spent in each kind of step (lda/steps.hpp, by its type's name, e.g.
  // "topic_counts") since the sampler was made, in the order each kind first ran: what an
  // iteration's time is made of (the GPU runbook's time per step). A step returns when its
  // kernels are done, so on a device too these are the steps' own times. The z draw is
  // iteration_seconds::z_draw.
  std::vector<std::pair<std::string, double>> step_seconds() const;
  // Whether the state lives in device memory (the backend's kernels cannot read host memory).
  bool on_device() const { return b_.kernel_memory() == detail::memory::device; }

 private:
  // The sampler coordinates the state in kernel memory and its host copy (what is stale
  // there), the estimator's unit (its buffers and steps), the z draw and the pooled sweeps:
  // sampler_parts.hpp and estimator_unit.hpp, beside sampler.cpp.
  struct parts;
  sampler(const chain& c, state resumed, const detail::executor& where,
          int);          // the parts, no counts
  void refresh_model();  // theta and phi where the estimator left them for later
  void run(const steps::any& s, std::int64_t n) const;  // step s for every element in [0, n)
  template <class Make>
  void model_rows(const float* held, std::int64_t first, std::int64_t count, float* out,
                  Make&& make);

  const chain& c_;
  const detail::executor& b_;
  std::unique_ptr<parts> p_;
  mutable std::vector<std::pair<std::string, double>> step_seconds_;  // by steps::any's index
  mutable std::vector<std::size_t> step_order_;                       // indices, first run first
};

}  // namespace butterfly::lda
