// The small state the sweep tests (collapsed.cpp, metropolis.cpp) start every seed from, and
// the topics one sweep gives each document's tokens over many seeds. Small counts and
// large priors, so that every part of a sweep is exercised: a word seen once (its own count
// is all of n_wo), a document of one token, topics a document does not have, and a token's
// own topic. The first token of a document sees its document as it was, which is what lets
// the tests compute its distribution by counting (and the second's, given the first's).
// The state's five topics can be spread over more (K > 64: the topic sets of the collapsed
// sweep span several 64-bit words).
#pragma once

#include <boost/math/distributions/chi_squared.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "butterfly/lda/chain.hpp"
#include "butterfly/lda/sampler.hpp"

namespace butterfly::test {

struct first_token_state {
  int K = 5;
  static constexpr double alpha = 0.7, beta = 0.3;
  lda::document_set docs;
  std::vector<std::int32_t> z;
  std::vector<double> n_wk, n_k;  // counted from z: V x K, K
  // The five topics of the state are topics[0..4] of K (by default 0..4 of 5).
  explicit first_token_state(int topics_in_all = 5,
                             const std::vector<std::int32_t>& topic = {0, 1, 2, 3, 4})
      : first_token_state(topics_in_all, 4, {{0, 1, 1, 2}, {3}, {2, 0, 3, 0, 1}, {1, 2}, {2, 2, 2}},
                          {{topic[0], topic[1], topic[1], topic[3]},
                           {topic[2]},
                           {topic[4], topic[0], topic[0], topic[2], topic[1]},
                           {topic[3], topic[3]},
                           {topic[0], topic[4], topic[0]}}) {}
  // Another state: each document's words and their topics, of K topics and V words.
  first_token_state(int topics_in_all, std::int64_t V,
                    const std::vector<std::vector<std::int32_t>>& words,
                    const std::vector<std::vector<std::int32_t>>& topics)
      : K(topics_in_all) {
    docs.vocab_size = V;
    for (std::size_t m = 0; m < words.size(); ++m) {
      docs.words.insert(docs.words.end(), words[m].begin(), words[m].end());
      z.insert(z.end(), topics[m].begin(), topics[m].end());
      docs.doc_offsets.push_back(static_cast<std::int64_t>(docs.words.size()));
    }
    n_wk.assign(static_cast<std::size_t>(docs.vocab_size * K), 0.0);
    n_k.assign(K, 0.0);
    for (std::size_t t = 0; t < z.size(); ++t) {
      ++n_wk[static_cast<std::size_t>(docs.words[t] * K + z[t])];
      ++n_k[static_cast<std::size_t>(z[t])];
    }
  }
  std::int64_t documents() const { return docs.view().num_docs(); }
  // n_mk of document m's tokens after its first.
  std::vector<double> others(std::int64_t m) const {
    std::vector<double> n(static_cast<std::size_t>(K), 0.0);
    for (std::int64_t t = docs.doc_offsets[m] + 1; t < docs.doc_offsets[m + 1]; ++t)
      ++n[static_cast<std::size_t>(z[t])];
    return n;
  }
  // The weights of the collapsed sampler's full conditional of token t of document m (word w,
  // previous topic o) when its document's other tokens have counts n_mk: the word counts
  // those of z, without the token itself at o.
  std::vector<double> full_conditional(std::int64_t t, const std::vector<double>& n_mk) const {
    const int w = docs.words[static_cast<std::size_t>(t)], o = z[static_cast<std::size_t>(t)];
    const double V = static_cast<double>(docs.vocab_size);
    std::vector<double> p(static_cast<std::size_t>(K));
    for (int k = 0; k < K; ++k) {
      const double self = k == o ? 1.0 : 0.0;
      p[static_cast<std::size_t>(k)] = (n_mk[static_cast<std::size_t>(k)] + alpha) *
                                       (n_wk[static_cast<std::size_t>(w * K + k)] - self + beta) /
                                       (n_k[static_cast<std::size_t>(k)] - self + V * beta);
    }
    return p;
  }
  // z after one sweep of estimator e from this state, one iteration of an lda::sampler with
  // each seed 0 .. seeds - 1 (std::runtime_error for a topic outside [0, K)); for
  // estimator::hybrid with its long_document.
  std::vector<std::vector<std::int32_t>> sweeps(
      lda::estimator e, int seeds, std::uint32_t long_document = lda::hybrid_long_document) const {
    std::vector<std::vector<std::int32_t>> out;
    for (int seed = 0; seed < seeds; ++seed) {
      lda::sampler_options how{algorithm::butterfly, 0, e};
      how.long_document = long_document;
      lda::chain c(docs.view(), {K, alpha, beta}, static_cast<std::uint64_t>(seed), how);
      lda::state start;
      start.theta.assign(static_cast<std::size_t>(documents() * K), 0.0f);
      start.phi.assign(static_cast<std::size_t>(docs.vocab_size * K), 0.0f);
      start.z = z;
      lda::sampler s(c, std::move(start));
      s.iterate();
      out.push_back(s.current().z);
      for (const std::int32_t k : out.back())
        if (k < 0 || k >= K)
          throw std::runtime_error("seed " + std::to_string(seed) + ": topic " + std::to_string(k));
    }
    return out;
  }
  // observed[m][k]: how many of `seeds` sweeps gave document m's first token topic k.
  std::vector<std::vector<int>> first_topics(
      lda::estimator e, int seeds, std::uint32_t long_document = lda::hybrid_long_document) const {
    std::vector<std::vector<int>> observed(static_cast<std::size_t>(documents()),
                                           std::vector<int>(static_cast<std::size_t>(K), 0));
    for (const auto& after : sweeps(e, seeds, long_document))
      for (std::int64_t m = 0; m < documents(); ++m)
        ++observed[static_cast<std::size_t>(m)]
                  [static_cast<std::size_t>(after[static_cast<std::size_t>(docs.doc_offsets[m])])];
    return observed;
  }
};

// Pearson's chi-square of counts against probabilities p (summing to 1) and its p-value.
struct chi_square {
  double statistic = 0, p_value = 0;
  int degrees = 0;
  chi_square(const std::vector<int>& counts, const std::vector<double>& p) {
    double n = 0;
    for (int c : counts) n += c;
    for (std::size_t k = 0; k < p.size(); ++k) {
      const double expected = n * p[k], diff = counts[k] - expected;
      statistic += diff * diff / expected;
    }
    degrees = static_cast<int>(p.size()) - 1;
    p_value =
        boost::math::cdf(boost::math::complement(boost::math::chi_squared(degrees), statistic));
  }
};

}  // namespace butterfly::test
