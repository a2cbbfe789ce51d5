// lda::trainer: one training run, what butterfly-lda train and butterfly.LDA both call. It
// holds the held-out split, the chain and its sampler; runs the iterations; evaluates on the
// options' schedule (log-likelihood, held-out perplexity by document completion, the history
// of both); writes checkpoints on its schedule and continues from one; and gives the model's
// rows for writing (pooled over sweeps where the options say: sampler_options::average).
// Spread over processes, each holds a shard of the training documents (process_group); the
// checkpoint and the model are gathered on the root.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "butterfly/lda/chain.hpp"
#include "butterfly/lda/checkpoint.hpp"
#include "butterfly/lda/evaluation.hpp"
#include "butterfly/lda/process_group.hpp"
#include "butterfly/lda/topic_counts.hpp"
#include "butterfly/lda/training_options.hpp"

namespace butterfly::lda {

class sampler;

// What happens at points of a run, for a caller's files and for tests that stop a process there.
struct training_events {
  std::string checkpoint_path;  // where the checkpoints of checkpoint_every go ("" = none)
  // On the root after each evaluation, with the history so far (butterfly-lda's metrics.jsonl).
  std::function<void(const std::vector<metrics_record>& history)> evaluated;
  // After iteration i: its evaluation done; half of its checkpoint written (root); its
  // checkpoint written.
  std::function<void(std::uint32_t i)> after_iteration, mid_checkpoint, after_checkpoint;
};

// One iteration as trainer::step ran it.
struct iteration_report {
  std::uint32_t iteration = 0;
  iteration_seconds seconds;
  double log_likelihood = 0;       // NaN where the schedule did not evaluate
  std::uint64_t copied_bytes = 0;  // between host and device memory, checkpoint included
};

// A checkpoint to continue from, and the file it was read from (named in errors).
struct resume_from {
  checkpoint saved;
  std::string path;
};

// Rows [first, first + count) of a model matrix into out (count x K floats).
using row_reader = std::function<void(std::int64_t first, std::int64_t count, float* out)>;

class trainer {
 public:
  // A run of `o` on `corpus` (which must outlive the trainer; `corpus_checksum` identifies it
  // in checkpoints, e.g. io::checksum), on the processes of `group` (which must too): a new
  // one, or the continuation of `from`. Continuing checks the corpus checksum, the options
  // that define the chain (mismatch) and the state's sizes, and throws io::input_error
  // "PATH: ..." naming what differs. A checkpoint of a run of another length continues where
  // this run pools no sweep up to it (its kept sweeps are not this run's).
  trainer(const documents& corpus, std::uint64_t corpus_checksum, const training_options& o,
          std::optional<resume_from> from = std::nullopt,
          const process_group& group = this_process());
  ~trainer();
  trainer(const trainer&) = delete;
  trainer& operator=(const trainer&) = delete;

  // Where step() writes checkpoints and what it calls back.
  void set_events(training_events e) { events_ = std::move(e); }

  // One iteration, then its evaluation and checkpoint where the schedules say (evaluations
  // after every eval_every-th iteration and the last). Every process calls it.
  iteration_report step();
  // step() until the run's iterations are done.
  void run();
  std::uint32_t iteration() const;
  bool done() const { return iteration() >= options_.iterations; }

  // The log-likelihood (and with a holdout the held-out perplexity) of the current state,
  // appended to history(); every process calls it, the root keeps the history.
  metrics_record evaluate();
  const std::vector<metrics_record>& history() const { return history_; }
  // The current log-likelihood: the history's where it holds this iteration's.
  double log_likelihood();

  // The checkpoint of the current state (complete on the root), and it saved to `path` by the
  // root with the events' checkpoint callbacks. Every process calls them.
  checkpoint snapshot() const;
  void save(const std::string& path) const;
  // Where the documents came from, for the checkpoints (default: given in memory).
  void set_corpus_file(corpus_file f) { corpus_file_ = std::move(f); }

  // The model's rows: theta (training documents x K), phi (V x K). With one process they are
  // read from the sampler, without a copy of the whole model; with several, gathered on the
  // root first (every process calls it; the readers of the other processes are empty).
  struct model_rows {
    row_reader theta, phi;
    std::shared_ptr<const state> gathered;  // what the readers read, with several processes
  };
  model_rows model();
  // On the root, the counts of the training tokens' z and pooled sweeps (nothing elsewhere):
  // the model, where it is made from z (model_from_z). Every process calls it. In one process
  // they read the trainer's z and kept sweeps where they are: use them before the next step().
  std::optional<topic_counts> counts() const;
  // The held-out documents' 0-based ids in the corpus (empty without a holdout).
  const std::vector<std::int64_t>& heldout_ids() const { return split_.test_ids; }
  // The current z of this process's tokens.
  const std::vector<std::int32_t>& z();

  const training_options& options() const { return options_; }  // resolved
  const chain& markov_chain() const { return chain_; }
  const documents& training_documents() const { return train_; }
  std::int64_t heldout_documents() const { return split_.test.view().num_docs(); }
  std::uint64_t corpus_checksum() const { return checksum_; }
  const sampler& state_sampler() const { return *sampler_; }

 private:
  void resume(checkpoint&& saved, const std::string& path);
  count_combiner count_sum() const;
  state gathered(bool model) const;

  const process_group& group_;
  const documents all_;
  const std::uint64_t checksum_;
  const holdout_split split_;  // empty without a holdout
  const documents train_;      // what the sampler draws
  const training_options options_;
  const shard part_;
  const chain chain_;
  fold_in_options fold_;
  std::int64_t first_test_block_ = 0, end_test_block_ = 0;
  std::unique_ptr<sampler> sampler_;  // the state, where the backend keeps its memory
  std::vector<metrics_record> history_;
  training_events events_;
  corpus_file corpus_file_;
};

}  // namespace butterfly::lda
