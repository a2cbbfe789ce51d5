// butterfly-lda train: load the run (or resume it from its checkpoint), iterate with
// evaluations and checkpoints, write the model.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "butterfly/butterfly.hpp"
#include "butterfly/io/error.hpp"
#include "butterfly/io/npy.hpp"
#include "butterfly/lda/checkpoint.hpp"
#include "butterfly/lda/sampler.hpp"
#include "butterfly/lda/evaluation.hpp"
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

// The options of the run: those given, or with --resume those its checkpoint stored (with
// the checkpoint).
struct run_start {
  train_args args;
  std::string out_dir;
  bool quiet = false;
  std::optional<lda::checkpoint> resumed;
};

run_start load_or_resume(const train_args& given) {
  if (given.resume.empty()) return {given, given.out, given.quiet, std::nullopt};
  const std::string path = given.resume + "/" + checkpoint_name;
  lda::checkpoint ck = lda::load_checkpoint(path);
  train_args stored = train_args_from(ck.arguments, path);
  return {std::move(stored), given.resume, given.quiet, std::move(ck)};
}

// The corpus as the run sees it. The views point into the members, so it is neither copied
// nor moved.
struct training_data {
  training_data(const corpus_source& source, double holdout, std::uint64_t seed)
      : corpus(load_corpus(source)),
        checksum(io::checksum(corpus)),
        all{corpus.doc_offsets, corpus.words, corpus.vocab_size()},
        split(holdout > 0 ? lda::split_holdout(all, holdout, seed) : lda::holdout_split{}),
        train(holdout > 0 ? split.train.view() : all) {}
  training_data(const training_data&) = delete;
  training_data& operator=(const training_data&) = delete;

  io::corpus corpus;
  std::uint64_t checksum;
  lda::documents all;
  lda::holdout_split split;  // empty without --holdout
  lda::documents train;      // what the sampler draws
};

// With the documents the chain trains on (the default start_topics depends on them).
lda::sampler_options sampler_options_of(const train_args& a, const lda::documents& train) {
  const lda::estimator e = lda::parse_estimator(a.estimator);
  return {parse_algorithm(a.algorithm), a.width, e, a.burn_in,
          a.start_topics.value_or(lda::default_start_topics(train.num_docs(), a.topics)),
          a.average.value_or(lda::default_average(e, a.burn_in)), a.iterations};
}

lda::hyperparameters hyperparameters_of(const train_args& a) {
  lda::hyperparameters h;
  h.num_topics = a.topics;
  h.alpha = a.alpha;
  h.beta = a.beta;
  return h;
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

void call(const std::function<void(std::uint32_t)>& hook, std::uint32_t i) {
  if (hook) hook(i);
}

// One training run on this process. Every rank reads the options, the checkpoint and the
// corpus itself (read-only files, no transport code); only rank 0 prints and writes.
class training_run {
 public:
  training_run(run_start start, const train_hooks& hooks)
      : world_(cluster::world()),
        hooks_(hooks),
        args_(std::move(start.args)),
        out_dir_(std::move(start.out_dir)),
        checkpoint_path_(out_dir_ + "/" + checkpoint_name),
        quiet_(start.quiet || !world_.root()),
        hyper_(hyperparameters_of(args_)),
        data_(corpus_source_from(args_.corpus), args_.holdout, args_.seed),
        part_(lda::shard_of(data_.train, world_.size(), world_.rank())),
        chain_(data_.train, hyper_, args_.seed, sampler_options_of(args_, data_.train), part_, count_sum()) {
    if (start.resumed) resume(std::move(*start.resumed));
    else begin();
    fold_.seed = args_.seed;
    fold_.sweeps = args_.fold_in_sweeps;
    const std::int64_t test_docs = data_.split.test.view().num_docs();
    std::tie(first_test_block_, end_test_block_) =
        block_range((test_docs + lda::completion_block - 1) / lda::completion_block, world_.rank(), world_.size());
  }

  // Iterations up to --iterations: evaluations every --eval-every and at the last,
  // checkpoints every --checkpoint-every.
  void iterate() {
    if (!quiet_)
      std::fprintf(stderr,
                   "training %d topics on %" PRId64 " documents, %" PRId64 " tokens, %d words (%s, width %d, %s "
                   "estimator, %s, state in %s memory%s)\n",
                   hyper_.num_topics, data_.train.num_docs(), data_.train.num_tokens(), data_.corpus.vocab_size(),
                   args_.algorithm.c_str(), width(), args_.estimator.c_str(), std::string(backend_name()).c_str(),
                   sampler_->on_device() ? "device" : "host",
                   sampler_->iteration() ? ", resumed" : "");
    progress bar(args_.iterations, data_.train.num_tokens(), !quiet_, world_.size());
    while (sampler_->iteration() < args_.iterations) {
      const std::uint64_t copied = sampler_->copied_bytes();
      const auto sec = sampler_->iterate();
      const std::uint32_t i = sampler_->iteration();
      double ll = NAN;
      if ((args_.eval_every > 0 && i % args_.eval_every == 0) || i == args_.iterations) ll = evaluate(i);
      call(hooks_.after_iteration, i);
      if (args_.checkpoint_every > 0 && i % args_.checkpoint_every == 0) checkpoint(i);
      // After the checkpoint, so that its copy from the device counts in its iteration.
      bar.report(i, sec.z_draw + sec.combine + sec.rest, sec.z_draw, sec.combine, ll,
                 sampler_->copied_bytes() - copied);
    }
    bar.finish();
  }

  // The output files and the topics on stdout; the other ranks only send their rows. One
  // process writes theta and phi a chunk of rows at a time from the sampler: a gathered copy
  // of theta, phi and z was a third of the peak memory at K = 1000 (bench/RESULTS.md, issue
  // 23, third session), and a chain that makes them from z holds no copy at all (eighth).
  void finish() {
    if (world_.size() == 1) {
      const auto theta = [this](std::int64_t first, std::int64_t n, float* out) { sampler_->theta_rows(first, n, out); };
      const auto phi = [this](std::int64_t first, std::int64_t n, float* out) { sampler_->phi_rows(first, n, out); };
      return print_result(write_model(theta, phi));
    }
    const lda::state whole = gathered(true);
    if (!world_.root()) return;
    const auto rows_of = [K = std::int64_t{hyper_.num_topics}](const std::vector<float>& v) {
      return [&v, K](std::int64_t first, std::int64_t count, float* out) {
        std::copy(v.begin() + first * K, v.begin() + (first + count) * K, out);
      };
    };
    print_result(write_model(rows_of(whole.theta), rows_of(whole.phi)));
  }

 private:
  // The lanes per subgroup of the z draw (--width, or the backend's native width).
  int width() const { return args_.width != 0 ? args_.width : default_width(); }

  // With several processes, the word-topic counts are summed over all of them; one process
  // has nothing to add (and on a GPU build nothing to copy to the host for it).
  lda::count_combiner count_sum() const {
    if (world_.size() == 1) return {};
    return [this](std::int32_t* counts, std::size_t n) {
      if (hooks_.before_count_sum) hooks_.before_count_sum();
      world_.sum(counts, n);
    };
  }

  void begin() {
    if (world_.root()) {
      std::error_code ec;
      fs::create_directories(out_dir_, ec);
      if (ec) throw std::runtime_error("cannot create output directory " + out_dir_ + ": " + ec.message());
    }
    sampler_ = std::make_unique<lda::sampler>(chain_);
  }

  void resume(lda::checkpoint&& ck) {
    if (ck.corpus_checksum != data_.checksum)
      throw io::input_error(checkpoint_path_ + ": checkpoint was written for a different corpus (checksum " +
                            hex(ck.corpus_checksum) + ", this corpus " + hex(data_.checksum) + ")");
    const auto K = static_cast<std::size_t>(hyper_.num_topics);
    const auto empty_or = [](std::size_t n, std::size_t full) { return n == 0 || n == full; };
    if (!empty_or(ck.s.theta.size(), static_cast<std::size_t>(data_.train.num_docs()) * K) ||
        !empty_or(ck.s.phi.size(), static_cast<std::size_t>(data_.all.vocab_size) * K) ||
        ck.s.z.size() != static_cast<std::size_t>(data_.train.num_tokens()) || ck.s.iteration > args_.iterations)
      throw io::input_error(checkpoint_path_ + ": checkpoint does not fit its own options (sizes or iteration)");
    // The checkpoint holds the whole corpus's z (and theta), so any number of ranks resumes it.
    lda::state s = std::move(ck.s);
    if (!s.theta.empty()) s.theta = rows(std::move(s.theta), part_.first_doc, part_.end_doc, hyper_.num_topics);
    s.z = rows(std::move(s.z), part_.first_token, part_.end_token, 1);
    s.kept = kept_rows(std::move(s.kept), data_.train.num_tokens());
    try {
      sampler_ = std::make_unique<lda::sampler>(chain_, std::move(s));
    } catch (const std::invalid_argument& e) {  // a chain that holds theta and phi, resumed without them
      throw io::input_error(checkpoint_path_ + ": checkpoint does not fit its own options: " + e.what());
    }
    history_ = std::move(ck.history);
  }

  // Log-likelihood (and held-out perplexity) after iteration i, appended to metrics.jsonl;
  // returns the log-likelihood.
  double evaluate(std::uint32_t i) {
    // Partial sums of every rank, added on rank 0 in the order one process adds them.
    // The log-likelihood's partial sums are computed where the state is; on a GPU build only
    // they, and phi for the held-out documents, come back to the host.
    lda::metrics_record rec{i, lda::ordered_sum(world_.gather(sampler_->log_likelihood_partials())), NAN};
    if (args_.holdout > 0) {
      const auto p = lda::completion_partials(data_.split.test.view(), first_test_block_, end_test_block_,
                                              sampler_->current_phi(),
                                              hyper_, fold_);
      rec.perplexity = lda::combine({world_.gather(p.log_likelihood), world_.gather(p.scored_tokens)}).perplexity;
    }
    if (world_.root()) {
      history_.push_back(rec);
      write_metrics(out_dir_ + "/metrics.jsonl", history_);
    }
    return rec.log_likelihood;
  }

  void checkpoint(std::uint32_t i) const {
    const lda::checkpoint ck{args_.defining, args_.seed, hyper_, args_.algorithm, data_.checksum,
                             gathered(sampler_->holds_model()), history_};
    if (world_.root()) lda::save_checkpoint(checkpoint_path_, ck, [&] { call(hooks_.mid_checkpoint, i); });
    call(hooks_.after_checkpoint, i);
  }

  // The whole corpus's z, and with `model` its theta and phi, on rank 0 (empty elsewhere).
  // A checkpoint holds what the sampler holds: z alone where theta and phi are z's.
  lda::state gathered(bool model) const {
    lda::state whole;
    whole.iteration = sampler_->iteration();
    if (model) {
      const lda::state& s = sampler_->current();
      whole.theta = world_.gather(s.theta);
      whole.phi = s.phi;
    }
    whole.z = world_.gather(sampler_->current_z());
    // Sweep by sweep (a rank may hold no tokens, but every rank takes part in each gather).
    const std::vector<std::uint16_t>& kept = sampler_->current_kept();
    const auto n = static_cast<std::ptrdiff_t>(sampler_->current_z().size());
    for (std::ptrdiff_t j = 0; j < static_cast<std::ptrdiff_t>(sampler_->kept_sweeps()); ++j) {
      const std::vector<std::uint16_t> sweep =
          world_.gather(std::vector<std::uint16_t>(kept.begin() + j * n, kept.begin() + (j + 1) * n));
      whole.kept.insert(whole.kept.end(), sweep.begin(), sweep.end());
    }
    return whole;
  }

  // The shard's part of the whole corpus's kept sweeps (state::kept, N tokens each).
  std::vector<std::uint16_t> kept_rows(std::vector<std::uint16_t>&& all, std::int64_t N) const {
    if (all.empty()) return {};
    if (N == 0 || all.size() % static_cast<std::size_t>(N) != 0)
      throw io::input_error(checkpoint_path_ + ": checkpoint does not fit its own options (kept sweeps)");
    std::vector<std::uint16_t> mine;
    for (std::size_t at = 0; at < all.size(); at += static_cast<std::size_t>(N))
      mine.insert(mine.end(), all.begin() + static_cast<std::ptrdiff_t>(at) + part_.first_token,
                  all.begin() + static_cast<std::ptrdiff_t>(at) + part_.end_token);
    return mine;
  }

  // The model's files from its rows (theta's, phi's); returns phi's top words, made on the way
  // (for topics.txt and stdout).
  topic_words write_model(const io::npy_rows& theta, const io::npy_rows& phi) const {
    const int K = hyper_.num_topics;
    const io::corpus& c = data_.corpus;
    io::write_npy(out_dir_ + "/theta.npy", data_.train.num_docs(), K, theta);
    top_words_of_rows top(K, data_.all.vocab_size, args_.top_words);
    io::write_npy(out_dir_ + "/phi.npy", data_.all.vocab_size, K, [&](std::int64_t first, std::int64_t count, float* out) {
      phi(first, count, out);
      for (std::int64_t w = 0; w < count; ++w) top.add(first + w, out + w * K);
    });
    const topic_words lists = top.take();
    write_topics(out_dir_ + "/topics.txt", lists, c.vocab);
    write_vocab(out_dir_ + "/vocab.txt", c.vocab);
    write_metrics(out_dir_ + "/metrics.jsonl", history_);
    nlohmann::ordered_json d;
    d["format"] = "butterfly-lda model";
    d["version"] = BUTTERFLY_VERSION;
    d["backend"] = std::string(backend_name());
    d["algorithm"] = args_.algorithm;
    d["width"] = width();
    d["estimator"] = args_.estimator;
    if (args_.estimator == "collapsed" || args_.estimator == "mh") d["burn_in"] = args_.burn_in;
    d["start_topics"] = chain_.options().start_topics;  // the one given, or the corpus's default
    d["average"] = chain_.options().average;            // the one given, or the estimator's default
    d["pooled_iterations"] = lda::pooled_sweeps(chain_.options());  // besides the last
    d["topics"] = K;
    d["alpha"] = hyper_.alpha;
    d["beta"] = hyper_.beta;
    d["iterations"] = args_.iterations;
    d["seed"] = args_.seed;
    d["corpus_checksum"] = hex(data_.checksum);
    d["corpus_documents"] = c.num_docs();
    d["corpus_tokens"] = c.num_tokens();
    d["vocabulary"] = c.vocab_size();
    d["training_documents"] = data_.train.num_docs();
    d["training_tokens"] = data_.train.num_tokens();
    d["holdout"] = args_.holdout;
    d["heldout_documents"] = data_.split.test.view().num_docs();
    d["fold_in_sweeps"] = args_.fold_in_sweeps;
    d["phi"] = "phi.npy: V x K float32, column k = topic k's distribution over words";
    d["theta"] = "theta.npy: training documents x K float32, rows in corpus order";
    write_model_json(out_dir_ + "/model.json", d);
    return lists;
  }

  void print_result(const topic_words& top) const {
    print_topics(std::cout, top, data_.corpus.vocab);
    if (!history_.empty()) {
      std::printf("log-likelihood after %u iterations: %.6e\n", sampler_->iteration(), history_.back().log_likelihood);
      if (args_.holdout > 0)
        std::printf("held-out perplexity (document completion, %" PRId64 " documents): %.2f\n",
                    data_.split.test.view().num_docs(), history_.back().perplexity);
    }
    if (!quiet_) std::fprintf(stderr, "model written to %s\n", out_dir_.c_str());
  }

  const cluster& world_;
  const train_hooks& hooks_;
  const train_args args_;
  const std::string out_dir_, checkpoint_path_;
  const bool quiet_;
  const lda::hyperparameters hyper_;
  const training_data data_;
  const lda::shard part_;
  const lda::chain chain_;
  lda::fold_in_options fold_;
  std::int64_t first_test_block_ = 0, end_test_block_ = 0;
  // The state, where the backend keeps its memory.
  std::unique_ptr<lda::sampler> sampler_;
  std::vector<lda::metrics_record> history_;
};

}  // namespace

int train(const train_args& given, const train_hooks& hooks) {
  training_run run(load_or_resume(given), hooks);
  run.iterate();
  run.finish();
  return 0;
}

}  // namespace butterfly::app
