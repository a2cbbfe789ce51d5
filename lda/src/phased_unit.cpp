// estimator::phased (chain.hpp): collapsed's state and model (collapsed_unit: z alone, theta
// and phi made from z and its word tables where they are read, the pooled sweeps), each
// iteration drawn by the two phases of phases.hpp: the document proposals, the word phase a
// batch of words at a time, n_k counted again, the document phase a batch of documents at a
// time. Also estimator::collapsed with sampler_options::phased_sweeps: those first sweeps
// drawn so, the rest by collapsed's sweep, the phases' scratch freed at the switch.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "collapsed_unit.hpp"

namespace butterfly::lda {
namespace {

// What the phases hold between their steps.
struct phase_scratch {
  phase_scratch(const detail::executor& b, std::int64_t slots, int K, std::size_t tokens)
      : counts(b, size_of(slots * K)),
        moved(b, counts.size()),
        word_z(b, tokens),
        proposals(b, tokens) {}
  state_array<std::int32_t> counts, moved;  // K per slot: the element's counts, its moves
  state_array<std::int32_t> word_z;         // the word phase's topics, by word
  state_array<std::int32_t> proposals;      // one per token (steps::document_proposals)
};

class phased_unit final : public collapsed_unit {
 public:
  // The phases draw the sweeps up to iteration last_phased, collapsed's sweep those after
  // (estimator::collapsed, with collapsed's scratch).
  phased_unit(const context& x, std::uint32_t last_phased)
      : collapsed_unit(x, false, x.c.options().estimator == estimator::collapsed),
        last_phased_(last_phased),
        batch_(sweep_slots(executor(), std::int64_t{a_.K} * 2 * 4,
                           std::max<std::int64_t>(c_.docs().vocab_size, c_.part().num_docs()))) {
    if (a_.iteration >= last_phased_) return;  // resumed past the phases
    scratch_.emplace(executor(), batch_, a_.K, a_.host.z.size());
    // The steps keep their rows zero between elements; device memory comes uninitialized.
    run(steps::zero_entries<std::int32_t>{scratch_->counts.data()},
        static_cast<std::int64_t>(scratch_->counts.size()));
    run(steps::zero_entries<std::int32_t>{scratch_->moved.data()},
        static_cast<std::int64_t>(scratch_->moved.size()));
  }

  void sweep(std::uint32_t i) override {
    if (i > last_phased_) {
      scratch_.reset();
      collapsed_unit::sweep(i);
      return;
    }
    phase_scratch& p = *scratch_;
    const hyperparameters& h = c_.hyper();
    const std::int64_t V = c_.docs().vocab_size, M = c_.part().num_docs();
    const double prior_total = static_cast<double>(V) * h.beta;
    const std::uint64_t first_doc = static_cast<std::uint64_t>(c_.part().first_doc);
    run(steps::document_proposals{a_.offsets.data(), a_.z.data(), a_.K, h.alpha, c_.seed(),
                                  first_doc, i, p.proposals.data()},
        M);
    steps::word_phase words{};
    words.token_offsets = a_.word_offsets.data();
    words.tokens = a_.word_tokens.data();
    words.totals = totals();
    words.K = a_.K;
    words.beta = h.beta;
    words.prior_total = prior_total;
    words.seed = c_.seed();
    words.iteration = i;
    words.z = a_.z.data();
    words.proposals = p.proposals.data();
    words.word_z = p.word_z.data();
    words.counts = p.counts.data();
    words.moved = p.moved.data();
    for (words.first_word = 0; words.first_word < V; words.first_word += batch_)
      run(words, std::min(batch_, V - words.first_word));
    // n_k of the word phase's topics.
    moved(0, M);
    estimate(i);
    steps::document_phase documents{};
    documents.offsets = a_.offsets.data();
    documents.totals = totals();
    documents.K = a_.K;
    documents.alpha = h.alpha;
    documents.prior_total = prior_total;
    documents.seed = c_.seed();
    documents.shard_first_doc = first_doc;
    documents.iteration = i;
    documents.z = a_.z.data();
    documents.proposals = p.proposals.data();
    documents.counts = p.counts.data();
    for (documents.first_doc = 0; documents.first_doc < M; documents.first_doc += batch_)
      run(documents, std::min(batch_, M - documents.first_doc));
    moved(0, M);
  }

 private:
  std::uint32_t last_phased_;
  std::int64_t batch_;  // words or documents per run of a phase's step
  std::optional<phase_scratch> scratch_;
};

}  // namespace

std::unique_ptr<estimator_unit> make_phased_unit(const estimator_unit::context& x) {
  const sampler_options& o = x.c.options();
  return std::make_unique<phased_unit>(
      x, o.estimator == estimator::phased ? UINT32_MAX : o.burn_in + o.phased_sweeps);
}

}  // namespace butterfly::lda
