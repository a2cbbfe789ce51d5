// The small state the sweep tests (collapsed.cpp, metropolis.cpp) start every seed from, and
// the topics one sweep gives each document's first token over many seeds. Small counts and
// large priors, so that every part of a sweep is exercised: a word seen once (its own count
// is all of n_wo), a document of one token, topics a document does not have, and a token's
// own topic. The first token of a document sees its document as it was, which is what lets
// the tests compute its distribution by counting.
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
  static constexpr int K = 5;
  static constexpr double alpha = 0.7, beta = 0.3;
  lda::document_set docs;
  std::vector<std::int32_t> z;
  std::vector<double> n_wk, n_k;  // counted from z: V x K, K
  first_token_state() {
    docs.vocab_size = 4;
    const std::vector<std::vector<std::int32_t>> words = {{0, 1, 1, 2}, {3}, {2, 0, 3, 0, 1}, {1, 2}, {2, 2, 2}};
    const std::vector<std::vector<std::int32_t>> topics = {{0, 1, 1, 3}, {2}, {4, 0, 0, 2, 1}, {3, 3}, {0, 4, 0}};
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
    std::vector<double> n(K, 0.0);
    for (std::int64_t t = docs.doc_offsets[m] + 1; t < docs.doc_offsets[m + 1]; ++t) ++n[z[t]];
    return n;
  }
  // observed[m][k]: how many of `seeds` sweeps (seed 0, 1, ...) of estimator e, each one
  // iteration of an lda::sampler from this state, gave document m's first token topic k
  // (std::runtime_error for a topic outside [0, K)).
  std::vector<std::vector<int>> first_topics(lda::estimator e, int seeds) const {
    std::vector<std::vector<int>> observed(static_cast<std::size_t>(documents()), std::vector<int>(K, 0));
    for (int seed = 0; seed < seeds; ++seed) {
      lda::chain c(docs.view(), {K, alpha, beta}, static_cast<std::uint64_t>(seed), {algorithm::butterfly, 0, e});
      lda::state start;
      start.theta.assign(static_cast<std::size_t>(documents() * K), 0.0f);
      start.phi.assign(static_cast<std::size_t>(docs.vocab_size * K), 0.0f);
      start.z = z;
      lda::sampler s(c, std::move(start));
      s.iterate();
      const std::vector<std::int32_t>& after = s.current().z;
      for (std::int64_t m = 0; m < documents(); ++m) {
        const std::int32_t k = after[static_cast<std::size_t>(docs.doc_offsets[m])];
        if (k < 0 || k >= K) throw std::runtime_error("seed " + std::to_string(seed) + ": topic " + std::to_string(k));
        ++observed[static_cast<std::size_t>(m)][static_cast<std::size_t>(k)];
      }
    }
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
    p_value = boost::math::cdf(boost::math::complement(boost::math::chi_squared(degrees), statistic));
  }
};

}  // namespace butterfly::test
