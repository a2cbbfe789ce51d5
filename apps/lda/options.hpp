// The command line of butterfly-lda: what each command's options hold, and the CLI11
// definitions that fill them (names, defaults, ranges, exclusions and --help in one place).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "butterfly/lda/training_options.hpp"
#include "corpus_input.hpp"

namespace CLI {
class App;
}

namespace butterfly::app {

struct train_args {
  corpus_args corpus;
  // What defines the run, with the library's defaults; the algorithm and the estimator by name
  // here (options_of makes them the run's).
  lda::training_options run;
  std::string algorithm = std::string(name(lda::training_options{}.method));
  std::string estimator = lda::estimator_name(lda::training_options{}.estimator);
  std::string out = "lda-model";
  std::string resume;  // "" = a new run
  bool quiet = false;
  bool npy = false;  // phi.npy and theta.npy also where the model is its counts
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

// The run's options as given on the command line.
lda::training_options training_options_of(const train_args& a);

// --help as "--topics K:INT in [1 - 65536]  number of topics (default: 20)"; commands
// added to `app` afterwards inherit it.
void use_help_layout(CLI::App& app);

}  // namespace butterfly::app
