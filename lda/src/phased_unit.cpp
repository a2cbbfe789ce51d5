// estimator::phased (chain.hpp): collapsed's state and model (collapsed_unit: z alone, theta
// and phi made from z and its word tables where they are read, the pooled sweeps), each
// iteration drawn by the two phases of phases.hpp: the document proposals, the word phase a
// batch of words at a time, n_k counted again, the document phase a batch of documents at a
// time. Also estimator::collapsed with sampler_options::phased_sweeps: those first sweeps
// drawn so, the rest by collapsed's sweep, the phases' scratch freed at the switch.
// With a count combiner (MPI: each process holds one shard of the documents) the word phase
// needs every token of a word, which the shards split: see spread_words.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "collapsed_unit.hpp"
#include "tokens_by_word.hpp"

namespace butterfly::lda {
namespace {

// The word phase of a process with a count combiner: the whole corpus's tokens grouped by
// word, as one process groups them (chain::index), and this process's words: those whose first
// place in that grouping falls in its shard's tokens [first_token, end_token), so that the
// shards' words tile the vocabulary with about their share of the tokens each. Every sweep the
// processes sum their shards' z and proposals into `topics` (zero elsewhere), run the word phase
// of their own words on it, zero every other word's tokens and sum again: each then holds every
// token's topic and proposal as one process's word phase leaves them, the same bits. Two sums of
// 8 bytes per token of the corpus, where collapsed's count sums 4 V K bytes; on device memory
// `topics` goes through the host for each (the combiner sums host memory). Its memory with the
// word phase's word_z (phase_scratch), 16 bytes per token of the corpus on every process, is held
// for the phased sweeps only (each process already reads the whole corpus, 4 bytes a token).
struct spread_words {
  // end_word: the last shard's first_at(end_token) leaves out only words without tokens.
  spread_words(const chain& c, const detail::executor& b)
      : offsets(word_list_places(c)),
        tokens(tokens_by_word(c.docs().words, offsets)),
        first_word(first_at(c.part().first_token)),
        end_word(first_at(c.part().end_token)),
        kernel_offsets(b, offsets.data(), offsets.size()),
        kernel_tokens(b, tokens.data(), tokens.size()),
        topics(b, 2 * tokens.size()) {}

  // The first word whose place in the grouping is at or after `place`.
  std::int64_t first_at(std::int64_t place) const {
    return std::lower_bound(offsets.begin(), offsets.end() - 1, place) - offsets.begin();
  }

  std::vector<std::int64_t> offsets;                  // V + 1, over the whole corpus (on the host)
  std::vector<std::uint32_t> tokens;                  // the corpus's tokens grouped by word
  std::int64_t first_word, end_word;                  // this process's words
  detail::mirror<const std::int64_t> kernel_offsets;  // the two, where the kernels read them
  detail::mirror<const std::uint32_t> kernel_tokens;
  state_array<std::int32_t> topics;  // every token's z, then every token's proposal
};

// What the phases hold between their steps.
struct phase_scratch {
  phase_scratch(const chain& c, const detail::executor& b, std::int64_t slots, int K,
                std::size_t tokens)
      : counts(b, size_of(slots * K)),
        moved(b, counts.size()),
        word_z(b, size_of(c.docs().num_tokens())),
        proposals(b, tokens) {
    if (c.combiner()) spread.emplace(c, b);
  }
  state_array<std::int32_t> counts, moved;  // K per slot: the element's counts, its moves
  state_array<std::int32_t> word_z;         // the word phase's topics, by word: the corpus's
  state_array<std::int32_t> proposals;      // one per token (steps::document_proposals)
  std::optional<spread_words> spread;       // with a count combiner
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
    scratch_.emplace(c_, executor(), batch_, a_.K, a_.host.z.size());
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
    if (p.spread) {
      word_phase_spread(words, *p.spread);
    } else {
      for (words.first_word = 0; words.first_word < V; words.first_word += batch_)
        run(words, std::min(batch_, V - words.first_word));
      // n_k of the word phase's topics.
      moved(0, M);
      estimate(i);
    }
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
  // The word phase with a count combiner (spread_words), and n_k of its topics counted from
  // every token's (the same integers as one process's count).
  void word_phase_spread(steps::word_phase words, spread_words& s) {
    const std::int64_t N = c_.docs().num_tokens(), first = c_.part().first_token,
                       n = c_.part().num_tokens();
    const detail::executor& b = executor();
    std::int32_t* const z = a_.z.data();
    std::int32_t* const proposals = scratch_->proposals.data();
    const std::size_t shard_bytes = size_of(n) * sizeof(std::int32_t);
    s.topics.update_on_host([&](std::int32_t* t, std::size_t) {
      std::fill(t, t + 2 * N, 0);
      b.copy_to_host(t + first, z, shard_bytes);
      b.copy_to_host(t + N + first, proposals, shard_bytes);
      c_.combiner()(t, size_of(2 * N));
    });
    words.token_offsets = s.kernel_offsets.data();
    words.tokens = s.kernel_tokens.data();
    words.z = s.topics.data();
    words.proposals = s.topics.data() + N;
    for (words.first_word = s.first_word; words.first_word < s.end_word; words.first_word += batch_)
      run(words, std::min(batch_, s.end_word - words.first_word));
    std::vector<std::int64_t> n_k(size_of(a_.K), 0);
    s.topics.update_on_host([&](std::int32_t* t, std::size_t) {
      const auto others = [&](std::int64_t from, std::int64_t to) {
        for (std::int64_t j = from; j < to; ++j)
          t[s.tokens[size_of(j)]] = t[N + s.tokens[size_of(j)]] = 0;
      };
      others(0, s.offsets[size_of(s.first_word)]);
      others(s.offsets[size_of(s.end_word)], N);
      c_.combiner()(t, size_of(2 * N));
      b.copy_to_device(z, t + first, shard_bytes);
      b.copy_to_device(proposals, t + N + first, shard_bytes);
      for (std::int64_t j = 0; j < N; ++j) ++n_k[size_of(t[j])];
    });
    b.copy_to_device(totals(), n_k.data(), n_k.size() * sizeof(std::int64_t));
    moved(0, c_.part().num_docs());
  }

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
