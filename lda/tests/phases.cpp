// The phased estimator's steps (lda/phases.hpp) against their definitions, run on the host
// over a small fixed state, one run per seed (each seed keys other uniforms), Pearson's
// chi-square at alpha = 1e-3. The expected distributions are written here from the target
//   pi_k = (n_mk + alpha) (n_wk + beta) / (n_k + V beta),
// every count without the token itself, and from the proposals' definitions:
//   document proposal  q_k proportional to n_mk + alpha (the document's other tokens);
//   word proposal      q_k proportional to n_wk + beta (the word's other tokens);
// a move from o to p is accepted with min(1, pi_p q_o / (pi_o q_p)). The word phase's first
// token and the document phase's first token see their element's counts as they were at the
// start, so their moves are known exactly.
#include <catch2/catch.hpp>

#include "butterfly/lda/phases.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "first_tokens.hpp"

using namespace butterfly;

namespace {

// Three documents over V = 4 words and K = 5 topics; tokens by document, their topics z.
struct phase_state {
  static constexpr int K = 5, V = 4;
  static constexpr double alpha = 0.3, beta = 0.2;
  std::vector<std::int64_t> offsets{0, 6, 9, 14};
  std::vector<std::int32_t> words{0, 1, 0, 2, 0, 3, 1, 0, 2, 3, 0, 1, 0, 2};
  std::vector<std::int32_t> z{1, 2, 1, 4, 0, 1, 2, 3, 4, 0, 1, 1, 2, 3};
  std::vector<std::int64_t> token_offsets;  // the tokens grouped by word, in token order
  std::vector<std::uint32_t> tokens;
  phase_state() : token_offsets(V + 1, 0) {
    for (const std::int32_t w : words) ++token_offsets[w + 1];
    for (int w = 0; w < V; ++w) token_offsets[w + 1] += token_offsets[w];
    for (int w = 0; w < V; ++w)
      for (std::size_t t = 0; t < words.size(); ++t)
        if (words[t] == w) tokens.push_back(static_cast<std::uint32_t>(t));
  }
  std::vector<std::int64_t> totals() const {
    std::vector<std::int64_t> n(K, 0);
    for (const std::int32_t k : z) ++n[k];
    return n;
  }
  // Counts of topic k among tokens t' != t with pred(t').
  template <class Pred>
  double others(std::int64_t t, int k, Pred pred) const {
    double n = 0;
    for (std::size_t u = 0; u < z.size(); ++u)
      if (static_cast<std::int64_t>(u) != t && pred(u) && z[u] == k) ++n;
    return n;
  }
  std::int64_t document_of(std::int64_t t) const {
    std::int64_t m = 0;
    while (offsets[m + 1] <= t) ++m;
    return m;
  }
  double n_mk(std::int64_t t, int k) const {
    const std::int64_t m = document_of(t);
    return others(t, k, [&](std::size_t u) { return document_of(std::int64_t(u)) == m; });
  }
  double n_wk(std::int64_t t, int k) const {
    return others(t, k, [&](std::size_t u) { return words[u] == words[t]; });
  }
  double n_k(std::int64_t t, int k) const {
    return others(t, k, [](std::size_t) { return true; });
  }
  double pi(std::int64_t t, int k) const {
    return (n_mk(t, k) + alpha) * (n_wk(t, k) + beta) / (n_k(t, k) + V * beta);
  }
};

// Whether the moves seen (seen[1] of seen[0] + seen[1]) fit acceptance `accept`: all of them
// where it is 1, else Pearson's chi-square.
void check_acceptance(const std::vector<int>& seen, double accept) {
  if (accept >= 1.0) {
    CHECK(seen[0] == 0);
    return;
  }
  const butterfly::test::chi_square fit(seen, {1.0 - accept, accept});
  INFO("acceptance " << accept << ": chi2 " << fit.statistic << ", moved " << seen[1] << " of "
                     << seen[0] + seen[1]);
  CHECK(fit.p_value > 1e-3);
}

std::vector<double> normalized(std::vector<double> w) {
  double total = 0;
  for (double x : w) total += x;
  for (double& x : w) x /= total;
  return w;
}

}  // namespace

TEST_CASE("lda: phased: a token's document proposal has weight n_mk + alpha without the token",
          "[lda][phased]") {
  const phase_state st;
  const int K = st.K;
  const std::int64_t m = 0, t = 3;  // a document of six tokens, the only one at topic 4
  std::vector<double> q(K);
  for (int k = 0; k < K; ++k) q[k] = st.n_mk(t, k) + st.alpha;
  std::vector<int> seen(K, 0);
  std::vector<std::int32_t> proposals(st.z.size(), -1);
  for (std::uint64_t seed = 1; seed <= 20000; ++seed) {
    lda::steps::document_proposals s{st.offsets.data(), st.z.data(), K, st.alpha, seed, 0, 7,
                                     proposals.data()};
    s(m);
    REQUIRE(proposals[t] >= 0);
    REQUIRE(proposals[t] < K);
    ++seen[proposals[t]];
  }
  const test::chi_square fit(seen, normalized(q));
  INFO("chi2 " << fit.statistic << " on " << fit.degrees << " degrees of freedom");
  CHECK(fit.p_value > 1e-3);
}

namespace {

// For each proposal p != o of token `first` (topic o): over 4,000 seeds, `phase(seed, z,
// proposals)` runs one step on a copy of the state where only `first` proposes a move (to p),
// and the move seen is checked against min(1, pi_p q_o / (pi_o q_p)), q_k = weight(k); the
// other tokens keep their topics. After each run, `seen(z, proposals)` may look at the rest.
template <class Weight, class Phase, class Seen>
void check_moves(const phase_state& st, std::int64_t first, const Weight& weight,
                 const Phase& phase, const Seen& seen_also) {
  const int o = st.z[first];
  for (int p = 0; p < st.K; ++p) {
    if (p == o) continue;
    INFO("proposal " << p);
    const double accept =
        std::min(1.0, st.pi(first, p) * weight(o) / (st.pi(first, o) * weight(p)));
    std::vector<int> seen(2, 0);
    for (std::uint64_t seed = 1; seed <= 4000; ++seed) {
      std::vector<std::int32_t> z = st.z, proposals = st.z;  // the others propose their own
      proposals[first] = p;
      phase(seed, z, proposals);
      REQUIRE((z[first] == p || z[first] == o));
      ++seen[z[first] == p];
      for (std::size_t u = 0; u < z.size(); ++u)
        if (static_cast<std::int64_t>(u) != first) REQUIRE(z[u] == st.z[u]);
      seen_also(z, proposals);
    }
    check_acceptance(seen, accept);
  }
}

}  // namespace

TEST_CASE(
    "lda: phased: the word phase moves a word's first token by its document proposal's "
    "Metropolis-Hastings acceptance, and leaves each token a word proposal",
    "[lda][phased]") {
  const phase_state st;
  const int K = st.K, w = 0;
  const std::int64_t first = st.tokens[st.token_offsets[w]];  // token 0, topic 1
  const std::int64_t third = st.tokens[st.token_offsets[w] + 2];
  const std::vector<std::int64_t> totals = st.totals();
  const int o = st.z[first];
  // The document's factor cancels against the proposal's.
  const auto q = [&](int k) { return st.n_mk(first, k) + st.alpha; };
  std::vector<int> word_proposals(K, 0);
  const auto phase = [&](std::uint64_t seed, std::vector<std::int32_t>& z,
                         std::vector<std::int32_t>& proposals) {
    std::vector<std::int32_t> word_z(z.size()), counts(K, 0), moved(K, 0);
    lda::steps::word_phase s{};
    s.token_offsets = st.token_offsets.data();
    s.tokens = st.tokens.data();
    s.totals = totals.data();
    s.K = K;
    s.beta = st.beta;
    s.prior_total = st.V * st.beta;
    s.seed = seed;
    s.iteration = 3;
    s.z = z.data();
    s.proposals = proposals.data();
    s.word_z = word_z.data();
    s.first_word = w;
    s.counts = counts.data();
    s.moved = moved.data();
    s(0);
    // Every row is zero again.
    REQUIRE(std::count(counts.begin(), counts.end(), 0) == K);
    REQUIRE(std::count(moved.begin(), moved.end(), 0) == K);
  };
  // Where nothing moved, a word proposal has weight n_wk + beta without the token.
  check_moves(st, first, q, phase,
              [&](const std::vector<std::int32_t>& z, const std::vector<std::int32_t>& proposals) {
                if (z[first] == o) ++word_proposals[proposals[third]];
              });
  std::vector<double> word(K);
  for (int k = 0; k < K; ++k) word[k] = st.n_wk(third, k) + st.beta;
  const test::chi_square fit(word_proposals, normalized(word));
  INFO("word proposals: chi2 " << fit.statistic << " on " << fit.degrees);
  CHECK(fit.p_value > 1e-3);
}

TEST_CASE(
    "lda: phased: the document phase moves a document's first token by its word proposal's "
    "Metropolis-Hastings acceptance",
    "[lda][phased]") {
  const phase_state st;
  const int K = st.K;
  const std::int64_t m = 2, first = st.offsets[m];  // token 9: word 3, topic 0
  const std::vector<std::int64_t> totals = st.totals();
  // The word's factor cancels against the proposal's.
  const auto q = [&](int k) { return st.n_wk(first, k) + st.beta; };
  const auto phase = [&](std::uint64_t seed, std::vector<std::int32_t>& z,
                         std::vector<std::int32_t>& proposals) {
    std::vector<std::int32_t> counts(K, 0);
    lda::steps::document_phase s{};
    s.offsets = st.offsets.data();
    s.totals = totals.data();
    s.K = K;
    s.alpha = st.alpha;
    s.prior_total = st.V * st.beta;
    s.seed = seed;
    s.shard_first_doc = 0;
    s.iteration = 5;
    s.z = z.data();
    s.proposals = proposals.data();
    s.first_doc = m;
    s.counts = counts.data();
    s(0);
    REQUIRE(std::count(counts.begin(), counts.end(), 0) == K);
  };
  check_moves(st, first, q, phase,
              [](const std::vector<std::int32_t>&, const std::vector<std::int32_t>&) {});
}
