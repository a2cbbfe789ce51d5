// butterfly-lda: train, inspect and apply LDA topic models with the butterfly sampler.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "butterfly/io/error.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace {

const char* const usage =
    "usage: butterfly-lda COMMAND [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  train    train a topic model (default: the bundled ap corpus)\n"
    "  topics   print the top words of a trained model\n"
    "  infer    topic proportions (theta) of new documents under a trained model\n"
    "\n"
    "butterfly-lda COMMAND --help lists the options of a command.\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace butterfly::app;
  const std::vector<std::string> args(argv + (argc > 1 ? 2 : 1), argv + argc);
  const std::string command = argc > 1 ? argv[1] : "";
  try {
    if (command == "train") return train(args);
    if (command == "topics") return topics(args);
    if (command == "infer") return infer(args);
    if (command == "--help" || command == "-h" || command == "help") {
      std::fputs(usage, stdout);
      return 0;
    }
    if (command.empty()) throw usage_error("missing command (train, topics or infer)");
    throw usage_error("unknown command '" + command + "' (train, topics or infer)");
  } catch (const usage_error& e) {
    std::fprintf(stderr, "butterfly-lda: %s\n(butterfly-lda --help for usage)\n", e.what());
    return 2;
  } catch (const butterfly::io::input_error& e) {
    std::fprintf(stderr, "butterfly-lda: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "butterfly-lda: error: %s\n", e.what());
    return 1;
  }
}
