#include "butterfly/lda/sampler.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <typeinfo>
#include <stdexcept>
#include <string>
#include <utility>

#include "butterfly/detail/draw.hpp"
#include "butterfly/detail/kernel_array.hpp"
#include "butterfly/lda/run_steps.hpp"
#include "butterfly/lda/steps.hpp"

namespace butterfly::lda {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A step's type as written in steps.hpp ("topic_counts", "column_partials<int, long>").
template <class Step>
std::string name_of(const Step&) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(typeid(Step).name(), nullptr, nullptr, &status), std::free);
  std::string name = status == 0 ? demangled.get() : typeid(Step).name();
  const std::string prefix = "butterfly::lda::steps::";
  for (std::size_t at; (at = name.find(prefix)) != std::string::npos;) name.erase(at, prefix.size());
  return name;
}

using detail::kernel_array;

using detail::mirror;

std::size_t size_of(std::int64_t n) { return static_cast<std::size_t>(n); }

// The estimators whose z is drawn by document sweeps after the burn-in.
bool sweeping(estimator e) { return e == estimator::collapsed || e == estimator::mh; }

// Whether the sampler keeps theta, phi and n_mk: every chain but collapsed's without a burn-in,
// whose iterations read only z and the tables made from it (collapsed.hpp), and whose theta
// and phi are functions of z, made where they are read (model_rows, likelihood_blocks).
// Those three arrays were 85 % of the peak memory at K = 1000.
bool holds_model(const chain& c) { return !model_from_z(c.options().estimator, c.options().burn_in); }

// Documents that collapsed_documents sweeps at once, each with its slot of scratch rows
// (16 K bytes): on the host enough to keep every thread busy between the batches' joins, on
// a device as many as 1 GiB holds (a thread per document, so a batch should fill the device).
// The bits do not depend on it: documents are independent within a sweep.
std::int64_t sweep_slots(const detail::executor& b, int K, std::int64_t docs) {
  const std::int64_t slot_bytes = std::int64_t{K} * (4 + 4 + 8) + steps::set_words(K) * 8;
  const std::int64_t n =
      b.kernel_memory() == detail::memory::device ? (std::int64_t{1} << 30) / slot_bytes : 256 * std::int64_t{b.threads()};
  return std::max<std::int64_t>(1, std::min(n, docs));
}

}  // namespace

struct sampler::arrays {
  arrays(const chain& c, const detail::executor& b, state&& st)
      : host(std::move(st)),
        iteration(host.iteration),
        theta(b, host.theta.data(), host.theta.size()),
        phi(b, host.phi.data(), host.phi.size()),
        z(b, host.z.data(), host.z.size()),
        offsets(b, c.local_offsets_.data(), c.local_offsets_.size()),
        words(b, c.docs_.words.data() + c.part_.first_token, size_of(c.part_.num_tokens())),
        word_offsets(b, c.word_offsets_.data(), c.word_offsets_.size()),
        word_tokens(b, c.word_tokens_.data(), c.word_tokens_.size()),
        holds(lda::holds_model(c)),
        n_mk(b, holds ? size_of(c.part_.num_docs() * c.h_.num_topics) : 0),
        n_wk(b, dense_word_counts(c) ? size_of(c.docs_.vocab_size * c.h_.num_topics) : 0),
        chunks((c.docs_.vocab_size + steps::word_chunk - 1) / steps::word_chunk),
        count_partial(b, c.how_.estimator != estimator::sample ? size_of(chunks * c.h_.num_topics) : 0),
        sum_partial(b, c.how_.estimator == estimator::sample ? size_of(chunks * c.h_.num_topics) : 0),
        scale(b, size_of(c.h_.num_topics)),
        g_theta(b, c.how_.estimator == estimator::sample ? n_mk.size() : 0),
        g_phi(b, c.how_.estimator == estimator::sample ? n_wk.size() : 0),
        likelihood(b, size_of((c.part_.num_docs() + likelihood_block - 1) / likelihood_block)),
        totals(b, lda::sweeping(c.how_.estimator) ? size_of(c.h_.num_topics) : 0),
        gathered(b, collapsed(c) ? host.z.size() : 0),
        slots(collapsed(c) ? sweep_slots(b, c.h_.num_topics, c.part_.num_docs()) : 0),
        doc_counts(b, size_of(slots * c.h_.num_topics)),
        picks(b, doc_counts.size()),
        weights(b, doc_counts.size()),
        doc_bits(b, size_of(slots * steps::set_words(c.h_.num_topics))),
        word_bits(b, collapsed(c) ? size_of(c.docs_.vocab_size * steps::set_words(c.h_.num_topics)) : 0),
        scale_sum(b, collapsed(c) ? size_of(c.h_.num_topics) : 0),
        word_topic_offsets_host(word_topic_places(c)),
        word_topic_offsets(b, word_topic_offsets_host.data(), word_topic_offsets_host.size()),
        word_topic_list(b, word_topic_offsets_host.empty() ? 0 : size_of(word_topic_offsets_host.back())),
        word_topic_counts(b, collapsed(c) ? word_topic_list.size() : 0),
        word_sums(b, word_topic_counts.size()),
        likelihood_counts(b, holds ? 0 : likelihood.size() * size_of(c.h_.num_topics)),
        likelihood_rows(b, likelihood_counts.size()),
        likelihood_bits(b, holds ? 0 : likelihood.size() * size_of(steps::set_words(c.h_.num_topics))),
        word_gaps(b, holds ? 0 : size_of(c.docs_.vocab_size)),
        pooled_at(pooled_sweeps(c.how_)),
        kept(b, pooled_at.size() * host.z.size()),
        pooled_scale(b, pooled_at.empty() ? 0 : size_of(c.h_.num_topics)) {}

  static bool collapsed(const chain& c) { return c.how_.estimator == estimator::collapsed; }
  // Whether the iteration keeps the V x K n_wk: every estimator but collapsed, whose tables
  // come from z in one process (word_buckets); with a count combiner, the combined counts.
  static bool dense_word_counts(const chain& c) { return !collapsed(c) || c.combine_; }

  // estimator::mh: where each word's topics go in word_topics (V + 1), by the number of tokens
  // of each word in the counts the sweeps read (the shard's, or with a count combiner the
  // whole corpus's); estimator::collapsed: where word_buckets' entries go, as many places as
  // the word can have topics, min(its tokens, K).
  static std::vector<std::int64_t> word_topic_places(const chain& c) {
    if (!lda::sweeping(c.how_.estimator)) return {};
    if (!c.combine_ && !collapsed(c)) return c.word_offsets_;
    std::vector<std::int64_t> offsets(size_of(c.docs_.vocab_size + 1), 0);
    for (const std::int32_t w : c.docs_.words) ++offsets[size_of(w) + 1];
    const std::int64_t K = c.h_.num_topics;
    if (collapsed(c))
      for (std::int64_t& n : offsets) n = n < K ? n : K;
    for (std::size_t w = 1; w < offsets.size(); ++w) offsets[w] += offsets[w - 1];
    return offsets;
  }

  // The state on the host: on host memory the arrays the kernels work on, on device memory
  // the copy that current() refreshes when the kernels have changed the state since.
  state host;
  bool theta_stale = false, phi_stale = false, z_stale = false;
  void changed() { theta_stale = phi_stale = z_stale = true; }
  std::uint32_t iteration;
  mirror<float> theta, phi;  // empty where !holds
  mirror<std::int32_t> z;
  mirror<const std::int64_t> offsets;
  mirror<const std::int32_t> words;
  mirror<const std::int64_t> word_offsets, word_tokens;
  bool holds;                             // holds_model
  kernel_array<std::int32_t> n_mk, n_wk;  // n_mk empty where !holds, n_wk where !dense_word_counts
  std::int64_t chunks;
  kernel_array<std::int64_t> count_partial;  // estimator::mean: n_k per word chunk
  kernel_array<double> sum_partial;          // estimator::sample: column sums per word chunk
  kernel_array<double> scale;
  kernel_array<double> g_theta, g_phi;       // estimator::sample: the Gamma variates
  kernel_array<double> likelihood;           // per block of likelihood_block documents
  // estimator::collapsed and mh: n_k. collapsed (lda/collapsed.hpp): word_buckets' room for
  // the topics gathered by word (one per token); the slots of the documents swept at once
  // (their counts, X's topics and running sums, topic sets); the words' topic sets; the
  // running sums of scale.
  kernel_array<std::int64_t> totals;
  kernel_array<std::int32_t> gathered;
  std::int64_t slots;
  kernel_array<std::int32_t> doc_counts, picks;
  kernel_array<double> weights;
  kernel_array<std::uint64_t> doc_bits, word_bits;
  kernel_array<double> scale_sum;
  // estimator::mh: the words' topics (word_topics) and their places; collapsed: the words'
  // entries (word_buckets: topics, counts, running sums) and their places.
  std::vector<std::int64_t> word_topic_offsets_host;
  mirror<const std::int64_t> word_topic_offsets;
  kernel_array<std::int32_t> word_topic_list, word_topic_counts;
  kernel_array<double> word_sums;
  // Where !holds: likelihood_blocks' scratch rows (K counts, K floats, a topic set per block)
  // and the words' gaps (word_gaps).
  kernel_array<std::int32_t> likelihood_counts;
  kernel_array<float> likelihood_rows;
  kernel_array<std::uint64_t> likelihood_bits;
  kernel_array<double> word_gaps;
  // sampler_options::average: the iterations whose z the model pools, their topics as they
  // are run (sweep j at j N), and the pooled sweeps' scale (1 / (pooled n_k + V prior)) of
  // the iteration scale_at (0: none yet).
  std::vector<std::uint32_t> pooled_at;
  kernel_array<std::uint16_t> kept;
  kernel_array<double> pooled_scale;
  std::uint32_t scale_at = 0;
  bool kept_stale = false;
  // The pooled sweeps run by iteration i, and those pooled with z after it (those before it).
  std::size_t kept_by(std::uint32_t i) const {
    return static_cast<std::size_t>(std::upper_bound(pooled_at.begin(), pooled_at.end(), i) - pooled_at.begin());
  }
  steps::pooled_topics pooled() const {
    const auto before = std::lower_bound(pooled_at.begin(), pooled_at.end(), iteration) - pooled_at.begin();
    return {kept.data(), static_cast<int>(before), static_cast<std::int64_t>(host.z.size())};
  }
  // swept: n_mk is that of z (mh's sweep keeps it); tables_valid: the sweep's tables
  // (word_buckets and scale_sums, or word_topics) are those of the counts.
  bool swept = false, model_stale = false, tables_valid = false;
  // The z draw, checked and planned once: the warp plan is uploaded once and cached by the
  // backend, and the kernels read the arrays above in place.
  draw_options draw;
  detail::topics_call call;
};

namespace {

state sized_state(const chain& c) {
  const std::int64_t K = c.hyper().num_topics;
  state st;
  if (holds_model(c)) {
    st.theta.resize(size_of(c.part().num_docs() * K));
    st.phi.resize(size_of(c.docs().vocab_size * K));
  }
  st.z.resize(size_of(c.part().num_tokens()));
  return st;
}

// Throws std::invalid_argument unless [first, first + count) lies in [0, rows).
void check_rows(const char* fn, std::int64_t first, std::int64_t count, std::int64_t rows) {
  if (first < 0 || count < 0 || first > rows || count > rows - first)
    throw std::invalid_argument("lda::sampler::" + std::string(fn) + ": rows [" + std::to_string(first) + ", " +
                                std::to_string(first) + " + " + std::to_string(count) + ") outside the " +
                                std::to_string(rows) + " rows");
}

}  // namespace

sampler::sampler(const chain& c, const detail::executor& where) : sampler(c, sized_state(c), where, 0) {
  const steps::initial_topics init{c_.seed_, static_cast<std::uint64_t>(c_.part_.first_token), c_.h_.num_topics,
                                   c_.how_.start_topics, a_->offsets.data(), a_->z.data()};
  run(init, c_.part_.num_docs());
  estimate(0);
  a_->changed();
}

sampler::sampler(const chain& c, state resumed, const detail::executor& where)
    : sampler(c, std::move(resumed), where, 0) {
  // A sweeping chain's next iteration reads the counts of z; theta and phi are theirs.
  if (sweeping()) estimate(a_->iteration);
}

sampler::sampler(const chain& c, state resumed, const detail::executor& where, int) : c_(c), b_(where) {
  detail::require_available(b_, "lda::sampler");
  const std::int64_t K = c_.h_.num_topics;
  // Where the sampler makes theta and phi from z, a state may come without them (a
  // checkpoint holds what the sampler holds); given, they are z's and are dropped.
  const bool from_z = !lda::holds_model(c_);
  const auto fits = [from_z](std::size_t n, std::int64_t want) { return n == size_of(want) || (from_z && n == 0); };
  if (!fits(resumed.theta.size(), c_.part_.num_docs() * K) || !fits(resumed.phi.size(), c_.docs_.vocab_size * K) ||
      resumed.z.size() != size_of(c_.part_.num_tokens()))
    throw std::invalid_argument("lda::sampler: the state has " + std::to_string(resumed.theta.size()) + " theta, " +
                                std::to_string(resumed.phi.size()) + " phi and " +
                                std::to_string(resumed.z.size()) + " z entries; the chain's shard needs " +
                                std::to_string(c_.part_.num_docs() * K) + ", " +
                                std::to_string(c_.docs_.vocab_size * K) + " and " +
                                std::to_string(c_.part_.num_tokens()) + (from_z ? " (or no theta and phi)" : ""));
  if (from_z) {
    resumed.theta = {};
    resumed.phi = {};
  }
  std::vector<std::uint16_t> kept = std::move(resumed.kept);
  a_ = std::make_unique<arrays>(c_, b_, std::move(resumed));
  if (kept.size() != a_->kept_by(a_->iteration) * a_->host.z.size())
    throw std::invalid_argument("lda::sampler: the state has " + std::to_string(kept.size()) +
                                " kept topics; after iteration " + std::to_string(a_->iteration) + " the chain pools " +
                                std::to_string(a_->kept_by(a_->iteration)) + " earlier sweeps of " +
                                std::to_string(a_->host.z.size()) + " tokens");
  if (!kept.empty()) b_.copy_to_device(a_->kept.data(), kept.data(), kept.size() * sizeof(std::uint16_t));
  if (sweeps(1)) return;  // sweeps only
  draw_options& o = a_->draw;
  o.method = c_.how_.method;
  o.width = c_.how_.width;
  o.seed = c_.seed_;
  o.first_token = static_cast<std::uint64_t>(c_.part_.first_token);
  o.first_document = c_.part_.first_doc;  // keeps each document on its whole-corpus lane
  // theta and phi are floored at probability_floor and come from Dirichlets: positive and
  // finite by construction, so checking them every iteration would only cost time.
  o.validate = false;
  // The checks and the plan read the host corpus; the kernels read the arrays in kernel memory.
  const span<const std::int32_t> host_words(c_.docs_.words.data() + c_.part_.first_token,
                                            size_of(c_.part_.num_tokens()));
  a_->call = detail::prepare(b_, "lda::sampler",
                             {span<const float>(nullptr, a_->host.theta.size()),
                              span<const float>(nullptr, a_->host.phi.size()), c_.h_.num_topics,
                              c_.local_offsets_, host_words, span<std::int32_t>(nullptr, a_->host.z.size())},
                             o);
  // Uploaded now, so that the iterations copy nothing.
  if (a_->call.plan) b_.place(a_->call.plan);
}

sampler::~sampler() = default;

// On device memory the steps are the device backend's kernels; on host memory, host loops
// over the executor's threads (run_steps.hpp): the executor picks.
void sampler::run(const steps::any& s, std::int64_t n) const {
  const auto t0 = std::chrono::steady_clock::now();
  b_.run(steps::step_run(s, n));
  const double seconds = seconds_since(t0);
  if (step_seconds_.empty()) step_seconds_.resize(std::variant_size_v<steps::any::variant>);
  auto& [name, total] = step_seconds_[s.index()];
  if (name.empty()) {
    name = std::visit([](const auto& step) { return name_of(step); }, static_cast<const steps::any::variant&>(s));
    step_order_.push_back(s.index());
  }
  total += seconds;
}

std::vector<std::pair<std::string, double>> sampler::step_seconds() const {
  std::vector<std::pair<std::string, double>> out;
  for (const std::size_t i : step_order_) out.push_back(step_seconds_[i]);
  return out;
}

// The counts: on host memory the row forms (one element per row or chunk walks its tokens,
// the faster shape for a CPU); on device memory zeroed, then one element per token with an
// integer atomic add (steps.hpp), the same integers, so that no thread walks a long row alone.
void sampler::count_topics(const steps::topic_counts& s, const std::int64_t* host_offsets,
                           std::int64_t rows) const {
  if (b_.kernel_memory() != detail::memory::device) return run(s, rows);
  if (rows <= 0) return;
  run(steps::zero_entries<std::int32_t>{s.counts}, rows * s.K);
  run(steps::token_topic_counts{s.offsets, rows, s.tokens, s.z, s.K, s.counts, s.pooled},
      host_offsets[rows] - host_offsets[0]);
  // mh's lists of the words' topics: the entries topic_counts lists, from the counted rows.
  if (s.listed) run(steps::word_topics{s.offsets, s.counts, s.K, s.listed}, rows);
}

void sampler::count_topics(const steps::token_partials& s) const {
  if (b_.kernel_memory() != detail::memory::device) return run(s, s.chunks);
  run(steps::zero_entries<std::int64_t>{s.partial}, s.chunks * s.K);
  run(steps::token_partial_counts{s.z, s.tokens, s.chunks, s.K, s.partial, s.pooled}, s.tokens);
}

std::uint32_t sampler::iteration() const { return a_->iteration; }

bool sampler::holds_model() const { return a_->holds; }

std::uint64_t sampler::copied_bytes() const { return b_.copied_bytes(); }

iteration_seconds sampler::iterate() {
  iteration_seconds sec;
  const auto t0 = std::chrono::steady_clock::now();
  draw_options& o = a_->draw;
  o.iteration = a_->iteration + 1;
  if (sweeps(o.iteration)) {
    sweep(o.iteration);
  } else if (!a_->call.empty()) {
    arrays& a = *a_;
    detail::launch(b_, "lda::sampler", a.call,
                   {span<const float>(a.theta.data(), a.host.theta.size()),
                    span<const float>(a.phi.data(), a.host.phi.size()), c_.h_.num_topics,
                    span<const std::int64_t>(a.offsets.data(), c_.local_offsets_.size()),
                    span<const std::int32_t>(a.words.data(), a.call.src.tokens()),
                    span<std::int32_t>(a.z.data(), a.host.z.size())},
                   o, b_.kernel_memory());
  }
  sec.z_draw = seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  a_->iteration = o.iteration;
  a_->changed();
  keep();
  sec.combine = estimate(a_->iteration);
  sec.rest = seconds_since(t1) - sec.combine;
  return sec;
}

// After a pooled sweep (sampler_options::average): its topics, for the model of the last.
void sampler::keep() {
  arrays& a = *a_;
  const auto at = std::find(a.pooled_at.begin(), a.pooled_at.end(), a.iteration);
  if (at == a.pooled_at.end()) return;
  const std::int64_t N = c_.part_.num_tokens();
  run(steps::keep_topics{a.z.data(), a.kept.data() + (at - a.pooled_at.begin()) * N}, N);
  a.kept_stale = true;
}

bool sampler::sweeps(std::uint32_t iteration) const {
  return sweeping() && iteration > c_.how_.burn_in;
}

bool sampler::sweeping() const { return lda::sweeping(c_.how_.estimator); }

// Every z is a valid topic here: theta and phi entries are floored at probability_floor, so
// no token's products are all zero and the draw never writes -1.
// mh's sweep keeps n_mk up to date itself; after anything else it is counted here, where the
// sampler holds it.
// When the next iteration is a sweep, theta and phi wait until they are asked for.
double sampler::estimate(std::uint32_t iteration) {
  arrays& a = *a_;
  const int K = c_.h_.num_topics;
  const std::int64_t M = c_.part_.num_docs(), V = c_.docs_.vocab_size;
  const std::int64_t entries = a.chunks * K;
  double combine_seconds = 0;
  if (!a.swept && a.holds)
    count_topics(steps::topic_counts{a.offsets.data(), nullptr, a.z.data(), K, a.n_mk.data()},
                 c_.local_offsets_.data(), M);
  a.swept = false;
  // In one process mh's lists come with the counts; with a combiner, from the combined
  // counts when the sweep needs them (word_topic_places).
  const bool lists = c_.how_.estimator == estimator::mh && !c_.combine_ && sweeps(iteration + 1);
  if (a.n_wk.size() != 0)
    count_topics(steps::topic_counts{a.word_offsets.data(), a.word_tokens.data(), a.z.data(), K, a.n_wk.data(),
                                     lists ? a.word_topic_list.data() : nullptr},
                 c_.word_offsets_.data(), V);
  a.tables_valid = lists;
  if (c_.combine_) {
    // Several processes: their counts are summed on the host (MPI_Allreduce); on device
    // memory that stages n_wk through the host and back.
    const auto t0 = std::chrono::steady_clock::now();
    a.n_wk.update_on_host(c_.combine_);
    combine_seconds = seconds_since(t0);
  }
  if (c_.how_.estimator != estimator::sample) {
    if (c_.combine_)
      run(steps::column_partials<std::int32_t, std::int64_t>{a.n_wk.data(), V, K, a.count_partial.data()}, entries);
    else
      count_topics(steps::token_partials{a.z.data(), c_.part_.num_tokens(), a.chunks, K, a.count_partial.data()});
    run(steps::mean_scale{a.count_partial.data(), a.chunks, K, static_cast<double>(V) * c_.h_.beta,
                          a.scale.data(), sweeping() ? a.totals.data() : nullptr},
        K);
    if (sweeps(iteration + 1)) a.model_stale = true;  // theta and phi when asked for (refresh_model)
    else posterior_means();
    return combine_seconds;
  }
  const rng_key theta_key{c_.seed_, iteration, rng::stream::theta};
  run(steps::gamma_entries{c_.h_.alpha, a.n_mk.data(), theta_key, static_cast<std::uint64_t>(c_.part_.first_doc) * K,
                              a.g_theta.data()},
         M * K);
  run(steps::dirichlet_rows{a.g_theta.data(), K, a.theta.data()}, M);
  const rng_key phi_key{c_.seed_, iteration, rng::stream::phi};
  run(steps::gamma_entries{c_.h_.beta, a.n_wk.data(), phi_key, 0, a.g_phi.data()}, V * K);
  run(steps::column_partials<double, double>{a.g_phi.data(), V, K, a.sum_partial.data()}, entries);
  run(steps::sum_scale{a.sum_partial.data(), a.chunks, K, a.scale.data()}, K);
  run(steps::dirichlet_columns{a.g_phi.data(), a.scale.data(), K, 1.0f / static_cast<float>(V), a.phi.data()},
         V * K);
  return combine_seconds;
}

// The sweep's tables of the counts of z: mh's word_topics, collapsed's word_buckets and
// scale_sums (also what phi is made of where there is no n_wk).
void sampler::make_tables() {
  arrays& a = *a_;
  if (a.tables_valid) return;
  const int K = c_.h_.num_topics;
  const std::int64_t V = c_.docs_.vocab_size;
  if (c_.how_.estimator == estimator::mh) {
    run(steps::word_topics{a.word_topic_offsets.data(), a.n_wk.data(), K, a.word_topic_list.data()}, V);
  } else {
    run(steps::word_buckets{a.n_wk.size() == 0 ? nullptr : a.n_wk.data(), a.word_offsets.data(),
                            a.word_tokens.data(), a.z.data(), a.gathered.data(), a.scale.data(),
                            a.word_topic_offsets.data(), K, a.word_bits.data(), a.word_topic_list.data(),
                            a.word_topic_counts.data(), a.word_sums.data()},
        V);
    run(steps::scale_sums{a.scale.data(), K, a.scale_sum.data()}, 1);
  }
  a.tables_valid = true;
}

void sampler::sweep(std::uint32_t iteration) {
  arrays& a = *a_;
  const int K = c_.h_.num_topics;
  const bool mh = c_.how_.estimator == estimator::mh;
  make_tables();
  const double prior_total = static_cast<double>(c_.docs_.vocab_size) * c_.h_.beta;
  const auto first_token = static_cast<std::uint64_t>(c_.part_.first_token);
  const std::int64_t M = c_.part_.num_docs();
  if (mh) {
    run(steps::mh_documents{a.offsets.data(), a.words.data(), a.n_wk.data(), a.word_topic_offsets.data(),
                            a.word_topic_list.data(), a.totals.data(), a.scale.data(), K, c_.h_.alpha, c_.h_.beta,
                            prior_total, c_.seed_, first_token, iteration, a.z.data(), a.n_mk.data()},
        M);
    a.swept = true;
    return;
  }
  for (std::int64_t first = 0; first < M; first += a.slots)
    run(steps::collapsed_documents{a.offsets.data(), a.words.data(), a.word_topic_offsets.data(), a.word_bits.data(),
                                   a.word_topic_list.data(), a.word_topic_counts.data(), a.word_sums.data(),
                                   a.totals.data(), a.scale.data(), a.scale_sum.data(), K, c_.h_.alpha, c_.h_.beta,
                                   prior_total, c_.seed_, first_token, iteration, a.z.data(), first,
                                   a.doc_counts.data(), a.doc_bits.data(), a.picks.data(), a.weights.data()},
        std::min(a.slots, M - first));
}

// theta and phi, the posterior means of n_mk and n_wk (with scale), in the kernels' arrays;
// where the sampler holds neither, the tables they are made from.
void sampler::posterior_means() {
  arrays& a = *a_;
  const int K = c_.h_.num_topics;
  if (!a.holds) return make_tables();
  run(steps::posterior_mean_rows{c_.h_.alpha, a.n_mk.data(), K, a.theta.data()}, c_.part_.num_docs());
  if (a.n_wk.size() != 0) {
    run(steps::posterior_mean_entries{a.n_wk.data(), a.scale.data(), K, c_.h_.beta, a.phi.data()},
        c_.docs_.vocab_size * K);
    return;
  }
  make_tables();
  run(steps::posterior_mean_words{a.word_topic_offsets.data(), a.word_bits.data(), a.word_topic_list.data(),
                                  a.word_topic_counts.data(), a.scale.data(), K, c_.h_.beta, a.phi.data()},
      c_.docs_.vocab_size);
}

void sampler::refresh_model() {
  arrays& a = *a_;
  if (!a.model_stale) return;
  posterior_means();
  a.model_stale = false;
  // The kernels' arrays changed: the host's copies (a resumed state's, on a device) are old.
  a.theta_stale = a.phi_stale = true;
}

const state& sampler::current() {
  arrays& a = *a_;
  current_phi();
  if (a.theta_stale) {
    if (a.holds) {
      a.theta.download(a.host.theta.data());
    } else {
      a.host.theta.resize(size_of(c_.part_.num_docs() * c_.h_.num_topics));
      theta_rows(0, c_.part_.num_docs(), a.host.theta.data());
    }
  }
  current_z();
  current_kept();
  a.theta_stale = false;
  a.host.iteration = a.iteration;
  return a.host;
}

std::size_t sampler::kept_sweeps() const { return a_->kept_by(a_->iteration); }

const std::vector<std::uint16_t>& sampler::current_kept() {
  arrays& a = *a_;
  if (a.kept_stale || a.host.kept.size() != kept_sweeps() * a.host.z.size()) {
    a.host.kept.resize(kept_sweeps() * a.host.z.size());
    if (!a.host.kept.empty())
      b_.copy_to_host(a.host.kept.data(), a.kept.data(), a.host.kept.size() * sizeof(std::uint16_t));
  }
  a.kept_stale = false;
  return a.host.kept;
}

const std::vector<float>& sampler::current_phi() {
  arrays& a = *a_;
  refresh_model();
  if (a.phi_stale) {
    if (a.holds) {
      a.phi.download(a.host.phi.data());
    } else {
      a.host.phi.resize(size_of(c_.docs_.vocab_size * c_.h_.num_topics));
      phi_rows(0, c_.docs_.vocab_size, a.host.phi.data());
    }
  }
  a.phi_stale = false;
  return a.host.phi;
}

const std::vector<std::int32_t>& sampler::current_z() {
  arrays& a = *a_;
  if (a.z_stale) a.z.download(a.host.z.data());
  a.z_stale = false;
  return a.host.z;
}

// Rows [first, first + count) of an array with rows of K floats: copied from where the
// kernels keep it, or made by `make` into `out` on host memory and into a kernel array on
// device memory (then copied).
template <class Make>
void sampler::model_rows(const float* held, std::int64_t first, std::int64_t count, float* out, Make&& make) {
  const std::int64_t K = c_.h_.num_topics;
  if (count <= 0) return;
  refresh_model();
  if (a_->holds) {
    b_.copy_to_host(out, held + first * K, size_of(count * K) * sizeof(float));
    return;
  }
  if (b_.kernel_memory() == detail::memory::host) return make(out);
  kernel_array<float> rows(b_, size_of(count * K));
  make(rows.data());
  rows.copy_to(out);
}

void sampler::theta_rows(std::int64_t first, std::int64_t count, float* out) {
  check_rows("theta_rows", first, count, c_.part_.num_docs());
  arrays& a = *a_;
  const int K = c_.h_.num_topics;
  model_rows(a.theta.data(), first, count, out, [&](float* rows) {
    const steps::pooled_topics pooled = a.pooled();
    kernel_array<std::int32_t> counts(b_, size_of(count * K));
    count_topics(steps::topic_counts{a.offsets.data() + first, nullptr, a.z.data(), K, counts.data(), nullptr, pooled},
                 c_.local_offsets_.data() + first, count);
    run(steps::posterior_mean_rows{c_.h_.alpha * (pooled.sweeps + 1), counts.data(), K, rows}, count);
  });
}

void sampler::phi_rows(std::int64_t first, std::int64_t count, float* out) {
  check_rows("phi_rows", first, count, c_.docs_.vocab_size);
  arrays& a = *a_;
  const int K = c_.h_.num_topics;
  model_rows(a.phi.data(), first, count, out, [&](float* rows) {
    if (a.pooled().sweeps > 0) return pooled_phi_rows(first, count, rows);
    run(steps::posterior_mean_words{a.word_topic_offsets.data() + first, a.word_bits.data() + first * steps::set_words(K),
                                    a.word_topic_list.data(), a.word_topic_counts.data(), a.scale.data(), K,
                                    c_.h_.beta, rows},
        count);
  });
}

// phi_rows of a model that pools earlier sweeps: the posterior means of the pooled counts
// (the priors times the sweeps), rows of counts of the words' tokens in z and in each pooled
// sweep. With a count combiner the whole corpus's pooled counts are every process's summed
// (so every process makes its model rows together, as it iterates).
void sampler::pooled_phi_rows(std::int64_t first, std::int64_t count, float* rows) {
  arrays& a = *a_;
  const int K = c_.h_.num_topics;
  const std::int64_t V = c_.docs_.vocab_size;
  const steps::pooled_topics pooled = a.pooled();
  const double prior = c_.h_.beta * (pooled.sweeps + 1);
  const auto scale = [&](auto&& partials) {
    partials();
    run(steps::mean_scale{a.count_partial.data(), a.chunks, K, static_cast<double>(V) * prior, a.pooled_scale.data(),
                          nullptr},
        K);
  };
  if (c_.combine_) {
    kernel_array<std::int32_t> counts(b_, size_of(V * K));
    count_topics(
        steps::topic_counts{a.word_offsets.data(), a.word_tokens.data(), a.z.data(), K, counts.data(), nullptr, pooled},
        c_.word_offsets_.data(), V);
    counts.update_on_host(c_.combine_);
    scale([&] {
      run(steps::column_partials<std::int32_t, std::int64_t>{counts.data(), V, K, a.count_partial.data()}, a.chunks * K);
    });
    run(steps::posterior_mean_entries{counts.data() + first * K, a.pooled_scale.data(), K, prior, rows}, count * K);
    return;
  }
  // The scale once per iteration: the trainer asks for phi a chunk of rows at a time.
  if (a.scale_at != a.iteration) {
    scale([&] {
      count_topics(
          steps::token_partials{a.z.data(), c_.part_.num_tokens(), a.chunks, K, a.count_partial.data(), pooled});
    });
    a.scale_at = a.iteration;
  }
  kernel_array<std::int32_t> counts(b_, size_of(count * K));
  count_topics(steps::topic_counts{a.word_offsets.data() + first, a.word_tokens.data(), a.z.data(), K, counts.data(),
                                   nullptr, pooled},
               c_.word_offsets_.data() + first, count);
  run(steps::posterior_mean_entries{counts.data(), a.pooled_scale.data(), K, prior, rows}, count * K);
}

std::vector<double> sampler::log_likelihood_partials() {
  arrays& a = *a_;
  refresh_model();
  const int K = c_.h_.num_topics;
  steps::likelihood_blocks step{a.offsets.data(), a.words.data(), a.theta.data(), a.phi.data(), K,
                                c_.part_.num_docs(), likelihood_block, a.likelihood.data()};
  if (!a.holds) {
    step.theta = step.phi = nullptr;
    step.z = a.z.data();
    step.alpha = c_.h_.alpha;
    step.word_rows = {a.word_topic_offsets.data(), a.word_bits.data(), a.word_topic_list.data(),
                      a.word_topic_counts.data(), a.scale.data(), K, c_.h_.beta, nullptr};
    run(steps::word_gaps{step.word_rows, a.word_gaps.data()}, c_.docs_.vocab_size);
    step.gaps = a.word_gaps.data();
    step.counts = a.likelihood_counts.data();
    step.rows = a.likelihood_rows.data();
    step.bits = a.likelihood_bits.data();
  }
  run(step, static_cast<std::int64_t>(a.likelihood.size()));
  std::vector<double> out;
  a.likelihood.copy_to(out);
  return out;
}

state sampler::take() {
  current();
  return std::move(a_->host);
}

std::vector<std::int32_t> sampler::document_topic_counts() const {
  std::vector<std::int32_t> out;
  if (a_->n_mk.size() != 0) {
    a_->n_mk.copy_to(out);
    return out;
  }
  // Not kept (collapsed without a burn-in): counted from z now.
  const arrays& a = *a_;
  kernel_array<std::int32_t> n_mk(b_, size_of(c_.part_.num_docs() * c_.h_.num_topics));
  count_topics(steps::topic_counts{a.offsets.data(), nullptr, a.z.data(), c_.h_.num_topics, n_mk.data()},
               c_.local_offsets_.data(), c_.part_.num_docs());
  n_mk.copy_to(out);
  return out;
}

std::vector<std::int32_t> sampler::word_topic_counts() const {
  std::vector<std::int32_t> out;
  if (a_->n_wk.size() != 0) {
    a_->n_wk.copy_to(out);
    return out;
  }
  // Not kept (collapsed in one process): counted from z now.
  const arrays& a = *a_;
  kernel_array<std::int32_t> n_wk(b_, size_of(c_.docs_.vocab_size * c_.h_.num_topics));
  count_topics(
      steps::topic_counts{a.word_offsets.data(), a.word_tokens.data(), a.z.data(), c_.h_.num_topics, n_wk.data()},
      c_.word_offsets_.data(), c_.docs_.vocab_size);
  n_wk.copy_to(out);
  return out;
}

}  // namespace butterfly::lda
