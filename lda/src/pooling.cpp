#include "pooling.hpp"

#include <algorithm>

namespace butterfly::lda {

sweep_pool::sweep_pool(const chain& c, const detail::executor& b, const chain_arrays& a)
    : c_(c),
      at_(pooled_sweeps(c.options())),
      kept_(b, at_.size() * a.host.z.size()),
      partial_(b, at_.empty() ? 0 : size_of(a.count_chunks * a.K)),
      scale_(b, at_.empty() ? 0 : size_of(c.hyper().num_topics)) {}

std::size_t sweep_pool::kept_by(std::uint32_t i) const {
  return static_cast<std::size_t>(std::upper_bound(at_.begin(), at_.end(), i) - at_.begin());
}

steps::pooled_topics sweep_pool::pooled(std::uint32_t i) const {
  const auto before = std::lower_bound(at_.begin(), at_.end(), i) - at_.begin();
  return {kept_.data(), static_cast<int>(before), c_.part().num_tokens()};
}

bool sweep_pool::keep(const step_runner& steps, const std::int32_t* z, std::uint32_t i) {
  const auto at = std::find(at_.begin(), at_.end(), i);
  if (at == at_.end()) return false;
  const std::int64_t N = c_.part().num_tokens();
  steps.run(steps::keep_topics{z, kept_.data() + (at - at_.begin()) * N}, N);
  return true;
}

template <class Partials>
void sweep_pool::scale(const step_runner& steps, const chain_arrays& a, double prior,
                       Partials&& partials) {
  partials();
  steps::mean_scale n_k{};
  n_k.partial = partial_.data();
  n_k.chunks = a.count_chunks;
  n_k.K = a.K;
  n_k.prior_total = static_cast<double>(c_.docs().vocab_size) * prior;
  n_k.scale = scale_.data();
  n_k.totals = nullptr;
  steps.run(n_k, a.K);
}

void sweep_pool::phi_rows(const step_runner& steps, const chain_arrays& a, std::uint32_t i,
                          std::int64_t first, std::int64_t count, float* rows) {
  const int K = a.K;
  const std::int64_t V = c_.docs().vocab_size;
  const std::vector<std::int64_t>& word_offsets = c_.index().word_offsets;
  const steps::pooled_topics pooled = this->pooled(i);
  const double prior = c_.hyper().beta * (pooled.sweeps + 1);
  steps::posterior_mean_entries entries{};
  entries.scale = scale_.data();
  entries.K = K;
  entries.prior = prior;
  entries.out = rows;
  if (c_.combiner()) {
    state_array<std::int32_t> counts(steps.executor(), size_of(V * K));
    steps::topic_counts words = a.word_rows(counts.data());
    words.pooled = pooled;
    steps.count_topics(words, word_offsets.data(), V);
    counts.update_on_host(c_.combiner());
    scale(steps, a, prior, [&] {
      steps.run(
          steps::column_partials<std::int32_t, std::int64_t>{counts.data(), V, K, partial_.data()},
          a.chunks * K);
    });
    entries.counts = counts.data() + first * K;
    steps.run(entries, count * K);
    return;
  }
  if (scale_at_ != i) {
    scale(steps, a, prior, [&] {
      steps.count_topics(a.chunk_partials(c_.part().num_tokens(), partial_.data(), pooled));
    });
    scale_at_ = i;
  }
  state_array<std::int32_t> counts(steps.executor(), size_of(count * K));
  steps::topic_counts words = a.word_rows(counts.data());
  words.offsets += first;
  words.pooled = pooled;
  steps.count_topics(words, word_offsets.data() + first, count);
  entries.counts = counts.data();
  steps.run(entries, count * K);
}

}  // namespace butterfly::lda
