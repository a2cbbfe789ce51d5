// estimator::mean (chain.hpp): theta and phi the posterior means of the counts of z,
// theta[m,k] = (n_mk + alpha) / (n_m + K alpha), phi[w,k] = (n_wk + beta) / (n_k + V beta)
// ("mean-for-mode estimation", Tristan, Huang, Wick, Steele, ICML 2015). Also the burn-in
// and the model of the two sweeping estimators, collapsed and mh, which derive from it: their
// iterations 1 .. burn_in are mean's, and their theta and phi are these posterior means.
#pragma once

#include <cstdint>
#include <utility>

#include "estimator_unit.hpp"

namespace butterfly::lda {

class mean_unit : public estimator_unit {
 public:
  explicit mean_unit(const context& x);
  // The counts (count_counts), n_k per topic (scale and, where sweeping, totals), then theta
  // and phi, or where the next iteration sweeps only a note that they are stale.
  double estimate(std::uint32_t i) override;
  bool refresh_model() override;

 protected:
  // The counts estimate starts with; returns the combiner's seconds. mh's lists and its
  // sweep's n_mk, collapsed's tables, are kept in step here.
  virtual double count_counts(std::uint32_t /*i*/) { return count(a_.holds); }
  // theta and phi, the posterior means of n_mk and n_wk (with scale), in the kernels' arrays.
  virtual void posterior_means();
  // Where mean_scale also writes n_k (the sweeps read it), or null.
  virtual std::int64_t* totals() { return nullptr; }
  // The shard's tokens whose topics may have changed since the last call, a range that holds
  // them all, which this call forgets: estimate counts n_k's partials of their chunks only.
  // Here every token (a draw of every z).
  virtual std::pair<std::int64_t, std::int64_t> take_moved_tokens() {
    return {0, c_.part().num_tokens()};
  }
  // Per chunk of tokens (or, with a count combiner, of words) and topic: the integer
  // partials of n_k (steps::token_partials, column_partials).
  state_array<std::int64_t> count_partial_;
  bool model_stale_ = false;       // theta and phi are not those of the counts (refresh_model)
  bool partials_counted_ = false;  // count_partial_ holds the counts of z's tokens
};

}  // namespace butterfly::lda
