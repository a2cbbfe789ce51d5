// butterfly-lda train: the library's trainer (lda::trainer) on the corpus the options name, or
// on the run a checkpoint continues; progress on stderr, the model's files in the output
// directory, its topics on stdout.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "butterfly/butterfly.hpp"
#include "butterfly/io/error.hpp"
#include "butterfly/io/npy.hpp"
#include "butterfly/io/topic_counts_file.hpp"
#include "butterfly/lda/sampler.hpp"
#include "butterfly/lda/topic_counts.hpp"
#include "butterfly/lda/trainer.hpp"
#include "cluster.hpp"
#include "commands.hpp"
#include "corpus_input.hpp"
#include "model_files.hpp"
#include "progress.hpp"

namespace butterfly::app {
namespace fs = std::filesystem;
namespace {

const char* const checkpoint_name = "checkpoint.bin";

std::string hex(std::uint64_t x) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, x);
  return buf;
}

// The processes of the run (cluster: MPI or this one), with the test hook before each sum of
// the word-topic counts.
class cluster_group final : public lda::process_group {
 public:
  cluster_group(const cluster& c, std::function<void()> before_sum)
      : c_(c), before_sum_(std::move(before_sum)) {}
  int rank() const override { return c_.rank(); }
  int size() const override { return c_.size(); }
  void sum(std::int32_t* data, std::size_t n) const override {
    if (before_sum_) before_sum_();
    c_.sum(data, n);
  }
  std::vector<double> gather(const std::vector<double>& v) const override { return c_.gather(v); }
  std::vector<float> gather(const std::vector<float>& v) const override { return c_.gather(v); }
  std::vector<std::int32_t> gather(const std::vector<std::int32_t>& v) const override {
    return c_.gather(v);
  }
  std::vector<std::int64_t> gather(const std::vector<std::int64_t>& v) const override {
    return c_.gather(v);
  }
  std::vector<std::uint16_t> gather(const std::vector<std::uint16_t>& v) const override {
    return c_.gather(v);
  }

 private:
  const cluster& c_;
  std::function<void()> before_sum_;
};

// What the run is: the options and corpus given, or with --resume those its checkpoint stored
// (with the checkpoint).
struct run_setup {
  lda::training_options options;
  corpus_source corpus;
  std::string out_dir;
  std::optional<lda::resume_from> from;
};

run_setup setup_of(const train_args& given) {
  if (given.resume.empty())
    return {training_options_of(given), corpus_source_from(given.corpus), given.out, {}};
  const std::string path = given.resume + "/" + checkpoint_name;
  lda::checkpoint ck = lda::load_checkpoint(path);
  if (ck.corpus.path.empty())
    throw io::input_error(
        path +
        ": checkpoint of documents given in memory (butterfly.LDA fitted on a matrix); "
        "butterfly-lda continues runs on corpus files");
  run_setup s{ck.options, ck.corpus, given.resume, std::nullopt};
  s.from = lda::resume_from{std::move(ck), path};
  return s;
}

// One training run on this process. Every rank reads the options, the checkpoint and the
// corpus itself (read-only files, no transport code); only rank 0 prints and writes.
class training_run {
 public:
  training_run(run_setup setup, bool quiet, bool npy, const train_hooks& hooks)
      : world_(cluster::world()),
        group_(world_, hooks.before_count_sum),
        out_dir_(std::move(setup.out_dir)),
        quiet_(quiet || !world_.root()),
        npy_(npy),
        resumed_(setup.from.has_value()),
        corpus_(load_corpus(setup.corpus)),
        all_{corpus_.doc_offsets, corpus_.words, corpus_.vocab_size()},
        trainer_(all_, io::checksum(corpus_), setup.options, std::move(setup.from), group_) {
    if (!resumed_ && world_.root()) {
      std::error_code ec;
      fs::create_directories(out_dir_, ec);
      if (ec)
        throw std::runtime_error("cannot create output directory " + out_dir_ + ": " +
                                 ec.message());
    }
    trainer_.set_corpus_file(std::move(setup.corpus));
    lda::training_events e;
    e.checkpoint_path = out_dir_ + "/" + checkpoint_name;
    e.evaluated = [this](const std::vector<lda::metrics_record>& h) {
      write_metrics(out_dir_ + "/metrics.jsonl", h);
    };
    e.after_iteration = hooks.after_iteration;
    e.mid_checkpoint = hooks.mid_checkpoint;
    e.after_checkpoint = hooks.after_checkpoint;
    trainer_.set_events(std::move(e));
  }

  // Iterations up to --iterations, with the trainer's evaluations and checkpoints.
  void iterate() {
    const lda::training_options& o = trainer_.options();
    const lda::documents& train = trainer_.training_documents();
    if (!quiet_)
      std::fprintf(stderr,
                   "training %d topics on %" PRId64 " documents, %" PRId64
                   " tokens, %d words (%s, width %d, %s "
                   "estimator, %s, state in %s memory%s)\n",
                   o.hyper.num_topics, train.num_docs(), train.num_tokens(), corpus_.vocab_size(),
                   std::string(name(o.method)).c_str(), o.width, lda::estimator_name(o.estimator),
                   std::string(backend_name()).c_str(),
                   trainer_.state_sampler().on_device() ? "device" : "host",
                   trainer_.iteration() ? ", resumed" : "");
    progress bar(o.iterations, train.num_tokens(), !quiet_, world_.size());
    while (!trainer_.done()) {
      const lda::iteration_report r = trainer_.step();
      const lda::iteration_seconds& sec = r.seconds;
      bar.report(r.iteration, sec.z_draw + sec.combine + sec.rest, sec.z_draw, sec.combine,
                 r.log_likelihood, r.copied_bytes);
    }
    bar.finish();
  }

  // The output files and the topics on stdout; the other ranks only send their rows.
  void finish() {
    const lda::training_options& o = trainer_.options();
    const bool counts = lda::model_from_z(o.estimator, o.burn_in);
    std::optional<lda::trainer::model_rows> dense;
    if (!counts || npy_) dense = trainer_.model();
    std::optional<lda::topic_counts> n;
    if (counts) n = trainer_.counts();
    if (!world_.root()) return;
    const topic_words top = write_model(dense ? &*dense : nullptr, n ? &*n : nullptr);
    print_topics(std::cout, top, corpus_.vocab);
    const auto& history = trainer_.history();
    if (!history.empty()) {
      std::printf("log-likelihood after %u iterations: %.6e\n", trainer_.iteration(),
                  history.back().log_likelihood);
      if (trainer_.options().holdout > 0)
        std::printf("held-out perplexity (document completion, %" PRId64 " documents): %.2f\n",
                    trainer_.heldout_documents(), history.back().perplexity);
    }
    if (!quiet_) std::fprintf(stderr, "model written to %s\n", out_dir_.c_str());
  }

 private:
  // The model's files: its counts where it is made from z (`counts`), theta.npy and phi.npy
  // from `dense`'s rows where given. Returns phi's top words, made on the way (for topics.txt
  // and stdout): from the counts where there are some.
  topic_words write_model(const lda::trainer::model_rows* dense, lda::topic_counts* counts) const {
    const lda::training_options& o = trainer_.options();
    const int K = o.hyper.num_topics;
    const io::corpus& c = corpus_;
    const lda::documents& train = trainer_.training_documents();
    top_words_of_rows top(K, all_.vocab_size, o.top_words);
    if (dense) {
      io::write_npy(out_dir_ + "/theta.npy", train.num_docs(), K, dense->theta);
      io::write_npy(out_dir_ + "/phi.npy", all_.vocab_size, K,
                    [&](std::int64_t first, std::int64_t count, float* out) {
                      dense->phi(first, count, out);
                      if (!counts)
                        for (std::int64_t w = 0; w < count; ++w) top.add(first + w, out + w * K);
                    });
    }
    if (counts) write_counts(*counts, top);
    const topic_words lists = top.take();
    write_topics(out_dir_ + "/topics.txt", lists, c.vocab);
    write_vocab(out_dir_ + "/vocab.txt", c.vocab);
    write_metrics(out_dir_ + "/metrics.jsonl", trainer_.history());
    nlohmann::ordered_json d;
    d["format"] = "butterfly-lda model";
    d["version"] = BUTTERFLY_VERSION;
    d["backend"] = std::string(backend_name());
    d["algorithm"] = std::string(name(o.method));
    d["width"] = o.width;
    d["estimator"] = lda::estimator_name(o.estimator);
    if (o.estimator != lda::estimator::mean && o.estimator != lda::estimator::sample)
      d["burn_in"] = o.burn_in;
    d["start_topics"] = *o.start_topics;  // the one given, or the corpus's default
    d["average"] = *o.average;            // the one given, or the estimator's default
    if (lda::sweeps_in_blocks(o.estimator))
      d["sweep_blocks"] = *o.sweep_blocks;  // the one given, or the corpus's default
    if (o.estimator == lda::estimator::collapsed)
      d["phased_sweeps"] = *o.phased_sweeps;  // the one given, or the corpus's default
    d["pooled_iterations"] =
        lda::pooled_sweeps(trainer_.markov_chain().options());  // besides the last
    d["topics"] = K;
    d["alpha"] = o.hyper.alpha;
    d["beta"] = o.hyper.beta;
    d["iterations"] = o.iterations;
    d["seed"] = o.seed;
    d["corpus_checksum"] = hex(trainer_.corpus_checksum());
    d["corpus_documents"] = c.num_docs();
    d["corpus_tokens"] = c.num_tokens();
    d["vocabulary"] = c.vocab_size();
    d["training_documents"] = train.num_docs();
    d["training_tokens"] = train.num_tokens();
    d["holdout"] = o.holdout;
    d["heldout_documents"] = trainer_.heldout_documents();
    d["fold_in_sweeps"] = o.fold_in_sweeps;
    const std::string npy_phi =
        "phi.npy: V x K float32, column k = topic k's distribution over words";
    const std::string npy_theta = "theta.npy: training documents x K float32, rows in corpus order";
    if (counts) {
      d["counted_sweeps"] = counts->sweeps();
      d["phi"] =
          "word-topic-counts.txt: MALLET's word-topic counts, a line per word \"index word "
          "topic:count ...\", the topics of z and of the pooled iterations added (S = "
          "counted_sweeps): phi[w,k] = (n_wk + S beta) / (n_k + V S beta)" +
          (dense ? "; " + npy_phi : std::string());
      d["theta"] =
          "doc-topic-counts.txt: a line per training document \"index number topic:count ...\" "
          "(number: its 1-based place in the corpus), counted as phi's: theta[m,k] = (n_mk + S "
          "alpha) / (S N_m + K S alpha)" +
          (dense ? "; " + npy_theta : std::string());
    } else {
      d["phi"] = npy_phi;
      d["theta"] = npy_theta;
    }
    write_model_json(out_dir_ + "/model.json", d);
    return lists;
  }

  // word-topic-counts.txt and doc-topic-counts.txt, and phi's top words from the first.
  void write_counts(lda::topic_counts& counts, top_words_of_rows& top) const {
    const lda::phi_entries entry(counts.topic_totals(), all_.vocab_size,
                                 trainer_.options().hyper.beta, counts.sweeps());
    // The documents' file on a second thread meanwhile (each kind of row has its own scratch).
    std::future<void> documents =
        std::async(std::launch::async, [&] { write_document_counts(counts); });
    io::write_topic_counts(
        out_dir_ + "/word-topic-counts.txt", all_.vocab_size,
        [&](std::int64_t w) {
          return std::string_view(corpus_.vocab[static_cast<std::size_t>(w)]);
        },
        [&](std::int64_t w, std::vector<io::topic_count>& out) {
          counts.word_row(w, out);
          for (const io::topic_count& e : out) {
            const auto k = static_cast<std::size_t>(e.topic);
            top.offer(k, w, entry(k, e.count));
          }
        });
    top.fill(entry.zero);
    documents.get();
  }

  void write_document_counts(lda::topic_counts& counts) const {
    // The training documents' places in the corpus: those the holdout left, in order.
    std::vector<std::int64_t> place;
    place.reserve(static_cast<std::size_t>(trainer_.training_documents().num_docs()));
    const std::vector<std::int64_t>& held = trainer_.heldout_ids();
    for (std::int64_t d = 0, h = 0; d < all_.num_docs(); ++d) {
      if (h < static_cast<std::int64_t>(held.size()) && held[static_cast<std::size_t>(h)] == d) ++h;
      else place.push_back(d + 1);
    }
    std::string name;
    io::write_topic_counts(
        out_dir_ + "/doc-topic-counts.txt", static_cast<std::int64_t>(place.size()),
        [&](std::int64_t m) {
          name = std::to_string(place[static_cast<std::size_t>(m)]);
          return std::string_view(name);
        },
        [&](std::int64_t m, std::vector<io::topic_count>& out) { counts.document_row(m, out); });
  }

  const cluster& world_;
  const cluster_group group_;
  const std::string out_dir_;
  const bool quiet_, npy_, resumed_;
  const io::corpus corpus_;
  const lda::documents all_;  // views corpus_
  lda::trainer trainer_;
};

}  // namespace

int train(const train_args& given, const train_hooks& hooks) {
  training_run run(setup_of(given), given.quiet, given.npy, hooks);
  run.iterate();
  run.finish();
  return 0;
}

}  // namespace butterfly::app
