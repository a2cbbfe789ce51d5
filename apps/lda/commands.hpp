// The commands of butterfly-lda, given their parsed options; each returns the exit code.
// io::input_error (exit 1) and CLI::ValidationError (exit 2) propagate to run_program.
#pragma once

#include "options.hpp"
#include "train_hooks.hpp"

namespace butterfly::app {

int train(const train_args& given, const train_hooks& hooks);
int topics(const topics_args& a);
int infer(const infer_args& a);

}  // namespace butterfly::app
