// The collapsed estimator's sweep (lda/collapsed.hpp) against its definition: the first token
// of each document is drawn from
//   p_k = (n_mk + alpha) (n_wk + beta) / (n_k + V beta)
// with every count taken from the starting z without the token itself (the word counts are
// held fixed for the sweep, and the first token sees its document as it was). The weights
// are computed here from z by counting; the draws come from one iteration per seed, from the
// same starting state (first_tokens.hpp), and Pearson's chi-square compares them at
// alpha = 1e-3.
#include <catch2/catch.hpp>

#include <vector>

#include "first_tokens.hpp"

using namespace butterfly;

TEST_CASE("lda: the collapsed sweep draws a document's first token from its full conditional (chi-square)",
          "[lda][collapsed]") {
  const test::first_token_state st;
  const int K = st.K;
  const double V = static_cast<double>(st.docs.vocab_size);
  const int seeds = 20000;
  const auto observed = st.first_topics(lda::estimator::collapsed, seeds);
  for (std::int64_t m = 0; m < st.documents(); ++m) {
    const std::int64_t t = st.docs.doc_offsets[m];
    const int w = st.docs.words[t], o = st.z[t];
    const std::vector<double> n_mk = st.others(m);
    std::vector<double> p(K);
    double total = 0;
    for (int k = 0; k < K; ++k) {
      const double self = k == o ? 1.0 : 0.0;
      total += p[k] = (n_mk[k] + st.alpha) * (st.n_wk[w * K + k] - self + st.beta) / (st.n_k[k] - self + V * st.beta);
    }
    for (double& x : p) x /= total;
    const test::chi_square fit(observed[static_cast<std::size_t>(m)], p);
    INFO("document " << m << ": chi2 " << fit.statistic << " on " << fit.degrees << " degrees of freedom");
    CHECK(fit.p_value > 1e-3);
  }
}
