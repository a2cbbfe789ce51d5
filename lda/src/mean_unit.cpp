#include "mean_unit.hpp"

namespace butterfly::lda {

mean_unit::mean_unit(const context& x)
    : estimator_unit(x), count_partial_(executor(), size_of(a_.count_chunks * a_.K)) {}

// Every z is a valid topic here: theta and phi entries are floored at probability_floor, so
// no token's products are all zero and the draw never writes -1.
double mean_unit::estimate(std::uint32_t i) {
  const double combine_seconds = count_counts(i);
  const int K = a_.K;
  const std::int64_t V = c_.docs().vocab_size;
  if (c_.combiner()) {
    run(steps::column_partials<std::int32_t, std::int64_t>{a_.n_wk.data(), V, K,
                                                           count_partial_.data()},
        a_.chunks * K);
  } else {
    steps::token_partials partials =
        a_.chunk_partials(c_.part().num_tokens(), count_partial_.data());
    // Every chunk the first time: the rows start uncounted (an empty shard's too).
    const auto [first, end] = take_moved_tokens();
    if (partials_counted_) partials.chunks_of(first, end);
    partials_counted_ = true;
    steps_.count_topics(partials);
  }
  steps::mean_scale n_k{};
  n_k.partial = count_partial_.data();
  n_k.chunks = a_.count_chunks;
  n_k.K = K;
  n_k.prior_total = static_cast<double>(V) * c_.hyper().beta;
  n_k.scale = a_.scale.data();
  n_k.totals = totals();
  run(n_k, K);
  if (sweeps(i + 1)) model_stale_ = true;  // theta and phi when asked for (refresh_model)
  else posterior_means();
  return combine_seconds;
}

bool mean_unit::refresh_model() {
  if (!model_stale_) return false;
  posterior_means();
  model_stale_ = false;
  return true;
}

void mean_unit::posterior_means() {
  const int K = a_.K;
  run(steps::posterior_mean_rows{c_.hyper().alpha, a_.n_mk.data(), K, a_.theta.data()},
      c_.part().num_docs());
  steps::posterior_mean_entries phi{};
  phi.counts = a_.n_wk.data();
  phi.scale = a_.scale.data();
  phi.K = K;
  phi.prior = c_.hyper().beta;
  phi.out = a_.phi.data();
  run(phi, c_.docs().vocab_size * K);
}

std::unique_ptr<estimator_unit> make_mean_unit(const estimator_unit::context& x) {
  return std::make_unique<mean_unit>(x);
}

}  // namespace butterfly::lda
