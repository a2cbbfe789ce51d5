// butterfly-bench-draw: the z draw of one LDA iteration over the wiki-lead documents, the
// paper's Figure 3, on the configured backend.
//   grid    every algorithm x K in {16, 48, ..., 240} (the paper's) + {512, 1024},
//           native width, warp packing on
//   widths  every algorithm x every supported width at K = 240, packing on
//   packing every algorithm at K = 240, native width, packing off (on is in the grid)
//   simd    Figure 3 on the host lanes at every width: every algorithm x the grid's K x
//           every supported width, packing on, and `scalar` (width 1), the loop a user
//           would write instead, in the same run (bench/cpu.sh runs this group on ap).
//           The host backends run SIMD lanes up to two registers and arrays above
//           (host_lanes/host_subgroup.hpp)
//   array   the same at K = 240 on the plain-array lanes of butterfly::reference (what the
//           host backends run above two registers), for a SIMD/array ratio in one run
//   device  (backends with device memory) Figure 3 device-resident, as an LDA loop on a GPU
//           draws: theta, phi, the corpus and z uploaded once per K, the draw prepared once
//           (topic_draw: checks and warp plan), weights not validated, each call timed on
//           the device (CUDA events on BACKEND=cuda, steady_clock elsewhere; the call returns
//           when z is written). The grid group on such a backend is the end-to-end figure
//           of the host-span draw_topics: uploads, checks and the copy of z back per call.
// Counters: tokens_per_s (rate), lane_util (useful lane-steps / all lane-steps, computed
// from the document lengths), K, W, pack; device also M and N (documents and tokens, for
// bench/gpu/summary.py's HBM floor). The label is the algorithm.
// $BUTTERFLY_BENCH_DOCS=n keeps the first n documents (for callgrind); default all.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/rng.hpp"
#include "butterfly/detail/warp_plan.hpp"
#include "corpus.hpp"
#include "inputs.hpp"
// The backend names its device API (backends/CMakeLists.txt: BUTTERFLY_BACKEND_DEVICE_API).
#if defined(BUTTERFLY_DEVICE_HEADER)
#include BUTTERFLY_DEVICE_HEADER
#endif
#if defined(BUTTERFLY_BENCH_CUDA_EVENTS)
#include <cuda_runtime_api.h>
#endif

namespace {

using namespace butterfly;

const bench::corpus& wiki() {
  static const bench::corpus c = bench::wiki_lead_documents();
  return c;
}

// theta (M x K) and phi (V x K) for one K at a time: the runs are registered K by K, so
// only one K's inputs are held (K = 1024 needs about 0.4 GB).
struct model {
  int K = 0;
  std::vector<float> theta, phi;
};
const model& model_for(int K) {
  static model m;
  if (m.K != K) {
    m = model{};
    m.K = K;
    m.theta = bench::dirichlet_rows(wiki().M(), K, 0.1, 1000 + K);
    m.phi = bench::dirichlet_columns(wiki().V, K, 0.01, 2000 + K);
  }
  return m;
}

double lane_util(algorithm a, int K, int W, bool pack) {
  if (a == algorithm::warp_scan) return static_cast<double>(K) / (W * ((K + W - 1) / W));
  const auto& c = wiki();
  return pack ? detail::lane_utilization(
                    *detail::cached_warp_plan(c.doc_offsets, W, detail::lane_dependent(a)), W)
              : detail::lane_utilization(c.doc_offsets, W);
}

void draw(benchmark::State& state, algorithm a, int K, int W, bool pack, bool array_lanes) {
  const auto& c = wiki();
  const auto& m = model_for(K);
  std::vector<std::int32_t> z(c.words.size());
  draw_options o;
  o.method = a;
  o.width = W;
  o.pack_warps = pack;
  o.seed = 7;
  // As the LDA trainer calls it: the weights are known to be finite and non-negative, so the
  // validation pass (the public default) is left out and only the draw is timed.
  o.validate = false;
  for (auto _ : state) {
    if (array_lanes) reference::draw_topics(m.theta, m.phi, K, c.doc_offsets, c.words, z, o);
    else draw_topics(m.theta, m.phi, K, c.doc_offsets, c.words, z, o);
    benchmark::DoNotOptimize(z.data());
    benchmark::ClobberMemory();
    ++o.iteration;
  }
  state.SetLabel(std::string(name(a)));
  state.counters["tokens_per_s"] =
      benchmark::Counter(static_cast<double>(c.N()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["lane_util"] = lane_util(a, K, W, pack);
  state.counters["K"] = K;
  state.counters["W"] = W;
  state.counters["pack"] = pack;
}

// The baseline: the plain scalar loop a user would write, one token at a time: the K
// products theta[m, k] * phi[c, k] summed into a prefix table, then a binary search for
// the first prefix above sum * u, with the library's uniforms.
void scalar_loop(benchmark::State& state, int K) {
  const auto& c = wiki();
  const auto& m = model_for(K);
  std::vector<std::int32_t> z(c.words.size());
  std::vector<float> prefix(static_cast<std::size_t>(K));
  std::uint32_t iteration = 0;
  for (auto _ : state) {
    for (std::int64_t d = 0; d < c.M(); ++d) {
      const float* theta = m.theta.data() + d * K;
      for (std::int64_t t = c.doc_offsets[d]; t < c.doc_offsets[d + 1]; ++t) {
        const float* phi = m.phi.data() + static_cast<std::int64_t>(c.words[t]) * K;
        float sum = 0.0f;
        for (int k = 0; k < K; ++k) prefix[k] = sum += theta[k] * phi[k];
        const float stop = sum * rng::token_uniform(7, iteration, static_cast<std::uint64_t>(t));
        int lo = 0, hi = K - 1;
        while (lo < hi) {
          const int mid = (lo + hi) / 2;
          if (stop < prefix[mid]) hi = mid;
          else lo = mid + 1;
        }
        z[t] = lo;
      }
    }
    benchmark::DoNotOptimize(z.data());
    benchmark::ClobberMemory();
    ++iteration;
  }
  state.SetLabel("scalar");
  state.counters["tokens_per_s"] =
      benchmark::Counter(static_cast<double>(c.N()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["K"] = K;
  state.counters["W"] = 1;
  state.counters["pack"] = 0;
}

#if defined(BUTTERFLY_DEVICE_HEADER)
namespace device = butterfly::BUTTERFLY_DEVICE_NAMESPACE;

// The corpus, z and one K's theta and phi in device memory, uploaded once per K (the runs
// are registered K by K). Held until main releases it: device memory must go back before
// the runtime does (the emulated device counts what is left at exit as leaked).
struct device_inputs {
  int K = 0;
  device::device_buffer<float> theta, phi;
  device::device_buffer<std::int64_t> offsets{span<const std::int64_t>(wiki().doc_offsets)};
  device::device_buffer<std::int32_t> words{span<const std::int32_t>(wiki().words)};
  device::device_buffer<std::int32_t> z{wiki().words.size()};
};
std::unique_ptr<device_inputs> held_device_inputs;
device_inputs& device_inputs_for(int K) {
  if (!held_device_inputs) held_device_inputs = std::make_unique<device_inputs>();
  device_inputs& d = *held_device_inputs;
  if (d.K != K) {
    const auto& m = model_for(K);
    d.theta = device::device_buffer<float>(span<const float>(m.theta));
    d.phi = device::device_buffer<float>(span<const float>(m.phi));
    d.K = K;
  }
  return d;
}

// Seconds of one call of f, which returns when the device is done: CUDA events around it on
// the legacy stream (where the draw runs), or the host clock where there are no events.
#if defined(BUTTERFLY_BENCH_CUDA_EVENTS)
void cuda_check(cudaError_t e, const char* call) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(call) + ": " + cudaGetErrorString(e));
}
class device_timer {
 public:
  device_timer() {
    cuda_check(cudaEventCreate(&start_), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~device_timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  device_timer(const device_timer&) = delete;
  device_timer& operator=(const device_timer&) = delete;
  template <class F>
  double seconds(F&& f) {
    cuda_check(cudaEventRecord(start_, nullptr), "cudaEventRecord");
    f();
    cuda_check(cudaEventRecord(stop_, nullptr), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms * 1e-3;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};
#else
struct device_timer {
  template <class F>
  double seconds(F&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
};
#endif

void device_draw(benchmark::State& state, algorithm a, int K) {
  const auto& c = wiki();
  device_inputs& d = device_inputs_for(K);
  draw_options o;
  o.method = a;
  o.seed = 7;
  const device::topic_draw prepared(c.doc_offsets, c.words, K, c.V, o);
  std::uint32_t iteration = 0;
  const auto once = [&] {
    prepared(d.theta.view(), d.phi.view(), d.offsets.view(), d.words.view(), d.z.view(),
             iteration++);
  };
  once();  // untimed: the first launch of a kernel also loads it
  device_timer timer;
  for (auto _ : state) state.SetIterationTime(timer.seconds(once));
  const int W = default_width();
  state.SetLabel(std::string(name(a)));
  state.counters["tokens_per_s"] =
      benchmark::Counter(static_cast<double>(c.N()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["lane_util"] = lane_util(a, K, W, true);
  state.counters["K"] = K;
  state.counters["W"] = W;
  state.counters["pack"] = 1;
  state.counters["M"] = static_cast<double>(c.M());
  state.counters["N"] = static_cast<double>(c.N());
}

void add_device(algorithm a, int K) {
  const std::string n = "device/" + std::string(name(a)) + "/K:" + std::to_string(K) +
                        "/W:" + std::to_string(default_width()) + "/pack:1";
  benchmark::RegisterBenchmark(n.c_str(), device_draw, a, K)
      ->Unit(benchmark::kMillisecond)
      ->UseManualTime();
}
#endif

void add(algorithm a, int K, int W, bool pack, const char* group) {
  const std::string n = std::string(group) + "/" + std::string(name(a)) +
                        "/K:" + std::to_string(K) + "/W:" + std::to_string(W) +
                        "/pack:" + std::to_string(pack);
  benchmark::RegisterBenchmark(n.c_str(), draw, a, K, W, pack, std::string(group) == "array")
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (!bench::announce("butterfly-bench-draw", wiki,
                       "native width " + std::to_string(default_width())))
    return 1;
  const int native = default_width();
  const std::vector<int> grid_K{16, 48, 80, 112, 144, 176, 208, 240, 512, 1024};
  for (int K : grid_K) {
#if defined(BUTTERFLY_DEVICE_HEADER)
    for (algorithm a : all_algorithms) add_device(a, K);
#endif
    for (algorithm a : all_algorithms) add(a, K, native, true, "grid");
    if (K == 240) {
      for (algorithm a : all_algorithms) add(a, K, native, false, "packing");
      for (int W : supported_widths())
        if (W != native)
          for (algorithm a : all_algorithms) add(a, K, W, true, "widths");
    }
  }
  for (int K : grid_K) {
    benchmark::RegisterBenchmark(("simd/scalar/K:" + std::to_string(K) + "/W:1/pack:0").c_str(),
                                 scalar_loop, K)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    for (int W : supported_widths())
      for (algorithm a : all_algorithms) {
        add(a, K, W, true, "simd");
        if (K == 240) add(a, K, W, true, "array");
      }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
#if defined(BUTTERFLY_DEVICE_HEADER)
  held_device_inputs.reset();
#endif
  return 0;
}
