// Checkpoints of a training run: everything needed to continue it so that the result is
// byte-identical to a run that was never interrupted.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "butterfly/lda/chain.hpp"

namespace butterfly::lda {

// One line of metrics.jsonl. NaN = not measured at this iteration. (64-bit iteration: no
// padding bytes, so the checkpoint image is fully determined.)
struct metrics_record {
  std::uint64_t iteration = 0;
  double log_likelihood = 0;
  double perplexity = 0;
};

struct checkpoint {
  // The program's options that define the run (not where it writes), to resume with.
  std::vector<std::string> arguments;
  std::uint64_t seed = 0;
  hyperparameters hyper;
  std::string method;
  std::uint64_t corpus_checksum = 0;
  state s;
  std::vector<metrics_record> history;
};

// File layout (little-endian): "BFLYCKP2", the fields above in order (strings and vectors
// as a u64 length then their bytes; the state's iteration, theta, phi, z and kept), then the
// CRC-32 (zlib) of everything before it as a u64. "BFLYCKP1" files (written before
// state::kept) load with kept empty. Written with io::write_atomic to survive a power
// loss: a kill, or a crash of the machine, leaves the previous checkpoint intact.
// `halfway`, if set, runs when half of the bytes are written: a test hook, so a test can
// kill the process in the middle of a checkpoint.
void save_checkpoint(const std::string& path, const checkpoint& c,
                     const std::function<void()>& halfway = {});

// Throws io::input_error "PATH: ..." for a missing, truncated, corrupted (checksum mismatch)
// or foreign file.
checkpoint load_checkpoint(const std::string& path);

}  // namespace butterfly::lda
