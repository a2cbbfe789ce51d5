// The mh estimator's sweep (lda/metropolis.hpp) against its definition. A token's cycles are
// Metropolis-Hastings kernels, so its topic after one sweep is not drawn from its full
// conditional but from row o of (D W)^mh_cycles, D and W the doc and word proposals' kernels:
//   D[s][t] = qd_t min(1, f_t / f_s),                     qd_k = (n_mk + alpha) / (L - 1 + K alpha)
//   W[s][t] = qw_t min(1, pi_t qw_s / (pi_s qw_t)),       qw_k = (n_wk + beta) / (n_w + K beta)
// (t != s; the rest of each row stays at s), pi_k = (n_mk + alpha) f_k, f_k = (n_wk + beta) /
// (n_k + V beta), every count taken from the starting z by counting here, the token itself
// taken out of n_mk, and out of n_wk and n_k in f (not in qw: the word's list keeps it).
// The first token of each document sees its document as it was, so its row is known exactly:
// one iteration per seed from the same state, Pearson's chi-square at alpha = 1e-3. The same
// matrices leave pi invariant (checked too: that is what makes the chain's stationary
// distribution the collapsed sampler's).
// Small counts and large priors, so that every branch is exercised: a word seen once, a
// document of one token (its doc proposals are all uniform), the token's own topic.
#include <catch2/catch.hpp>

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <vector>

#include "butterfly/lda/chain.hpp"
#include "butterfly/lda/metropolis.hpp"
#include "butterfly/lda/sampler.hpp"

using namespace butterfly;

namespace {

using matrix = std::vector<std::vector<double>>;

// The MH kernel of proposal q towards target pi.
matrix kernel(const std::vector<double>& q, const std::vector<double>& pi) {
  const std::size_t K = q.size();
  matrix P(K, std::vector<double>(K, 0.0));
  for (std::size_t s = 0; s < K; ++s) {
    double moved = 0;
    for (std::size_t t = 0; t < K; ++t)
      if (t != s) moved += P[s][t] = q[t] * std::min(1.0, pi[t] * q[s] / (pi[s] * q[t]));
    P[s][s] = 1.0 - moved;
  }
  return P;
}

std::vector<double> times(const std::vector<double>& row, const matrix& P) {
  std::vector<double> out(row.size(), 0.0);
  for (std::size_t s = 0; s < row.size(); ++s)
    for (std::size_t t = 0; t < row.size(); ++t) out[t] += row[s] * P[s][t];
  return out;
}

}  // namespace

TEST_CASE("lda: the mh sweep moves a document's first token by its Metropolis-Hastings kernels (chi-square)",
          "[lda][mh]") {
  const int K = 5;
  const std::int64_t V = 4;
  const double alpha = 0.7, beta = 0.3;
  lda::document_set d;
  d.vocab_size = V;
  const std::vector<std::vector<std::int32_t>> words = {{0, 1, 1, 2}, {3}, {2, 0, 3, 0, 1}, {1, 2}, {2, 2, 2}};
  const std::vector<std::vector<std::int32_t>> topics = {{0, 1, 1, 3}, {2}, {4, 0, 0, 2, 1}, {3, 3}, {0, 4, 0}};
  std::vector<std::int32_t> z;
  for (std::size_t m = 0; m < words.size(); ++m) {
    d.words.insert(d.words.end(), words[m].begin(), words[m].end());
    z.insert(z.end(), topics[m].begin(), topics[m].end());
    d.doc_offsets.push_back(static_cast<std::int64_t>(d.words.size()));
  }
  const std::int64_t M = static_cast<std::int64_t>(words.size());
  std::vector<double> n_wk(V * K, 0), n_w(V, 0), n_k(K, 0);
  for (std::size_t t = 0; t < z.size(); ++t) {
    ++n_wk[d.words[t] * K + z[t]];
    ++n_w[d.words[t]];
    ++n_k[z[t]];
  }
  const int seeds = 20000;
  std::vector<std::vector<int>> observed(static_cast<std::size_t>(M), std::vector<int>(K, 0));
  for (int seed = 0; seed < seeds; ++seed) {
    lda::chain c(d.view(), {K, alpha, beta}, static_cast<std::uint64_t>(seed),
                 {algorithm::butterfly, 0, lda::estimator::mh});
    lda::state start;
    start.theta.assign(static_cast<std::size_t>(M * K), 0.0f);
    start.phi.assign(static_cast<std::size_t>(V * K), 0.0f);
    start.z = z;
    lda::sampler s(c, std::move(start));
    s.iterate();
    const std::vector<std::int32_t>& after = s.current().z;
    for (std::int64_t m = 0; m < M; ++m) {
      const std::int32_t k = after[static_cast<std::size_t>(d.doc_offsets[m])];
      REQUIRE((k >= 0 && k < K));
      ++observed[static_cast<std::size_t>(m)][static_cast<std::size_t>(k)];
    }
  }
  for (std::int64_t m = 0; m < M; ++m) {
    const std::int64_t t = d.doc_offsets[m], length = d.doc_offsets[m + 1] - t;
    const int w = d.words[t], o = z[t];
    std::vector<double> f(K), pi(K), qd(K), qw(K);
    for (int k = 0; k < K; ++k) {
      double n_mk = 0;
      for (std::int64_t u = t + 1; u < d.doc_offsets[m + 1]; ++u) n_mk += z[u] == k;
      const double self = k == o ? 1.0 : 0.0;
      f[k] = (n_wk[w * K + k] - self + beta) / (n_k[k] - self + V * beta);
      pi[k] = (n_mk + alpha) * f[k];
      qd[k] = (n_mk + alpha) / (double(length - 1) + K * alpha);
      qw[k] = (n_wk[w * K + k] + beta) / (n_w[w] + K * beta);
    }
    const matrix D = kernel(qd, pi), W = kernel(qw, pi);
    // pi is invariant under both (the matrices' own check, not the code's).
    double total = 0;
    for (double p : pi) total += p;
    std::vector<double> stationary(K);
    for (int k = 0; k < K; ++k) stationary[k] = pi[k] / total;
    const std::vector<double> moved = times(times(stationary, D), W);
    for (int k = 0; k < K; ++k) REQUIRE(moved[k] == Approx(stationary[k]).epsilon(1e-12));
    std::vector<double> p(K, 0.0);
    p[o] = 1.0;
    for (int c = 0; c < lda::steps::mh_cycles; ++c) p = times(times(p, D), W);
    double chi2 = 0;
    for (int k = 0; k < K; ++k) {
      const double expected = seeds * p[k];
      const double diff = observed[static_cast<std::size_t>(m)][static_cast<std::size_t>(k)] - expected;
      chi2 += diff * diff / expected;
    }
    const double p_value = boost::math::cdf(boost::math::complement(boost::math::chi_squared(K - 1), chi2));
    INFO("document " << m << ": chi2 " << chi2 << " on " << K - 1 << " degrees of freedom");
    CHECK(p_value > 1e-3);
  }
}
