// The options of a training run (lda::trainer, trainer.hpp) with their defaults: the one
// definition butterfly-lda train and butterfly.LDA take theirs from. With the documents they
// define the trained model bit for bit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "butterfly/lda/chain.hpp"

namespace butterfly::lda {

struct training_options {
  hyperparameters hyper;  // 20 topics, alpha 0.1, beta 0.01
  std::uint32_t iterations = 200;
  std::uint64_t seed = 1;  // the model is a pure function of it (and of the rest)
  // How estimator::mean and sample draw z, and the lanes per subgroup of that draw (0 = the
  // backend's default_width).
  algorithm method = algorithm::butterfly;
  int width = 0;
  lda::estimator estimator = lda::estimator::collapsed;  // with phased_sweeps below
  std::uint32_t burn_in = 0;                             // sampler_options::burn_in
  std::optional<std::uint32_t>
      start_topics;                      // none: default_start_topics of the training documents
  std::optional<std::uint32_t> average;  // none: default_average of the estimator and burn-in
  // sampler_options::sweep_blocks; none: default_sweep_blocks of the training documents
  std::optional<std::uint32_t> sweep_blocks;
  // sampler_options::phased_sweeps (collapsed's first sweeps drawn in phased's phases); none:
  // default_phased_sweeps of the training documents where the estimator is collapsed, else 0.
  std::optional<std::uint32_t> phased_sweeps;
  // sampler_options::subgroup_from: which documents a subgroup sweeps. It changes the time, not
  // the model, so checkpoints do not store it (a resumed run takes the default, 0).
  std::uint32_t subgroup_from = 0;
  // Evaluation: this fraction of the documents held out (split_holdout, keyed by the seed) and
  // scored by document completion with fold_in_sweeps sweeps each; the log-likelihood (and
  // held-out perplexity) after every eval_every-th iteration and after the last (0: the last only).
  double holdout = 0;
  std::uint32_t eval_every = 10;
  int fold_in_sweeps = 20;
  std::uint32_t checkpoint_every = 0;  // a checkpoint after every N-th iteration; 0 = none
  // Words per topic the caller lists with the model (butterfly-lda's topics.txt): kept here so
  // that a resumed run lists as many as the run it continues.
  int top_words = 10;
};

// `o` with start_topics, average, sweep_blocks, phased_sweeps and width as the run uses them (the
// defaults above made concrete for a training set of `training_docs` documents and
// `training_tokens` tokens), so that a checkpoint of it continues the same chain on any backend.
training_options resolved(training_options o, std::int64_t training_docs,
                          std::int64_t training_tokens);

// The chain's sampler_options of resolved options.
sampler_options sampler_options_of(const training_options& resolved);

// What a checkpoint of `stored` options lacks to continue a run of `given` options, both
// resolved: the first option that changes the chain or its evaluation, as "seed 1, this run 2";
// "" when none. The length (iterations) and the schedules (eval_every, checkpoint_every,
// top_words) may differ: trainer checks the length against the pooled sweeps.
std::string mismatch(const training_options& stored, const training_options& given);

}  // namespace butterfly::lda
