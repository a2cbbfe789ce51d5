#include <catch2/catch.hpp>

#include "butterfly/lda/chain.hpp"

#include <cmath>
#include <set>
#include <vector>

#include "butterfly/detail/rng.hpp"
#include "butterfly/lda/gamma.hpp"
#include "butterfly/lda/sampler.hpp"
#include "butterfly/lda/training_options.hpp"
#include "synthetic.hpp"

using namespace butterfly;
using lda::testing::make_synthetic;

namespace {

// The options of estimator e; hybrid's with long_document 0, so that its Metropolis-Hastings
// moves run (its exact draw is collapsed's, tested with collapsed).
lda::sampler_options options_of(lda::estimator e, std::uint32_t burn_in = 0) {
  lda::sampler_options how{algorithm::butterfly, 0, e, burn_in};
  how.long_document = 0;
  return how;
}

// A chain that switches after `until` iterations: up to them it equals `first` (z, theta,
// phi); after them (3 more) the same whether one sampler runs on or every iteration resumes from
// the state before it; and another chain than `first`'s. Returns its state.
lda::state require_switch(const lda::chain& first, const lda::chain& switching, int until) {
  auto f = first.initial_state();
  auto s = switching.initial_state();
  for (int i = 0; i < until; ++i) {
    first.iterate(f);
    switching.iterate(s);
  }
  CHECK(s.z == f.z);
  CHECK(s.theta == f.theta);
  CHECK(s.phi == f.phi);
  lda::sampler straight(switching);
  for (int i = 0; i < until + 3; ++i) straight.iterate();
  for (int i = 0; i < 3; ++i) switching.iterate(s);
  const lda::state& on = straight.current();
  CHECK(on.iteration == s.iteration);
  CHECK(on.z == s.z);
  CHECK(on.theta == s.theta);
  CHECK(on.phi == s.phi);
  for (int i = 0; i < 3; ++i) first.iterate(f);
  CHECK(s.z != f.z);
  return s;
}

// For each true topic, the best cosine similarity with any learned topic (columns of phi).
std::vector<double> best_cosines(const std::vector<double>& truth,
                                 const std::vector<float>& learned, std::int64_t V, int K) {
  std::vector<double> best(K, -1.0);
  for (int a = 0; a < K; ++a)
    for (int b = 0; b < K; ++b) {
      double ab = 0, aa = 0, bb = 0;
      for (std::int64_t w = 0; w < V; ++w) {
        ab += truth[w * K + a] * learned[w * K + b];
        aa += truth[w * K + a] * truth[w * K + a];
        bb += double(learned[w * K + b]) * learned[w * K + b];
      }
      best[a] = std::max(best[a], ab / std::sqrt(aa * bb));
    }
  return best;
}

void check_distributions(const lda::state& s, std::int64_t M, std::int64_t V, int K) {
  for (std::int64_t m = 0; m < M; ++m) {
    double sum = 0;
    for (int k = 0; k < K; ++k) sum += s.theta[m * K + k];
    REQUIRE(sum == Approx(1.0).epsilon(1e-5));
  }
  for (int k = 0; k < K; ++k) {
    double sum = 0;
    for (std::int64_t w = 0; w < V; ++w) sum += s.phi[w * K + k];
    REQUIRE(sum == Approx(1.0).epsilon(1e-5));
  }
  for (float x : s.theta) REQUIRE(x >= lda::probability_floor);
  for (float x : s.phi) REQUIRE(x >= lda::probability_floor);
}

}  // namespace

// 8 sparse topics (Dirichlet(0.05) over 200 words), 400 documents of 80 tokens. After 60
// iterations the sampler reaches a mean best cosine of 0.95 (seed 7, every algorithm);
// topics that only reflected the overall word frequencies would score far lower, since
// random sparse topics overlap little. Threshold: 0.9.
TEST_CASE("lda: the sampler recovers the topics of a synthetic corpus", "[lda][chain]") {
  const int K = 8;
  const auto c = make_synthetic(K, 200, 400, 80, 0.2, 0.05, 42);
  for (algorithm method : all_algorithms) {
    CAPTURE(name(method));
    lda::chain chain(c.docs.view(), {K, 0.2, 0.05}, 7, {method});
    auto s = chain.initial_state();
    for (int i = 0; i < 60; ++i) chain.iterate(s);
    CHECK(s.iteration == 60);
    check_distributions(s, 400, 200, K);
    const auto best = best_cosines(c.true_phi, s.phi, c.V, K);
    double mean = 0;
    for (double b : best) mean += b / K;
    INFO("mean best cosine " << mean);
    CHECK(mean > 0.9);
  }
}

TEST_CASE("lda: the log-likelihood rises over the early iterations", "[lda][chain]") {
  const int K = 8;
  const auto c = make_synthetic(K, 200, 400, 80, 0.2, 0.05, 3);
  lda::chain chain(c.docs.view(), {K, 0.2, 0.05}, 11, {algorithm::butterfly});
  auto s = chain.initial_state();
  std::vector<double> ll = {chain.log_likelihood(s)};
  for (int i = 0; i < 20; ++i) {
    chain.iterate(s);
    ll.push_back(chain.log_likelihood(s));
  }
  INFO("ll[0] " << ll[0] << " ll[5] " << ll[5] << " ll[20] " << ll[20]);
  CHECK(ll[5] > ll[0]);
  CHECK(ll[20] > ll[5]);
  // Every p(w) is a probability.
  for (double x : ll) CHECK(x < 0.0);
}

TEST_CASE("lda: the same seed gives the same bits, another seed another state", "[lda][chain]") {
  const int K = 5;
  const auto c = make_synthetic(K, 50, 60, 30, 0.3, 0.1, 5);
  auto run = [&](std::uint64_t seed) {
    lda::chain chain(c.docs.view(), {K, 0.3, 0.1}, seed, {algorithm::butterfly});
    auto s = chain.initial_state();
    for (int i = 0; i < 5; ++i) chain.iterate(s);
    return s;
  };
  const auto a = run(1), b = run(1), d = run(2);
  CHECK(a.theta == b.theta);
  CHECK(a.phi == b.phi);
  CHECK(a.z == b.z);
  CHECK(a.phi != d.phi);
}

// sampler_options::start_topics, recomputed here from its definition: with S, token t at
// place i of its document gets (bits[0] * K) >> 32 of its Philox block when i < S (the
// uniform start's topic, the same as with S = 0), else the topic of the document's token at
// place (bits[1] * S) >> 32. Documents of 0 to 45 tokens and one of 3000; K = 130; a chain
// of the second of two shards draws what the whole corpus's draws there.
TEST_CASE("lda: start_topics S: a document's first S tokens keep uniform topics, later ones copy",
          "[lda][chain]") {
  const int K = 130;
  const std::uint64_t seed = 99;
  lda::document_set d;
  d.vocab_size = 11;
  for (int m = 0; m < 200; ++m) {
    const int length = m == 150 ? 3000 : (m * 7) % 46;
    for (int i = 0; i < length; ++i) d.words.push_back((m + i * 3) % 11);
    d.doc_offsets.push_back(static_cast<std::int64_t>(d.words.size()));
  }
  for (const std::uint32_t S : {0u, 1u, 4u, 16u}) {
    INFO("start_topics " << S);
    lda::sampler_options how{algorithm::butterfly};
    how.estimator = lda::estimator::collapsed;
    how.start_topics = S;
    const std::vector<std::int32_t> z =
        lda::chain(d.view(), {K, 0.1, 0.01}, seed, how).initial_state().z;
    std::vector<std::int32_t> want(z.size());
    std::int64_t copied = 0;
    for (std::size_t m = 0; m + 1 < d.doc_offsets.size(); ++m) {
      const std::int64_t begin = d.doc_offsets[m], end = d.doc_offsets[m + 1];
      std::set<std::int32_t> topics;
      for (std::int64_t t = begin; t < end; ++t) {
        const auto r = rng::bits(seed, 0, rng::stream::z, static_cast<std::uint64_t>(t));
        const std::size_t at = static_cast<std::size_t>(t);
        if (S == 0 || t - begin < S) {
          want[at] = static_cast<std::int32_t>((std::uint64_t{r[0]} * K) >> 32);
        } else {
          want[at] = want[static_cast<std::size_t>(begin) + ((std::uint64_t{r[1]} * S) >> 32)];
          ++copied;
        }
        topics.insert(z[at]);
      }
      if (S > 0) CHECK(topics.size() <= S);
    }
    CHECK(z == want);
    CHECK((S == 0) == (copied == 0));
    // The shard's z: its tokens keyed by their whole-corpus numbers.
    const lda::shard second = lda::shard_of(d.view(), 2, 1);
    REQUIRE(second.num_tokens() > 0);
    const std::vector<std::int32_t> part =
        lda::chain(d.view(), {K, 0.1, 0.01}, seed, how, second, {}).initial_state().z;
    CHECK(part ==
          std::vector<std::int32_t>(z.begin() + second.first_token, z.begin() + second.end_token));
  }
  // The trainer's default: 1 from 128 documents per topic up, 4 from 16, else the uniform start.
  CHECK(lda::default_start_topics(128 * 240, 240) == 1);
  CHECK(lda::default_start_topics(128 * 240 - 1, 240) == 4);
  CHECK(lda::default_start_topics(16 * 240, 240) == 4);
  CHECK(lda::default_start_topics(16 * 240 - 1, 240) == 0);
  CHECK(lda::default_start_topics(0, 1) == 0);
}

TEST_CASE("lda: the trainer's sweep blocks: 16 below 4 documents per topic where they apply",
          "[lda][chain]") {
  CHECK(lda::default_sweep_blocks(lda::estimator::collapsed, 4 * 240 - 1, 240) == 16);
  CHECK(lda::default_sweep_blocks(lda::estimator::hybrid, 0, 240) == 16);
  CHECK(lda::default_sweep_blocks(lda::estimator::collapsed, 4 * 240, 240) == 1);
  for (const lda::estimator e :
       {lda::estimator::mean, lda::estimator::sample, lda::estimator::mh, lda::estimator::phased})
    CHECK(lda::default_sweep_blocks(e, 1, 240) == 1);
  lda::training_options o;
  o.hyper.num_topics = 240;
  CHECK(lda::resolved(o, 4 * 240 - 1, 0).sweep_blocks == 16u);
  CHECK(lda::resolved(o, 4 * 240, 0).sweep_blocks == 1u);
  o.sweep_blocks = 3;  // given: kept
  CHECK(lda::resolved(o, 1, 0).sweep_blocks == 3u);
}

TEST_CASE(
    "lda: the trainer's phased sweeps: 50 of collapsed's where the documents average "
    "phased_from_length tokens, 10 where shorter (20 from K = more_phased_from_topics), both "
    "where they number at least K, else none",
    "[lda][chain]") {
  const std::int64_t L = lda::phased_from_length;
  CHECK(lda::long_document_phased_sweeps == 50u);
  CHECK(lda::short_document_phased_sweeps == 10u);
  CHECK(lda::default_phased_sweeps(40, 40 * L, 10) == 50u);
  CHECK(lda::default_phased_sweeps(10, 10 * L, 10) == 50u);
  CHECK(lda::default_phased_sweeps(9, 9 * L, 10) == 0u);
  CHECK(lda::default_phased_sweeps(40, 40 * L - 1, 10) == 10u);
  CHECK(lda::default_phased_sweeps(10, 10, 10) == 10u);
  CHECK(lda::default_phased_sweeps(10, 10 * L - 1, 10) == 10u);
  CHECK(lda::default_phased_sweeps(9, 9, 10) == 0u);
  CHECK(lda::default_phased_sweeps(0, 0, 1) == 0u);
  // From more_phased_from_topics topics short documents take 20, long ones still 50.
  const int big = lda::more_phased_from_topics;
  CHECK(big == 4096);
  CHECK(lda::many_topics_short_document_phased_sweeps == 20u);
  CHECK(lda::default_phased_sweeps(big, big, big) == 20u);
  CHECK(lda::default_phased_sweeps(big, big, big - 1) == 10u);
  CHECK(lda::default_phased_sweeps(big, big * L, big) == 50u);
  CHECK(lda::default_phased_sweeps(big - 1, big - 1, big) == 0u);
  lda::training_options o;
  o.hyper.num_topics = 10;
  CHECK(o.estimator == lda::estimator::collapsed);
  CHECK(lda::resolved(o, 40, 40 * L).phased_sweeps == 50u);
  CHECK(lda::resolved(o, 40, 40 * L - 1).phased_sweeps == 10u);
  CHECK(lda::resolved(o, 9, 9 * L).phased_sweeps == 0u);
  // Another estimator has none.
  for (const auto e : {lda::estimator::mean, lda::estimator::sample, lda::estimator::mh,
                       lda::estimator::hybrid, lda::estimator::phased}) {
    o.estimator = e;
    CHECK(lda::resolved(o, 40, 40 * L).phased_sweeps == 0u);
  }
  o.estimator = lda::estimator::collapsed;
  o.phased_sweeps = 0;  // given: kept
  CHECK(lda::resolved(o, 40, 40 * L).phased_sweeps == 0u);
  o.phased_sweeps = 7;
  CHECK(lda::resolved(o, 40, 40 * L - 1).phased_sweeps == 7u);
  CHECK(lda::sampler_options_of(lda::resolved(o, 40, 40 * L)).phased_sweeps == 7u);
}

TEST_CASE("lda: empty documents and unused words are handled", "[lda][chain]") {
  lda::document_set d;
  d.vocab_size = 6;  // words 4 and 5 never occur
  d.words = {0, 1, 1, 2, 3, 3, 0};
  d.doc_offsets = {0, 0, 4, 4, 7, 7};  // documents 0, 2 and 4 are empty
  lda::chain chain(d.view(), {3, 0.1, 0.01}, 1, {algorithm::butterfly});
  auto s = chain.initial_state();
  for (int i = 0; i < 5; ++i) chain.iterate(s);
  check_distributions(s, 5, 6, 3);
  for (auto z : s.z) CHECK((z >= 0 && z < 3));
  CHECK(std::isfinite(chain.log_likelihood(s)));
}

TEST_CASE("lda: bad hyperparameters and word ids are refused", "[lda][chain]") {
  lda::document_set d;
  d.vocab_size = 2;
  d.words = {0, 2};
  d.doc_offsets = {0, 2};
  CHECK_THROWS_WITH(lda::chain(d.view(), {3, 0.1, 0.01}, 1, {algorithm::basic}),
                    Catch::Contains("word id 2"));
  d.words = {0, 1};
  CHECK_THROWS_WITH(lda::chain(d.view(), {0, 0.1, 0.01}, 1, {algorithm::basic}),
                    Catch::Contains("topics"));
  CHECK_THROWS_WITH(lda::chain(d.view(), {3, -1, 0.01}, 1, {algorithm::basic}),
                    Catch::Contains("alpha"));
  CHECK_THROWS_WITH(lda::chain(d.view(), {3, 0.1, NAN}, 1, {algorithm::basic}),
                    Catch::Contains("beta"));
}

TEST_CASE("lda: an unsupported width is refused, naming it", "[lda][chain]") {
  lda::document_set d;
  d.vocab_size = 2;
  d.words = {0, 1};
  d.doc_offsets = {0, 2};
  CHECK_THROWS_WITH(lda::chain(d.view(), {3, 0.1, 0.01}, 1, {algorithm::basic, 3}),
                    Catch::Contains("width 3"));
  CHECK_THROWS_WITH(lda::parse_estimator("mode"), Catch::Contains("'mode'"));
}

// The mean estimator's theta and phi are the posterior means of the counts of z, recounted
// here from z itself: theta[m,k] = (n_mk + alpha) / (n_m + K alpha), phi[w,k] = (n_wk +
// beta) / (n_k + V beta), one double rounded to float (floors are far below these values).
// So are the collapsed and mh estimators' (their z is drawn differently; their model is the
// same function of z).
TEST_CASE(
    "lda: the mean, collapsed, mh, hybrid and phased estimators give the posterior means of the "
    "counts of z",
    "[lda][chain]") {
  const int K = 8;
  const auto c = make_synthetic(K, 200, 300, 60, 0.2, 0.05, 5);
  const auto docs = c.docs.view();
  const double alpha = 0.2, beta = 0.05;
  const auto e = GENERATE(lda::estimator::mean, lda::estimator::collapsed, lda::estimator::mh,
                          lda::estimator::hybrid, lda::estimator::phased);
  INFO("estimator " << lda::estimator_name(e));
  lda::chain chain(docs, {K, alpha, beta}, 3, options_of(e));
  auto s = chain.initial_state();
  for (int i = 0; i < 4; ++i) chain.iterate(s);
  const std::int64_t M = docs.num_docs(), V = docs.vocab_size;
  std::vector<std::int64_t> n_wk(V * K, 0), n_k(K, 0);
  for (std::int64_t m = 0; m < M; ++m) {
    std::vector<std::int64_t> n(K, 0);
    for (std::int64_t t = docs.doc_offsets[m]; t < docs.doc_offsets[m + 1]; ++t) {
      ++n[s.z[t]];
      ++n_wk[docs.words[t] * K + s.z[t]];
      ++n_k[s.z[t]];
    }
    const double len = double(docs.doc_offsets[m + 1] - docs.doc_offsets[m]);
    for (int k = 0; k < K; ++k)
      REQUIRE(s.theta[m * K + k] == static_cast<float>((n[k] + alpha) * (1.0 / (len + K * alpha))));
  }
  for (std::int64_t w = 0; w < V; ++w)
    for (int k = 0; k < K; ++k)
      REQUIRE(s.phi[w * K + k] ==
              static_cast<float>((n_wk[w * K + k] + beta) * (1.0 / (n_k[k] + V * beta))));
  check_distributions(s, M, V, K);
}

// Mean-for-mode and the collapsed and mh samplers still learn the topics (same corpus and
// threshold as the sampler's test).
TEST_CASE(
    "lda: the mean, collapsed, mh, hybrid and phased estimators recover the topics of a synthetic "
    "corpus",
    "[lda][chain]") {
  const int K = 8;
  const auto c = make_synthetic(K, 200, 400, 80, 0.2, 0.05, 42);
  const auto e = GENERATE(lda::estimator::mean, lda::estimator::collapsed, lda::estimator::mh,
                          lda::estimator::hybrid, lda::estimator::phased);
  INFO("estimator " << lda::estimator_name(e));
  lda::chain chain(c.docs.view(), {K, 0.2, 0.05}, 7, options_of(e));
  auto s = chain.initial_state();
  for (int i = 0; i < 60; ++i) chain.iterate(s);
  double mean = 0;
  for (double cos : best_cosines(c.true_phi, s.phi, c.V, K)) mean += cos / K;
  INFO("mean best cosine " << mean);
  CHECK(mean > 0.9);
}

// estimator::collapsed and mh with a burn-in: up to it, the mean estimator's chain; after it,
// the same whether one sampler runs on or every iteration resumes from the state before it.
TEST_CASE(
    "lda: the collapsed and mh estimators' burn-in is the mean estimator's chain, and resuming "
    "across it runs on",
    "[lda][chain]") {
  const int K = 8;
  const auto c = make_synthetic(K, 200, 300, 60, 0.2, 0.05, 11);
  const auto docs = c.docs.view();
  const lda::hyperparameters h{K, 0.2, 0.05};
  const auto e = GENERATE(lda::estimator::collapsed, lda::estimator::mh, lda::estimator::hybrid,
                          lda::estimator::phased);
  INFO("estimator " << lda::estimator_name(e));
  const lda::chain mean(docs, h, 3, {algorithm::butterfly, 0, lda::estimator::mean});
  require_switch(mean, lda::chain(docs, h, 3, options_of(e, 3)), 3);
}

// sampler_options::phased_sweeps: collapsed's first sweeps (after any burn-in) are the phased
// estimator's chain; after them the collapsed chain's sweeps, the same whether one sampler runs
// on or every iteration resumes from the state before it (a sampler made past the switch holds
// no phases' scratch).
TEST_CASE(
    "lda: collapsed's phased sweeps are the phased estimator's chain, then collapsed's sweeps, "
    "and resuming across the switch runs on",
    "[lda][chain]") {
  const int K = 8;
  const auto c = make_synthetic(K, 200, 300, 60, 0.2, 0.05, 13);
  const auto docs = c.docs.view();
  const lda::hyperparameters h{K, 0.2, 0.05};
  const std::uint32_t burn_in = GENERATE(0u, 2u);
  INFO("burn-in " << burn_in);
  const lda::chain phased(docs, h, 3, options_of(lda::estimator::phased, burn_in));
  lda::sampler_options how = options_of(lda::estimator::collapsed, burn_in);
  how.phased_sweeps = 3;
  how.iterations = burn_in + 6;
  const lda::state s =
      require_switch(phased, lda::chain(docs, h, 3, how), static_cast<int>(burn_in) + 3);
  // The same iterations as collapsed's own sweeps draw another chain.
  const lda::chain collapsed(docs, h, 3, options_of(lda::estimator::collapsed, burn_in));
  auto o = collapsed.initial_state();
  for (std::uint32_t i = 0; i < burn_in + 6; ++i) collapsed.iterate(o);
  CHECK(o.z != s.z);
}

// sampler_options::average: which sweeps a run pools (written out by hand from the rule in
// chain.hpp: average - 1 sweeps, max(1, iterations / (8 (average - 1))) apart, before the last).
TEST_CASE(
    "lda: pooled_sweeps spreads average - 1 sweeps over the run's last eighth, only where it "
    "applies",
    "[lda][chain]") {
  const auto pooled = [](std::uint32_t average, std::uint32_t iterations,
                         lda::estimator e = lda::estimator::collapsed, std::uint32_t burn_in = 0) {
    lda::sampler_options how;
    how.estimator = e;
    how.burn_in = burn_in;
    how.average = average;
    how.iterations = iterations;
    return lda::pooled_sweeps(how);
  };
  using list = std::vector<std::uint32_t>;
  CHECK(pooled(4, 100) == list{88, 92, 96});
  CHECK(pooled(4, 200) == list{176, 184, 192});
  CHECK(pooled(4, 1000) == list{877, 918, 959});
  CHECK(pooled(2, 150) == list{132});
  CHECK(pooled(16, 100) == list{85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99});
  CHECK(pooled(4, 99).empty());  // shorter than lda::pooling_from
  CHECK(pooled(1, 1000).empty());
  CHECK(pooled(0, 1000).empty());
  CHECK(pooled(4, 1000, lda::estimator::mean).empty());
  CHECK(pooled(4, 1000, lda::estimator::collapsed, 10).empty());
  CHECK(lda::default_average(lda::estimator::collapsed, 0) == 4);
  CHECK(lda::default_average(lda::estimator::collapsed, 5) == 1);
  CHECK(lda::default_average(lda::estimator::mh, 0) == 1);
  CHECK(lda::default_average(lda::estimator::sample, 0) == 1);
}

TEST_CASE(
    "lda: a chain refuses to pool sweeps where its model is not made from z, or more than "
    "max_average, and sweep blocks where the estimator does not sweep collapsed's tables",
    "[lda][chain]") {
  const auto c = make_synthetic(3, 20, 10, 8, 0.5, 0.1, 1);
  lda::hyperparameters h;
  h.num_topics = 3;
  lda::sampler_options how;
  SECTION("average") {
    how.iterations = 200;
    how.average = 4;
    for (const auto e : {lda::estimator::mean, lda::estimator::sample, lda::estimator::mh}) {
      how.estimator = e;
      CHECK_THROWS_WITH(lda::chain(c.docs.view(), h, 1, how),
                        Catch::Contains("sampler_options::average") && Catch::Contains("got 4"));
    }
    how.estimator = lda::estimator::collapsed;
    how.burn_in = 3;
    CHECK_THROWS_WITH(lda::chain(c.docs.view(), h, 1, how), Catch::Contains("without a burn-in"));
    how.burn_in = 0;
    how.average = lda::max_average + 1;
    CHECK_THROWS_WITH(lda::chain(c.docs.view(), h, 1, how), Catch::Contains("at most 16"));
    how.average = lda::max_average;
    CHECK_NOTHROW(lda::chain(c.docs.view(), h, 1, how));
  }
  SECTION("more than max_table_topics topics with collapsed's tables") {
    for (const auto e :
         {lda::estimator::collapsed, lda::estimator::hybrid, lda::estimator::phased}) {
      how.estimator = e;
      h.num_topics = lda::max_table_topics + 1;
      CHECK_THROWS_WITH(lda::chain(c.docs.view(), h, 1, how),
                        Catch::Contains("num_topics") && Catch::Contains("got 65537"));
    }
  }
  SECTION("phased sweeps: with an estimator other than collapsed") {
    how.phased_sweeps = 2;
    for (const auto e : {lda::estimator::mean, lda::estimator::sample, lda::estimator::mh,
                         lda::estimator::hybrid, lda::estimator::phased}) {
      how.estimator = e;
      CHECK_THROWS_WITH(lda::chain(c.docs.view(), h, 1, how),
                        Catch::Contains("phased_sweeps must be 0 unless the estimator is "
                                        "collapsed; got 2"));
    }
    how.estimator = lda::estimator::collapsed;
    CHECK_NOTHROW(lda::chain(c.docs.view(), h, 1, how));
  }
  SECTION("sweep blocks: none, more than max_sweep_blocks, or with mean, sample, mh or phased") {
    how.sweep_blocks = 2;
    for (const auto e : {lda::estimator::mean, lda::estimator::sample, lda::estimator::mh,
                         lda::estimator::phased}) {
      how.estimator = e;
      CHECK_THROWS_WITH(
          lda::chain(c.docs.view(), h, 1, how),
          Catch::Contains("sampler_options::sweep_blocks") && Catch::Contains("got 2"));
    }
    for (const auto e : {lda::estimator::collapsed, lda::estimator::hybrid}) {
      how.estimator = e;
      how.sweep_blocks = 0;
      CHECK_THROWS_WITH(lda::chain(c.docs.view(), h, 1, how), Catch::Contains("got 0"));
      how.sweep_blocks = lda::max_sweep_blocks + 1;
      CHECK_THROWS_WITH(lda::chain(c.docs.view(), h, 1, how), Catch::Contains("from 1 to 1024"));
      // More blocks than documents: the empty ones still count.
      how.sweep_blocks = lda::max_sweep_blocks;
      CHECK_NOTHROW(lda::chain(c.docs.view(), h, 1, how));
    }
  }
}
