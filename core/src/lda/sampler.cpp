#include "butterfly/lda/sampler.hpp"

#include <algorithm>
#include <chrono>
#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "butterfly/detail/checks.hpp"
#include "butterfly/detail/host_parallel.hpp"
#include "butterfly/detail/rng.hpp"
#include "butterfly/lda/gamma.hpp"
#include "butterfly/lda/posterior_mean.hpp"

namespace butterfly::lda {
namespace {

// Fixed chunk sizes: they set the order of every floating-point reduction, so they must not
// depend on the thread count (see host_parallel.hpp).
constexpr std::int64_t doc_chunk = 64;  // theta rows are independent: any size gives the same bits
constexpr std::int64_t word_chunk = 256;
constexpr std::int64_t token_chunk = 1 << 16;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

void check(const hyperparameters& h) {
  if (h.num_topics < 1)
    throw std::invalid_argument("number of topics must be at least 1, got " +
                                std::to_string(h.num_topics));
  if (!(h.alpha > 0.0) || !std::isfinite(h.alpha))
    throw std::invalid_argument("alpha must be a positive number, got " + std::to_string(h.alpha));
  if (!(h.beta > 0.0) || !std::isfinite(h.beta))
    throw std::invalid_argument("beta must be a positive number, got " + std::to_string(h.beta));
}

shard shard_of(const documents& docs, int parts, int part) {
  if (parts < 1 || part < 0 || part >= parts)
    throw std::invalid_argument("shard " + std::to_string(part) + " of " + std::to_string(parts) +
                                " does not exist");
  const std::int64_t M = docs.num_docs(), N = docs.num_tokens();
  const std::int64_t blocks = (M + likelihood_block - 1) / likelihood_block;
  // Part p starts at the block boundary whose token offset is nearest to p N / parts; the
  // nearest boundaries of increasing targets never decrease, so the parts tile the corpus.
  const auto start = [&](int p) -> std::int64_t {
    if (p == 0) return 0;
    if (p == parts) return M;
    const double target = static_cast<double>(N) * p / parts;
    std::int64_t lo = 0, hi = blocks;  // first block boundary b with offset >= target
    while (lo < hi) {
      const std::int64_t mid = (lo + hi) / 2;
      if (static_cast<double>(docs.doc_offsets[std::min(mid * likelihood_block, M)]) < target) lo = mid + 1;
      else hi = mid;
    }
    std::int64_t b = lo;
    if (b > 0 && target - static_cast<double>(docs.doc_offsets[std::min((b - 1) * likelihood_block, M)]) <
                     static_cast<double>(docs.doc_offsets[std::min(b * likelihood_block, M)]) - target)
      --b;
    return std::min(b * likelihood_block, M);
  };
  shard s;
  s.first_doc = start(part);
  s.end_doc = start(part + 1);
  s.first_token = M > 0 ? docs.doc_offsets[s.first_doc] : 0;
  s.end_token = M > 0 ? docs.doc_offsets[s.end_doc] : 0;
  return s;
}

estimator parse_estimator(const std::string& name) {
  if (name == "sample") return estimator::sample;
  if (name == "mean") return estimator::mean;
  throw std::invalid_argument("estimator must be sample or mean, got '" + name + "'");
}

const char* estimator_name(estimator e) { return e == estimator::mean ? "mean" : "sample"; }

sampler::sampler(documents docs, hyperparameters h, std::uint64_t seed, sampler_options how)
    : sampler(docs, h, seed, how, whole(docs), {}) {}

sampler::sampler(documents docs, hyperparameters h, std::uint64_t seed, sampler_options how, shard part,
                 count_combiner combine)
    : docs_(docs), h_(h), seed_(seed), how_(how), part_(part), combine_(std::move(combine)) {
  check(h_);
  // The draw checks the width on its first call; checked here too, so a bad width fails
  // before any work rather than after the initial state.
  detail::resolve_width("lda::sampler", how_.width, native_width(), supported_widths());
  if (part_.first_doc < 0 || part_.first_doc > part_.end_doc || part_.end_doc > docs_.num_docs() ||
      part_.first_doc % likelihood_block != 0 ||
      (docs_.num_docs() > 0 && (part_.first_token != docs_.doc_offsets[part_.first_doc] ||
                                part_.end_token != docs_.doc_offsets[part_.end_doc])))
    throw std::invalid_argument("shard [" + std::to_string(part_.first_doc) + ", " +
                                std::to_string(part_.end_doc) + ") does not fit the " +
                                std::to_string(docs_.num_docs()) + " documents");
  const std::int64_t V = docs_.vocab_size, N = part_.num_tokens();
  local_offsets_.resize(static_cast<std::size_t>(part_.num_docs() + 1));
  for (std::int64_t m = 0; m <= part_.num_docs(); ++m)
    local_offsets_[m] = docs_.doc_offsets.empty() ? 0 : docs_.doc_offsets[part_.first_doc + m] - part_.first_token;
  const std::int32_t* words = docs_.words.data() + part_.first_token;
  word_offsets_.assign(static_cast<std::size_t>(V + 1), 0);
  for (std::int64_t t = 0; t < N; ++t) {
    const std::int32_t w = words[t];
    if (w < 0 || w >= V)
      throw std::invalid_argument("word id " + std::to_string(w) + " outside the vocabulary of " +
                                  std::to_string(V) + " words");
    ++word_offsets_[static_cast<std::size_t>(w) + 1];
  }
  for (std::int64_t w = 0; w < V; ++w) word_offsets_[w + 1] += word_offsets_[w];
  word_tokens_.resize(static_cast<std::size_t>(N));
  std::vector<std::int64_t> next(word_offsets_.begin(), word_offsets_.end() - 1);
  for (std::int64_t t = 0; t < N; ++t) word_tokens_[next[words[t]]++] = t;
}

state sampler::initial_state() const {
  const int K = h_.num_topics;
  state s;
  s.theta.resize(static_cast<std::size_t>(part_.num_docs() * K));
  s.phi.resize(static_cast<std::size_t>(docs_.vocab_size * K));
  s.z.resize(static_cast<std::size_t>(part_.num_tokens()));
  std::int32_t* z = s.z.data();
  const std::uint64_t seed = seed_;
  const auto first = static_cast<std::uint64_t>(part_.first_token);
  detail::host_parallel_for(part_.num_tokens(), token_chunk, [=](std::int64_t b, std::int64_t e) {
    for (std::int64_t t = b; t < e; ++t) {
      const std::uint64_t r = rng::bits(seed, 0, rng::stream::z, first + static_cast<std::uint64_t>(t))[0];
      z[t] = static_cast<std::int32_t>((r * static_cast<std::uint64_t>(K)) >> 32);
    }
  });
  draw_theta_phi(s);
  return s;
}

iteration_seconds sampler::iterate(state& s) const {
  iteration_seconds sec;
  auto t0 = std::chrono::steady_clock::now();
  draw_options o;
  o.method = how_.method;
  o.width = how_.width;
  o.seed = seed_;
  o.iteration = s.iteration + 1;
  o.first_token = static_cast<std::uint64_t>(part_.first_token);
  o.first_document = part_.first_doc;  // keeps each document on its whole-corpus lane
  // theta and phi are floored at probability_floor and drawn from Dirichlets: positive and
  // finite by construction, so checking them every iteration would only cost time.
  o.validate = false;
  const span<const std::int32_t> words(docs_.words.data() + part_.first_token,
                                       static_cast<std::size_t>(part_.num_tokens()));
  draw_topics(s.theta, s.phi, h_.num_topics, local_offsets_, words, s.z, o);
  sec.z_draw = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  s.iteration = o.iteration;
  sec.combine = draw_theta_phi(s);
  sec.rest = seconds_since(t0) - sec.combine;
  return sec;
}

// Every z is a valid topic here: theta and phi entries are floored at probability_floor, so
// no token's products are all zero and draw_topics never returns -1. Returns the seconds
// spent combining the counts.
double sampler::draw_theta_phi(state& s) const {
  const int K = h_.num_topics;
  const std::int64_t M = part_.num_docs(), V = docs_.vocab_size;
  const std::int32_t* z = s.z.data();

  const rng_key theta_key{seed_, s.iteration, rng::stream::theta};
  detail::host_parallel_for(M, doc_chunk, [&](std::int64_t b, std::int64_t e) {
    std::vector<std::int32_t> n(static_cast<std::size_t>(K));
    std::vector<double> scratch(static_cast<std::size_t>(K));
    for (std::int64_t m = b; m < e; ++m) {
      std::fill(n.begin(), n.end(), 0);
      for (std::int64_t t = local_offsets_[m]; t < local_offsets_[m + 1]; ++t) ++n[z[t]];
      if (how_.theta_phi == estimator::mean) {
        posterior_mean_row(h_.alpha, n.data(), K, &s.theta[static_cast<std::size_t>(m * K)]);
        continue;
      }
      dirichlet_row(h_.alpha, n.data(), K, theta_key, static_cast<std::uint64_t>(part_.first_doc + m) * K,
                    scratch.data(), &s.theta[static_cast<std::size_t>(m * K)]);
    }
  });

  // n_wk of the shard, row by row, then of the whole corpus.
  std::vector<std::int32_t> n_wk(static_cast<std::size_t>(V * K));
  detail::host_parallel_for(V, word_chunk, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t w = b; w < e; ++w) {
      std::int32_t* n = &n_wk[static_cast<std::size_t>(w * K)];
      for (std::int64_t i = word_offsets_[w]; i < word_offsets_[w + 1]; ++i) ++n[z[word_tokens_[i]]];
    }
  });
  const auto t0 = std::chrono::steady_clock::now();
  if (combine_) combine_(n_wk.data(), n_wk.size());
  const double combine_seconds = seconds_since(t0);
  if (how_.theta_phi == estimator::mean) {
    posterior_mean_phi(n_wk, s.phi.data());
    return combine_seconds;
  }

  // phi[:,k] is a column: draw the Gamma variates word by word (rows owned by chunks), keep
  // per-chunk column sums in double, add them in chunk order, then normalise.
  // The unnormalised variates wait in phi itself as floats, raised to FLT_MIN so no slow
  // denormal arithmetic follows. That changes nothing: a column sum is at least its largest
  // variate, which for any realistic V is far above 2^-64, so anything at FLT_MIN ends at
  // the floor 2^-62 after normalisation either way.
  const rng_key phi_key{seed_, s.iteration, rng::stream::phi};
  const std::int64_t chunks = (V + word_chunk - 1) / word_chunk;
  std::vector<double> partial(static_cast<std::size_t>(chunks * K), 0.0);
  float* phi = s.phi.data();
  detail::host_parallel_for(V, word_chunk, [&](std::int64_t b, std::int64_t e) {
    double* part = &partial[static_cast<std::size_t>(b / word_chunk * K)];
    std::vector<double> g(static_cast<std::size_t>(K));
    for (std::int64_t w = b; w < e; ++w) {
      gamma_row(h_.beta, &n_wk[static_cast<std::size_t>(w * K)], K, phi_key, static_cast<std::uint64_t>(w) * K,
                g.data());
      for (int k = 0; k < K; ++k) {
        part[k] += g[k];
        phi[w * K + k] = static_cast<float>(g[k] > FLT_MIN ? g[k] : FLT_MIN);
      }
    }
  });
  std::vector<double> scale(static_cast<std::size_t>(K), 0.0);
  for (std::int64_t c = 0; c < chunks; ++c)
    for (int k = 0; k < K; ++k) scale[k] += partial[static_cast<std::size_t>(c * K + k)];
  // A column whose variates all underflowed double has scale 0 and becomes uniform.
  for (int k = 0; k < K; ++k) scale[k] = scale[k] > 0.0 ? 1.0 / scale[k] : 0.0;
  const float uniform = 1.0f / static_cast<float>(V);
  detail::host_parallel_for(V, word_chunk, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t w = b; w < e; ++w)
      for (int k = 0; k < K; ++k) {
        float& p = phi[w * K + k];
        const float q = scale[k] > 0.0 ? static_cast<float>(p * scale[k]) : uniform;
        p = q > probability_floor ? q : probability_floor;
      }
  });
  return combine_seconds;
}

// phi[w,k] = (n_wk + beta) / (n_k + V beta). n_k is an integer sum (kept per chunk in
// int64, so exact in any order); one division per topic, then a product per entry.
void sampler::posterior_mean_phi(const std::vector<std::int32_t>& n_wk, float* phi) const {
  const int K = h_.num_topics;
  const std::int64_t V = docs_.vocab_size;
  const std::int64_t chunks = (V + word_chunk - 1) / word_chunk;
  std::vector<std::int64_t> partial(static_cast<std::size_t>(chunks * K), 0);
  detail::host_parallel_for(V, word_chunk, [&](std::int64_t b, std::int64_t e) {
    std::int64_t* part = &partial[static_cast<std::size_t>(b / word_chunk * K)];
    for (std::int64_t w = b; w < e; ++w)
      for (int k = 0; k < K; ++k) part[k] += n_wk[static_cast<std::size_t>(w * K + k)];
  });
  std::vector<double> scale(static_cast<std::size_t>(K));
  for (int k = 0; k < K; ++k) {
    std::int64_t n_k = 0;
    for (std::int64_t c = 0; c < chunks; ++c) n_k += partial[static_cast<std::size_t>(c * K + k)];
    scale[k] = 1.0 / (static_cast<double>(n_k) + static_cast<double>(V) * h_.beta);
  }
  const double beta = h_.beta;
  detail::host_parallel_for(V, word_chunk, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t w = b; w < e; ++w)
      for (int k = 0; k < K; ++k) {
        const std::size_t i = static_cast<std::size_t>(w * K + k);
        const float p = static_cast<float>((static_cast<double>(n_wk[i]) + beta) * scale[k]);
        phi[i] = p > probability_floor ? p : probability_floor;
      }
  });
}

double sampler::log_likelihood(const state& s) const { return ordered_sum(log_likelihood_partials(s)); }

std::vector<double> sampler::log_likelihood_partials(const state& s) const {
  const int K = h_.num_topics;
  const std::int64_t M = part_.num_docs();
  const std::int32_t* words = docs_.words.data() + part_.first_token;
  std::vector<double> partial(static_cast<std::size_t>((M + likelihood_block - 1) / likelihood_block), 0.0);
  detail::host_parallel_for(M, likelihood_block, [&](std::int64_t b, std::int64_t e) {
    double sum = 0.0;
    for (std::int64_t m = b; m < e; ++m) {
      const float* th = &s.theta[static_cast<std::size_t>(m * K)];
      for (std::int64_t t = local_offsets_[m]; t < local_offsets_[m + 1]; ++t)
        sum += std::log(dot(th, &s.phi[static_cast<std::size_t>(words[t]) * K], K));
    }
    partial[static_cast<std::size_t>(b / likelihood_block)] = sum;
  });
  return partial;
}

double ordered_sum(const std::vector<double>& partials) {
  double total = 0.0;
  for (double p : partials) total += p;
  return total;
}

double dot(const float* a, const float* b, int K) {
  // Four fixed accumulators: the order of the additions is part of the definition (the same
  // bits on every build), and the independent chains keep the loop from being latency-bound.
  // Float products are exact in double.
  double acc[4] = {0, 0, 0, 0};
  int k = 0;
  for (; k + 4 <= K; k += 4)
    for (int j = 0; j < 4; ++j) acc[j] += double(a[k + j]) * double(b[k + j]);
  for (; k < K; ++k) acc[0] += double(a[k]) * double(b[k]);
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

}  // namespace butterfly::lda
