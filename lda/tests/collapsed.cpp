// The collapsed estimator's sweep (lda/collapsed.hpp) against its definition: each token is
// drawn from
//   p_k = (n_mk + alpha) (n_wk + beta) / (n_k + V beta)
// with the word counts taken from the starting z without the token itself (they are held
// fixed for the sweep) and n_mk the document's other tokens as drawn so far. The weights are
// computed here from z by counting (first_tokens.hpp); the draws come from one iteration per
// seed from the same starting state, and Pearson's chi-square compares them at alpha = 1e-3:
// a document's first token (it sees its document as it was), and its second given the
// topic the first was drawn (which holds the document's topic set and sums as the sweep
// keeps them). With K = 150 the state's topics lie in three 64-bit words of the sweep's topic
// sets, and the topics no token has are pooled per word.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "first_tokens.hpp"

using namespace butterfly;

namespace {

// Bins of topics: each of the state's own topics alone, the others pooled by 64-bit word.
struct bins {
  std::vector<int> of;  // topic -> bin
  int count = 0;
  bins(int K, const std::vector<std::int32_t>& own) : of(static_cast<std::size_t>(K), -1) {
    for (const std::int32_t k : own) of[static_cast<std::size_t>(k)] = count++;
    std::vector<int> word(static_cast<std::size_t>((K + 63) / 64), -1);
    for (int k = 0; k < K; ++k) {
      int& b = of[static_cast<std::size_t>(k)];
      if (b >= 0) continue;
      int& w = word[static_cast<std::size_t>(k / 64)];
      if (w < 0) w = count++;
      b = w;
    }
  }
  std::vector<double> probabilities(const std::vector<double>& weights) const {
    std::vector<double> p(static_cast<std::size_t>(count), 0.0);
    double total = 0;
    for (const double x : weights) total += x;
    for (std::size_t k = 0; k < weights.size(); ++k)
      p[static_cast<std::size_t>(of[k])] += weights[k] / total;
    return p;
  }
};

void check_first_two_tokens(int K, const std::vector<std::int32_t>& topic, int seeds) {
  const test::first_token_state st(K, topic);
  const bins bin(K, topic);
  const auto after = st.sweeps(lda::estimator::collapsed, seeds);
  for (std::int64_t m = 0; m < st.documents(); ++m) {
    const std::int64_t t = st.docs.doc_offsets[static_cast<std::size_t>(m)];
    const std::int64_t length = st.docs.doc_offsets[static_cast<std::size_t>(m) + 1] - t;
    std::vector<int> first(static_cast<std::size_t>(bin.count), 0);
    for (const auto& z : after)
      ++first[static_cast<std::size_t>(
          bin.of[static_cast<std::size_t>(z[static_cast<std::size_t>(t)])])];
    const test::chi_square fit(first, bin.probabilities(st.full_conditional(t, st.others(m))));
    INFO("K " << K << ", document " << m << ", first token: chi2 " << fit.statistic << " on "
              << fit.degrees << " degrees of freedom");
    CHECK(fit.p_value > 1e-3);
    if (length < 2) continue;
    // The second token, given each topic the first was drawn often enough.
    for (int k1 = 0; k1 < K; ++k1) {
      std::vector<int> second(static_cast<std::size_t>(bin.count), 0);
      int given = 0;
      for (const auto& z : after)
        if (z[static_cast<std::size_t>(t)] == k1) {
          ++given;
          ++second[static_cast<std::size_t>(
              bin.of[static_cast<std::size_t>(z[static_cast<std::size_t>(t + 1)])])];
        }
      if (given < 1000) continue;
      std::vector<double> n_mk(static_cast<std::size_t>(K), 0.0);
      ++n_mk[static_cast<std::size_t>(k1)];
      for (std::int64_t u = t + 2; u < t + length; ++u)
        ++n_mk[static_cast<std::size_t>(st.z[static_cast<std::size_t>(u)])];
      const test::chi_square fit2(second, bin.probabilities(st.full_conditional(t + 1, n_mk)));
      INFO("K " << K << ", document " << m << ", second token given the first at topic " << k1
                << " (" << given << " sweeps): chi2 " << fit2.statistic << " on " << fit2.degrees
                << " degrees of freedom");
      CHECK(fit2.p_value > 1e-3);
    }
  }
}

}  // namespace

TEST_CASE(
    "lda: the collapsed sweep draws a document's first and second tokens from their full "
    "conditionals "
    "(chi-square)",
    "[lda][collapsed]") {
  SECTION("K = 5") { check_first_two_tokens(5, {0, 1, 2, 3, 4}, 20000); }
  SECTION("K = 150, the topics in three 64-bit words") {
    check_first_two_tokens(150, {3, 71, 130, 63, 128}, 20000);
  }
}

// sampler_options::sweep_blocks: four documents of one token each but the last, four blocks of
// one document. Document 2's token (block 2) is drawn from the counts of z with documents 0 and
// 1 at the topics this sweep gave them, documents 2 and 3 at their starting ones: for each of
// the 9 pairs of topics of documents 0 and 1, Pearson's chi-square of document 2's topic against
// the full conditional counted here. Document 0 shares its word (it moves n_wk and n_k),
// document 1 does not (it moves n_k alone). Held for the whole sweep (one block), document 2's
// draw would not depend on the pair.
TEST_CASE(
    "lda: the collapsed sweep in blocks draws a block's token from the counts the blocks before "
    "it left (chi-square)",
    "[lda][collapsed]") {
  const int K = 3, seeds = 20000;
  const double alpha = 0.7, beta = 0.3;
  lda::document_set docs;
  docs.vocab_size = 2;
  docs.words = {0, 1, 0, 0, 1};
  docs.doc_offsets = {0, 1, 2, 3, 5};
  const std::vector<std::int32_t> z0 = {0, 1, 2, 1, 0};
  std::vector<std::vector<int>> observed(9, std::vector<int>(K, 0));
  for (int seed = 0; seed < seeds; ++seed) {
    lda::sampler_options how{algorithm::butterfly, 0, lda::estimator::collapsed};
    how.sweep_blocks = 4;
    lda::chain c(docs.view(), {K, alpha, beta}, static_cast<std::uint64_t>(seed), how);
    lda::state start;
    start.theta.assign(4 * K, 0.0f);
    start.phi.assign(2 * K, 0.0f);
    start.z = z0;
    lda::sampler s(c, std::move(start));
    s.iterate();
    const std::vector<std::int32_t>& z = s.current().z;
    ++observed[static_cast<std::size_t>(z[0] * K + z[1])][static_cast<std::size_t>(z[2])];
  }
  for (int k0 = 0; k0 < K; ++k0)
    for (int k1 = 0; k1 < K; ++k1) {
      // The counts document 2's token sees: z0 with documents 0 and 1 moved, itself left out.
      std::vector<std::int32_t> z = z0;
      z[0] = k0;
      z[1] = k1;
      std::vector<double> n_wk(static_cast<std::size_t>(2 * K), 0.0), n_k(K, 0.0);
      for (std::size_t t = 0; t < z.size(); ++t)
        if (t != 2) {
          ++n_wk[static_cast<std::size_t>(docs.words[t] * K + z[t])];
          ++n_k[static_cast<std::size_t>(z[t])];
        }
      std::vector<double> p(K);
      double total = 0;
      for (int k = 0; k < K; ++k)
        total += p[static_cast<std::size_t>(k)] = alpha *
                                                  (n_wk[static_cast<std::size_t>(k)] + beta) /
                                                  (n_k[static_cast<std::size_t>(k)] + 2 * beta);
      for (double& x : p) x /= total;
      const auto& counts = observed[static_cast<std::size_t>(k0 * K + k1)];
      const test::chi_square fit(counts, p);
      INFO("documents 0 and 1 at topics " << k0 << ", " << k1 << ": chi2 " << fit.statistic
                                          << " on " << fit.degrees << " degrees of freedom");
      CHECK(fit.p_value > 1e-3);
    }
}

// collapsed_documents::proposed: where a document has many topics the sweep first tries to draw
// a token by rejection, from a proposal by its document (where the word's factors are even over
// its topics) or by its word (where they are not and the document's counts are). Document 0's
// 80 tokens of word 0 lie 2 on each of 40 topics (an even word, whose 780 other tokens document
// 3 holds, 20 on each topic but 7: the document's proposals, in which the token's own count is
// half its topic's); document 1's 200 tokens of word 1 lie 5 on each, and document 2 holds word
// 1's 160 other tokens at topic 7 (an uneven word, an even document: the word's proposals;
// document 2 has one topic and keeps the buckets). The first token of documents 0 and 1
// against its full conditional, counted here.
TEST_CASE(
    "lda: the collapsed sweep's draws by rejection, from the document's and from the word's "
    "proposals, follow the full conditional (chi-square)",
    "[lda][collapsed]") {
  const int K = 40, seeds = 10000;
  std::vector<std::vector<std::int32_t>> words(4), topics(4);
  const auto add = [&](std::size_t m, std::int32_t w, int k, int n) {
    for (int i = 0; i < n; ++i) {
      words[m].push_back(w);
      topics[m].push_back(k);
    }
  };
  for (int i = 0; i < 5; ++i)
    for (int k = 0; k < K; ++k) {
      if (i < 2) add(0, 0, k, 1);
      add(1, 1, k, 1);
    }
  add(2, 1, 7, 160);
  for (int k = 0; k < K; ++k)
    if (k != 7) add(3, 0, k, 20);
  const test::first_token_state st(K, 2, words, topics);
  std::vector<std::int32_t> every(K);
  for (int k = 0; k < K; ++k) every[static_cast<std::size_t>(k)] = k;
  const bins bin(K, every);
  const auto observed = st.first_topics(lda::estimator::collapsed, seeds);
  for (std::int64_t m = 0; m < 2; ++m) {
    const std::int64_t t = st.docs.doc_offsets[static_cast<std::size_t>(m)];
    const test::chi_square fit(observed[static_cast<std::size_t>(m)],
                               bin.probabilities(st.full_conditional(t, st.others(m))));
    INFO("document " << m << ", first token: chi2 " << fit.statistic << " on " << fit.degrees
                     << " degrees of freedom");
    CHECK(fit.p_value > 1e-3);
  }
}
