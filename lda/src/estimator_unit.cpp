#include "estimator_unit.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "tokens_by_word.hpp"

namespace butterfly::lda {

void step_runner::count_topics(const steps::topic_counts& s, const std::int64_t* host_offsets,
                               std::int64_t rows) const {
  if (b_.kernel_memory() != detail::memory::device) return run(s, rows);
  if (rows <= 0) return;
  run(steps::zero_entries<std::int32_t>{s.counts}, rows * s.K);
  steps::token_topic_counts per_token{};
  per_token.offsets = s.offsets;
  per_token.rows = rows;
  per_token.tokens = s.tokens;
  per_token.z = s.z;
  per_token.K = s.K;
  per_token.counts = s.counts;
  per_token.pooled = s.pooled;
  run(per_token, host_offsets[rows] - host_offsets[0]);
  // mh's lists of the words' topics: the entries topic_counts lists, from the counted rows.
  if (s.listed) run(steps::word_topics{s.offsets, s.counts, s.K, s.listed}, rows);
}

void step_runner::count_topics(const steps::token_partials& s) const {
  if (s.end_chunk <= s.first_chunk) return;
  if (b_.kernel_memory() != detail::memory::device) return run(s, s.end_chunk - s.first_chunk);
  run(steps::zero_entries<std::int64_t>{s.partial + s.first_chunk * s.K},
      (s.end_chunk - s.first_chunk) * s.K);
  steps::token_partial_counts per_token{};
  per_token.z = s.z;
  per_token.tokens = s.tokens;
  per_token.chunks = s.chunks;
  per_token.K = s.K;
  per_token.partial = s.partial;
  per_token.pooled = s.pooled;
  per_token.first_token = s.first_chunk * s.length();
  run(per_token, std::min(s.end_chunk * s.length(), s.tokens) - per_token.first_token);
}

namespace {

// Whether the iteration keeps the V x K n_wk: every estimator but collapsed, hybrid and phased,
// whose tables come from z in one process (word_buckets); with a count combiner, the combined
// counts.
bool dense_word_counts(const chain& c) {
  return !sweeps_word_tables(c.options().estimator) || c.combiner();
}

}  // namespace

chain_arrays::chain_arrays(const chain& c, const detail::executor& b, state&& st)
    : host(std::move(st)),
      iteration(host.iteration),
      holds(!model_from_z(c.options().estimator, c.options().burn_in)),
      theta(b, host.theta.data(), host.theta.size()),
      phi(b, host.phi.data(), host.phi.size()),
      z(b, host.z.data(), host.z.size()),
      offsets(b, c.index().doc_offsets.data(), c.index().doc_offsets.size()),
      words(b, c.index().words.data(), c.index().words.size()),
      word_offsets(b, c.index().word_offsets.data(), c.index().word_offsets.size()),
      word_tokens(b, c.index().word_tokens.data(), c.index().word_tokens.size()),
      n_mk(b, holds ? size_of(c.part().num_docs() * c.hyper().num_topics) : 0),
      n_wk(b, dense_word_counts(c) ? size_of(c.docs().vocab_size * c.hyper().num_topics) : 0),
      K(c.hyper().num_topics),
      chunks((c.docs().vocab_size + steps::word_chunk - 1) / steps::word_chunk),
      count_chunks(c.combiner() || b.kernel_memory() == detail::memory::device
                       ? chunks
                       : std::clamp<std::int64_t>(c.part().num_tokens() / (16 * std::int64_t{K}), 1,
                                                  chunks)),
      scale(b, size_of(K)) {}

steps::topic_counts chain_arrays::document_rows(std::int32_t* counts) const {
  steps::topic_counts s{};
  s.offsets = offsets.data();
  s.tokens = nullptr;  // a document's tokens are contiguous
  s.z = z.data();
  s.K = K;
  s.counts = counts;
  return s;
}

steps::token_partials chain_arrays::chunk_partials(std::int64_t tokens, std::int64_t* partial,
                                                   steps::pooled_topics pooled) const {
  steps::token_partials s{};
  s.z = z.data();
  s.tokens = tokens;
  s.chunks = count_chunks;
  s.K = K;
  s.partial = partial;
  s.pooled = pooled;
  s.end_chunk = count_chunks;
  return s;
}

steps::topic_counts chain_arrays::word_rows(std::int32_t* counts) const {
  steps::topic_counts s = document_rows(counts);
  s.offsets = word_offsets.data();
  s.tokens = word_tokens.data();
  return s;
}

void estimator_unit::sweep(std::uint32_t) {
  throw std::logic_error("lda::sampler: this estimator does not sweep");
}

void estimator_unit::phi_rows(std::int64_t, std::int64_t, float*) {
  throw std::logic_error("lda::sampler: this estimator holds phi");
}

void estimator_unit::likelihood_from_z(steps::likelihood_blocks&) {
  throw std::logic_error("lda::sampler: this estimator holds theta and phi");
}

double estimator_unit::count(bool documents, std::int32_t* listed) {
  const chain::shard_index& x = c_.index();
  if (documents)
    steps_.count_topics(a_.document_rows(a_.n_mk.data()), x.doc_offsets.data(),
                        c_.part().num_docs());
  if (a_.n_wk.size() != 0) {
    steps::topic_counts words = a_.word_rows(a_.n_wk.data());
    words.listed = listed;
    steps_.count_topics(words, x.word_offsets.data(), c_.docs().vocab_size);
  }
  if (!c_.combiner()) return 0;
  // Several processes: their counts are summed on the host (MPI_Allreduce); on device
  // memory that stages n_wk through the host and back.
  const auto t0 = std::chrono::steady_clock::now();
  a_.n_wk.update_on_host(c_.combiner());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<std::int64_t> word_list_places(const chain& c) {
  if (!c.combiner()) return c.index().word_offsets;
  return word_offsets(c.docs().words, c.docs().vocab_size);
}

std::unique_ptr<estimator_unit> make_estimator_unit(const estimator_unit::context& x) {
  switch (x.c.options().estimator) {
    case estimator::mean: return make_mean_unit(x);
    case estimator::collapsed:
      return x.c.options().phased_sweeps != 0 ? make_phased_unit(x) : make_collapsed_unit(x);
    case estimator::mh: return make_mh_unit(x);
    case estimator::hybrid: return make_hybrid_unit(x);
    case estimator::phased: return make_phased_unit(x);
    case estimator::sample: break;
  }
  return make_sample_unit(x);
}

}  // namespace butterfly::lda
