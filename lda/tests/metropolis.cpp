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
// The state is first_tokens.hpp's (its document of one token has only uniform doc proposals).
#include <catch2/catch.hpp>

#include "butterfly/lda/metropolis.hpp"

#include <algorithm>
#include <vector>

#include "first_tokens.hpp"

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

// The hybrid sweep with long_document 0 moves every document's tokens by the same kernels (its
// word proposal picks from the word's list in topic order, the same distribution as mh's),
// reading collapsed's compact tables.
TEST_CASE(
    "lda: the mh sweep and the hybrid sweep of a long document move its first token by their "
    "Metropolis-Hastings kernels (chi-square)",
    "[lda][mh]") {
  const auto e = GENERATE(lda::estimator::mh, lda::estimator::hybrid);
  INFO("estimator " << lda::estimator_name(e));
  const test::first_token_state st;
  const int K = st.K;
  const double alpha = st.alpha, beta = st.beta;
  const int seeds = 20000;
  const auto observed = st.first_topics(e, seeds, 0);
  for (std::int64_t m = 0; m < st.documents(); ++m) {
    const std::int64_t t = st.docs.doc_offsets[m], length = st.docs.doc_offsets[m + 1] - t;
    const int w = st.docs.words[t], o = st.z[t];
    const std::vector<double> n_mk = st.others(m);
    const std::vector<double> pi = st.full_conditional(t, n_mk);
    double n_w = 0;
    for (int k = 0; k < K; ++k) n_w += st.n_wk[w * K + k];
    std::vector<double> qd(K), qw(K);
    for (int k = 0; k < K; ++k) {
      qd[k] = (n_mk[k] + alpha) / (double(length - 1) + K * alpha);
      qw[k] = (st.n_wk[w * K + k] + beta) / (n_w + K * beta);
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
    const test::chi_square fit(observed[static_cast<std::size_t>(m)], p);
    INFO("document " << m << ": chi2 " << fit.statistic << " on " << fit.degrees
                     << " degrees of freedom");
    CHECK(fit.p_value > 1e-3);
  }
}

// Where no document is longer than long_document, the hybrid sweep is collapsed's draw: the
// same topics bit for bit (K = 130: topic sets of three 64-bit words); with long_document 0,
// every topic it gives is one of the K.
TEST_CASE("lda: the hybrid sweep draws documents up to long_document exactly as collapsed does",
          "[lda][mh]") {
  const test::first_token_state st(130, {0, 64, 65, 127, 129});
  CHECK(st.sweeps(lda::estimator::hybrid, 200, 5) == st.sweeps(lda::estimator::collapsed, 200));
  CHECK(st.sweeps(lda::estimator::hybrid, 200, 0) != st.sweeps(lda::estimator::collapsed, 200));
}
