// lda::sampler: the state, the z draw, the steps' one place to run and their timings; the
// estimator's own steps are its unit's (estimator_unit.hpp), the host's copies of the state
// sampler_model.cpp's.
#include "butterfly/lda/sampler.hpp"

#include <cxxabi.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <utility>

#include "butterfly/lda/run_steps.hpp"
#include "sampler_parts.hpp"

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
  for (std::size_t at; (at = name.find(prefix)) != std::string::npos;)
    name.erase(at, prefix.size());
  return name;
}

// Whether the sampler keeps theta, phi and n_mk: every chain but collapsed's without a burn-in,
// whose iterations read only z and the tables made from it (collapsed.hpp), and whose theta
// and phi are functions of z, made where they are read. Those three arrays are most of the
// memory of a large model (85 % of the peak at K = 1000).
bool holds_model(const chain& c) {
  return !model_from_z(c.options().estimator, c.options().burn_in);
}

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

}  // namespace

sampler::sampler(const chain& c, const detail::executor& where)
    : sampler(c, sized_state(c), where, 0) {
  steps::initial_topics init{};
  init.seed = c_.seed();
  init.first_token = static_cast<std::uint64_t>(c_.part().first_token);
  init.K = c_.hyper().num_topics;
  init.start_topics = c_.options().start_topics;
  init.offsets = p_->a.offsets.data();
  init.z = p_->a.z.data();
  run(init, c_.part().num_docs());
  p_->unit->estimate(0);
  p_->changed();
}

sampler::sampler(const chain& c, state resumed, const detail::executor& where)
    : sampler(c, std::move(resumed), where, 0) {
  // A sweeping chain's next iteration reads the counts of z; theta and phi are theirs.
  if (p_->unit->sweeping()) p_->unit->estimate(p_->a.iteration);
}

sampler::sampler(const chain& c, state resumed, const detail::executor& where, int)
    : c_(c), b_(where) {
  detail::require_available(b_, "lda::sampler");
  const std::int64_t K = c_.hyper().num_topics, M = c_.part().num_docs(), V = c_.docs().vocab_size;
  const std::int64_t N = c_.part().num_tokens();
  // Where the sampler makes theta and phi from z, a state may come without them (a
  // checkpoint holds what the sampler holds); given, they are z's and are dropped.
  const bool from_z = !lda::holds_model(c_);
  const auto fits = [from_z](std::size_t n, std::int64_t want) {
    return n == size_of(want) || (from_z && n == 0);
  };
  if (!fits(resumed.theta.size(), M * K) || !fits(resumed.phi.size(), V * K) ||
      resumed.z.size() != size_of(N))
    throw std::invalid_argument(
        "lda::sampler: the state has " + std::to_string(resumed.theta.size()) + " theta, " +
        std::to_string(resumed.phi.size()) + " phi and " + std::to_string(resumed.z.size()) +
        " z entries; the chain's shard needs " + std::to_string(M * K) + ", " +
        std::to_string(V * K) + " and " + std::to_string(N) +
        (from_z ? " (or no theta and phi)" : ""));
  if (from_z) {
    resumed.theta = {};
    resumed.phi = {};
  }
  std::vector<std::uint16_t> kept = std::move(resumed.kept);
  p_ = std::make_unique<parts>(*this, std::move(resumed));
  const std::uint32_t i = p_->a.iteration;
  if (kept.size() != p_->pool.kept_by(i) * size_of(N))
    throw std::invalid_argument("lda::sampler: the state has " + std::to_string(kept.size()) +
                                " kept topics; after iteration " + std::to_string(i) +
                                " the chain pools " + std::to_string(p_->pool.kept_by(i)) +
                                " earlier sweeps of " + std::to_string(N) + " tokens");
  if (!kept.empty())
    b_.copy_to_device(p_->pool.kept().data(), kept.data(), kept.size() * sizeof(std::uint16_t));
  if (p_->unit->sweeps(1)) return;  // sweeps only
  draw_options& o = p_->draw;
  o.method = c_.options().method;
  o.width = c_.options().width;
  o.seed = c_.seed();
  o.first_token = static_cast<std::uint64_t>(c_.part().first_token);
  o.first_document = c_.part().first_doc;  // keeps each document on its whole-corpus lane
  // theta and phi are floored at probability_floor and come from Dirichlets: positive and
  // finite by construction, so checking them every iteration would only cost time.
  o.validate = false;
  // The checks and the plan read the host corpus; the kernels read the arrays in kernel memory.
  p_->call = detail::prepare(
      b_, "lda::sampler",
      {span<const float>(nullptr, p_->a.host.theta.size()),
       span<const float>(nullptr, p_->a.host.phi.size()), c_.hyper().num_topics,
       c_.index().doc_offsets, c_.index().words, span<std::int32_t>(nullptr, p_->a.host.z.size())},
      o);
  // Uploaded now, so that the iterations copy nothing.
  if (p_->call.plan) b_.place(p_->call.plan);
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
    name = std::visit([](const auto& step) { return name_of(step); },
                      static_cast<const steps::any::variant&>(s));
    step_order_.push_back(s.index());
  }
  total += seconds;
}

std::vector<std::pair<std::string, double>> sampler::step_seconds() const {
  std::vector<std::pair<std::string, double>> out;
  for (const std::size_t i : step_order_) out.push_back(step_seconds_[i]);
  return out;
}

std::uint32_t sampler::iteration() const { return p_->a.iteration; }

bool sampler::holds_model() const { return p_->a.holds; }

std::uint64_t sampler::copied_bytes() const { return b_.copied_bytes(); }

iteration_seconds sampler::iterate() {
  parts& p = *p_;
  chain_arrays& a = p.a;
  iteration_seconds sec;
  const auto t0 = std::chrono::steady_clock::now();
  draw_options& o = p.draw;
  o.iteration = a.iteration + 1;
  if (p.unit->sweeps(o.iteration)) {
    p.unit->sweep(o.iteration);
  } else if (!p.call.empty()) {
    detail::launch(b_, "lda::sampler", p.call,
                   {span<const float>(a.theta.data(), a.host.theta.size()),
                    span<const float>(a.phi.data(), a.host.phi.size()), c_.hyper().num_topics,
                    span<const std::int64_t>(a.offsets.data(), c_.index().doc_offsets.size()),
                    span<const std::int32_t>(a.words.data(), p.call.src.tokens()),
                    span<std::int32_t>(a.z.data(), a.host.z.size())},
                   o, b_.kernel_memory());
  }
  sec.z_draw = seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  a.iteration = o.iteration;
  p.changed();
  // After a pooled sweep (sampler_options::average): its topics, for the model of the last.
  if (p.pool.keep(p.steps, a.z.data(), a.iteration)) p.kept_stale = true;
  sec.combine = p.unit->estimate(a.iteration);
  sec.rest = seconds_since(t1) - sec.combine;
  return sec;
}

std::vector<std::int32_t> sampler::document_topic_counts() const {
  std::vector<std::int32_t> out;
  const chain_arrays& a = p_->a;
  if (a.n_mk.size() != 0) {
    a.n_mk.copy_to(out);
    return out;
  }
  // Not kept (collapsed without a burn-in): counted from z now.
  state_array<std::int32_t> n_mk(b_, size_of(c_.part().num_docs() * c_.hyper().num_topics));
  p_->steps.count_topics(a.document_rows(n_mk.data()), c_.index().doc_offsets.data(),
                         c_.part().num_docs());
  n_mk.copy_to(out);
  return out;
}

std::vector<std::int32_t> sampler::word_topic_counts() const {
  std::vector<std::int32_t> out;
  const chain_arrays& a = p_->a;
  if (a.n_wk.size() != 0) {
    a.n_wk.copy_to(out);
    return out;
  }
  // Not kept (collapsed in one process): counted from z now.
  state_array<std::int32_t> n_wk(b_, size_of(c_.docs().vocab_size * c_.hyper().num_topics));
  p_->steps.count_topics(a.word_rows(n_wk.data()), c_.index().word_offsets.data(),
                         c_.docs().vocab_size);
  n_wk.copy_to(out);
  return out;
}

}  // namespace butterfly::lda
