// Checkpoints of a training run: everything needed to continue it so that the result is
// byte-identical to a run that was never interrupted, whether butterfly-lda or butterfly.LDA
// wrote it and whichever of them continues it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "butterfly/lda/chain.hpp"
#include "butterfly/lda/training_options.hpp"

namespace butterfly::lda {

// One line of metrics.jsonl. NaN = not measured at this iteration. (64-bit iteration: no
// padding bytes, so the checkpoint image is fully determined.)
struct metrics_record {
  std::uint64_t iteration = 0;
  double log_likelihood = 0;
  double perplexity = 0;
};

// Where a run's documents were read from (io::read_corpus's arguments, paths absolute), so
// that the checkpoint alone names them; path "" = documents given in memory.
struct corpus_file {
  std::string format;  // uci, ldac or text
  std::string path;
  std::string vocab;  // "" = none
  std::string stopwords;
  int min_df = 1;
};

struct checkpoint {
  training_options options;  // resolved (training_options.hpp): as the run used them
  corpus_file corpus;
  std::uint64_t corpus_checksum = 0;  // io::checksum of the documents and their vocabulary
  state s;                            // the whole corpus's (theta, z and kept of every process)
  std::vector<metrics_record> history;
};

// File layout (little-endian): "BFLYCKP3"; the options (hyperparameters, iterations, seed,
// algorithm and estimator by name, width, burn-in, start topics, average, holdout, eval_every,
// fold_in_sweeps, checkpoint_every, top_words); the corpus file (strings as a u64 length then
// their bytes) and checksum; the state's iteration, theta, phi, z and kept (vectors as a u64
// length then their elements); the history; then the CRC-32 (zlib) of everything before it as
// a u64. Written with io::write_atomic to survive a power loss: a kill, or a crash of the
// machine, leaves the previous checkpoint intact. `halfway`, if set, runs when half of the
// bytes are written: a test hook, so a test can kill the process in the middle of a checkpoint.
void save_checkpoint(const std::string& path, const checkpoint& c,
                     const std::function<void()>& halfway = {});

// Throws io::input_error "PATH: ..." for a missing, truncated, corrupted (checksum mismatch)
// or foreign file, and for the formats before 3 (their options were the command line's
// words): those runs are started again.
checkpoint load_checkpoint(const std::string& path);

}  // namespace butterfly::lda
