// What distributed training relies on, checked in one process: shards tile the corpus,
// a slice drawn with draw_options.first_token gets the whole corpus's z, per-shard
// partial sums concatenated in shard order give the whole corpus's totals bit for bit, and
// shards whose counts a sum between threads combines draw the whole corpus's z.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/lda/chain.hpp"
#include "butterfly/lda/evaluation.hpp"
#include "butterfly/lda/sampler.hpp"
#include "synthetic.hpp"

namespace lda = butterfly::lda;
using butterfly::algorithm;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// A corpus with uneven document lengths (0 to 60 tokens), so token balance matters.
lda::document_set uneven_corpus(std::int64_t M, std::int64_t V, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int> length(0, 60);
  std::uniform_int_distribution<std::int32_t> word(0, static_cast<std::int32_t>(V - 1));
  lda::document_set d;
  d.vocab_size = V;
  for (std::int64_t m = 0; m < M; ++m) {
    const int L = m % 7 == 0 ? 0 : length(gen);
    for (int i = 0; i < L; ++i) d.words.push_back(word(gen));
    d.doc_offsets.push_back(static_cast<std::int64_t>(d.words.size()));
  }
  return d;
}

// A count combiner for `parties` threads, as MPI_Allreduce is for ranks: each call waits until
// every party has made it, then every party's buffer holds the element-wise sum.
class thread_sum {
 public:
  explicit thread_sum(int parties) : parties_(parties) {}
  void operator()(std::int32_t* data, std::size_t n) {
    std::unique_lock<std::mutex> lock(m_);
    const std::uint64_t round = round_;
    if (arrived_ == 0) sum_.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) sum_[i] += data[i];
    if (++arrived_ == parties_) {
      arrived_ = 0;
      ++round_;
      result_ = sum_;      // kept until every party of this round has taken it: the next round
      done_.notify_all();  // ends only when this one's parties call again
    } else {
      done_.wait(lock, [&] { return round_ != round; });
    }
    std::copy(result_.begin(), result_.end(), data);
  }

 private:
  int parties_, arrived_ = 0;
  std::uint64_t round_ = 0;
  std::vector<std::int32_t> sum_, result_;
  std::mutex m_;
  std::condition_variable done_;
};

// z after `iterations` of `parts` shards on the reference backend (host memory), one thread
// each, their counts summed by thread_sum; the shards' z concatenated in shard order.
std::vector<std::int32_t> sharded_z(lda::documents docs, const lda::hyperparameters& h,
                                    const lda::sampler_options& how, int parts, int iterations) {
  thread_sum sum(parts);
  const lda::count_combiner combine = [&](std::int32_t* c, std::size_t n) { sum(c, n); };
  std::vector<std::vector<std::int32_t>> z(static_cast<std::size_t>(parts));
  std::vector<std::exception_ptr> failed(z.size());
  std::vector<std::thread> threads;
  for (int p = 0; p < parts; ++p)
    threads.emplace_back([&, p] {
      try {
        const lda::chain c(docs, h, 5, how, lda::shard_of(docs, parts, p), combine);
        lda::sampler s(c, butterfly::detail::reference_executor());
        for (int i = 0; i < iterations; ++i) s.iterate();
        z[static_cast<std::size_t>(p)] = s.current_z();
      } catch (...) {
        failed[static_cast<std::size_t>(p)] = std::current_exception();
      }
    });
  for (std::thread& t : threads) t.join();
  std::vector<std::int32_t> all;
  for (std::size_t p = 0; p < z.size(); ++p) {
    if (failed[p]) std::rethrow_exception(failed[p]);
    all.insert(all.end(), z[p].begin(), z[p].end());
  }
  return all;
}

}  // namespace

TEST_CASE("mpi-shard: shard_of tiles the corpus in likelihood blocks balanced by tokens",
          "[mpi][shard]") {
  const auto d = uneven_corpus(1000, 50, 3);
  const auto docs = d.view();
  for (int parts : {1, 2, 3, 5, 8, 16, 40}) {
    CAPTURE(parts);
    std::int64_t next_doc = 0, largest = 0;
    for (int p = 0; p < parts; ++p) {
      const auto s = lda::shard_of(docs, parts, p);
      CHECK(s.first_doc == next_doc);
      CHECK(s.first_doc % lda::likelihood_block == 0);
      CHECK(s.first_token == docs.doc_offsets[s.first_doc]);
      CHECK(s.end_token == docs.doc_offsets[s.end_doc]);
      next_doc = s.end_doc;
      largest = std::max(largest, s.num_tokens());
    }
    CHECK(next_doc == docs.num_docs());
    // Cuts fall on block boundaries, so a part may exceed N / parts by at most about one
    // block's tokens on either side.
    std::int64_t block_tokens = 0;
    for (std::int64_t b = 0; b < docs.num_docs(); b += lda::likelihood_block)
      block_tokens = std::max(
          block_tokens, docs.doc_offsets[std::min(b + lda::likelihood_block, docs.num_docs())] -
                            docs.doc_offsets[b]);
    CHECK(largest <= docs.num_tokens() / parts + 2 * block_tokens);
  }
  // More parts than blocks: the extra parts are empty, never overlapping.
  const auto tiny = uneven_corpus(70, 10, 4);
  std::int64_t covered = 0;
  for (int p = 0; p < 5; ++p) covered += lda::shard_of(tiny.view(), 5, p).num_docs();
  CHECK(covered == 70);
  CHECK_THROWS_AS(lda::shard_of(docs, 3, 3), std::invalid_argument);
}

TEST_CASE("mpi-shard: a slice drawn with first_token gets the z of the whole corpus",
          "[mpi][shard]") {
  const int K = 13;
  const auto d = uneven_corpus(300, 40, 5);
  const std::int64_t M = d.view().num_docs(), N = d.view().num_tokens();
  std::mt19937_64 gen(6);
  std::uniform_real_distribution<float> weight(0.01f, 1.0f);
  std::vector<float> theta(static_cast<std::size_t>(M * K)), phi(static_cast<std::size_t>(40 * K));
  for (auto& x : theta) x = weight(gen);
  for (auto& x : phi) x = weight(gen);
  for (algorithm a : butterfly::all_algorithms) {
    butterfly::draw_options o;
    o.method = a;
    o.seed = 7;
    o.iteration = 3;
    std::vector<std::int32_t> whole(static_cast<std::size_t>(N));
    butterfly::reference::draw_topics(theta, phi, K, d.doc_offsets, d.words, whole, o);
    const std::int64_t m0 = 37, m1 = 211;  // deliberately not on a block boundary
    const std::int64_t t0 = d.doc_offsets[m0], t1 = d.doc_offsets[m1];
    std::vector<std::int64_t> offsets;
    for (std::int64_t m = m0; m <= m1; ++m) offsets.push_back(d.doc_offsets[m] - t0);
    const std::vector<float> theta_slice(theta.begin() + m0 * K, theta.begin() + m1 * K);
    const std::vector<std::int32_t> words_slice(d.words.begin() + t0, d.words.begin() + t1);
    std::vector<std::int32_t> z(static_cast<std::size_t>(t1 - t0));
    o.first_token = static_cast<std::uint64_t>(t0);
    butterfly::reference::draw_topics(theta_slice, phi, K, offsets, words_slice, z, o);
    CHECK(z == std::vector<std::int32_t>(whole.begin() + t0, whole.begin() + t1));
    // Without the offset the slice would draw other uniforms: the field is what matters.
    o.first_token = 0;
    butterfly::reference::draw_topics(theta_slice, phi, K, offsets, words_slice, z, o);
    CHECK(z != std::vector<std::int32_t>(whole.begin() + t0, whole.begin() + t1));
  }
}

TEST_CASE("mpi-shard: shards' partial sums in shard order give the whole corpus's sums",
          "[mpi][shard]") {
  const auto c = lda::testing::make_synthetic(5, 60, 400, 25, 0.2, 0.05, 8);
  const auto docs = c.docs.view();
  const lda::hyperparameters h{5, 0.1, 0.01};
  const lda::chain whole(docs, h, 9, {algorithm::butterfly});
  auto s = whole.initial_state();
  whole.iterate(s);
  const double expected = whole.log_likelihood(s);

  // Shards of the same run: theta and z are the whole run's rows, phi the whole run's phi.
  // (Drawing them needs every shard's counts at once, which the mpi_cli tests do over MPI.)
  for (int parts : {2, 3, 7}) {
    std::vector<double> partials;
    for (int p = 0; p < parts; ++p) {
      const auto part = lda::shard_of(docs, parts, p);
      const lda::chain shard_chain(docs, h, 9, {algorithm::butterfly}, part, {});
      lda::state local;
      local.theta.assign(s.theta.begin() + part.first_doc * 5, s.theta.begin() + part.end_doc * 5);
      local.phi = s.phi;
      const auto more = shard_chain.log_likelihood_partials(local);
      partials.insert(partials.end(), more.begin(), more.end());
    }
    CHECK(same_bits(lda::ordered_sum(partials), expected));
  }

  const lda::fold_in_options fold{4, 9};
  const auto test = lda::testing::make_synthetic(5, 60, 90, 12, 0.2, 0.05, 10);
  const auto all = lda::completion_perplexity(test.docs.view(), s.phi, h, fold);
  const std::int64_t blocks = (90 + lda::completion_block - 1) / lda::completion_block;
  lda::perplexity_partials joined;
  for (std::int64_t b = 0; b < blocks; b += 2) {
    const auto p =
        lda::completion_partials(test.docs.view(), b, std::min(b + 2, blocks), s.phi, h, fold);
    joined.log_likelihood.insert(joined.log_likelihood.end(), p.log_likelihood.begin(),
                                 p.log_likelihood.end());
    joined.scored_tokens.insert(joined.scored_tokens.end(), p.scored_tokens.begin(),
                                p.scored_tokens.end());
  }
  const auto r = lda::combine(joined);
  CHECK(same_bits(r.log_likelihood, all.log_likelihood));
  CHECK(r.scored_tokens == all.scored_tokens);
  CHECK(same_bits(r.perplexity, all.perplexity));
}

TEST_CASE("mpi-shard: the chain refuses a shard that does not fit the corpus", "[mpi][shard]") {
  const auto d = uneven_corpus(200, 20, 11);
  const lda::hyperparameters h{4, 0.1, 0.01};
  auto s = lda::shard_of(d.view(), 2, 1);
  s.first_doc += 1;  // off the block boundary
  s.first_token = d.doc_offsets[s.first_doc];
  CHECK_THROWS_WITH(lda::chain(d.view(), h, 1, {algorithm::basic}, s, {}),
                    Catch::Contains("does not fit"));
}

// The phased sweeps' word phase needs every token of a word, which the shards split: each
// process runs its own words on every token's z and proposals summed over the processes
// (phased_unit.cpp), so 2 and 3 shards draw one process's z, through the switch to collapsed's
// sweep too. Documents of uneven length (0-60 tokens), so the shards' words differ in size.
TEST_CASE(
    "mpi-shard: phased and collapsed's phased sweeps over 2 and 3 shards draw one process's z",
    "[mpi][shard]") {
  const auto d = uneven_corpus(300, 70, 12);
  const lda::documents docs = d.view();
  const lda::hyperparameters h{6, 0.2, 0.05};
  lda::sampler_options how;
  how.estimator = GENERATE(lda::estimator::phased, lda::estimator::collapsed);
  how.phased_sweeps = how.estimator == lda::estimator::collapsed ? 2 : 0;
  how.iterations = 4;
  CAPTURE(lda::estimator_name(how.estimator));
  const lda::chain whole(docs, h, 5, how);
  lda::sampler one(whole, butterfly::detail::reference_executor());
  for (std::uint32_t i = 0; i < how.iterations; ++i) one.iterate();
  const std::vector<std::int32_t> expected = one.current_z();
  for (int parts : {2, 3}) {
    CAPTURE(parts);
    CHECK(sharded_z(docs, h, how, parts, static_cast<int>(how.iterations)) == expected);
  }
}

// The phased sweeps with a count combiner on the configured backend (on a device, every token's
// topics go through the host for each sum): one process's combiner, which adds nothing, leaves
// the chain without one's z, through the switch to collapsed's sweep.
TEST_CASE(
    "mpi-shard: the phased sweeps with a count combiner on the configured backend draw "
    "the z of none",
    "[mpi][shard]") {
  const auto d = uneven_corpus(100, 30, 13);
  lda::sampler_options how;
  how.estimator = lda::estimator::collapsed;
  how.phased_sweeps = 2;
  const lda::hyperparameters h{4, 0.2, 0.05};
  const lda::chain with(d.view(), h, 5, how, lda::whole(d.view()),
                        [](std::int32_t*, std::size_t) {});
  const lda::chain without(d.view(), h, 5, how);
  lda::sampler s(with), t(without);
  for (int i = 0; i < 3; ++i) {
    s.iterate();
    t.iterate();
  }
  CHECK(s.current_z() == t.current_z());
}
