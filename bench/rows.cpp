// butterfly-bench-rows: the row form (one draw from each row of an R x K matrix, what
// torch.multinomial(w, 1) does) against the textbook std::discrete_distribution per row,
// in one process so that ratios come from one run. Rows ~ Dirichlet(1) (Exponential(1)
// entries, unnormalized). R x K from 10^4 x 16 up to 10^6 x 128 and 10^5 x 1024;
// 10^6 x 1024 (4 GB of weights) only with $BUTTERFLY_BENCH_HUGE=1.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <string>

#include "butterfly/butterfly.hpp"

namespace {

using namespace butterfly;

struct matrix {
  std::int64_t R = 0;
  int K = 0;
  std::vector<float> w;
};
const matrix& matrix_for(std::int64_t R, int K) {
  static matrix m;
  if (m.R != R || m.K != K) {
    m = matrix{R, K, std::vector<float>(static_cast<std::size_t>(R) * K)};
    std::mt19937_64 gen(static_cast<std::uint64_t>(R) * 4099 + K);
    std::exponential_distribution<float> e(1.0f);
    for (float& x : m.w) x = e(gen);
  }
  return m;
}

void counters(benchmark::State& state, std::int64_t R, int K, const std::string& label) {
  state.SetLabel(label);
  state.counters["rows_per_s"] =
      benchmark::Counter(static_cast<double>(R), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["R"] = static_cast<double>(R);
  state.counters["K"] = K;
}

// What a C++ user writes without this library: a std::discrete_distribution per row.
void std_discrete(benchmark::State& state, std::int64_t R, int K) {
  const auto& m = matrix_for(R, K);
  std::vector<std::int32_t> out(R);
  std::mt19937 gen(7);
  for (auto _ : state) {
    for (std::int64_t r = 0; r < R; ++r) {
      const float* row = m.w.data() + r * K;
      std::discrete_distribution<std::int32_t> d(row, row + K);
      out[r] = d(gen);
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  counters(state, R, K, "std::discrete_distribution");
}

void rows(benchmark::State& state, algorithm a, std::int64_t R, int K) {
  const auto& m = matrix_for(R, K);
  std::vector<std::int32_t> out(R);
  draw_options o;
  o.method = a;
  o.seed = 7;
  for (auto _ : state) {
    draw_rows(m.w, K, out, o);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
    ++o.iteration;
  }
  counters(state, R, K, std::string(name(a)));
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const bool huge = std::getenv("BUTTERFLY_BENCH_HUGE") != nullptr;
  for (std::int64_t R : {10000, 100000, 1000000})
    for (int K : {16, 128, 1024}) {
      if (R * K > std::int64_t{200'000'000} && !huge) continue;
      const std::string shape = "/R:" + std::to_string(R) + "/K:" + std::to_string(K);
      benchmark::RegisterBenchmark(("rows/std_discrete" + shape).c_str(), std_discrete, R, K)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
      for (algorithm a : all_algorithms)
        benchmark::RegisterBenchmark(("rows/" + std::string(name(a)) + shape).c_str(), rows, a, R,
                                     K)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
