// estimator::collapsed (chain.hpp), and the base of estimator::hybrid (hybrid_unit.cpp),
// which sweeps the same tables: see collapsed_unit.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "mean_unit.hpp"

namespace butterfly::lda {

// Elements (documents, words) a sweep's step runs at once, each with slot_bytes of scratch
// rows: batches of this many, the scratch of one batch held.
std::int64_t sweep_slots(const detail::executor& b, std::int64_t slot_bytes, std::int64_t elements);

class collapsed_unit : public mean_unit {
 public:
  // With lists, word_buckets also makes the words' lists (hybrid's compact_word); without
  // slots, no scratch for collapsed_documents (a unit that sweeps otherwise: phased).
  explicit collapsed_unit(const context& x, bool lists = false, bool slots = true);
  bool sweeping() const override { return true; }
  void sweep(std::uint32_t i) override;
  void phi_rows(std::int64_t first, std::int64_t count, float* rows) override;
  void likelihood_from_z(steps::likelihood_blocks& step) override;

 protected:
  // Iteration i's collapsed_documents but for first_doc, from the tables (make_tables).
  steps::collapsed_documents documents(std::uint32_t i);
  // Iteration i's sweep s over the shard's documents, a batch of slots at a time, block by
  // block (sampler_options::sweep_blocks): before each block after the first, the counts of z
  // as the blocks before left it and the tables made from them. Every process counts (and
  // combines) as often, whether the block holds any of its documents or not; those counts'
  // seconds are the sweep's.
  template <class Documents>
  void sweep_documents(Documents s, std::uint32_t i) {
    const std::int64_t M = c_.docs().num_docs(), first = c_.part().first_doc,
                       end = c_.part().end_doc;
    const std::int64_t B = c_.options().sweep_blocks;
    const auto in_shard = [&](std::int64_t m) { return std::clamp(m, first, end) - first; };
    for (std::int64_t b = 0; b < B; ++b) {
      if (b > 0) {
        estimate(i);
        make_tables();
      }
      const std::int64_t begin = in_shard(M * b / B), last = in_shard(M * (b + 1) / B);
      for (s.first_doc = begin; s.first_doc < last; s.first_doc += slots_) {
        const std::int64_t n = slots_ < last - s.first_doc ? slots_ : last - s.first_doc;
        run(s, n);
        // The batch's documents of at least lanes_from tokens, which s left alone.
        if constexpr (std::is_same_v<Documents, steps::collapsed_documents>)
          if (s.lanes_from <= longest_) run(steps::collapsed_long_documents{s}, n);
      }
      moved(begin, last);
    }
  }
  // word_buckets (or where fewer than half the tokens have moved since, word_bucket_moves)
  // and scale_sums, when not those of the counts.
  void make_tables();
  // The words' lists (word_buckets' lists) and where each goes, where asked for.
  const std::int64_t* list_offsets() const { return list_offsets_.data(); }
  const std::int32_t* lists() const { return lists_.data(); }
  // The tokens of the shard's documents [first, end) have moved since the tables were made
  // and n_k was counted.
  void moved(std::int64_t first, std::int64_t end);
  std::int64_t* totals() override { return totals_.data(); }

 private:
  double count_counts(std::uint32_t i) override {
    const double combine_seconds = count(a_.holds);
    if (!sweeps(i)) moved(0, c_.part().num_docs());  // the start, or a draw of every z
    tables_valid_ = false;
    return combine_seconds;
  }
  std::pair<std::int64_t, std::int64_t> take_moved_tokens() override;
  void posterior_means() override;
  // posterior_mean_words over the entries of words [first, ...) into out (rows of phi).
  steps::posterior_mean_words word_rows(std::int64_t first, float* out);
  steps::word_sets word_sets();  // the words' topic sets, as word_buckets keeps them

  state_array<std::int64_t> totals_;  // n_k of the previous iteration
  // word_buckets: room for the topics gathered by word (one per token); the words' entries
  // (their places, topics, counts and running sums, and each word's bound) and topic sets
  // (word_sets: where each word's stored words go, the words' heads, the stored words and their
  // ranks); scale_sums' running sums and largest s_k.
  state_array<std::int32_t> gathered_;
  std::vector<std::int64_t> entry_places_;
  detail::mirror<const std::int64_t> entries_;
  state_array<std::int32_t> entry_topics_, entry_counts_;
  state_array<double> entry_sums_;
  state_array<double> word_bounds_;  // word_buckets' bounds (collapsed_documents::proposed)
  // word_bucket_moves' cursors, each word's first token at or after cursors_end_ (-1: none).
  state_array<std::int64_t> cursors_;
  std::int64_t cursors_end_ = -1;
  std::vector<std::int64_t> set_places_;
  detail::mirror<const std::int64_t> set_offsets_;
  state_array<std::uint64_t> set_heads_;
  state_array<std::uint64_t> set_words_;
  state_array<std::uint16_t> set_ranks_;
  state_array<double> scale_sum_, largest_scale_;
  // The slots of the documents swept at once: their counts, X's topics and running sums,
  // their topic sets.
  std::int64_t slots_;
  state_array<std::int32_t> doc_counts_, picks_;
  state_array<double> weights_;
  state_array<std::uint64_t> doc_bits_;
  // Where !holds: likelihood_blocks' scratch rows (K counts, K floats, a slot's topic set per
  // block of documents) and the words' gaps (word_gaps).
  state_array<std::int32_t> likelihood_counts_;
  state_array<float> likelihood_rows_;
  state_array<std::uint64_t> likelihood_bits_;
  state_array<double> word_gaps_;
  std::vector<std::int64_t> list_places_;
  detail::mirror<const std::int64_t> list_offsets_;
  state_array<std::int32_t> lists_;
  bool tables_valid_ = false;  // word_buckets and scale_sums are those of the counts
  // The shard's tokens whose topics may have moved since word_buckets gathered them: a range
  // that holds them all (every token, until the first build); and since n_k was counted.
  std::int64_t moved_first_ = 0, moved_end_;
  std::int64_t uncounted_first_ = 0, uncounted_end_;
  std::int64_t longest_;  // the shard's longest document's tokens
};

}  // namespace butterfly::lda
