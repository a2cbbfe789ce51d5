// The LDA iteration on the configured backend (lda::sampler: on CUDA/HIP the state stays in
// device memory) against the same iteration on the serial reference, side by side, on the
// real AP corpus at the configured backend's native width: theta, phi and z must be the same
// bits, the device's counts must equal a recount from z on the host, a resumed run must
// equal an uninterrupted one, an iteration must copy nothing between host and device, and
// the log-likelihood computed on the device must be the host's.
// Skipped, saying why, when the backend cannot run here or shared/data/ap is absent (a failure
// instead where BUTTERFLY_REQUIRE_SHARED_DATA is set, as in CI).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/io/corpus.hpp"
#include "butterfly/lda/gamma.hpp"
#include "butterfly/lda/sampler.hpp"
#include "catch_session.hpp"

namespace {

namespace lda = butterfly::lda;
using butterfly::detail::configured_executor;
using butterfly::detail::reference_executor;

const std::string data_dir = BUTTERFLY_SHARED_DATA;

const butterfly::io::corpus& ap() {
  static const auto c =
      butterfly::io::read_uci(data_dir + "/ap/docword.ap.txt.gz", data_dir + "/ap/vocab.ap.txt");
  return c;
}

lda::documents ap_docs() { return {ap().doc_offsets, ap().words, ap().vocab_size()}; }

lda::chain ap_chain(lda::estimator e, int K = 24, std::uint32_t start_topics = 0,
                    std::uint32_t sweep_blocks = 1, std::uint32_t subgroup_from = 0,
                    std::uint32_t phased_sweeps = 0) {
  lda::hyperparameters h;
  h.num_topics = K;
  h.alpha = 0.2;
  h.beta = 0.01;
  // The configured backend's width, which the reference runs too; hybrid's documents of more
  // than 200 tokens (a quarter of ap's) move by Metropolis-Hastings.
  lda::sampler_options how{butterfly::algorithm::butterfly, configured_executor().default_width(),
                           e, 0, start_topics};
  how.long_document = 200;
  how.sweep_blocks = sweep_blocks;
  how.subgroup_from = subgroup_from;
  how.phased_sweeps = phased_sweeps;
  return lda::chain(ap_docs(), h, 2026, how);
}

void require_same(const lda::state& got, const lda::state& want) {
  CHECK(got.iteration == want.iteration);
  // Whole-vector comparisons of floats: bit-identical is the contract, not close.
  CHECK(got.z == want.z);
  CHECK(got.theta == want.theta);
  CHECK(got.phi == want.phi);
}

// n_mk and n_wk counted on the host from z.
void require_counts_of(lda::sampler& smp, const lda::chain& c) {
  const lda::state& st = smp.current();
  const int K = c.hyper().num_topics;
  const lda::documents& d = c.docs();
  std::vector<std::int32_t> n_mk(st.theta.size(), 0), n_wk(st.phi.size(), 0);
  std::int64_t invalid = 0;
  for (std::int64_t m = 0; m < d.num_docs(); ++m)
    for (std::int64_t t = d.doc_offsets[m]; t < d.doc_offsets[m + 1]; ++t) {
      const std::int32_t k = st.z[static_cast<std::size_t>(t)];
      if (k < 0 || k >= K) {
        ++invalid;
        continue;
      }
      ++n_mk[static_cast<std::size_t>(m * K + k)];
      ++n_wk[static_cast<std::size_t>(d.words[t]) * K + k];
    }
  REQUIRE(invalid == 0);
  CHECK(smp.document_topic_counts() == n_mk);
  CHECK(smp.word_topic_counts() == n_wk);
}

// theta_rows and phi_rows in chunks of rows (the last one short) are current()'s rows, and a
// row range outside the model is refused.
void require_rows_of(lda::sampler& smp, const lda::chain& c) {
  const lda::state st = smp.current();
  const std::int64_t K = c.hyper().num_topics, chunk = 1000;
  const auto rows = [&](bool theta, std::int64_t n) {
    std::vector<float> all(static_cast<std::size_t>(n * K));
    for (std::int64_t first = 0; first < n; first += chunk) {
      const std::int64_t count = std::min(chunk, n - first);
      if (theta) smp.theta_rows(first, count, all.data() + first * K);
      else smp.phi_rows(first, count, all.data() + first * K);
    }
    return all;
  };
  REQUIRE(c.docs().num_docs() > 2 * chunk);
  CHECK(rows(true, c.docs().num_docs()) == st.theta);
  CHECK(rows(false, c.docs().vocab_size) == st.phi);
  std::vector<float> one(static_cast<std::size_t>(K));
  CHECK_THROWS_WITH(smp.phi_rows(c.docs().vocab_size, 1, one.data()),
                    Catch::Contains("outside the"));
}

// Three iterations on the configured backend and on the reference: the same state, counts and
// log-likelihood partials, and nothing copied inside an iteration. With subgroup_from, the
// configured backend sweeps documents of at least that many tokens by a subgroup each
// (collapsed_lanes.hpp), the reference every document by a thread. With phased_sweeps, the
// first sweeps in phased's phases and the last in collapsed's.
void require_same_as_reference(lda::estimator e, int K = 24, std::uint32_t start_topics = 0,
                               std::uint32_t sweep_blocks = 1, std::uint32_t subgroup_from = 0,
                               std::uint32_t phased_sweeps = 0) {
  const lda::chain c = ap_chain(e, K, start_topics, sweep_blocks, subgroup_from, phased_sweeps);
  const lda::chain by_threads =
      ap_chain(e, K, start_topics, sweep_blocks, subgroup_from != 0 ? lda::host_subgroup_from : 0,
               phased_sweeps);
  INFO("estimator " << lda::estimator_name(e) << ", K " << K << ", start_topics " << start_topics
                    << ", sweep_blocks " << sweep_blocks << ", subgroup_from " << subgroup_from
                    << ", phased_sweeps " << phased_sweeps << ", width "
                    << configured_executor().default_width() << ", " << butterfly::backend_name());
  lda::sampler device(c), reference(by_threads, reference_executor());
  // Only the chains of collapsed's tables without a burn-in make theta and phi from z.
  CHECK(device.holds_model() == !lda::model_from_z(e, 0));
  require_same(device.current(), reference.current());
  for (int i = 0; i < 3; ++i) {
    const std::uint64_t copied = device.copied_bytes();
    device.iterate();
    // Nothing crosses the bus inside an iteration (the state stays where the kernels are).
    CHECK(device.copied_bytes() == copied);
    reference.iterate();
  }
  // The log-likelihood's partial sums computed on the device: only they are copied back.
  const std::uint64_t before = device.copied_bytes();
  const std::vector<double> partials = device.log_likelihood_partials();
  if (device.on_device()) CHECK(device.copied_bytes() - before == partials.size() * sizeof(double));
  CHECK(partials == reference.log_likelihood_partials());
  require_same(device.current(), reference.current());
  // The dense sum of the state's theta and phi: the same bits where the sampler holds them;
  // collapsed's sparse sum (steps.hpp, likelihood_blocks) rounds otherwise.
  const std::vector<double> dense = c.log_likelihood_partials(device.current());
  if (device.holds_model()) {
    CHECK(partials == dense);
  } else {
    REQUIRE(partials.size() == dense.size());
    for (std::size_t i = 0; i < dense.size(); ++i)
      CHECK(partials[i] == Approx(dense[i]).epsilon(1e-12));
  }
  require_counts_of(device, c);
  require_rows_of(device, c);
}

}  // namespace

TEST_CASE("conformance: lda sampler: the configured backend's model equals the reference's on ap",
          "[lda][sampler]") {
  for (const auto e : {lda::estimator::mean, lda::estimator::sample, lda::estimator::collapsed,
                       lda::estimator::mh, lda::estimator::hybrid, lda::estimator::phased})
    require_same_as_reference(e);
  // hybrid's compact word tables with topic sets of three 64-bit words.
  require_same_as_reference(lda::estimator::hybrid, 130);
  // The collapsed sweep's topic sets in three 64-bit words.
  require_same_as_reference(lda::estimator::collapsed, 130);
  // Documents that start with at most 4 topics (steps::initial_topics' copies).
  require_same_as_reference(lda::estimator::collapsed, 130, 4);
  require_same_as_reference(lda::estimator::mean, 24, 4);
  // A sweep in 3 blocks, the counts and tables made again between them on the device (hybrid:
  // its short documents by the exact draw, its long ones by MH, the lists made again too).
  require_same_as_reference(lda::estimator::hybrid, 130, 0, 3);
  // ap's documents of 200 tokens or more (about a quarter) swept by a subgroup each (on a
  // device a warp), the rest by a thread; the topic sets in three words, then sixteen.
  require_same_as_reference(lda::estimator::collapsed, 130, 0, 3, 200);
  require_same_as_reference(lda::estimator::collapsed, 1000, 0, 1, 200);
  // Two sweeps in phased's phases, then collapsed's in 3 blocks: the phases' scratch freed
  // and collapsed's tables made from the phases' z on the device.
  require_same_as_reference(lda::estimator::collapsed, 130, 0, 3, 0, 2);
}

TEST_CASE("conformance: lda sampler: resuming from a state equals running on", "[lda][sampler]") {
  // collapsed with one phased sweep: resumed after it, with no phases' scratch.
  lda::estimator e;
  std::uint32_t phased_sweeps;
  std::tie(e, phased_sweeps) =
      GENERATE(table<lda::estimator, std::uint32_t>({{lda::estimator::sample, 0},
                                                     {lda::estimator::collapsed, 0},
                                                     {lda::estimator::mh, 0},
                                                     {lda::estimator::hybrid, 0},
                                                     {lda::estimator::phased, 0},
                                                     {lda::estimator::collapsed, 1}}));
  INFO("estimator " << lda::estimator_name(e) << ", phased_sweeps " << phased_sweeps);
  const lda::chain c = ap_chain(e, 24, 0, 1, 0, phased_sweeps);
  lda::sampler straight(c);
  for (int i = 0; i < 3; ++i) straight.iterate();
  lda::sampler first(c);
  first.iterate();
  const bool holds = first.holds_model();
  lda::state st = first.take();
  // A chain whose theta and phi are z's resumes from z alone (the trainer's checkpoint).
  if (!holds) {
    st.theta.clear();
    st.phi.clear();
  }
  lda::sampler resumed(c, std::move(st));
  CHECK(resumed.iteration() == 1);
  for (int i = 0; i < 2; ++i) resumed.iterate();
  require_same(resumed.current(), straight.current());
}

TEST_CASE("conformance: lda sampler: a state of the wrong size is refused, naming the sizes",
          "[lda][sampler]") {
  const lda::chain c = ap_chain(lda::estimator::mean);
  lda::state st = lda::sampler(c).take();
  st.z.pop_back();
  CHECK_THROWS_WITH(lda::sampler(c, st), Catch::Contains("the chain's shard needs"));
  // mean's sampler holds theta and phi: a state without them is the wrong size too.
  st = lda::sampler(c).take();
  st.theta.clear();
  CHECK_THROWS_WITH(lda::sampler(c, st), Catch::Contains("0 theta"));
}

// sampler_options::average on the first 300 documents of ap (100 iterations stay quick on the
// reference): the configured backend's pooled model equals the reference's, the chain (z) is
// the unpooled chain's, the model is the posterior mean of the pooled topics of the sweeps
// pooled_sweeps names and the last (counted here from the unpooled chain's z), theta_rows and
// phi_rows in chunks give it too, and a state taken inside the window resumes to it.
TEST_CASE(
    "conformance: lda sampler: a model pooled over sweeps is the posterior mean of their topics",
    "[lda][sampler]") {
  const butterfly::io::corpus& a = ap();
  const std::int64_t M = 300, N = a.doc_offsets[M], K = 24;
  const lda::documents d{
      butterfly::span<const std::int64_t>(a.doc_offsets.data(), M + 1),
      butterfly::span<const std::int32_t>(a.words.data(), static_cast<std::size_t>(N)),
      a.vocab_size()};
  lda::hyperparameters h;
  h.num_topics = static_cast<int>(K);
  h.alpha = 0.2;
  h.beta = 0.01;
  lda::sampler_options how{butterfly::algorithm::butterfly,
                           configured_executor().default_width(),
                           lda::estimator::collapsed,
                           0,
                           0,
                           4,
                           100};
  const lda::chain pooled(d, h, 2026, how);
  how.average = 1;
  const lda::chain single(d, h, 2026, how);
  REQUIRE(lda::pooled_sweeps(pooled.options()) == std::vector<std::uint32_t>{88, 92, 96});
  lda::sampler device(pooled), reference(pooled, reference_executor()),
      plain(single, reference_executor());
  std::vector<std::vector<std::int32_t>> sweeps;  // the unpooled chain's z at 88, 92, 96, 100
  lda::state mid;
  for (std::uint32_t i = 1; i <= 100; ++i) {
    device.iterate();
    reference.iterate();
    plain.iterate();
    if (i == 88 || i == 92 || i == 96 || i == 100) sweeps.push_back(plain.current_z());
    if (i == 94) mid = device.current();  // 88 and 92 kept
  }
  const lda::state& got = device.current();
  require_same(got, reference.current());
  CHECK(device.current_kept() == reference.current_kept());
  CHECK(got.z == plain.current().z);
  CHECK(got.phi != plain.current().phi);

  // The posterior mean of the pooled counts, priors times the 4 sweeps.
  const double P = 4;
  std::vector<std::int64_t> n_mk(static_cast<std::size_t>(M * K)),
      n_wk(static_cast<std::size_t>(d.vocab_size * K)), n_k(static_cast<std::size_t>(K)),
      n_m(static_cast<std::size_t>(M));
  for (const auto& z : sweeps)
    for (std::int64_t m = 0; m < M; ++m)
      for (std::int64_t t = d.doc_offsets[m]; t < d.doc_offsets[m + 1]; ++t) {
        const std::int64_t k = z[static_cast<std::size_t>(t)];
        ++n_mk[static_cast<std::size_t>(m * K + k)];
        ++n_wk[static_cast<std::size_t>(d.words[t] * K + k)];
        ++n_k[static_cast<std::size_t>(k)];
        ++n_m[static_cast<std::size_t>(m)];
      }
  const auto entry = [](std::int64_t count, double prior, double scale) {
    return std::max(static_cast<float>((static_cast<double>(count) + prior) * scale),
                    lda::probability_floor);
  };
  std::vector<float> theta(n_mk.size()), phi(n_wk.size());
  for (std::size_t i = 0; i < theta.size(); ++i)
    theta[i] =
        entry(n_mk[i], h.alpha * P, 1.0 / (static_cast<double>(n_m[i / K]) + K * (h.alpha * P)));
  for (std::size_t i = 0; i < phi.size(); ++i)
    phi[i] = entry(
        n_wk[i], h.beta * P,
        1.0 / (static_cast<double>(n_k[i % K]) + static_cast<double>(d.vocab_size) * (h.beta * P)));
  CHECK(got.theta == theta);
  CHECK(got.phi == phi);

  // phi_rows in chunks of 1,000 words (the pooled scale made once for all of them).
  std::vector<float> rows(phi.size());
  for (std::int64_t first = 0; first < d.vocab_size; first += 1000) {
    const std::int64_t count = std::min<std::int64_t>(1000, d.vocab_size - first);
    device.phi_rows(first, count, rows.data() + first * K);
  }
  CHECK(rows == phi);

  // Resumed from iteration 94: z and the two sweeps kept by then.
  REQUIRE(mid.kept.size() == 2 * static_cast<std::size_t>(N));
  mid.theta.clear();
  mid.phi.clear();
  lda::state short_kept = mid;
  short_kept.kept.pop_back();
  CHECK_THROWS_WITH(lda::sampler(pooled, short_kept), Catch::Contains("kept topics"));
  lda::sampler resumed(pooled, std::move(mid));
  while (resumed.iteration() < 100) resumed.iterate();
  require_same(resumed.current(), got);
}

int main(int argc, char** argv) {
  std::string reason = butterfly::backend_unavailable_reason();
  if (!reason.empty())
    reason = "backend '" + std::string(butterfly::backend_name()) + "' cannot run here: " + reason;
  return butterfly::test::run_catch_session_with_data(argc, argv, data_dir + "/ap", reason);
}
