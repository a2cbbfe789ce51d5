// Inside lda::sampler: the sweeps the model pools (sampler_options::average, chain.hpp's
// pooled_sweeps). A chain that holds only z (collapsed without a burn-in) keeps the topics of
// average - 1 earlier sweeps, 16 bits per token each, and its theta and phi after the last
// iteration are the posterior means of the counts of z and of those sweeps added, the priors
// times average. Empty for every other chain.
#pragma once

#include <cstdint>
#include <vector>

#include "estimator_unit.hpp"

namespace butterfly::lda {

class sweep_pool {
 public:
  sweep_pool(const chain& c, const detail::executor& b, const chain_arrays& a);
  // The pooled sweeps run by iteration i (those kept after it).
  std::size_t kept_by(std::uint32_t i) const;
  // The sweeps pooled with z after iteration i: those before it.
  steps::pooled_topics pooled(std::uint32_t i) const;
  // After iteration i: where it is a pooled sweep, z's topics into its place; whether it was.
  bool keep(const step_runner& steps, const std::int32_t* z, std::uint32_t i);
  // The kept topics, sweep by sweep (state::kept's layout).
  state_array<std::uint16_t>& kept() { return kept_; }
  // Rows [first, first + count) of phi after iteration i (where pooled(i) has sweeps) into
  // rows (kernel memory): the posterior means of the pooled counts, rows of counts of the
  // words' tokens in z and in each pooled sweep. With a count combiner the whole corpus's
  // pooled counts are every process's summed (so every process makes its rows together).
  void phi_rows(const step_runner& steps, const chain_arrays& a, std::uint32_t i,
                std::int64_t first, std::int64_t count, float* rows);

 private:
  // pooled_scale_ from the integer partials `partials` writes into partial_, for prior.
  template <class Partials>
  void scale(const step_runner& steps, const chain_arrays& a, double prior, Partials&& partials);

  const chain& c_;
  std::vector<std::uint32_t> at_;      // the iterations whose z the model pools
  state_array<std::uint16_t> kept_;    // their topics as they are run (sweep j at j N)
  state_array<std::int64_t> partial_;  // the pooled n_k per chunk and topic
  // 1 / (pooled n_k + V prior), of the iteration scale_at_ (0: none yet): the trainer asks for
  // phi a chunk of rows at a time, the scale is made once per iteration.
  state_array<double> scale_;
  std::uint32_t scale_at_ = 0;
};

}  // namespace butterfly::lda
