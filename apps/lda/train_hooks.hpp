// Points of a training run where a test program can step in: tests/cli/lda_faults.cpp
// builds butterfly-lda-faults from the program's code with hooks that kill the process or
// throw there. butterfly-lda itself passes no hooks, so nothing in it reads test settings.
#pragma once

#include <cstdint>
#include <functional>

namespace butterfly::app {

struct train_hooks {
  // Before each sum of the word-topic counts across processes (a collective: the other
  // ranks wait in it), from iteration 0 on.
  std::function<void()> before_count_sum;
  // After iteration i: its metrics written; half of its checkpoint written; its
  // checkpoint written.
  std::function<void(std::uint32_t i)> after_iteration, mid_checkpoint, after_checkpoint;
};

}  // namespace butterfly::app
