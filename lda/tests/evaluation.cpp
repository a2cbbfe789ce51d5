#include <catch2/catch.hpp>

#include "butterfly/lda/evaluation.hpp"

#include <cmath>
#include <vector>

#include "butterfly/lda/gamma.hpp"
#include "synthetic.hpp"

using namespace butterfly;
using lda::testing::make_synthetic;

TEST_CASE("lda: the held-out split is exact, disjoint and seed-keyed", "[lda][evaluation]") {
  const auto c = make_synthetic(3, 30, 101, 7, 0.5, 0.5, 1);
  const auto all = c.docs.view();
  const auto s = lda::split_holdout(all, 0.1, 5);
  REQUIRE(s.test_ids.size() == 10);  // round(0.1 * 101)
  CHECK(s.test.view().num_docs() == 10);
  CHECK(s.train.view().num_docs() == 91);
  CHECK(s.train.words.size() + s.test.words.size() == c.docs.words.size());
  // Each held-out document is the corpus document it claims to be.
  for (std::size_t i = 0; i < s.test_ids.size(); ++i) {
    const auto m = s.test_ids[i];
    const std::vector<std::int32_t> want(all.words.begin() + all.doc_offsets[m],
                                         all.words.begin() + all.doc_offsets[m + 1]);
    const std::vector<std::int32_t> got(s.test.words.begin() + s.test.doc_offsets[i],
                                        s.test.words.begin() + s.test.doc_offsets[i + 1]);
    CHECK(want == got);
  }
  CHECK(lda::split_holdout(all, 0.1, 5).test_ids == s.test_ids);
  CHECK(lda::split_holdout(all, 0.1, 6).test_ids != s.test_ids);
  CHECK(lda::split_holdout(all, 0.0, 5).test_ids.empty());
  CHECK_THROWS_WITH(lda::split_holdout(all, 1.0, 5), Catch::Contains("holdout"));
}

// With phi uniform every word has probability 1/V whatever theta is: perplexity is V.
// With the true phi it must be far lower.
TEST_CASE("lda: document-completion perplexity: V for uniform topics, lower for the true ones",
          "[lda][evaluation]") {
  const int K = 4;
  const std::int64_t V = 100;
  const auto c = make_synthetic(K, V, 50, 40, 0.2, 0.05, 8);
  const lda::hyperparameters h{K, 0.2, 0.05};
  lda::fold_in_options o;
  o.seed = 3;
  const std::vector<float> uniform(V * K, 1.0f / V);
  const auto flat = lda::completion_perplexity(c.docs.view(), uniform, h, o);
  CHECK(flat.scored_tokens == 50 * 20);
  CHECK(flat.perplexity == Approx(double(V)).epsilon(1e-5));
  const std::vector<float> truth(c.true_phi.begin(), c.true_phi.end());
  const auto good = lda::completion_perplexity(c.docs.view(), truth, h, o);
  INFO("true-topic perplexity " << good.perplexity);
  CHECK(good.perplexity < 0.5 * V);
  CHECK(good.perplexity > 1.0);
  // Deterministic.
  CHECK(lda::completion_perplexity(c.docs.view(), truth, h, o).log_likelihood ==
        good.log_likelihood);
}

TEST_CASE("lda: inferred theta puts its mass on the topics a document was drawn from",
          "[lda][evaluation]") {
  // Two topics with disjoint words: a document of words 0..4 is topic 0, of 5..9 topic 1.
  const int K = 2;
  std::vector<float> phi(10 * K, 0.0f);
  for (int w = 0; w < 10; ++w) {
    phi[w * K + 0] = w < 5 ? 0.2f : lda::probability_floor;
    phi[w * K + 1] = w < 5 ? lda::probability_floor : 0.2f;
  }
  lda::document_set d;
  d.vocab_size = 10;
  d.words = {0, 1, 2, 3, 4, 0, 1, 9, 8, 7, 6, 5, 9};
  d.doc_offsets = {0, 7, 13};
  lda::fold_in_options o;
  o.seed = 1;
  const auto theta = lda::infer_theta(d.view(), phi, {K, 0.1, 0.01}, o);
  CHECK(theta[0] > 0.95f);
  CHECK(theta[3] > 0.95f);
  CHECK(theta[0] + theta[1] == Approx(1.0f));
}
