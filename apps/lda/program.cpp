#include "program.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include "butterfly/io/error.hpp"
#include "cluster.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace butterfly::app {

int run_program(int argc, char** argv, const train_hooks& hooks) {
  CLI::App app(
      "butterfly-lda: train, inspect and apply LDA topic models with the butterfly sampler.",
      "butterfly-lda");
  use_help_layout(app);
  app.footer("butterfly-lda COMMAND --help lists the options of a command.");
  // At most one command; none is reported below, after an unknown word has been named.
  app.require_subcommand(0, 1);
  train_args train_a;
  topics_args topics_a;
  infer_args infer_a;
  CLI::App* train_cmd =
      app.add_subcommand("train", "train a topic model (default: the bundled ap corpus)");
  add_train_options(*train_cmd, train_a);
  CLI::App* topics_cmd = app.add_subcommand("topics", "print the top words of a trained model");
  add_topics_options(*topics_cmd, topics_a);
  CLI::App* infer_cmd = app.add_subcommand(
      "infer", "topic proportions (theta) of new documents under a trained model");
  add_infer_options(*infer_cmd, infer_a);

  const cluster& world = cluster::world();
  // Under mpirun a message names its rank, and a failing rank ends the job (world.abort):
  // the other ranks may be waiting for it in a collective.
  const std::string who = world.size() == 1
                              ? "butterfly-lda"
                              : "butterfly-lda (rank " + std::to_string(world.rank()) + " of " +
                                    std::to_string(world.size()) + ")";
  const auto fail = [&](int code, const std::string& message) {
    std::fprintf(stderr, "%s: %s\n", who.c_str(), message.c_str());
    world.abort(code);
    return code;
  };
  try {
    app.parse(argc, argv);
    if (train_cmd->parsed()) return train(train_a, hooks);
    if (app.get_subcommands().empty())
      throw CLI::RequiredError("a command (train, topics or infer)");
    if (world.size() > 1)
      return fail(2, "only train runs on several MPI processes, not " +
                         app.get_subcommands()[0]->get_name());
    if (topics_cmd->parsed()) return topics(topics_a);
    return infer(infer_a);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
      return app.exit(e);  // --help
    const auto commands = app.get_subcommands();
    const std::string command = commands.empty() ? "" : " " + commands[0]->get_name();
    return fail(2, std::string(e.what()) + "\n(butterfly-lda" + command + " --help for usage)");
  } catch (const io::input_error& e) {
    return fail(1, e.what());
  } catch (const std::bad_alloc&) {
    return fail(1, "error: out of memory");
  } catch (const std::exception& e) {
    return fail(1, std::string("error: ") + e.what());
  }
}

}  // namespace butterfly::app
