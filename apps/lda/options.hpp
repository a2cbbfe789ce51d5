// The command line of butterfly-lda: what each command's options hold, and the CLI11
// definitions that fill them (names, defaults, ranges, exclusions and --help in one place).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "corpus_input.hpp"

namespace CLI {
class App;
}

namespace butterfly::app {

struct train_args {
  corpus_args corpus;
  int topics = 20;
  double alpha = 0.1, beta = 0.01;
  std::uint32_t iterations = 200;
  std::uint64_t seed = 1;
  std::string algorithm = "butterfly";
  int width = 0;  // 0 = the backend's native width
  // The default by bench/RESULTS.md, issue 23: mean plateaus on wiki-lead (2,778 against
  // WarpLDA's 2,357), collapsed ends within 1.5 % of WarpLDA on ap, 20news and wiki-lead.
  std::string estimator = "collapsed";
  std::uint32_t burn_in = 0;  // --estimator collapsed: iterations drawn as mean draws them first
  // Topics per document in iteration 0's z (0 = every token uniform); none given: the
  // training corpus's lda::default_start_topics.
  std::optional<std::uint32_t> start_topics;
  // Sweeps pooled into the model (lda::sampler_options::average); none given:
  // lda::default_average of the estimator and burn-in.
  std::optional<std::uint32_t> average;
  std::uint32_t eval_every = 10;
  double holdout = 0;
  int fold_in_sweeps = 20, top_words = 10;
  std::string out = "lda-model";
  std::uint32_t checkpoint_every = 0;
  std::string resume;  // "" = a new run
  bool quiet = false;
  // The given options that define the run (all but --out, --resume, --quiet) as
  // "--name=value", paths absolute: what a checkpoint stores to resume the run with.
  std::vector<std::string> defining;
};

struct topics_args {
  std::string model;
  int top_words = 10;
};

struct infer_args {
  corpus_args corpus;
  std::string model;
  std::string out = "theta.npy";
  int sweeps = 20;
  std::uint64_t seed = 1;
};

// Each adds a command's options to `cmd`, bound to `a`.
void add_train_options(CLI::App& cmd, train_args& a);
void add_topics_options(CLI::App& cmd, topics_args& a);
void add_infer_options(CLI::App& cmd, infer_args& a);

// train_args::defining as a checkpoint stored it, parsed again; io::input_error naming
// `origin` (the checkpoint) if it does not parse.
train_args train_args_from(const std::vector<std::string>& defining, const std::string& origin);

// --help as "--topics K:INT in [1 - 65536]  number of topics (default: 20)"; commands
// added to `app` afterwards inherit it.
void use_help_layout(CLI::App& app);

}  // namespace butterfly::app
