// butterfly-bench-gamma: the Dirichlet step's Gamma variates, ns per variate, for rows of
// K = 240 shapes like those of an LDA iteration: theta rows (alpha = 50/K = 0.208333 plus the
// topic counts of a 136-token document, the mean on ap) and phi rows (beta = 0.01 plus the
// counts of one word: most zero, a few large). Three implementations in one run:
//   row      lda::gamma_row, the batched form lda/steps.hpp calls (vectorized first attempt)
//   scalar   lda::gamma_variate entry by entry (same bits as row)
//   baseline the same samplers on glibc's log/exp/cos, the library's former form, kept here
//            only for comparison (its bits differ between machines, see gamma.hpp)
// Counter ns_per_variate (CPU time of the benchmark thread / variates drawn).
#include <benchmark/benchmark.h>

#include "butterfly/lda/gamma.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace butterfly;

constexpr int K = 240;
constexpr int rows = 256;

// The baseline: lda::gamma_variate as of commit d3523e5 (glibc math, squeezes, branches).
double baseline_gamma_variate(double shape, const lda::rng_key& key, std::uint64_t index) {
  if (shape >= 1.0) {
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (std::uint32_t attempt = 0;; ++attempt) {
      const auto r = rng::bits(key.seed, key.iteration, key.stream, index, attempt);
      const double x = std::sqrt(-2.0 * std::log(lda::open_u01(r[0]))) *
                       std::cos(6.283185307179586 * lda::open_u01(r[1]));
      double v = 1.0 + c * x;
      if (v <= 0.0) continue;
      v = v * v * v;
      const double u = lda::open_u01(r[2]);
      const double x2 = x * x;
      if (u < 1.0 - 0.0331 * x2 * x2) return d * v;
      if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) return d * v;
    }
  }
  for (std::uint32_t attempt = 0;; ++attempt) {
    const auto r = rng::bits(key.seed, key.iteration, key.stream, index, attempt);
    const double u = lda::open_u01(r[0]);
    const double e_u = lda::open_u01(r[1]);
    if (u <= 1.0 - shape) {
      const double x = std::exp(std::log(u) / shape);
      if (x <= 1.0 - e_u) return x;
      if (x <= -std::log(e_u)) return x;
    } else {
      const double y = -std::log((1.0 - u) / shape);
      const double x = std::exp(std::log(1.0 - shape + shape * y) / shape);
      if (x <= y - std::log(e_u)) return x;
    }
  }
}

struct shapes {
  double prior;
  std::vector<std::int32_t> counts;  // rows x K
};

// theta rows: a document's 136 tokens over its topic proportions ~ Dirichlet(alpha), as
// after training. phi rows: a word's tokens (lengths drawn to give ~10 % nonzero entries,
// ap's share at K = 240) over a few topics.
shapes make_shapes(bool theta) {
  std::mt19937_64 gen(theta ? 1 : 2);
  shapes s{theta ? 50.0 / K : 0.01, std::vector<std::int32_t>(static_cast<std::size_t>(rows) * K)};
  std::gamma_distribution<double> g(theta ? 50.0 / K : 0.05);
  std::geometric_distribution<int> length(theta ? 1.0 / 136 : 1.0 / 60);
  for (int r = 0; r < rows; ++r) {
    std::vector<double> p(K);
    for (auto& x : p) x = g(gen) + 1e-12;
    std::discrete_distribution<int> topic(p.begin(), p.end());
    const int n = theta ? 136 : length(gen) + 1;
    for (int t = 0; t < n; ++t) ++s.counts[static_cast<std::size_t>(r) * K + topic(gen)];
  }
  return s;
}

const shapes& shapes_for(bool theta) {
  static const shapes t = make_shapes(true), p = make_shapes(false);
  return theta ? t : p;
}

enum class impl { row, scalar, baseline };

void gamma_variates(benchmark::State& state, impl which, bool theta) {
  const shapes& s = shapes_for(theta);
  std::vector<double> out(static_cast<std::size_t>(K));
  std::uint32_t iteration = 0;
  for (auto _ : state) {
    const lda::rng_key key{7, ++iteration, lda::streams::theta};
    for (int r = 0; r < rows; ++r) {
      const std::int32_t* n = &s.counts[static_cast<std::size_t>(r) * K];
      const std::uint64_t index0 = static_cast<std::uint64_t>(r) * K;
      if (which == impl::row) {
        lda::gamma_row(s.prior, n, K, key, index0, out.data());
      } else if (which == impl::scalar) {
        for (int k = 0; k < K; ++k) out[k] = lda::gamma_variate(s.prior + n[k], key, index0 + k);
      } else {
        for (int k = 0; k < K; ++k)
          out[k] = baseline_gamma_variate(s.prior + n[k], key, index0 + k);
      }
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
  }
  state.counters["ns_per_variate"] = benchmark::Counter(
      static_cast<double>(rows) * K * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  for (bool theta : {true, false})
    for (auto [which, label] :
         {std::pair{impl::baseline, "baseline"}, {impl::scalar, "scalar"}, {impl::row, "row"}}) {
      const std::string n =
          std::string("gamma/") + (theta ? "theta" : "phi") + "/" + label + "/K:240";
      benchmark::RegisterBenchmark(n.c_str(), gamma_variates, which, theta)
          ->Unit(benchmark::kMicrosecond);
    }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
