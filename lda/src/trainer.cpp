#include "butterfly/lda/trainer.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "butterfly/io/error.hpp"
#include "butterfly/lda/sampler.hpp"

namespace butterfly::lda {
namespace {

std::string hex(std::uint64_t x) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, x);
  return buf;
}

// Blocks [first, end) of `blocks` that rank `rank` of `ranks` scores (an even split).
std::pair<std::int64_t, std::int64_t> block_range(std::int64_t blocks, int rank, int ranks) {
  return {blocks * rank / ranks, blocks * (rank + 1) / ranks};
}

// The shard's part of a whole-corpus vector of rows (theta: K per document, z: 1 per token).
template <class T>
std::vector<T> rows(std::vector<T>&& all, std::int64_t first, std::int64_t end,
                    std::int64_t width) {
  all.erase(all.begin() + end * width, all.end());
  all.erase(all.begin(), all.begin() + first * width);
  return std::move(all);
}

void call(const std::function<void(std::uint32_t)>& f, std::uint32_t i) {
  if (f) f(i);
}

holdout_split split_of(const documents& all, const training_options& o) {
  return o.holdout > 0 ? split_holdout(all, o.holdout, o.seed) : holdout_split{};
}

}  // namespace

void process_group::sum(std::int32_t*, std::size_t) const {}

const process_group& this_process() {
  static const process_group one;
  return one;
}

trainer::trainer(const documents& corpus, std::uint64_t corpus_checksum, const training_options& o,
                 std::optional<resume_from> from, const process_group& group)
    : group_(group),
      all_(corpus),
      checksum_(corpus_checksum),
      split_(split_of(corpus, o)),
      train_(o.holdout > 0 ? split_.train.view() : all_),
      options_(resolved(o, train_.num_docs(), train_.num_tokens())),
      part_(shard_of(train_, group.size(), group.rank())),
      chain_(train_, options_.hyper, options_.seed, sampler_options_of(options_), part_,
             count_sum()) {
  fold_.seed = options_.seed;
  fold_.sweeps = options_.fold_in_sweeps;
  const std::int64_t test_docs = heldout_documents();
  std::tie(first_test_block_, end_test_block_) = block_range(
      (test_docs + completion_block - 1) / completion_block, group_.rank(), group_.size());
  if (from) resume(std::move(from->saved), from->path);
  else sampler_ = std::make_unique<sampler>(chain_);
}

trainer::~trainer() = default;

// With several processes, the word-topic counts are summed over all of them; one process
// has nothing to add (and on a GPU build nothing to copy to the host for it).
count_combiner trainer::count_sum() const {
  if (group_.size() == 1) return {};
  return [this](std::int32_t* counts, std::size_t n) { group_.sum(counts, n); };
}

void trainer::resume(checkpoint&& saved, const std::string& path) {
  if (saved.corpus_checksum != checksum_)
    throw io::input_error(path + ": checkpoint was written for a different corpus (checksum " +
                          hex(saved.corpus_checksum) + ", this corpus " + hex(checksum_) + ")");
  const std::string differs =
      mismatch(resolved(saved.options, train_.num_docs(), train_.num_tokens()), options_);
  if (!differs.empty())
    throw io::input_error(path +
                          ": checkpoint was written for other documents or options: " + differs);
  state& s = saved.s;
  if (s.iteration > options_.iterations)
    throw io::input_error(path + ": checkpoint is at iteration " + std::to_string(s.iteration) +
                          ", past the run's " + std::to_string(options_.iterations) +
                          " iterations");
  // Written for a run of another length: the sweeps it kept are not this run's. Dropped
  // where this run pools none up to the checkpoint; otherwise the run cannot be continued.
  if (saved.options.iterations != options_.iterations) {
    const std::vector<std::uint32_t> pooled = pooled_sweeps(chain_.options());
    if (!pooled.empty() && pooled.front() <= s.iteration)
      throw io::input_error(path + ": checkpoint at iteration " + std::to_string(s.iteration) +
                            " was written for a run of " +
                            std::to_string(saved.options.iterations) + " iterations; one of " +
                            std::to_string(options_.iterations) +
                            " pools the topics of iteration " + std::to_string(pooled.front()) +
                            " into the model, which it did not keep");
    s.kept.clear();
  }
  const auto K = static_cast<std::size_t>(options_.hyper.num_topics);
  const auto N = static_cast<std::size_t>(train_.num_tokens());
  const auto empty_or = [](std::size_t n, std::size_t full) { return n == 0 || n == full; };
  if (!empty_or(s.theta.size(), static_cast<std::size_t>(train_.num_docs()) * K) ||
      !empty_or(s.phi.size(), static_cast<std::size_t>(all_.vocab_size) * K) || s.z.size() != N ||
      (N == 0 ? !s.kept.empty() : s.kept.size() % N != 0))
    throw io::input_error(path + ": checkpoint does not fit its own options (sizes)");
  // The checkpoint holds the whole corpus's z, theta and kept sweeps, so any number of
  // processes continues it.
  if (!s.theta.empty())
    s.theta = rows(std::move(s.theta), part_.first_doc, part_.end_doc, options_.hyper.num_topics);
  s.z = rows(std::move(s.z), part_.first_token, part_.end_token, 1);
  std::vector<std::uint16_t> mine;
  for (std::size_t at = 0; at < s.kept.size(); at += N)
    mine.insert(mine.end(), s.kept.begin() + static_cast<std::ptrdiff_t>(at) + part_.first_token,
                s.kept.begin() + static_cast<std::ptrdiff_t>(at) + part_.end_token);
  s.kept = std::move(mine);
  try {
    sampler_ = std::make_unique<sampler>(chain_, std::move(s));
  } catch (
      const std::invalid_argument& e) {  // a chain that holds theta and phi, resumed without them
    throw io::input_error(path + ": checkpoint does not fit its own options: " + e.what());
  }
  history_ = std::move(saved.history);
}

std::uint32_t trainer::iteration() const { return sampler_->iteration(); }

iteration_report trainer::step() {
  iteration_report r;
  const std::uint64_t copied = sampler_->copied_bytes();
  r.seconds = sampler_->iterate();
  r.iteration = sampler_->iteration();
  const std::uint32_t i = r.iteration;
  r.log_likelihood = NAN;
  if ((options_.eval_every > 0 && i % options_.eval_every == 0) || i == options_.iterations)
    r.log_likelihood = evaluate().log_likelihood;
  call(events_.after_iteration, i);
  if (!events_.checkpoint_path.empty() && options_.checkpoint_every > 0 &&
      i % options_.checkpoint_every == 0)
    save(events_.checkpoint_path);
  r.copied_bytes =
      sampler_->copied_bytes() - copied;  // the checkpoint's copy counts in its iteration
  return r;
}

void trainer::run() {
  while (!done()) step();
}

metrics_record trainer::evaluate() {
  // Partial sums of every process, added on the root in the order one process adds them.
  // The log-likelihood's partial sums are computed where the state is; on a GPU build only
  // they, and phi for the held-out documents, come back to the host.
  metrics_record rec{iteration(), ordered_sum(group_.gather(sampler_->log_likelihood_partials())),
                     NAN};
  if (options_.holdout > 0) {
    const auto p = completion_partials(split_.test.view(), first_test_block_, end_test_block_,
                                       sampler_->current_phi(), options_.hyper, fold_);
    rec.perplexity =
        combine({group_.gather(p.log_likelihood), group_.gather(p.scored_tokens)}).perplexity;
  }
  if (group_.root()) {
    history_.push_back(rec);
    if (events_.evaluated) events_.evaluated(history_);
  }
  return rec;
}

double trainer::log_likelihood() {
  if (!history_.empty() && history_.back().iteration == iteration())
    return history_.back().log_likelihood;
  return ordered_sum(group_.gather(sampler_->log_likelihood_partials()));
}

// A checkpoint holds what the sampler holds: z alone where theta and phi are z's.
checkpoint trainer::snapshot() const {
  return {options_, corpus_file_, checksum_, gathered(sampler_->holds_model()), history_};
}

void trainer::save(const std::string& path) const {
  const checkpoint ck = snapshot();
  const std::uint32_t i = iteration();
  if (group_.root()) save_checkpoint(path, ck, [&] { call(events_.mid_checkpoint, i); });
  call(events_.after_checkpoint, i);
}

// The whole corpus's z, and with `model` its theta and phi, on the root (empty elsewhere).
state trainer::gathered(bool model) const {
  state whole;
  whole.iteration = sampler_->iteration();
  if (model) {
    const state& s = sampler_->current();
    whole.theta = group_.gather(s.theta);
    whole.phi = s.phi;
  }
  whole.z = group_.gather(sampler_->current_z());
  // Sweep by sweep (a process may hold no tokens, but every process takes part in each gather).
  const std::vector<std::uint16_t>& kept = sampler_->current_kept();
  const auto n = static_cast<std::ptrdiff_t>(sampler_->current_z().size());
  for (std::ptrdiff_t j = 0; j < static_cast<std::ptrdiff_t>(sampler_->kept_sweeps()); ++j) {
    const std::vector<std::uint16_t> sweep =
        group_.gather(std::vector<std::uint16_t>(kept.begin() + j * n, kept.begin() + (j + 1) * n));
    whole.kept.insert(whole.kept.end(), sweep.begin(), sweep.end());
  }
  return whole;
}

// One process writes theta and phi a chunk of rows at a time from the sampler: a gathered
// copy of theta, phi and z is a third of the peak memory at K = 1000, and a chain that makes
// them from z holds no copy at all.
trainer::model_rows trainer::model() {
  if (group_.size() == 1)
    return {[this](std::int64_t first, std::int64_t n, float* out) {
              sampler_->theta_rows(first, n, out);
            },
            [this](std::int64_t first, std::int64_t n, float* out) {
              sampler_->phi_rows(first, n, out);
            },
            nullptr};
  auto whole = std::make_shared<const state>(gathered(true));
  if (!group_.root()) return {{}, {}, whole};
  const auto rows_of = [K = std::int64_t{options_.hyper.num_topics}](const std::vector<float>& v) {
    return [&v, K](std::int64_t first, std::int64_t count, float* out) {
      std::copy(v.begin() + first * K, v.begin() + (first + count) * K, out);
    };
  };
  return {rows_of(whole->theta), rows_of(whole->phi), whole};
}

std::optional<topic_counts> trainer::counts() const {
  const int K = options_.hyper.num_topics;
  // One process reads its sampler's z and kept sweeps where they are (a copy of both was
  // about 110 MB of the peak on 20news at K = 10,000 with 4 pooled sweeps), with the chain's
  // grouping of the whole corpus's tokens by word.
  if (group_.size() == 1) {
    const std::vector<std::int32_t>& z = sampler_->current_z();
    const std::vector<std::uint16_t>& kept = sampler_->current_kept();
    return topic_counts(train_, {z.data(), z.size()}, {kept.data(), kept.size()}, K,
                        &chain_.index());
  }
  state topics = gathered(false);
  if (!group_.root()) return std::nullopt;
  return topic_counts(train_, std::move(topics), K);
}

const std::vector<std::int32_t>& trainer::z() { return sampler_->current_z(); }

}  // namespace butterfly::lda
