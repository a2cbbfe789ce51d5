#include "butterfly/lda/chain.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "butterfly/detail/checks.hpp"
#include "butterfly/lda/run_steps.hpp"
#include "butterfly/lda/sampler.hpp"
#include "tokens_by_word.hpp"

namespace butterfly::lda {

void check(const hyperparameters& h) {
  if (h.num_topics < 1)
    throw std::invalid_argument("number of topics must be at least 1, got " +
                                std::to_string(h.num_topics));
  if (!(h.alpha > 0.0) || !std::isfinite(h.alpha))
    throw std::invalid_argument("alpha must be a positive number, got " + std::to_string(h.alpha));
  if (!(h.beta > 0.0) || !std::isfinite(h.beta))
    throw std::invalid_argument("beta must be a positive number, got " + std::to_string(h.beta));
}

shard shard_of(const documents& docs, int parts, int part) {
  if (parts < 1 || part < 0 || part >= parts)
    throw std::invalid_argument("shard " + std::to_string(part) + " of " + std::to_string(parts) +
                                " does not exist");
  const std::int64_t M = docs.num_docs(), N = docs.num_tokens();
  const std::int64_t blocks = (M + likelihood_block - 1) / likelihood_block;
  // Part p starts at the block boundary whose token offset is nearest to p N / parts; the
  // nearest boundaries of increasing targets never decrease, so the parts tile the corpus.
  const auto start = [&](int p) -> std::int64_t {
    if (p == 0) return 0;
    if (p == parts) return M;
    const double target = static_cast<double>(N) * p / parts;
    std::int64_t lo = 0, hi = blocks;  // first block boundary b with offset >= target
    while (lo < hi) {
      const std::int64_t mid = (lo + hi) / 2;
      if (static_cast<double>(docs.doc_offsets[std::min(mid * likelihood_block, M)]) < target)
        lo = mid + 1;
      else hi = mid;
    }
    std::int64_t b = lo;
    if (b > 0 &&
        target - static_cast<double>(docs.doc_offsets[std::min((b - 1) * likelihood_block, M)]) <
            static_cast<double>(docs.doc_offsets[std::min(b * likelihood_block, M)]) - target)
      --b;
    return std::min(b * likelihood_block, M);
  };
  shard s;
  s.first_doc = start(part);
  s.end_doc = start(part + 1);
  s.first_token = M > 0 ? docs.doc_offsets[s.first_doc] : 0;
  s.end_token = M > 0 ? docs.doc_offsets[s.end_doc] : 0;
  return s;
}

estimator parse_estimator(const std::string& name) {
  if (name == "sample") return estimator::sample;
  if (name == "mean") return estimator::mean;
  if (name == "collapsed") return estimator::collapsed;
  if (name == "mh") return estimator::mh;
  if (name == "hybrid") return estimator::hybrid;
  if (name == "phased") return estimator::phased;
  throw std::invalid_argument(
      "estimator must be sample, mean, collapsed, mh, hybrid or phased, got '" + name + "'");
}

const char* estimator_name(estimator e) {
  switch (e) {
    case estimator::mean: return "mean";
    case estimator::collapsed: return "collapsed";
    case estimator::mh: return "mh";
    case estimator::hybrid: return "hybrid";
    case estimator::phased: return "phased";
    case estimator::sample: break;
  }
  return "sample";
}

std::uint32_t default_phased_sweeps(std::int64_t num_docs, std::int64_t num_tokens,
                                    int num_topics) {
  if (num_docs < num_topics || num_docs == 0) return 0;
  if (num_tokens >= std::int64_t{phased_from_length} * num_docs) return long_document_phased_sweeps;
  return num_topics >= more_phased_from_topics ? many_topics_short_document_phased_sweeps
                                               : short_document_phased_sweeps;
}

std::uint32_t default_start_topics(std::int64_t num_docs, int num_topics) {
  const std::int64_t K = num_topics;
  return num_docs >= 128 * K ? 1 : num_docs >= 16 * K ? 4 : 0;
}

std::uint32_t default_sweep_blocks(estimator e, std::int64_t num_docs, int num_topics) {
  return sweeps_in_blocks(e) && num_docs < few_documents_per_topic * num_topics ? 16 : 1;
}

bool sweeps_word_tables(estimator e) { return sweeps_in_blocks(e) || e == estimator::phased; }

bool sweeps_in_blocks(estimator e) { return e == estimator::collapsed || e == estimator::hybrid; }

bool model_from_z(estimator e, std::uint32_t burn_in) {
  return sweeps_word_tables(e) && burn_in == 0;
}

std::uint32_t default_average(estimator e, std::uint32_t burn_in) {
  return model_from_z(e, burn_in) ? 4 : 1;
}

std::vector<std::uint32_t> pooled_sweeps(const sampler_options& how) {
  const std::uint32_t n = how.iterations;
  if (how.average <= 1 || n < pooling_from || !model_from_z(how.estimator, how.burn_in)) return {};
  const std::uint32_t gaps = how.average - 1, d = std::max<std::uint32_t>(1, n / (8 * gaps));
  std::vector<std::uint32_t> at;
  for (std::uint32_t j = gaps; j >= 1; --j) at.push_back(n - j * d);  // j d <= max(n / 8, 15) < n
  return at;
}

chain::chain(documents docs, hyperparameters h, std::uint64_t seed, sampler_options how)
    : chain(docs, h, seed, how, whole(docs), {}) {}

chain::chain(documents docs, hyperparameters h, std::uint64_t seed, sampler_options how, shard part,
             count_combiner combine)
    : docs_(docs), h_(h), seed_(seed), how_(how), part_(part), combine_(std::move(combine)) {
  check(h_);
  if (how_.average > max_average ||
      (how_.average > 1 && !model_from_z(how_.estimator, how_.burn_in)))
    throw std::invalid_argument(
        "sampler_options::average must be 1 unless the estimator is collapsed, hybrid or phased "
        "without a burn-in, and at most " +
        std::to_string(max_average) + "; got " + std::to_string(how_.average));
  if (how_.sweep_blocks < 1 || how_.sweep_blocks > max_sweep_blocks ||
      (how_.sweep_blocks > 1 && !sweeps_in_blocks(how_.estimator)))
    throw std::invalid_argument(
        "sampler_options::sweep_blocks must be 1 unless the estimator is collapsed or hybrid, "
        "and from 1 to " +
        std::to_string(max_sweep_blocks) + "; got " + std::to_string(how_.sweep_blocks));
  // The word tables' ranks, and the pooled sweeps' topics, are 16-bit.
  if (sweeps_word_tables(how_.estimator) && h_.num_topics > max_table_topics)
    throw std::invalid_argument("hyperparameters::num_topics must be at most " +
                                std::to_string(max_table_topics) + " with the " +
                                estimator_name(how_.estimator) + " estimator; got " +
                                std::to_string(h_.num_topics));
  if (how_.phased_sweeps != 0 && how_.estimator != estimator::collapsed)
    throw std::invalid_argument(
        "sampler_options::phased_sweeps must be 0 unless the estimator is collapsed; got " +
        std::to_string(how_.phased_sweeps));
  // With a count combiner the word phase groups the whole corpus's tokens by word, with 32-bit
  // token numbers (phased_unit.cpp: spread_words).
  if ((how_.estimator == estimator::phased || how_.phased_sweeps != 0) && combine_ &&
      docs_.num_tokens() > std::int64_t{UINT32_MAX})
    throw std::invalid_argument(
        "corpus of " + std::to_string(docs_.num_tokens()) +
        " tokens: the phased sweeps of several processes (MPI) take at most 4294967295 (2^32 - "
        "1); use collapsed without phased sweeps there");
  if (how_.subgroup_from != 0 && how_.estimator != estimator::collapsed)
    throw std::invalid_argument(
        "sampler_options::subgroup_from must be 0 unless the estimator is collapsed; got " +
        std::to_string(how_.subgroup_from));
  // The draw checks the width on its first call; checked here too, so a bad width fails
  // before any work rather than after the initial state.
  detail::resolve_width("lda::chain", how_.width, default_width(), supported_widths());
  if (part_.first_doc < 0 || part_.first_doc > part_.end_doc || part_.end_doc > docs_.num_docs() ||
      part_.first_doc % likelihood_block != 0 ||
      (docs_.num_docs() > 0 && (part_.first_token != docs_.doc_offsets[part_.first_doc] ||
                                part_.end_token != docs_.doc_offsets[part_.end_doc])))
    throw std::invalid_argument("shard [" + std::to_string(part_.first_doc) + ", " +
                                std::to_string(part_.end_doc) + ") does not fit the " +
                                std::to_string(docs_.num_docs()) + " documents");
  const std::int64_t V = docs_.vocab_size, N = part_.num_tokens();
  if (N > std::int64_t{UINT32_MAX})
    throw std::invalid_argument("shard of " + std::to_string(N) +
                                " tokens: one process holds at most 4294967295 (2^32 - 1); run "
                                "more processes (MPI ranks)");
  shard_index& x = index_;
  x.words = {docs_.words.data() + part_.first_token, static_cast<std::size_t>(N)};
  x.doc_offsets.resize(static_cast<std::size_t>(part_.num_docs() + 1));
  for (std::int64_t m = 0; m <= part_.num_docs(); ++m)
    x.doc_offsets[m] =
        docs_.doc_offsets.empty() ? 0 : docs_.doc_offsets[part_.first_doc + m] - part_.first_token;
  const auto outside =
      std::find_if(x.words.begin(), x.words.end(), [V](std::int32_t w) { return w < 0 || w >= V; });
  if (outside != x.words.end())
    throw std::invalid_argument("word id " + std::to_string(*outside) +
                                " outside the vocabulary of " + std::to_string(V) + " words");
  x.word_offsets = word_offsets(x.words, V);
  x.word_tokens = tokens_by_word(x.words, x.word_offsets);
}

state chain::initial_state() const { return sampler(*this).take(); }

iteration_seconds chain::iterate(state& s) const {
  sampler smp(*this, std::move(s));
  const iteration_seconds sec = smp.iterate();
  s = smp.take();
  return sec;
}

double chain::log_likelihood(const state& s) const {
  return ordered_sum(log_likelihood_partials(s));
}

std::vector<double> chain::log_likelihood_partials(const state& s) const {
  std::vector<double> partial(
      static_cast<std::size_t>((part_.num_docs() + likelihood_block - 1) / likelihood_block));
  steps::likelihood_blocks step{};
  step.offsets = index_.doc_offsets.data();
  step.words = index_.words.data();
  step.theta = s.theta.data();
  step.phi = s.phi.data();
  step.K = h_.num_topics;
  step.docs = part_.num_docs();
  step.block = likelihood_block;
  step.partial = partial.data();
  steps::run_on_host(detail::configured_executor(), step,
                     static_cast<std::int64_t>(partial.size()));
  return partial;
}

double ordered_sum(const std::vector<double>& partials) {
  double total = 0.0;
  for (double p : partials) total += p;
  return total;
}

}  // namespace butterfly::lda
