// The whole of butterfly-lda but main(): butterfly-lda runs it without hooks, the test
// program butterfly-lda-faults (tests/cli) with its failure hooks.
#pragma once

#include "train_hooks.hpp"

namespace butterfly::app {

// Parses the command line, runs the command and returns the exit code: 0 success, 1 bad
// input file or failure, 2 bad command line. Under MPI a failing rank ends the job.
int run_program(int argc, char** argv, const train_hooks& hooks);

}  // namespace butterfly::app
