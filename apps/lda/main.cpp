// butterfly-lda: train, inspect and apply LDA topic models with the butterfly sampler.
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "butterfly/io/error.hpp"
#include "cluster.hpp"
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
  const cluster& world = cluster::world();
  // Under mpirun a message names its rank, and a failing rank ends the job (world.abort):
  // the other ranks may be waiting for it in a collective.
  const std::string who = world.size() == 1 ? "butterfly-lda"
                                            : "butterfly-lda (rank " + std::to_string(world.rank()) + " of " +
                                                  std::to_string(world.size()) + ")";
  const auto fail = [&](int code, const std::string& message) {
    std::fprintf(stderr, "%s: %s\n", who.c_str(), message.c_str());
    world.abort(code);
    return code;
  };
  try {
    if (command == "train") return train(args);
    if (world.size() > 1) throw usage_error("only train runs on several MPI processes, not '" + command + "'");
    if (command == "topics") return topics(args);
    if (command == "infer") return infer(args);
    if (command == "--help" || command == "-h" || command == "help") {
      std::fputs(usage, stdout);
      return 0;
    }
    if (command.empty()) throw usage_error("missing command (train, topics or infer)");
    throw usage_error("unknown command '" + command + "' (train, topics or infer)");
  } catch (const usage_error& e) {
    return fail(2, std::string(e.what()) + "\n(butterfly-lda --help for usage)");
  } catch (const butterfly::io::input_error& e) {
    return fail(1, e.what());
  } catch (const std::bad_alloc&) {
    return fail(1, "error: out of memory");
  } catch (const std::exception& e) {
    return fail(1, std::string("error: ") + e.what());
  }
}
