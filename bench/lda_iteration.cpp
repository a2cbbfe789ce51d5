// butterfly-bench-lda: one full Gibbs iteration (draw z, count, draw theta and phi) of an
// lda::sampler over the wiki-lead documents, for every algorithm x K in {16, 48, ..., 240}
// (the paper's) + {512, 1024}. The sampler keeps the state where the backend's kernels are:
// on a GPU build the whole iteration runs on the device and nothing is copied per
// iteration (the counter copied_bytes_per_iter says so), so this is the paper's
// whole-application measurement. The question it answers: how much does the rest of an
// iteration add to the z draw (target: a full iteration at most 1.5x the draw alone), and
// butterfly's speed-up over basic for the whole iteration at K > 200.
// Counters: tokens_per_s (rate over the timed iteration), z_draw_s, combine_s and rest_s
// (seconds per iteration of the z step -- the draw, or collapsed's and mh's sweep --, of the
// count combiner and of the rest -- counts, the estimator's theta and phi, the sweep's
// tables --, as sampler::iterate reports them: steady_clock around steps that each return
// when the backend is done, so on a busy machine read them as shares, not as absolute times),
// z_share (z_draw / whole iteration) and iter_per_draw (whole iteration / z_draw, the 1.5x
// check), K, V, copied_bytes_per_iter, and "step NAME" for each step of lda/steps.hpp the
// timed iterations ran (seconds per iteration, lda::sampler::step_seconds: the time per
// step). The label is the algorithm (the estimator in estimators/).
// Group lda_options (butterfly, K = 240): the trainer's --width x --estimator choices, the
// numbers behind its defaults.
// Group estimators (butterfly at the native width, K = 240 and 1000): every estimator
// (lda::estimator) with the trainer's start topics and sweep blocks (default_start_topics,
// default_sweep_blocks) and no burn-in, as `butterfly-lda train --estimator E` runs it, and
// collapsed with a thread per document (collapsed-threads) and a subgroup per document
// (collapsed-subgroups), and on long documents (every 26 leads made one, about 1,340 tokens:
// nips17's length) as the trainer runs it (collapsed-long) and by threads
// (collapsed-long-threads); bench/gpu/run.sh measures it on the GPU.
// The state is set up once per (options, K), outside the timing: the initial state and
// then warmup iterations, so theta and phi are concentrated as in training, not uniform.
// $BUTTERFLY_BENCH_DOCS=n keeps the first n documents (as butterfly-bench-draw does) and
// renumbers the words they use, so the subset is a corpus of its own (phi is V x K, and a
// vocabulary of words that never occur would inflate the phi draw).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/lda/sampler.hpp"
#include "corpus.hpp"

namespace {

using namespace butterfly;

// Iterations before the timing, 3 unless $BUTTERFLY_BENCH_WARMUP says otherwise
// (bench/gpu/run.sh profiles with 1: ncu serializes every kernel of them).
int warmup_iterations() {
  const char* n = std::getenv("BUTTERFLY_BENCH_WARMUP");
  return n ? std::atoi(n) : 3;
}

bench::corpus load() {
  bench::corpus c = bench::wiki_lead_documents();
  std::vector<std::int32_t> id(static_cast<std::size_t>(c.V), -1);
  std::int32_t used = 0;
  for (auto& w : c.words) {
    if (id[w] < 0) id[w] = used++;
    w = id[w];
  }
  c.V = used;
  return c;
}

const bench::corpus& wiki() {
  static const bench::corpus c = load();
  return c;
}

// Long documents from the same tokens: every 26 consecutive documents made one (wiki-lead's
// 51 tokens on average become about 1,340, nips17's length), the vocabulary unchanged.
const bench::corpus& long_documents() {
  static const bench::corpus c = [] {
    bench::corpus l = wiki();
    l.name += ", 26 documents per document";
    l.doc_offsets.clear();
    for (std::int64_t m = 0; m < wiki().M(); m += 26)
      l.doc_offsets.push_back(wiki().doc_offsets[m]);
    l.doc_offsets.push_back(wiki().N());
    return l;
  }();
  return c;
}

// The chain, and the sampler with its warmed-up state, for one (options, K) at a time: the
// runs are registered in that order, so repetitions reuse it and only one K's state is held.
// main releases it: a device sampler's memory must go back before the runtime does.
struct fixture {
  const bench::corpus* corpus = nullptr;
  lda::sampler_options how{};
  int K = 0;
  std::unique_ptr<lda::chain> chain;
  std::unique_ptr<lda::sampler> sampler;
};
fixture held;
fixture& fixture_for(const bench::corpus& c, lda::sampler_options how, int K) {
  fixture& f = held;
  if (!f.chain || f.corpus != &c || f.how.method != how.method || f.how.width != how.width ||
      f.how.estimator != how.estimator || f.how.start_topics != how.start_topics ||
      f.how.sweep_blocks != how.sweep_blocks || f.how.subgroup_from != how.subgroup_from ||
      f.K != K) {
    f.sampler.reset();  // before its chain
    f = fixture{};
    lda::hyperparameters h;
    h.num_topics = K;
    f.corpus = &c;
    f.how = how;
    f.K = K;
    f.chain = std::make_unique<lda::chain>(lda::documents{c.doc_offsets, c.words, c.V}, h, 7, how);
    f.sampler = std::make_unique<lda::sampler>(*f.chain);
    for (int i = 0, n = warmup_iterations(); i < n; ++i) f.sampler->iterate();
  }
  return f;
}

void lda_iteration(benchmark::State& state, lda::sampler_options how, int K, std::string label,
                   const bench::corpus* corpus) {
  const bench::corpus& c = *corpus;
  auto& f = fixture_for(c, how, K);
  double z_draw = 0, combine = 0, rest = 0;
  const std::uint64_t copied = f.sampler->copied_bytes();
  const auto steps_before = f.sampler->step_seconds();
  for (auto _ : state) {
    const lda::iteration_seconds sec = f.sampler->iterate();
    benchmark::ClobberMemory();
    z_draw += sec.z_draw;
    combine += sec.combine;
    rest += sec.rest;
  }
  state.counters["copied_bytes_per_iter"] = benchmark::Counter(
      static_cast<double>(f.sampler->copied_bytes() - copied), benchmark::Counter::kAvgIterations);
  state.SetLabel(label);
  state.counters["tokens_per_s"] =
      benchmark::Counter(static_cast<double>(c.N()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["z_draw_s"] = benchmark::Counter(z_draw, benchmark::Counter::kAvgIterations);
  state.counters["combine_s"] = benchmark::Counter(combine, benchmark::Counter::kAvgIterations);
  state.counters["rest_s"] = benchmark::Counter(rest, benchmark::Counter::kAvgIterations);
  const double whole = z_draw + combine + rest;
  state.counters["z_share"] = z_draw / whole;
  state.counters["iter_per_draw"] = whole / z_draw;
  state.counters["K"] = K;
  state.counters["V"] = static_cast<double>(c.V);
  for (const auto& [name, seconds] : f.sampler->step_seconds()) {
    double before = 0;
    for (const auto& [n, s] : steps_before)
      if (n == name) before = s;
    if (seconds > before)  // ran in the timed iterations
      state.counters["step " + name] =
          benchmark::Counter(seconds - before, benchmark::Counter::kAvgIterations);
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (!bench::announce("butterfly-bench-lda", wiki,
                       std::to_string(warmup_iterations()) + " warmup iterations per (options, K)"))
    return 1;
  // Real time: on the openmp and kokkos backends the work runs on threads whose CPU time the
  // benchmark thread's clock does not see.
  const auto add = [](const std::string& n, const lda::sampler_options& how, int K,
                      const std::string& label, const bench::corpus* c) {
    benchmark::RegisterBenchmark(n.c_str(), lda_iteration, how, K, label, c)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  };
  const bench::corpus* const leads = &wiki();
  for (algorithm a : all_algorithms)
    for (int K : {16, 48, 80, 112, 144, 176, 208, 240, 512, 1024})
      add("lda_iteration/" + std::string(name(a)) + "/K:" + std::to_string(K),
          lda::sampler_options{a}, K, std::string(name(a)), leads);
  for (const lda::estimator e : {lda::estimator::sample, lda::estimator::mean})
    for (const int width : {4, 8, 16})
      add("lda_options/" + std::string(lda::estimator_name(e)) + "/W:" + std::to_string(width) +
              "/K:240",
          lda::sampler_options{algorithm::butterfly, width, e}, 240, "butterfly", leads);
  // As butterfly-lda train runs estimator e on documents c (the default start and blocks).
  const auto trainer = [](lda::estimator e, const bench::corpus& c, int K) {
    lda::sampler_options how{algorithm::butterfly, 0, e};
    how.start_topics = lda::default_start_topics(c.M(), K);
    how.sweep_blocks = lda::default_sweep_blocks(e, c.M(), K);
    return how;
  };
  for (const int K : {240, 1000}) {
    const std::string k = "/K:" + std::to_string(K);
    for (const lda::estimator e : {lda::estimator::sample, lda::estimator::mean,
                                   lda::estimator::collapsed, lda::estimator::mh})
      add("estimators/" + std::string(lda::estimator_name(e)) + k, trainer(e, wiki(), K), K,
          lda::estimator_name(e), leads);
    // collapsed's sweep by threads and subgroups (collapsed_lanes.hpp; the same model). The
    // trainer's default (collapsed, collapsed-long) gives a subgroup to documents of 1024
    // tokens or more on a device (18 of the leads, 1.5 % of their tokens, among them the
    // longest, 17,250 tokens; most of the long documents) and to none on the host.
    const auto variant = [&](const std::string& n, const bench::corpus& c, std::uint32_t from,
                             const std::string& label) {
      lda::sampler_options how = trainer(lda::estimator::collapsed, c, K);
      how.subgroup_from = from;
      add("estimators/" + n + k, how, K, label, &c);
    };
    variant("collapsed-threads", wiki(), lda::host_subgroup_from, "collapsed, a thread each");
    variant("collapsed-subgroups", wiki(), 1, "collapsed, a subgroup each");
    variant("collapsed-long", long_documents(), 0, "collapsed, long documents");
    variant("collapsed-long-threads", long_documents(), lda::host_subgroup_from,
            "collapsed, long documents, a thread each");
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  held.sampler.reset();
  held.chain.reset();
  return 0;
}
