// lda::topic_counts against the sampler: for every chain whose model is made from z, the theta
// and phi the sampler makes on the backend (trainer::model, sampler::theta_rows and phi_rows)
// are bit for bit the posterior means of the counts topic_counts adds on the host from z and
// the pooled sweeps: what butterfly-lda train writes (word-topic-counts.txt,
// doc-topic-counts.txt) is the model. And the arguments it refuses.
#include <catch2/catch.hpp>

#include "butterfly/lda/topic_counts.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "butterfly/lda/posterior_mean.hpp"
#include "butterfly/lda/trainer.hpp"
#include "synthetic.hpp"

using namespace butterfly;

TEST_CASE("topic_counts: a model made from z is the posterior means of its counts, bit for bit",
          "[lda][topic_counts]") {
  const auto [estimator, iterations, phased] =
      GENERATE(std::make_tuple(lda::estimator::collapsed, 100u, 0u),  // 3 pooled sweeps besides z
               std::make_tuple(lda::estimator::collapsed, 12u, 5u),
               std::make_tuple(lda::estimator::phased, 12u, 0u),
               std::make_tuple(lda::estimator::hybrid, 12u, 0u));
  CAPTURE(lda::estimator_name(estimator), iterations);
  const auto corpus = lda::testing::make_synthetic(5, 60, 40, 30, 0.3, 0.05, 11);
  lda::training_options o;
  o.hyper = {5, 0.1, 0.01};
  o.iterations = iterations;
  o.estimator = estimator;
  if (estimator == lda::estimator::collapsed) o.phased_sweeps = phased;
  o.holdout = 0.1;  // the training documents are not the corpus's
  lda::trainer t(corpus.docs.view(), 0, o);
  t.run();
  const int K = 5;
  const lda::documents& train = t.training_documents();
  const auto M = train.num_docs(), V = train.vocab_size;
  std::vector<float> theta(static_cast<std::size_t>(M * K)), phi(static_cast<std::size_t>(V * K));
  const lda::trainer::model_rows rows = t.model();
  rows.theta(0, M, theta.data());
  rows.phi(0, V, phi.data());

  std::optional<lda::topic_counts> counts = t.counts();
  REQUIRE(counts);
  lda::topic_counts& n = *counts;
  CHECK(n.sweeps() == (iterations == 100 ? 4 : 1));
  io::topic_count_rows words;
  std::vector<io::topic_count> row;
  std::int64_t tokens = 0;
  for (std::int64_t w = 0; w < V; ++w) {
    n.word_row(w, row);
    for (std::size_t i = 1; i < row.size(); ++i)  // count down, then topic up
      CHECK((row[i - 1].count > row[i].count ||
             (row[i - 1].count == row[i].count && row[i - 1].topic < row[i].topic)));
    for (const auto& e : row) tokens += e.count;
    words.names.push_back("w");
    words.entries.insert(words.entries.end(), row.begin(), row.end());
    words.offsets.push_back(static_cast<std::int64_t>(words.entries.size()));
  }
  CHECK(tokens == train.num_tokens() * n.sweeps());
  const std::vector<float> from_counts = lda::phi_of_counts(words, K, o.hyper.beta, n.sweeps());
  CHECK(from_counts == phi);

  const double prior = o.hyper.alpha * n.sweeps();
  for (std::int64_t m = 0; m < M; ++m) {
    n.document_row(m, row);
    std::vector<std::int64_t> counts(K, 0);
    for (const auto& e : row) counts[static_cast<std::size_t>(e.topic)] = e.count;
    const std::int64_t length = (train.doc_offsets[m + 1] - train.doc_offsets[m]) * n.sweeps();
    const double scale = lda::posterior_mean_scale(length, K, prior);
    for (int k = 0; k < K; ++k)
      CHECK(theta[static_cast<std::size_t>(m * K + k)] ==
            lda::posterior_mean_entry(static_cast<double>(counts[k]), prior, scale));
  }
}

TEST_CASE("topic_counts: sizes and topics that do not fit are refused, naming the argument",
          "[lda][topic_counts]") {
  lda::document_set d;
  d.vocab_size = 3;
  d.doc_offsets = {0, 2, 3};
  d.words = {0, 2, 1};
  const auto topics = [](std::vector<std::int32_t> z, std::vector<std::uint16_t> kept) {
    lda::state s;
    s.z = std::move(z);
    s.kept = std::move(kept);
    return s;
  };
  const std::vector<std::int32_t> z = {0, 1, 1};
  lda::topic_counts n(d.view(), topics(z, {1, 1, 0}), 2);
  std::vector<io::topic_count> row;
  n.document_row(0, row);  // z: 0, 1; kept: 1, 1
  REQUIRE(row.size() == 2);
  CHECK(row[0].topic == 1);
  CHECK(row[0].count == 3);
  CHECK(row[1].topic == 0);
  CHECK(n.topic_totals() == std::vector<std::int64_t>{2, 4});
  CHECK_THROWS_WITH(lda::topic_counts(d.view(), topics({0, 1}, {}), 2),
                    Catch::Contains("z has 2 topics"));
  CHECK_THROWS_WITH(lda::topic_counts(d.view(), topics(z, {1, 1}), 2),
                    Catch::Contains("kept has 2 topics"));
  CHECK_THROWS_WITH(lda::topic_counts(d.view(), topics({0, 2, 1}, {}), 2),
                    Catch::Contains("z holds topic 2"));
  CHECK_THROWS_WITH(lda::topic_counts(d.view(), topics(z, {}), 0), Catch::Contains("num_topics 0"));
  // Read where they are: the same rows and the same checks.
  const std::vector<std::uint16_t> kept = {1, 1, 0}, short_kept = {1, 1};
  lda::topic_counts viewed(d.view(), {z.data(), z.size()}, {kept.data(), kept.size()}, 2);
  std::vector<io::topic_count> viewed_row;
  viewed.document_row(0, viewed_row);
  REQUIRE(viewed_row.size() == row.size());
  for (std::size_t i = 0; i < row.size(); ++i) {
    CHECK(viewed_row[i].topic == row[i].topic);
    CHECK(viewed_row[i].count == row[i].count);
  }
  CHECK(viewed.topic_totals() == n.topic_totals());
  CHECK_THROWS_WITH(
      lda::topic_counts(d.view(), {z.data(), z.size()}, {short_kept.data(), short_kept.size()}, 2),
      Catch::Contains("kept has 2 topics"));
  // A grouping by word of other documents.
  const lda::chain other(d.view(), {2, 0.1, 0.01}, 1, {});
  lda::document_set e = d;
  e.words.push_back(0);
  e.doc_offsets.back() = 4;
  CHECK_THROWS_WITH(lda::topic_counts(e.view(), topics({0, 1, 1, 0}, {}), 2, &other.index()),
                    Catch::Contains("by_word groups 3 tokens"));
  // The chain's grouping gives the rows the counting sort here gives.
  lda::topic_counts grouped(d.view(), topics(z, {1, 1, 0}), 2, &other.index());
  std::vector<io::topic_count> mine;
  for (std::int64_t w = 0; w < 3; ++w) {
    n.word_row(w, row);
    grouped.word_row(w, mine);
    CHECK(mine.size() == row.size());
    for (std::size_t i = 0; i < std::min(mine.size(), row.size()); ++i) {
      CHECK(mine[i].topic == row[i].topic);
      CHECK(mine[i].count == row[i].count);
    }
  }
  CHECK_THROWS_AS(n.word_row(3, row), std::invalid_argument);
  CHECK_THROWS_AS(n.document_row(-1, row), std::invalid_argument);
}
