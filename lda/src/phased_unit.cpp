// estimator::phased (chain.hpp): collapsed's state and model (collapsed_unit: z alone, theta
// and phi made from z and its word tables where they are read, the pooled sweeps), each
// iteration drawn by the two phases of phases.hpp: the document proposals, the word phase a
// batch of words at a time, n_k counted again, the document phase a batch of documents at a
// time.
#include <algorithm>

#include "collapsed_unit.hpp"

namespace butterfly::lda {
namespace {

class phased_unit final : public collapsed_unit {
 public:
  explicit phased_unit(const context& x)
      : collapsed_unit(x, false, false),
        batch_(sweep_slots(executor(), std::int64_t{a_.K} * 2 * 4,
                           std::max<std::int64_t>(c_.docs().vocab_size, c_.part().num_docs()))),
        counts_(executor(), size_of(batch_ * a_.K)),
        moved_(executor(), counts_.size()),
        word_z_(executor(), a_.host.z.size()),
        proposals_(executor(), a_.host.z.size()) {
    // The steps keep their rows zero between elements; device memory comes uninitialized.
    run(steps::zero_entries<std::int32_t>{counts_.data()},
        static_cast<std::int64_t>(counts_.size()));
    run(steps::zero_entries<std::int32_t>{moved_.data()}, static_cast<std::int64_t>(moved_.size()));
  }

  void sweep(std::uint32_t i) override {
    const hyperparameters& h = c_.hyper();
    const std::int64_t V = c_.docs().vocab_size, M = c_.part().num_docs();
    const double prior_total = static_cast<double>(V) * h.beta;
    const std::uint64_t first_doc = static_cast<std::uint64_t>(c_.part().first_doc);
    run(steps::document_proposals{a_.offsets.data(), a_.z.data(), a_.K, h.alpha, c_.seed(),
                                  first_doc, i, proposals_.data()},
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
    words.proposals = proposals_.data();
    words.word_z = word_z_.data();
    words.counts = counts_.data();
    words.moved = moved_.data();
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
    documents.proposals = proposals_.data();
    documents.counts = counts_.data();
    for (documents.first_doc = 0; documents.first_doc < M; documents.first_doc += batch_)
      run(documents, std::min(batch_, M - documents.first_doc));
    moved(0, M);
  }

 private:
  std::int64_t batch_;                        // words or documents per run of a phase's step
  state_array<std::int32_t> counts_, moved_;  // K per slot: the element's counts, its moves
  state_array<std::int32_t> word_z_;          // the word phase's topics, by word
  state_array<std::int32_t> proposals_;       // one per token (steps::document_proposals)
};

}  // namespace

std::unique_ptr<estimator_unit> make_phased_unit(const estimator_unit::context& x) {
  return std::make_unique<phased_unit>(x);
}

}  // namespace butterfly::lda
