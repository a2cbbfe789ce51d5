// estimator::collapsed (chain.hpp): after mean's burn-in, z is drawn by the partially
// collapsed sweep (collapsed.hpp: theta integrated out, the word counts the previous
// iteration's), from tables of the counts of z made once per iteration: the words' entries
// (word_buckets: each word's topics, counts and running sums of n_wk s_k, and its topic
// set) and the running sums of s_k (scale_sums). theta and phi are mean's posterior means.
// Without a burn-in the sampler keeps no theta, phi or n_mk (holds_model false): they are made
// from z and these tables where they are read.
#include "collapsed_unit.hpp"

#include <algorithm>
#include <vector>

namespace butterfly::lda {

// Elements swept at once, each with its slot of scratch rows (slot_bytes): on the host enough
// to keep every thread busy between the batches' joins (256 per thread, but at most 8 MiB of
// them and at least 16 per thread: at K = 10,000 collapsed's 256 would be 41 MB a thread, a
// third of a run's memory), on a device as many as 1 GiB holds (a thread per element, so a
// batch should fill the device). The bits do not depend on it: the elements are independent.
std::int64_t sweep_slots(const detail::executor& b, std::int64_t slot_bytes,
                         std::int64_t elements) {
  const std::int64_t threads = b.threads();
  const std::int64_t n =
      b.kernel_memory() == detail::memory::device
          ? (std::int64_t{1} << 30) / slot_bytes
          : std::min(256 * threads, std::max(16 * threads, (std::int64_t{8} << 20) / slot_bytes));
  return std::max<std::int64_t>(1, std::min(n, elements));
}

namespace {

// collapsed_documents' slot: K counts, K topics of X, K running sums and the topic set.
std::int64_t document_slot_bytes(int K) {
  return std::int64_t{K} * (4 + 4 + 8) + steps::slot_words(K) * 8;
}

// Where each word's entries go (V + 1): as many places as the word can have topics, min(its
// tokens in the whole corpus, K); or where its topic set's stored words go (word_sets, sets):
// its room, by its tokens in the whole corpus.
std::vector<std::int64_t> word_places(const chain& c, bool sets) {
  std::vector<std::int64_t> offsets(size_of(c.docs().vocab_size + 1), 0);
  for (const std::int32_t w : c.docs().words) ++offsets[size_of(w) + 1];
  const int K = c.hyper().num_topics;
  for (std::int64_t& n : offsets) n = sets ? steps::set_room(K, n) : std::min<std::int64_t>(n, K);
  offsets[0] = 0;
  for (std::size_t w = 1; w < offsets.size(); ++w) offsets[w] += offsets[w - 1];
  return offsets;
}

// The tokens of the shard's longest document.
std::int64_t longest_document(const chain& c) {
  const std::vector<std::int64_t>& offsets = c.index().doc_offsets;
  std::int64_t longest = 0;
  for (std::size_t m = 1; m < offsets.size(); ++m)
    longest = std::max(longest, offsets[m] - offsets[m - 1]);
  return longest;
}

}  // namespace

collapsed_unit::collapsed_unit(const context& x, bool lists, bool slots)
    : mean_unit(x),
      totals_(executor(), size_of(a_.K)),
      gathered_(executor(), a_.host.z.size()),
      entry_places_(word_places(c_, false)),
      entries_(executor(), entry_places_.data(), entry_places_.size()),
      entry_topics_(executor(), size_of(entry_places_.back())),
      entry_counts_(executor(), entry_topics_.size()),
      entry_sums_(executor(), entry_topics_.size()),
      word_bounds_(executor(), size_of(c_.docs().vocab_size)),
      cursors_(executor(), size_of(c_.docs().vocab_size)),
      set_places_(word_places(c_, true)),
      set_offsets_(executor(), set_places_.data(), set_places_.size()),
      set_heads_(executor(), size_of(c_.docs().vocab_size * steps::word_sets::head_words(a_.K))),
      set_words_(executor(), size_of(set_places_.back())),
      set_ranks_(executor(), set_words_.size()),
      scale_sum_(executor(), size_of(a_.K)),
      largest_scale_(executor(), 1),
      slots_(slots ? sweep_slots(executor(), document_slot_bytes(a_.K), c_.part().num_docs()) : 0),
      doc_counts_(executor(), size_of(slots_ * a_.K)),
      picks_(executor(), doc_counts_.size()),
      weights_(executor(), doc_counts_.size()),
      doc_bits_(executor(), size_of(slots_ * steps::slot_words(a_.K))),
      likelihood_counts_(executor(), a_.holds ? 0 : size_of(likelihood_blocks_of(c_) * a_.K)),
      likelihood_rows_(executor(), likelihood_counts_.size()),
      likelihood_bits_(executor(),
                       a_.holds ? 0 : size_of(likelihood_blocks_of(c_) * steps::slot_words(a_.K))),
      word_gaps_(executor(), a_.holds ? 0 : size_of(c_.docs().vocab_size)),
      list_places_(lists ? word_list_places(c_) : std::vector<std::int64_t>(1, 0)),
      list_offsets_(executor(), list_places_.data(), list_places_.size()),
      lists_(executor(), size_of(list_places_.back())),
      moved_end_(c_.part().num_tokens()),
      uncounted_end_(c_.part().num_tokens()),
      longest_(longest_document(c_)) {}

void collapsed_unit::moved(std::int64_t first, std::int64_t end) {
  const std::vector<std::int64_t>& offsets = c_.index().doc_offsets;
  const std::int64_t from = offsets[size_of(first)], to = offsets[size_of(end)];
  if (from == to) return;
  const auto add = [&](std::int64_t& lo, std::int64_t& hi) {
    const bool none = lo == hi;
    lo = none ? from : std::min(lo, from);
    hi = none ? to : std::max(hi, to);
  };
  add(moved_first_, moved_end_);
  add(uncounted_first_, uncounted_end_);
}

std::pair<std::int64_t, std::int64_t> collapsed_unit::take_moved_tokens() {
  const std::pair<std::int64_t, std::int64_t> range{uncounted_first_, uncounted_end_};
  uncounted_first_ = uncounted_end_ = 0;
  return range;
}

void collapsed_unit::make_tables() {
  if (tables_valid_) return;
  steps::word_buckets buckets{};
  buckets.counts = a_.n_wk.size() == 0 ? nullptr : a_.n_wk.data();
  buckets.token_offsets = a_.word_offsets.data();
  buckets.tokens = a_.word_tokens.data();
  buckets.z = a_.z.data();
  buckets.gathered = gathered_.data();
  buckets.scale = a_.scale.data();
  buckets.entries = entries_.data();
  buckets.K = a_.K;
  buckets.sets = word_sets();
  buckets.topics = entry_topics_.data();
  buckets.topic_counts = entry_counts_.data();
  buckets.sums = entry_sums_.data();
  buckets.bounds = word_bounds_.data();
  buckets.prior = c_.hyper().beta;
  buckets.list_offsets = list_offsets_.data();
  buckets.lists = lists_.size() != 0 ? lists_.data() : nullptr;
  // The same tables either way; the moves read only the moved tokens' topics from z, where
  // the build reads every token's at random.
  // The blocks of a sweep move one range of tokens after another: each word's run of them
  // starts where the last moves' ended (the cursors), or at its first token for the first block.
  if (buckets.counts == nullptr && 2 * (moved_end_ - moved_first_) < c_.part().num_tokens()) {
    steps::word_bucket_moves moves{buckets, moved_first_, moved_end_};
    moves.cursors = cursors_.data();
    moves.resume = moved_first_ == cursors_end_;
    run(moves, c_.docs().vocab_size);
    cursors_end_ = moved_end_;
  } else {
    run(buckets, c_.docs().vocab_size);
    cursors_end_ = -1;
  }
  moved_first_ = moved_end_ = 0;
  run(steps::scale_sums{a_.scale.data(), a_.K, scale_sum_.data(), largest_scale_.data()}, 1);
  tables_valid_ = true;
}

void collapsed_unit::sweep(std::uint32_t i) {
  make_tables();
  steps::collapsed_documents s = documents(i);
  const std::uint32_t from = c_.options().subgroup_from != 0 ? c_.options().subgroup_from
                             : executor().kernel_memory() == detail::memory::device
                                 ? device_subgroup_from
                                 : host_subgroup_from;
  s.lanes_from = from;
  sweep_documents(s, i);
}

steps::word_sets collapsed_unit::word_sets() {
  return {a_.K, set_offsets_.data(), set_heads_.data(), set_words_.data(), set_ranks_.data()};
}

steps::collapsed_documents collapsed_unit::documents(std::uint32_t i) {
  const hyperparameters& h = c_.hyper();
  steps::collapsed_documents s{};
  s.offsets = a_.offsets.data();
  s.words = a_.words.data();
  s.word_entries = entries_.data();
  s.sets = word_sets();
  s.word_topics = entry_topics_.data();
  s.word_counts = entry_counts_.data();
  s.word_sums = entry_sums_.data();
  s.totals = totals_.data();
  s.scale = a_.scale.data();
  s.scale_sum = scale_sum_.data();
  s.word_bounds = word_bounds_.data();
  s.largest_scale = largest_scale_.data();
  s.K = a_.K;
  s.alpha = h.alpha;
  s.beta = h.beta;
  s.prior_total = static_cast<double>(c_.docs().vocab_size) * h.beta;
  s.seed = c_.seed();
  s.first_token = static_cast<std::uint64_t>(c_.part().first_token);
  s.iteration = i;
  s.z = a_.z.data();
  s.doc_counts = doc_counts_.data();
  s.doc_bits = doc_bits_.data();
  s.picks = picks_.data();
  s.weights = weights_.data();
  return s;
}

// Where the sampler holds neither theta nor phi, the tables they are made from; phi from
// the entries where there is no n_wk (one process), from n_wk with a count combiner.
void collapsed_unit::posterior_means() {
  if (!a_.holds) return make_tables();
  if (a_.n_wk.size() != 0) return mean_unit::posterior_means();
  run(steps::posterior_mean_rows{c_.hyper().alpha, a_.n_mk.data(), a_.K, a_.theta.data()},
      c_.part().num_docs());
  make_tables();
  run(word_rows(0, a_.phi.data()), c_.docs().vocab_size);
}

steps::posterior_mean_words collapsed_unit::word_rows(std::int64_t first, float* out) {
  steps::posterior_mean_words s{};
  s.entries = entries_.data() + first;
  s.sets = word_sets().from(first);
  s.topics = entry_topics_.data();
  s.counts = entry_counts_.data();
  s.scale = a_.scale.data();
  s.K = a_.K;
  s.prior = c_.hyper().beta;
  s.out = out;
  return s;
}

void collapsed_unit::phi_rows(std::int64_t first, std::int64_t count, float* rows) {
  run(word_rows(first, rows), count);
}

void collapsed_unit::likelihood_from_z(steps::likelihood_blocks& step) {
  step.theta = step.phi = nullptr;
  step.z = a_.z.data();
  step.alpha = c_.hyper().alpha;
  step.word_rows = word_rows(0, nullptr);
  run(steps::word_gaps{step.word_rows, word_gaps_.data()}, c_.docs().vocab_size);
  step.gaps = word_gaps_.data();
  step.counts = likelihood_counts_.data();
  step.rows = likelihood_rows_.data();
  step.bits = likelihood_bits_.data();
}

std::unique_ptr<estimator_unit> make_collapsed_unit(const estimator_unit::context& x) {
  return std::make_unique<collapsed_unit>(x);
}

}  // namespace butterfly::lda
