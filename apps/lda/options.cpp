#include "options.hpp"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "butterfly/butterfly.hpp"
#include "butterfly/lda/chain.hpp"

namespace butterfly::app {
namespace {

// A finite number in [min, max], or (min, max] when min_open. (CLI::Range would let NaN
// through: every comparison with it is false.)
CLI::Validator number_in(double min, double max, bool min_open = false) {
  std::ostringstream range;
  range << (min_open ? "(" : "[") << min << ", " << max << "]";
  return CLI::Validator(
      [=, range = range.str()](std::string& text) {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        const bool ok = !text.empty() && *end == '\0' && std::isfinite(v) &&
                        (min_open ? v > min : v >= min) && v <= max;
        return ok ? std::string() : "needs a number in " + range + ", got '" + text + "'";
      },
      "NUMBER in " + range.str());
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const algorithm a : all_algorithms) names.emplace_back(name(a));
  return names;
}

// 0 (the native width) and the widths the configured backend runs.
std::vector<int> width_choices() {
  std::vector<int> widths{0};
  for (const int w : supported_widths()) widths.push_back(w);
  return widths;
}

// The options of `cmd` and of its option groups.
std::vector<CLI::Option*> options_of(CLI::App& cmd) {
  std::vector<CLI::Option*> all = cmd.get_options();
  for (CLI::App* group : cmd.get_subcommands([](CLI::App* g) { return g->get_name().empty(); })) {
    const auto more = options_of(*group);
    all.insert(all.end(), more.begin(), more.end());
  }
  return all;
}

class help_layout : public CLI::Formatter {
 public:
  // The value's name and range only: CLI11 would add the default and, for --resume, every
  // option it excludes (the description says which).
  std::string make_option_opts(const CLI::Option* o) const override {
    if (o->get_type_size() == 0) return "";
    return " " + o->get_type_name() + (o->get_required() ? " (required)" : "");
  }
  std::string make_option_desc(const CLI::Option* o) const override {
    const std::string& d = o->get_default_str();
    return d.empty() ? o->get_description() : o->get_description() + " (default: " + d + ")";
  }
};

}  // namespace

void add_train_options(CLI::App& cmd, train_args& a) {
  cmd.footer(
      "Writes DIR/word-topic-counts.txt and doc-topic-counts.txt (the model's counts, sparse, in "
      "MALLET's word-topic counts format; phi.npy and theta.npy instead for --estimator mean, "
      "sample, mh or a --burn-in, and besides them with --npy), topics.txt, vocab.txt, "
      "metrics.jsonl and model.json.");
  add_corpus_options(cmd, a.corpus, corpus_required::no);
  cmd.add_option("--topics", a.run.hyper.num_topics, "number of topics")
      ->type_name("K")
      ->check(CLI::Range(1, 1 << 16))
      ->capture_default_str();
  cmd.add_option("--alpha", a.run.hyper.alpha,
                 "symmetric Dirichlet prior of each document's topic proportions theta")
      ->type_name("A")
      ->check(number_in(0, 1e6, true))
      ->capture_default_str();
  cmd.add_option("--beta", a.run.hyper.beta,
                 "symmetric Dirichlet prior of each topic's word distribution phi")
      ->type_name("B")
      ->check(number_in(0, 1e6, true))
      ->capture_default_str();
  cmd.add_option("--iterations", a.run.iterations, "Gibbs iterations")
      ->type_name("N")
      ->check(CLI::Range(0u, 1u << 24))
      ->capture_default_str();
  cmd.add_option("--seed", a.run.seed,
                 "random seed; the same seed gives the same model, bit for bit")
      ->type_name("S")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{INT64_MAX}))
      ->capture_default_str();
  cmd.add_option("--algorithm", a.algorithm, "how the topic of every token is drawn")
      ->type_name("NAME")
      ->check(CLI::IsMember(algorithm_names()))
      ->capture_default_str();
  cmd.add_option("--width", a.run.width,
                 "lanes per subgroup of the z draw (z depends on it: compare backends at equal "
                 "width); 0 = the "
                 "backend's native width")
      ->type_name("W")
      ->check(CLI::IsMember(width_choices()))
      ->capture_default_str();
  cmd.add_option(
         "--estimator", a.estimator,
         "collapsed = theta integrated out, each document's tokens drawn in order (partially "
         "collapsed Gibbs, O(K / 64 + the topics the document and the word share) per token; theta "
         "and phi the posterior means); "
         "mh = the same chain, each token moved by Metropolis-Hastings proposals from its document "
         "and word (O(1) per token, slower mixing per iteration); hybrid = the same chain, "
         "mh's moves read from collapsed's compact tables (no V x K array; for K of thousands); "
         "phased = Metropolis-Hastings in WarpLDA's word and document phases, each element's "
         "counts its own (O(1) per token, reads in runs; for long documents); "
         "mean = z drawn by --algorithm "
         "from "
         "the posterior means (cheaper iterations, but it can stop short of the best model); "
         "sample = "
         "theta and phi drawn from their Dirichlets (the paper's uncollapsed Gibbs sampler). "
         "--algorithm and --width apply to mean and sample (collapsed's first sweeps run as "
         "phased's on long documents: --phased-sweeps)")
      ->type_name("NAME")
      ->check(CLI::IsMember({"sample", "mean", "collapsed", "mh", "hybrid", "phased"}))
      ->capture_default_str();
  cmd.add_option(
         "--burn-in", a.run.burn_in,
         "with --estimator collapsed, mh, hybrid or phased: the first N iterations draw z as "
         "--estimator mean does "
         "(the dense butterfly draw), the rest are its sweeps")
      ->type_name("N")
      ->check(CLI::Range(0u, 1u << 24))
      ->capture_default_str();
  cmd.add_option(
         "--start-topics", a.run.start_topics,
         "iteration 0: each document's first S tokens get topics uniformly at random and every "
         "later "
         "token one of theirs, so a document starts with at most S topics; 0 = every token's topic "
         "uniform (default: 1 where the training documents are at least 128 per topic, 4 where at "
         "least 16, "
         "else 0)")
      ->type_name("S")
      ->check(CLI::Range(0u, 1u << 24));
  CLI::Option* average = cmd.add_option("--average", a.run.average,
                                        "with --estimator collapsed and no --burn-in: theta and "
                                        "phi are the posterior mean of the pooled topics "
                                        "of the last iteration and N - 1 earlier ones spread over "
                                        "the run's last eighth (runs of at least 100 "
                                        "iterations; shorter ones keep the last iteration's); 1 = "
                                        "the last iteration's alone (default: 4 where "
                                        "it applies, else 1)")
                             ->type_name("N")
                             ->check(CLI::Range(1u, lda::max_average));
  CLI::Option* blocks =
      cmd.add_option("--sweep-blocks", a.run.sweep_blocks,
                     "with --estimator collapsed or hybrid: each sweep in B blocks of documents, "
                     "the word counts brought up to date with the topics drawn so far before "
                     "each block after the first (each adds 1-7 % of a sweep's time). For few "
                     "documents per topic, where counts held for a whole sweep make the chain "
                     "settle higher; 1 = held for the whole sweep (default: 16 where there are "
                     "fewer than 4 training documents per topic, else 1)")
          ->type_name("B")
          ->check(CLI::Range(1u, lda::max_sweep_blocks));
  CLI::Option* phased =
      cmd.add_option("--phased-sweeps", a.run.phased_sweeps,
                     "with --estimator collapsed: its first N sweeps (after --burn-in) drawn as "
                     "--estimator phased draws them (O(1) per token from the start), the rest by "
                     "its own sweep. Default, where the training documents number at least "
                     "--topics: " +
                         std::to_string(lda::long_document_phased_sweeps) +
                         " where they average at least " +
                         std::to_string(lda::phased_from_length) + " tokens, else " +
                         std::to_string(lda::short_document_phased_sweeps) + " (" +
                         std::to_string(lda::many_topics_short_document_phased_sweeps) +
                         " from --topics " +
                         std::to_string(lda::more_phased_from_topics) +
                         "); 0 with fewer documents")
          ->type_name("N")
          ->check(CLI::Range(0u, 1u << 24));
  CLI::Option* subgroups =
      cmd.add_option("--subgroup-from", a.run.subgroup_from,
                     "with --estimator collapsed: documents of at least N tokens are swept by a "
                     "subgroup each (a warp on a GPU, vector lanes on the host), its lanes over "
                     "the document's topics, the others by a thread each; the same model either "
                     "way, only the time differs. 0 = the backend's default (1024 on a GPU, none "
                     "on the host)")
          ->type_name("N")
          ->capture_default_str();
  cmd.add_option("--eval-every", a.run.eval_every,
                 "log-likelihood (and held-out perplexity) every N iterations and at the last; 0 = "
                 "at the last only")
      ->type_name("N")
      ->check(CLI::Range(0u, 1u << 24))
      ->capture_default_str();
  cmd.add_option("--holdout", a.run.holdout,
                 "hold out this fraction of the documents (seed-keyed) and report their "
                 "document-completion "
                 "perplexity")
      ->type_name("FRACTION")
      ->check(number_in(0, 0.99))
      ->capture_default_str();
  cmd.add_option("--fold-in-sweeps", a.run.fold_in_sweeps,
                 "Gibbs sweeps that estimate a held-out document's theta")
      ->type_name("N")
      ->check(CLI::Range(2, 100000))
      ->capture_default_str();
  cmd.add_option("--top-words", a.run.top_words,
                 "words per topic in topics.txt and on the terminal")
      ->type_name("N")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd.add_option("--out", a.out, "output directory (created if missing)")
      ->type_name("DIR")
      ->capture_default_str();
  cmd.add_option("--checkpoint-every", a.run.checkpoint_every,
                 "write DIR/checkpoint.bin every N iterations; 0 = never")
      ->type_name("N")
      ->check(CLI::Range(0u, 1u << 24))
      ->capture_default_str();
  CLI::Option* quiet = cmd.add_flag("--quiet", a.quiet, "no progress output on stderr");
  CLI::Option* npy = cmd.add_flag(
      "--npy", a.npy,
      "also write phi.npy (V x K float32) and theta.npy (documents x K float32), the dense "
      "posterior means, where the model files are its counts (with --resume: give it again)");
  CLI::Option* resume =
      cmd.add_option("--resume", a.resume,
                     "continue the run whose checkpoint is in DIR, with its options (no others "
                     "allowed besides --quiet and --npy); the result is identical to an "
                     "uninterrupted run")
          ->type_name("DIR");
  // The run keeps the options its checkpoint stored.
  for (CLI::Option* o : options_of(cmd))
    if (o != resume && o != quiet && o != npy && o != cmd.get_help_ptr()) resume->excludes(o);
  cmd.callback([&a, average, blocks, subgroups, phased] {
    const lda::training_options& r = a.run;
    const lda::estimator e = lda::parse_estimator(a.estimator);
    if (r.subgroup_from != 0 && e != lda::estimator::collapsed)
      throw CLI::ValidationError(subgroups->get_name(),
                                 "applies to --estimator collapsed, got --subgroup-from " +
                                     std::to_string(r.subgroup_from) + " with --estimator " +
                                     a.estimator);
    if (r.phased_sweeps.value_or(0) > 0 && e != lda::estimator::collapsed)
      throw CLI::ValidationError(phased->get_name(),
                                 "applies to --estimator collapsed, got --phased-sweeps " +
                                     std::to_string(*r.phased_sweeps) + " with --estimator " +
                                     a.estimator);
    if (r.sweep_blocks.value_or(1) > 1 && !lda::sweeps_in_blocks(e))
      throw CLI::ValidationError(blocks->get_name(),
                                 "applies to --estimator collapsed or hybrid, got --sweep-blocks " +
                                     std::to_string(*r.sweep_blocks) + " with --estimator " +
                                     a.estimator);
    if (r.average.value_or(1) > 1 && !lda::model_from_z(e, r.burn_in))
      throw CLI::ValidationError(
          average->get_name(),
          "pools sweeps only with --estimator collapsed, hybrid or phased and no --burn-in, "
          "got --average " +
              std::to_string(*r.average) + " with --estimator " + a.estimator +
              (r.burn_in > 0 ? " --burn-in " + std::to_string(r.burn_in) : ""));
  });
}

void add_topics_options(CLI::App& cmd, topics_args& a) {
  cmd.add_option("--model", a.model, "model directory written by butterfly-lda train")
      ->type_name("DIR")
      ->required();
  cmd.add_option("--top-words", a.top_words, "words per topic")
      ->type_name("N")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
}

void add_infer_options(CLI::App& cmd, infer_args& a) {
  cmd.footer("Words are matched to the model's vocabulary by spelling; unknown words are skipped.");
  add_corpus_options(cmd, a.corpus, corpus_required::yes);
  cmd.add_option("--model", a.model, "model directory written by butterfly-lda train")
      ->type_name("DIR")
      ->required();
  cmd.add_option("--out", a.out, "where to write theta (documents x K float32 .npy)")
      ->type_name("FILE")
      ->capture_default_str();
  cmd.add_option("--sweeps", a.sweeps,
                 "Gibbs sweeps of z and theta per document (the second half is averaged)")
      ->type_name("N")
      ->check(CLI::Range(2, 100000))
      ->capture_default_str();
  cmd.add_option("--seed", a.seed, "random seed")
      ->type_name("S")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{INT64_MAX}))
      ->capture_default_str();
}

lda::training_options training_options_of(const train_args& a) {
  lda::training_options o = a.run;
  o.method = parse_algorithm(a.algorithm);
  o.estimator = lda::parse_estimator(a.estimator);
  return o;
}

void use_help_layout(CLI::App& app) { app.formatter(std::make_shared<help_layout>()); }

}  // namespace butterfly::app
