// The counts a model made from z is the posterior mean of (model_from_z, chain.hpp): per
// training document and per word, how many of its tokens z and the pooled sweeps
// (state::kept) give each topic, added over those S sweeps. theta and phi are their posterior
// means, the priors times S (sweep_pool, sampler::theta_rows):
//   theta[m,k] = (n_mk + S alpha) / (S N_m + K S alpha)
//   phi[w,k] = (n_wk + S beta) / (n_k + V S beta)
// They are sparse where theta and phi are not (a document or word has few of the K topics), so
// butterfly-lda train writes them (io::write_topic_counts) rather than the dense matrices.
#pragma once

#include <cstdint>
#include <vector>

#include "butterfly/io/topic_counts_file.hpp"
#include "butterfly/lda/chain.hpp"
#include "butterfly/span.hpp"

namespace butterfly::lda {

class topic_counts {
 public:
  // topics: z of docs' N tokens and the pooled sweeps' topics (state::kept: sweep after sweep,
  // N each), held here; docs must outlive the object. by_word: docs' tokens grouped by word
  // where the caller has them (chain::index() of a chain whose shard is all of docs; it must
  // outlive the object too), else made here. std::invalid_argument naming the argument where
  // the sizes or a topic do not fit K = num_topics.
  topic_counts(const documents& docs, state topics, int num_topics,
               const chain::shard_index* by_word = nullptr);
  // The same from z and kept read where they are (a trainer's own state, trainer::counts()),
  // not copied: they must outlive the object and stay as they are.
  topic_counts(const documents& docs, span<const std::int32_t> z, span<const std::uint16_t> kept,
               int num_topics, const chain::shard_index* by_word = nullptr);
  // Moved, the views follow the vectors' buffers; a copy would view the original's.
  topic_counts(topic_counts&&) = default;
  topic_counts& operator=(topic_counts&&) = default;
  topic_counts(const topic_counts&) = delete;
  topic_counts& operator=(const topic_counts&) = delete;

  int num_topics() const { return K_; }
  int sweeps() const { return sweeps_; }  // S: z's and the kept ones
  // n_k: each topic's count over all tokens and sweeps.
  const std::vector<std::int64_t>& topic_totals() const { return totals_; }

  // Row m of the documents' counts, row w of the words': the nonzero (topic, count) pairs,
  // count down then topic up (MALLET's order), in place of out's contents. Each kind of row
  // has its own scratch: a document's and a word's may be made at once on two threads, two of
  // one kind may not.
  void document_row(std::int64_t m, std::vector<io::topic_count>& out);
  void word_row(std::int64_t w, std::vector<io::topic_count>& out);

 private:
  struct scratch {
    std::vector<std::int64_t> counts;   // K, zero between rows
    std::vector<std::uint64_t> topics;  // the set of the topics counted, K bits
    std::vector<io::topic_count> up;    // the row's pairs, topic up
    std::vector<std::int64_t> starts;   // of each count in the row, for the counting sort
  };
  void check_and_total();  // the arguments checked, totals_ and the grouping by word made
  template <class Tokens>
  void row(Tokens tokens, scratch& s, std::vector<io::topic_count>& out) const;

  documents docs_;
  state topics_;  // what z_ and kept_ view, where given by value
  span<const std::int32_t> z_;
  span<const std::uint16_t> kept_;
  int K_, sweeps_;
  std::vector<std::int64_t> totals_;
  // The tokens grouped by word: the caller's, or word_offsets_ (V + 1) and word_tokens_ (N).
  const chain::shard_index* by_word_;
  std::vector<std::int64_t> word_offsets_;
  std::vector<std::uint32_t> word_tokens_;
  scratch documents_, words_;
};

// phi's entries from its counts (posterior_mean_entry, as the sampler makes them): topic k's
// totals n_k over V words and S sweeps give each topic's scale, and a word's count n in topic
// k the entry (n + S beta) scale[k]; zero[k] is the entry of the words without a count there.
struct phi_entries {
  phi_entries(const std::vector<std::int64_t>& totals, std::int64_t V, double beta, int sweeps);
  float operator()(std::size_t k, std::int64_t n) const;
  double prior;
  std::vector<double> scale;
  std::vector<float> zero;
};

// phi (V x K, row-major) from the words' rows of S = sweeps pooled sweeps: the sampler's
// values for the same counts, for a model read back from its files.
std::vector<float> phi_of_counts(const io::topic_count_rows& words, int num_topics, double beta,
                                 int sweeps);

}  // namespace butterfly::lda
