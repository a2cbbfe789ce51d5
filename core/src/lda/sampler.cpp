#include "butterfly/lda/sampler.hpp"

#include <chrono>
#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <string>

#include "butterfly/detail/host_parallel.hpp"
#include "butterfly/detail/rng.hpp"
#include "butterfly/lda/gamma.hpp"

namespace butterfly::lda {
namespace {

// Fixed chunk sizes: they set the order of every floating-point reduction, so they must not
// depend on the thread count (see host_parallel.hpp).
constexpr std::int64_t doc_chunk = 64;
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

sampler::sampler(documents docs, hyperparameters h, std::uint64_t seed, algorithm method)
    : docs_(docs), h_(h), seed_(seed), method_(method) {
  check(h_);
  const std::int64_t V = docs_.vocab_size, N = docs_.num_tokens();
  word_offsets_.assign(static_cast<std::size_t>(V + 1), 0);
  for (std::int32_t w : docs_.words) {
    if (w < 0 || w >= V)
      throw std::invalid_argument("word id " + std::to_string(w) + " outside the vocabulary of " +
                                  std::to_string(V) + " words");
    ++word_offsets_[static_cast<std::size_t>(w) + 1];
  }
  for (std::int64_t w = 0; w < V; ++w) word_offsets_[w + 1] += word_offsets_[w];
  word_tokens_.resize(static_cast<std::size_t>(N));
  std::vector<std::int64_t> next(word_offsets_.begin(), word_offsets_.end() - 1);
  for (std::int64_t t = 0; t < N; ++t) word_tokens_[next[docs_.words[t]]++] = t;
}

state sampler::initial_state() const {
  const int K = h_.num_topics;
  state s;
  s.theta.resize(static_cast<std::size_t>(docs_.num_docs() * K));
  s.phi.resize(static_cast<std::size_t>(docs_.vocab_size * K));
  s.z.resize(static_cast<std::size_t>(docs_.num_tokens()));
  std::int32_t* z = s.z.data();
  const std::uint64_t seed = seed_;
  detail::host_parallel_for(docs_.num_tokens(), token_chunk, [=](std::int64_t b, std::int64_t e) {
    for (std::int64_t t = b; t < e; ++t) {
      const std::uint64_t r = rng::bits(seed, 0, rng::stream::z, static_cast<std::uint64_t>(t))[0];
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
  o.method = method_;
  o.seed = seed_;
  o.iteration = s.iteration + 1;
  draw_topics(s.theta, s.phi, h_.num_topics, docs_.doc_offsets, docs_.words, s.z, o);
  sec.z_draw = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  s.iteration = o.iteration;
  draw_theta_phi(s);
  sec.rest = seconds_since(t0);
  return sec;
}

// Every z is a valid topic here: theta and phi entries are floored at probability_floor, so
// no token's products are all zero and draw_topics never returns -1.
void sampler::draw_theta_phi(state& s) const {
  const int K = h_.num_topics;
  const std::int64_t M = docs_.num_docs(), V = docs_.vocab_size;
  const std::int32_t* z = s.z.data();

  const rng_key theta_key{seed_, s.iteration, rng::stream::theta};
  detail::host_parallel_for(M, doc_chunk, [&](std::int64_t b, std::int64_t e) {
    std::vector<std::int32_t> n(static_cast<std::size_t>(K));
    std::vector<double> scratch(static_cast<std::size_t>(K));
    for (std::int64_t m = b; m < e; ++m) {
      std::fill(n.begin(), n.end(), 0);
      for (std::int64_t t = docs_.doc_offsets[m]; t < docs_.doc_offsets[m + 1]; ++t) ++n[z[t]];
      dirichlet_row(h_.alpha, n.data(), K, theta_key, static_cast<std::uint64_t>(m) * K,
                    scratch.data(), &s.theta[static_cast<std::size_t>(m * K)]);
    }
  });

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
    std::vector<std::int32_t> n(static_cast<std::size_t>(K));
    for (std::int64_t w = b; w < e; ++w) {
      std::fill(n.begin(), n.end(), 0);
      for (std::int64_t i = word_offsets_[w]; i < word_offsets_[w + 1]; ++i) ++n[z[word_tokens_[i]]];
      for (int k = 0; k < K; ++k) {
        const double g = gamma_variate(h_.beta + n[k], phi_key, static_cast<std::uint64_t>(w) * K + k);
        part[k] += g;
        phi[w * K + k] = static_cast<float>(g > FLT_MIN ? g : FLT_MIN);
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
}

double sampler::log_likelihood(const state& s) const {
  const int K = h_.num_topics;
  const std::int64_t M = docs_.num_docs();
  const std::int64_t chunks = (M + doc_chunk - 1) / doc_chunk;
  std::vector<double> partial(static_cast<std::size_t>(chunks), 0.0);
  detail::host_parallel_for(M, doc_chunk, [&](std::int64_t b, std::int64_t e) {
    double sum = 0.0;
    for (std::int64_t m = b; m < e; ++m) {
      const float* th = &s.theta[static_cast<std::size_t>(m * K)];
      for (std::int64_t t = docs_.doc_offsets[m]; t < docs_.doc_offsets[m + 1]; ++t)
        sum += std::log(dot(th, &s.phi[static_cast<std::size_t>(docs_.words[t]) * K], K));
    }
    partial[static_cast<std::size_t>(b / doc_chunk)] = sum;
  });
  double total = 0.0;
  for (double p : partial) total += p;
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
