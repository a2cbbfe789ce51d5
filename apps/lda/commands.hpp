// The subcommands of butterfly-lda. Each takes the arguments after its name and returns
// the exit code; usage_error (exit 2) and io::input_error (exit 1) propagate to main.
#pragma once

#include <string>
#include <vector>

namespace butterfly::app {

int train(const std::vector<std::string>& args);
int topics(const std::vector<std::string>& args);
int infer(const std::vector<std::string>& args);

}  // namespace butterfly::app
