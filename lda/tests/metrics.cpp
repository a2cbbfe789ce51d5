// The LDA figures the benchmarks compare with other samplers, recomputed here independently
// (long double, the formulas of the README), and the Dirichlet step's parameters:
// - log-likelihood: sum over tokens of log sum_k theta[m,k] phi[w,k], on a case worked by
//   hand and on a trained state;
// - document-completion perplexity: on a case where fold-in is deterministic (each word
//   belongs to one topic), worked by hand from the README's definition;
// - on a corpus drawn from a known phi, the trained model's held-out perplexity is within a
//   few percent of the true phi's;
// - with z fixed, the sample estimator's theta and phi averaged over seeds approach the
//   Dirichlet means (n + prior) / (total + K prior) (resp. V prior for phi).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "butterfly/lda/chain.hpp"
#include "butterfly/lda/evaluation.hpp"
#include "butterfly/lda/sampler.hpp"
#include "synthetic.hpp"

using namespace butterfly;
using lda::testing::make_synthetic;

namespace {

long double log_likelihood_here(const lda::documents& d, const std::vector<float>& theta,
                                const std::vector<float>& phi, int K) {
  long double ll = 0;
  for (std::int64_t m = 0; m < d.num_docs(); ++m)
    for (std::int64_t t = d.doc_offsets[static_cast<std::size_t>(m)];
         t < d.doc_offsets[static_cast<std::size_t>(m) + 1]; ++t) {
      const std::int64_t w = d.words[static_cast<std::size_t>(t)];
      long double p = 0;
      for (int k = 0; k < K; ++k)
        p += static_cast<long double>(theta[static_cast<std::size_t>(m * K + k)]) *
             phi[static_cast<std::size_t>(w * K + k)];
      ll += std::log(p);
    }
  return ll;
}

// A chain that holds only z (collapsed's) sums its log-likelihood sparsely (likelihood_steps.hpp,
// likelihood_blocks): after `iterations` sweeps, against the dense sum of its theta and phi, made
// whole, in long double here and by the library.
void check_sparse_log_likelihood(const lda::testing::synthetic_corpus& c,
                                 const lda::hyperparameters& h, std::uint64_t seed,
                                 const lda::sampler_options& o, int iterations) {
  lda::chain chain(c.docs.view(), h, seed, o);
  lda::sampler smp(chain);
  for (int i = 0; i < iterations; ++i) smp.iterate();
  REQUIRE_FALSE(smp.holds_model());
  const double library = lda::ordered_sum(smp.log_likelihood_partials());
  const lda::state& s = smp.current();
  const long double here = log_likelihood_here(c.docs.view(), s.theta, s.phi, h.num_topics);
  INFO("library " << library << ", here " << static_cast<double>(here));
  CHECK(library == Approx(static_cast<double>(here)).epsilon(1e-12));
  CHECK(library == Approx(chain.log_likelihood(s)).epsilon(1e-12));
}

}  // namespace

TEST_CASE("lda metrics: the log-likelihood of a hand-worked case", "[lda][metrics]") {
  // 2 topics, 3 words; document 0 = words {0, 2}, document 1 = words {1, 1, 2}.
  lda::document_set d;
  d.vocab_size = 3;
  d.doc_offsets = {0, 2, 5};
  d.words = {0, 2, 1, 1, 2};
  lda::chain chain(d.view(), {2, 0.1, 0.01}, 1, {});
  lda::state s;
  s.theta = {0.5f, 0.5f, 0.25f, 0.75f};
  s.phi = {0.5f,  0.25f,  // word 0
           0.25f, 0.25f,  // word 1
           0.25f, 0.5f};  // word 2
  s.z = {0, 0, 0, 0, 0};
  // By hand: p(doc 0, word 0) = .25 + .125 = 3/8, p(0, 2) = .125 + .25 = 3/8,
  // p(1, 1) = 1/16 + 3/16 = 1/4 (twice), p(1, 2) = 1/16 + 3/8 = 7/16.
  const long double by_hand = 2 * std::log(3.0L / 8) + 2 * std::log(1.0L / 4) + std::log(7.0L / 16);
  CHECK(static_cast<double>(by_hand) == Approx(-5.5609258).epsilon(1e-7));
  CHECK(chain.log_likelihood(s) == Approx(static_cast<double>(by_hand)).epsilon(1e-14));
  CHECK(static_cast<double>(log_likelihood_here(d.view(), s.theta, s.phi, 2)) ==
        Approx(static_cast<double>(by_hand)).epsilon(1e-15));
}

TEST_CASE("lda metrics: the log-likelihood of a trained state equals a long-double recomputation",
          "[lda][metrics]") {
  const int K = 7;
  const auto c = make_synthetic(K, 120, 90, 35, 0.2, 0.05, 17);
  for (auto e : {lda::estimator::sample, lda::estimator::mean}) {
    lda::chain chain(c.docs.view(), {K, 0.2, 0.05}, 3, {algorithm::butterfly, 0, e});
    auto s = chain.initial_state();
    for (int i = 0; i < 4; ++i) chain.iterate(s);
    const long double here = log_likelihood_here(c.docs.view(), s.theta, s.phi, K);
    INFO("estimator " << lda::estimator_name(e) << ": library " << chain.log_likelihood(s)
                      << ", here " << static_cast<double>(here));
    // Double accumulation over 3150 tokens: relative error far below 1e-12.
    CHECK(chain.log_likelihood(s) == Approx(static_cast<double>(here)).epsilon(1e-12));
  }
}

// K = 70, so that most words have fewer topics than K.
TEST_CASE(
    "lda metrics: the log-likelihood of a chain that holds only z equals a long-double "
    "recomputation",
    "[lda][metrics]") {
  const int K = 70;
  check_sparse_log_likelihood(make_synthetic(K, 120, 90, 35, 0.2, 0.05, 17), {K, 0.2, 0.05}, 3,
                              {algorithm::butterfly, 0, lda::estimator::collapsed}, 4);
}

// Above 64 set words (K > 4096) a word's set stores only its nonempty words, with a mask of two
// words here, and the sum finds each topic of both by its stored word's rank: after collapsed's
// sweeps and right after phased ones (each token's topic moved by the word and document phases,
// the word tables rebuilt from z).
TEST_CASE(
    "lda metrics: at K > 4096 the log-likelihood of a chain that holds only z equals a "
    "long-double recomputation",
    "[lda][metrics]") {
  const int K = 4200;
  const auto c = make_synthetic(K, 300, 60, 80, 0.02, 0.05, 23);
  for (const std::uint32_t phased : {0u, 3u}) {
    INFO("phased sweeps " << phased);
    lda::sampler_options o{algorithm::butterfly, 0, lda::estimator::collapsed};
    o.phased_sweeps = phased;
    check_sparse_log_likelihood(c, {K, 0.02, 0.05}, 5, o, 3);
  }
}

TEST_CASE("lda metrics: document-completion perplexity of a hand-worked case", "[lda][metrics]") {
  // Words 0 and 1 belong to topic 0 only, words 2 and 3 to topic 1 only, so fold-in's z are
  // determined by the words and theta_est = (alpha + n_k) / (L + K alpha) exactly.
  const int K = 2;
  const double alpha = 0.5;
  const std::vector<float> phi = {0.5f, 0.0f, 0.5f, 0.0f, 0.0f, 0.5f, 0.0f, 0.5f};
  lda::document_set test;
  test.vocab_size = 4;
  test.words = {0, 1, 0, 2, 1, 3,  // observed (even positions) 0, 0, 1: n = (3, 0); scored 1, 2, 3
                2, 2, 3, 0};       // observed 2, 3: n = (0, 2); scored 2, 0
  test.doc_offsets = {0, 6, 10};
  // Document 0: theta_est = (3.5, 0.5) / 4; scored p = 0.875 * 0.5, 0.125 * 0.5, 0.125 * 0.5.
  // Document 1: theta_est = (0.5, 2.5) / 3; scored p = 2.5/3 * 0.5, 0.5/3 * 0.5.
  const long double ll =
      std::log(0.4375L) + 2 * std::log(0.0625L) + std::log(2.5L / 6) + std::log(0.5L / 6);
  const long double perplexity = std::exp(-ll / 5);
  lda::fold_in_options o;
  o.sweeps = 6;
  o.seed = 12;
  const auto r = lda::completion_perplexity(test.view(), phi, {K, alpha, 0.01}, o);
  CHECK(r.scored_tokens == 5);
  CHECK(r.log_likelihood == Approx(static_cast<double>(ll)).epsilon(1e-6));
  CHECK(r.perplexity == Approx(static_cast<double>(perplexity)).epsilon(1e-6));
  CHECK(static_cast<double>(perplexity) ==
        Approx(7.00375).epsilon(1e-5));  // exp(9.73223 / 5), by hand
}

// 8 topics over 300 words (Dirichlet(0.05) columns), 500 training and 100 held-out documents
// of 60 tokens. The true phi's held-out perplexity is the target; the trained model (mean
// estimator, 60 iterations) must come within 5% of it, and cannot beat it by more than the
// fold-in's noise.
TEST_CASE("lda metrics: trained held-out perplexity is within 5% of the true phi's",
          "[lda][metrics]") {
  const int K = 8;
  const std::int64_t V = 300;
  const double alpha = 0.2, beta = 0.05;
  const auto all = make_synthetic(K, V, 600, 60, alpha, beta, 2021);
  lda::document_set train, test;
  train.vocab_size = test.vocab_size = V;
  for (std::int64_t m = 0; m < 600; ++m) {
    auto& d = m < 500 ? train : test;
    for (auto t = all.docs.doc_offsets[static_cast<std::size_t>(m)];
         t < all.docs.doc_offsets[static_cast<std::size_t>(m) + 1]; ++t)
      d.words.push_back(all.docs.words[static_cast<std::size_t>(t)]);
    d.doc_offsets.push_back(static_cast<std::int64_t>(d.words.size()));
  }
  const lda::hyperparameters h{K, alpha, beta};
  lda::chain chain(train.view(), h, 5, {algorithm::butterfly, 0, lda::estimator::mean});
  auto s = chain.initial_state();
  for (int i = 0; i < 60; ++i) chain.iterate(s);
  lda::fold_in_options o;
  o.seed = 9;
  const std::vector<float> truth(all.true_phi.begin(), all.true_phi.end());
  const double trained = lda::completion_perplexity(test.view(), s.phi, h, o).perplexity;
  const double best = lda::completion_perplexity(test.view(), truth, h, o).perplexity;
  INFO("held-out perplexity: trained " << trained << ", true phi " << best << ", V " << V);
  CHECK(best < 0.5 * V);
  CHECK(trained < 1.05 * best);
  CHECK(trained > 0.97 * best);
}

// z is fixed by the weights: document m's theta is non-zero on topics {0, 1} (m even) or
// {2, 3} (m odd), word w's phi on {0, 2} (w even) or {1, 3} (w odd), so every token has
// exactly one non-zero product and z = 2 (m mod 2) + (w mod 2) whatever the seed. One
// iteration of the sample estimator then draws theta[m,:] ~ Dirichlet(alpha + n_m,:) and
// phi[:,k] ~ Dirichlet(beta + n_:,k); averaged over seeds they must approach the Dirichlet
// means, each within 4.5 standard errors (Beta marginal variance / seeds).
TEST_CASE(
    "lda metrics: with z fixed, the sample estimator's theta and phi average to (n + prior) / "
    "(total + K prior)",
    "[lda][metrics]") {
  const int K = 4, M = 6, V = 8, seeds = 1000;
  const double alpha = 0.3, beta = 0.2;
  lda::document_set d;
  d.vocab_size = V;
  const int lengths[M] = {5, 9, 0, 14, 3, 11};
  for (int m = 0; m < M; ++m) {
    for (int i = 0; i < lengths[m]; ++i) d.words.push_back((3 * m + 5 * i + i * i) % V);
    d.doc_offsets.push_back(static_cast<std::int64_t>(d.words.size()));
  }
  std::vector<int> n_mk(M * K, 0), n_wk(V * K, 0), n_k(K, 0);
  std::vector<std::int32_t> want_z;
  for (int m = 0; m < M; ++m)
    for (auto t = d.doc_offsets[static_cast<std::size_t>(m)];
         t < d.doc_offsets[static_cast<std::size_t>(m) + 1]; ++t) {
      const int w = d.words[static_cast<std::size_t>(t)];
      const int k = 2 * (m % 2) + w % 2;
      want_z.push_back(k);
      ++n_mk[m * K + k];
      ++n_wk[w * K + k];
      ++n_k[k];
    }
  lda::state fixed;
  fixed.theta.assign(M * K, 0.0f);
  fixed.phi.assign(V * K, 0.0f);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) fixed.theta[m * K + k] = (k / 2 == m % 2) ? 0.5f : 0.0f;
  for (int w = 0; w < V; ++w)
    for (int k = 0; k < K; ++k) fixed.phi[w * K + k] = (k % 2 == w % 2) ? 0.5f : 0.0f;
  fixed.z.assign(d.words.size(), 0);

  std::vector<double> theta_sum(M * K, 0.0), phi_sum(V * K, 0.0);
  for (int seed = 1; seed <= seeds; ++seed) {
    lda::chain chain(d.view(), {K, alpha, beta}, static_cast<std::uint64_t>(seed),
                     {algorithm::butterfly, 0, lda::estimator::sample});
    lda::state s = fixed;
    chain.iterate(s);
    REQUIRE(s.z == want_z);
    for (int i = 0; i < M * K; ++i) theta_sum[i] += s.theta[i];
    for (int i = 0; i < V * K; ++i) phi_sum[i] += s.phi[i];
  }
  // Beta(a, a0 - a) marginal of a Dirichlet: mean a / a0, variance a (a0 - a) / (a0^2 (a0 + 1)).
  auto check_mean = [&](double got, double a, double a0, const char* what, int row, int k) {
    const double mean = a / a0, sd = std::sqrt(a * (a0 - a) / (a0 * a0 * (a0 + 1)) / seeds);
    INFO(what << "[" << row << "," << k << "]: average " << got << ", Dirichlet mean " << mean
              << ", standard error " << sd);
    CHECK(std::abs(got - mean) < 4.5 * sd + 1e-6);
  };
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k)
      check_mean(theta_sum[m * K + k] / seeds, n_mk[m * K + k] + alpha, lengths[m] + K * alpha,
                 "theta", m, k);
  for (int w = 0; w < V; ++w)
    for (int k = 0; k < K; ++k)
      check_mean(phi_sum[w * K + k] / seeds, n_wk[w * K + k] + beta, n_k[k] + V * beta, "phi", w,
                 k);
}
