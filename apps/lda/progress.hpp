// Progress on stderr: a redrawn bar on a terminal, one plain line per iteration otherwise
// (logs, CI).
#pragma once

#include <cstdint>

namespace butterfly::app {

class progress {
 public:
  // `processes`: the MPI ranks of the run (1 without MPI).
  progress(std::uint32_t total, std::int64_t tokens, bool enabled, int processes = 1);
  // After iteration `i` took `seconds`, `z_seconds` of them in the z draw and
  // `communication_seconds` combining counts across processes (shown when there are
  // several); log_likelihood is NaN when not measured; copied_bytes were copied between host
  // and device memory for it (0 on host backends; on GPU builds 0 but for evaluations,
  // checkpoints and, with several processes, the count sums).
  void report(std::uint32_t i, double seconds, double z_seconds, double communication_seconds,
              double log_likelihood, std::uint64_t copied_bytes);
  void finish();

 private:
  std::uint32_t total_;
  std::int64_t tokens_;
  bool enabled_, bar_;
  int processes_;
  double elapsed_ = 0, last_ll_;
  std::uint32_t done_ = 0;
};

}  // namespace butterfly::app
