// butterfly-lda train: the training loop, its evaluation, checkpoints and output files.
#include <sys/stat.h>

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <utility>

#include "butterfly/butterfly.hpp"
#include "butterfly/io/atomic_file.hpp"
#include "butterfly/io/error.hpp"
#include "butterfly/io/json.hpp"
#include "butterfly/io/npy.hpp"
#include "butterfly/lda/checkpoint.hpp"
#include "butterfly/lda/evaluation.hpp"
#include "cluster.hpp"
#include "commands.hpp"
#include "corpus_input.hpp"
#include "model_files.hpp"
#include "progress.hpp"

namespace butterfly::app {
namespace fs = std::filesystem;
namespace {

std::vector<option_spec> train_options() {
  auto specs = corpus_options();
  const std::vector<option_spec> more = {
      {"topics", "K", "20", "number of topics"},
      {"alpha", "A", "0.1", "symmetric Dirichlet prior of each document's topic proportions theta"},
      {"beta", "B", "0.01", "symmetric Dirichlet prior of each topic's word distribution phi"},
      {"iterations", "N", "200", "Gibbs iterations"},
      {"seed", "S", "1", "random seed; the same seed gives the same model, bit for bit"},
      {"algorithm", "basic|transposed|butterfly|warp_scan", "butterfly", "how the topic of every token is drawn"},
      {"eval-every", "N", "10", "log-likelihood (and held-out perplexity) every N iterations and at the "
                                "last; 0 = at the last only"},
      {"holdout", "FRACTION", "0", "hold out this fraction of the documents (seed-keyed) and report their "
                                   "document-completion perplexity"},
      {"fold-in-sweeps", "N", "20", "Gibbs sweeps that estimate a held-out document's theta"},
      {"top-words", "N", "10", "words per topic in topics.txt and on the terminal"},
      {"out", "DIR", "lda-model", "output directory (created if missing)"},
      {"checkpoint-every", "N", "0", "write DIR/checkpoint.bin every N iterations; 0 = never"},
      {"resume", "DIR", "", "continue the run whose checkpoint is in DIR, with its options (no others "
                            "allowed besides --quiet); the result is identical to an uninterrupted run"},
      {"quiet", "", "", "no progress output on stderr"},
      {"help", "", "", "show this help"},
  };
  specs.insert(specs.end(), more.begin(), more.end());
  return specs;
}

const char* const checkpoint_name = "checkpoint.bin";

// Test hook: BUTTERFLY_TEST_KILL=after-iteration:N | after-checkpoint:N | mid-checkpoint:N
// makes the program raise SIGKILL at that point, so the CLI tests can check that resuming
// after a crash at any of them gives the same output files as an uninterrupted run.
struct kill_hook {
  std::string point;
  std::uint32_t iteration = 0;
  kill_hook() {
    const char* env = std::getenv("BUTTERFLY_TEST_KILL");
    if (!env) return;
    const std::string s = env;
    const auto colon = s.find(':');
    if (colon == std::string::npos) return;
    point = s.substr(0, colon);
    iteration = static_cast<std::uint32_t>(std::strtoul(s.c_str() + colon + 1, nullptr, 10));
  }
  void at(const char* where, std::uint32_t i) const {
    if (point == where && iteration == i) std::raise(SIGKILL);
  }
};

struct run_settings {
  corpus_source source;
  lda::hyperparameters hyper;
  std::uint32_t iterations;
  std::uint64_t seed;
  algorithm method;
  std::uint32_t eval_every, checkpoint_every;
  double holdout;
  int fold_in_sweeps, top_words;
};

run_settings settings_from(const option_values& o) {
  run_settings r;
  r.source = corpus_source_from(o, true);
  r.hyper.num_topics = static_cast<int>(o.integer("topics", 1, 1 << 16));
  r.hyper.alpha = o.number("alpha", 0, 1e6, false);
  r.hyper.beta = o.number("beta", 0, 1e6, false);
  r.iterations = static_cast<std::uint32_t>(o.integer("iterations", 0, 1 << 24));
  r.seed = static_cast<std::uint64_t>(o.integer("seed", 0, INT64_MAX));
  try {
    r.method = parse_algorithm(o.text("algorithm"));
  } catch (const std::invalid_argument& e) {
    throw usage_error(std::string("option --algorithm: ") + e.what());
  }
  r.eval_every = static_cast<std::uint32_t>(o.integer("eval-every", 0, 1 << 24));
  r.checkpoint_every = static_cast<std::uint32_t>(o.integer("checkpoint-every", 0, 1 << 24));
  r.holdout = o.number("holdout", 0, 0.99);
  r.fold_in_sweeps = static_cast<int>(o.integer("fold-in-sweeps", 2, 100000));
  r.top_words = static_cast<int>(o.integer("top-words", 1, 1000));
  return r;
}

// The options that define the run, as the checkpoint stores them: everything but where it
// writes and how it talks, with file paths absolute.
std::vector<std::string> defining_arguments(const option_values& o) {
  static const std::set<std::string> excluded = {"--out", "--resume", "--quiet", "--help"};
  static const std::set<std::string> paths = {"--corpus", "--docword", "--vocab", "--stopwords"};
  std::vector<std::string> out;
  for (const auto& [name, value] : o.in_order()) {
    if (excluded.count(name)) continue;
    out.push_back(name);
    out.push_back(paths.count(name) ? fs::absolute(value).lexically_normal().string() : value);
  }
  return out;
}

std::string hex(std::uint64_t x) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, x);
  return buf;
}

void write_model_json(const std::string& path, const run_settings& r, std::uint64_t checksum,
                      const io::corpus& c, const lda::documents& train, std::int64_t heldout_docs) {
  io::json_object o;
  o.add("format", "butterfly-lda model")
      .add("version", BUTTERFLY_VERSION)
      .add("backend", std::string(backend_name()))
      .add("algorithm", std::string(name(r.method)))
      .add("topics", r.hyper.num_topics)
      .add("alpha", r.hyper.alpha)
      .add("beta", r.hyper.beta)
      .add("iterations", r.iterations)
      .add("seed", r.seed)
      .add("corpus_checksum", hex(checksum))
      .add("corpus_documents", c.num_docs())
      .add("corpus_tokens", c.num_tokens())
      .add("vocabulary", static_cast<std::int64_t>(c.vocab_size()))
      .add("training_documents", train.num_docs())
      .add("training_tokens", train.num_tokens())
      .add("holdout", r.holdout)
      .add("heldout_documents", heldout_docs)
      .add("fold_in_sweeps", r.fold_in_sweeps)
      .add("phi", "phi.npy: V x K float32, column k = topic k's distribution over words")
      .add("theta", "theta.npy: training documents x K float32, rows in corpus order");
  io::write_atomic(path, [&](std::ostream& out) { out << o.str() << "\n"; });
}

// Blocks [first, end) of `blocks` that rank `rank` of `ranks` scores (an even split).
std::pair<std::int64_t, std::int64_t> block_range(std::int64_t blocks, int rank, int ranks) {
  return {blocks * rank / ranks, blocks * (rank + 1) / ranks};
}

// The shard's part of a whole-corpus vector of rows (theta: K per document, z: 1 per token).
template <class T>
std::vector<T> rows(std::vector<T>&& all, std::int64_t first, std::int64_t end, std::int64_t width) {
  all.erase(all.begin() + end * width, all.end());
  all.erase(all.begin(), all.begin() + first * width);
  return std::move(all);
}

}  // namespace

int train(const std::vector<std::string>& args) {
  const auto specs = train_options();
  option_values given(specs, args);
  if (given.flag("help")) {
    std::cout << help_text("butterfly-lda train [OPTIONS]",
                           "Trains LDA with the uncollapsed Gibbs sampler and writes DIR/phi.npy, theta.npy, "
                           "topics.txt,\nvocab.txt, metrics.jsonl and model.json.",
                           specs);
    return 0;
  }
  // Every rank reads the options, the checkpoint and the corpus itself (read-only files,
  // no transport code); only rank 0 prints and writes.
  const cluster& world = cluster::world();
  const bool quiet = given.flag("quiet") || !world.root();
  std::string out_dir = given.text("out");
  std::optional<lda::checkpoint> resumed;
  if (given.given("resume")) {
    for (const auto& [name, value] : given.in_order())
      if (name != "--resume" && name != "--quiet")
        throw usage_error("option " + name + " cannot be combined with --resume (the run keeps its options)");
    out_dir = given.text("resume");
    resumed = lda::load_checkpoint(out_dir + "/" + checkpoint_name);
  }
  const option_values o = resumed ? option_values(specs, resumed->arguments) : given;
  const run_settings r = settings_from(o);
  const kill_hook hook;

  const io::corpus c = load_corpus(r.source);
  const std::uint64_t checksum = io::checksum(c);
  const lda::documents all{c.doc_offsets, c.words, c.vocab_size()};
  lda::holdout_split split;
  if (r.holdout > 0) split = lda::split_holdout(all, r.holdout, r.seed);
  const lda::documents train = r.holdout > 0 ? split.train.view() : all;
  const int K = r.hyper.num_topics;

  const lda::shard part = lda::shard_of(train, world.size(), world.rank());
  lda::sampler smp(train, r.hyper, r.seed, r.method, part,
                   [&world](std::int32_t* counts, std::size_t n) { world.sum(counts, n); });
  lda::state s;
  std::vector<lda::metrics_record> history;
  const std::string ckpt_path = out_dir + "/" + checkpoint_name;
  if (resumed) {
    if (resumed->corpus_checksum != checksum)
      throw io::input_error(ckpt_path + ": checkpoint was written for a different corpus (checksum " +
                            hex(resumed->corpus_checksum) + ", this corpus " + hex(checksum) + ")");
    s = std::move(resumed->s);
    if (s.theta.size() != static_cast<std::size_t>(train.num_docs() * K) ||
        s.phi.size() != static_cast<std::size_t>(all.vocab_size * K) ||
        s.z.size() != static_cast<std::size_t>(train.num_tokens()) || s.iteration > r.iterations)
      throw io::input_error(ckpt_path + ": checkpoint does not fit its own options (sizes or iteration)");
    // The checkpoint holds the whole corpus's theta and z, so any number of ranks resumes it.
    s.theta = rows(std::move(s.theta), part.first_doc, part.end_doc, K);
    s.z = rows(std::move(s.z), part.first_token, part.end_token, 1);
    history = std::move(resumed->history);
    resumed.reset();
  } else {
    if (world.root()) {
      std::error_code ec;
      fs::create_directories(out_dir, ec);
      if (ec) throw std::runtime_error("cannot create output directory " + out_dir + ": " + ec.message());
    }
    s = smp.initial_state();
  }
  // The whole corpus's theta and z, on rank 0 (empty elsewhere).
  const auto gathered = [&] {
    lda::state all;
    all.iteration = s.iteration;
    all.theta = world.gather(s.theta);
    all.phi = s.phi;
    all.z = world.gather(s.z);
    return all;
  };
  const std::int64_t test_blocks = (split.test.view().num_docs() + lda::completion_block - 1) / lda::completion_block;
  const auto [first_test_block, end_test_block] = block_range(test_blocks, world.rank(), world.size());

  if (!quiet)
    std::fprintf(stderr, "training %d topics on %" PRId64 " documents, %" PRId64 " tokens, %d words (%s, %s%s)\n", K,
                 train.num_docs(), train.num_tokens(), c.vocab_size(), std::string(name(r.method)).c_str(),
                 std::string(backend_name()).c_str(), s.iteration ? ", resumed" : "");
  lda::fold_in_options fold;
  fold.seed = r.seed;
  fold.sweeps = r.fold_in_sweeps;
  const std::vector<std::string> arguments = defining_arguments(o);
  progress bar(r.iterations, train.num_tokens(), !quiet, world.size());
  while (s.iteration < r.iterations) {
    const auto sec = smp.iterate(s);
    const std::uint32_t i = s.iteration;
    double ll = NAN;
    if ((r.eval_every > 0 && i % r.eval_every == 0) || i == r.iterations) {
      // Partial sums of every rank, added on rank 0 in the order one process adds them.
      lda::metrics_record rec{i, lda::ordered_sum(world.gather(smp.log_likelihood_partials(s))), NAN};
      if (r.holdout > 0) {
        const auto p = lda::completion_partials(split.test.view(), first_test_block, end_test_block, s.phi,
                                                r.hyper, fold);
        rec.perplexity = lda::combine({world.gather(p.log_likelihood), world.gather(p.scored_tokens)}).perplexity;
      }
      if (world.root()) {
        history.push_back(rec);
        write_metrics(out_dir + "/metrics.jsonl", history);
      }
      ll = rec.log_likelihood;
    }
    bar.report(i, sec.z_draw + sec.combine + sec.rest, sec.z_draw, sec.combine, ll);
    hook.at("after-iteration", i);
    if (r.checkpoint_every > 0 && i % r.checkpoint_every == 0) {
      lda::checkpoint ck{arguments, r.seed, r.hyper, std::string(name(r.method)), checksum, gathered(), history};
      if (world.root()) lda::save_checkpoint(ckpt_path, ck, [&] { hook.at("mid-checkpoint", i); });
      hook.at("after-checkpoint", i);
    }
  }
  bar.finish();
  s = gathered();
  if (!world.root()) return 0;

  io::write_npy(out_dir + "/theta.npy", s.theta.data(), train.num_docs(), K);
  io::write_npy(out_dir + "/phi.npy", s.phi.data(), all.vocab_size, K);
  write_topics(out_dir + "/topics.txt", s.phi, c.vocab, K, r.top_words);
  write_vocab(out_dir + "/vocab.txt", c.vocab);
  write_metrics(out_dir + "/metrics.jsonl", history);
  write_model_json(out_dir + "/model.json", r, checksum, c, train, split.test.view().num_docs());

  print_topics(std::cout, s.phi, c.vocab, K, r.top_words);
  if (!history.empty()) {
    std::printf("log-likelihood after %u iterations: %.6e\n", s.iteration, history.back().log_likelihood);
    if (r.holdout > 0)
      std::printf("held-out perplexity (document completion, %" PRId64 " documents): %.2f\n",
                  split.test.view().num_docs(), history.back().perplexity);
  }
  if (!quiet) std::fprintf(stderr, "model written to %s\n", out_dir.c_str());
  return 0;
}

}  // namespace butterfly::app
