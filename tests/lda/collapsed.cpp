// The collapsed estimator's sweep (lda/collapsed.hpp) against its definition: the first token
// of each document is drawn from
//   p_k = (n_mk + alpha) (n_wk + beta) / (n_k + V beta)
// with every count taken from the starting z without the token itself (the word counts are
// held fixed for the sweep, and the first token sees its document as it was). The weights
// are computed here from z by counting; the draws come from one iteration per seed, from the
// same starting state, and Pearson's chi-square compares them at alpha = 1e-3.
// Small counts and large priors, so that every part of the draw is exercised: a word seen
// once (its own count is all of n_wo), a document of one token (nothing but the smoothing
// bucket), topics the document does not have, and the token's own topic.
#include <catch2/catch.hpp>

#include <boost/math/distributions/chi_squared.hpp>
#include <vector>

#include "butterfly/lda/chain.hpp"
#include "butterfly/lda/sampler.hpp"

using namespace butterfly;

TEST_CASE("lda: the collapsed sweep draws a document's first token from its full conditional (chi-square)",
          "[lda][collapsed]") {
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
  std::vector<double> n_wk(V * K, 0), n_k(K, 0);
  for (std::size_t t = 0; t < z.size(); ++t) {
    ++n_wk[d.words[t] * K + z[t]];
    ++n_k[z[t]];
  }
  const int seeds = 20000;
  std::vector<std::vector<int>> observed(static_cast<std::size_t>(M), std::vector<int>(K, 0));
  for (int seed = 0; seed < seeds; ++seed) {
    lda::chain c(d.view(), {K, alpha, beta}, static_cast<std::uint64_t>(seed),
                 {algorithm::butterfly, 0, lda::estimator::collapsed});
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
    const std::int64_t t = d.doc_offsets[m];
    const int w = d.words[t], o = z[t];
    std::vector<double> p(K);
    double total = 0;
    for (int k = 0; k < K; ++k) {
      double n_mk = 0;
      for (std::int64_t u = d.doc_offsets[m]; u < d.doc_offsets[m + 1]; ++u) n_mk += z[u] == k;
      const double self = k == o ? 1.0 : 0.0;
      total += p[k] = (n_mk - self + alpha) * (n_wk[w * K + k] - self + beta) / (n_k[k] - self + V * beta);
    }
    double chi2 = 0;
    for (int k = 0; k < K; ++k) {
      const double expected = seeds * p[k] / total;
      const double diff = observed[static_cast<std::size_t>(m)][static_cast<std::size_t>(k)] - expected;
      chi2 += diff * diff / expected;
    }
    const double p_value = boost::math::cdf(boost::math::complement(boost::math::chi_squared(K - 1), chi2));
    INFO("document " << m << ": chi2 " << chi2 << " on " << K - 1 << " degrees of freedom");
    CHECK(p_value > 1e-3);
  }
}
