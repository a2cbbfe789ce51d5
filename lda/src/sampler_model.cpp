// lda::sampler's model as the host reads it: current() and its parts copied back where the
// kernels changed them, rows of theta and phi, the log-likelihood's partial sums. Where the
// sampler holds no theta and phi (holds_model false), made from z where they are read.
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "sampler_parts.hpp"

namespace butterfly::lda {
namespace {

// Throws std::invalid_argument unless [first, first + count) lies in [0, rows).
void check_rows(const char* fn, std::int64_t first, std::int64_t count, std::int64_t rows) {
  if (first < 0 || count < 0 || first > rows || count > rows - first)
    throw std::invalid_argument("lda::sampler::" + std::string(fn) + ": rows [" +
                                std::to_string(first) + ", " + std::to_string(first) + " + " +
                                std::to_string(count) + ") outside the " + std::to_string(rows) +
                                " rows");
}

// io::write_npy asks for 16 MiB of rows at a time. Their counts' buffer is kept for the next
// call, so that its pages are cleared once rather than per call (fresh pages cost a third of
// theta.npy's time on 20news at K = 1000); a larger request (a whole theta) gets its own.
constexpr std::size_t kept_row_counts = std::size_t{1} << 22;

}  // namespace

void sampler::refresh_model() {
  // The kernels' arrays changed: the host's copies (a resumed state's, on a device) are old.
  if (p_->unit->refresh_model()) p_->theta_stale = p_->phi_stale = true;
}

const state& sampler::current() {
  parts& p = *p_;
  current_phi();
  if (p.theta_stale) {
    if (p.a.holds) {
      p.a.theta.download(p.a.host.theta.data());
    } else {
      p.a.host.theta.resize(size_of(c_.part().num_docs() * c_.hyper().num_topics));
      theta_rows(0, c_.part().num_docs(), p.a.host.theta.data());
    }
  }
  current_z();
  current_kept();
  p.theta_stale = false;
  p.a.host.iteration = p.a.iteration;
  return p.a.host;
}

std::size_t sampler::kept_sweeps() const { return p_->pool.kept_by(p_->a.iteration); }

const std::vector<std::uint16_t>& sampler::current_kept() {
  parts& p = *p_;
  std::vector<std::uint16_t>& kept = p.a.host.kept;
  if (p.kept_stale || kept.size() != kept_sweeps() * p.a.host.z.size()) {
    kept.resize(kept_sweeps() * p.a.host.z.size());
    if (!kept.empty())
      b_.copy_to_host(kept.data(), p.pool.kept().data(), kept.size() * sizeof(std::uint16_t));
  }
  p.kept_stale = false;
  return kept;
}

const std::vector<float>& sampler::current_phi() {
  parts& p = *p_;
  refresh_model();
  if (p.phi_stale) {
    if (p.a.holds) {
      p.a.phi.download(p.a.host.phi.data());
    } else {
      p.a.host.phi.resize(size_of(c_.docs().vocab_size * c_.hyper().num_topics));
      phi_rows(0, c_.docs().vocab_size, p.a.host.phi.data());
    }
  }
  p.phi_stale = false;
  return p.a.host.phi;
}

const std::vector<std::int32_t>& sampler::current_z() {
  parts& p = *p_;
  if (p.z_stale) p.a.z.download(p.a.host.z.data());
  p.z_stale = false;
  return p.a.host.z;
}

// Rows [first, first + count) of an array with rows of K floats: copied from where the
// kernels keep it, or made by `make` into `out` on host memory and into a kernel array on
// device memory (then copied).
template <class Make>
void sampler::model_rows(const float* held, std::int64_t first, std::int64_t count, float* out,
                         Make&& make) {
  const std::int64_t K = c_.hyper().num_topics;
  if (count <= 0) return;
  refresh_model();
  if (p_->a.holds) {
    b_.copy_to_host(out, held + first * K, size_of(count * K) * sizeof(float));
    return;
  }
  if (b_.kernel_memory() == detail::memory::host) return make(out);
  state_array<float> rows(b_, size_of(count * K));
  make(rows.data());
  rows.copy_to(out);
}

void sampler::theta_rows(std::int64_t first, std::int64_t count, float* out) {
  check_rows("theta_rows", first, count, c_.part().num_docs());
  parts& p = *p_;
  const int K = c_.hyper().num_topics;
  model_rows(p.a.theta.data(), first, count, out, [&](float* rows) {
    const steps::pooled_topics pooled = p.pool.pooled(p.a.iteration);
    const std::size_t n = size_of(count * K);
    std::optional<state_array<std::int32_t>> own;
    std::optional<state_array<std::int32_t>>& buffer = n <= kept_row_counts ? p.row_counts : own;
    if (!buffer || buffer->size() < n) buffer.emplace(b_, n);
    state_array<std::int32_t>& counts = *buffer;
    steps::topic_counts documents = p.a.document_rows(counts.data());
    documents.offsets += first;
    documents.pooled = pooled;
    p.steps.count_topics(documents, c_.index().doc_offsets.data() + first, count);
    run(steps::posterior_mean_rows{c_.hyper().alpha * (pooled.sweeps + 1), counts.data(), K, rows},
        count);
  });
}

void sampler::phi_rows(std::int64_t first, std::int64_t count, float* out) {
  check_rows("phi_rows", first, count, c_.docs().vocab_size);
  parts& p = *p_;
  model_rows(p.a.phi.data(), first, count, out, [&](float* rows) {
    if (p.pool.pooled(p.a.iteration).sweeps > 0)
      return p.pool.phi_rows(p.steps, p.a, p.a.iteration, first, count, rows);
    p.unit->phi_rows(first, count, rows);
  });
}

std::vector<double> sampler::log_likelihood_partials() {
  parts& p = *p_;
  refresh_model();
  steps::likelihood_blocks step{};
  step.offsets = p.a.offsets.data();
  step.words = p.a.words.data();
  step.theta = p.a.theta.data();
  step.phi = p.a.phi.data();
  step.K = c_.hyper().num_topics;
  step.docs = c_.part().num_docs();
  step.block = likelihood_block;
  step.partial = p.likelihood.data();
  if (!p.a.holds) p.unit->likelihood_from_z(step);
  run(step, static_cast<std::int64_t>(p.likelihood.size()));
  std::vector<double> out;
  p.likelihood.copy_to(out);
  return out;
}

state sampler::take() {
  current();
  return std::move(p_->a.host);
}

}  // namespace butterfly::lda
