// The executor when BACKEND=cuda or hip: the draw kernel (one warp per W documents or rows,
// the warps strided over the grid so that scratch is needed only for the warps that can be
// resident at once) and the device's memory. The front door (core/src/draw.cpp) stages host
// spans and places the warp plan in that memory.
// First: hipcc's __forceinline__ (used by core's BUTTERFLY_FN) comes from the HIP headers.
#include "butterfly/cuda_hip/runtime.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "butterfly/cuda_hip/device_memory.hpp"
#include "butterfly/cuda_hip/grid.hpp"
#include "butterfly/detail/draw_warp.hpp"
#include "butterfly/detail/executor_of.hpp"
#include "butterfly/device_warp/warp.hpp"

// The second __launch_bounds__ argument (minimum resident blocks per multiprocessor) caps
// registers per thread. Raising it is how the static checks (static_checks/) demonstrate that a
// forced spill is caught.
#ifndef BUTTERFLY_GPU_MIN_BLOCKS
#define BUTTERFLY_GPU_MIN_BLOCKS 1
#endif

// The widths compiled: CUDA warps have 32 lanes; HIP wavefronts 64 (CDNA) or 32 (RDNA),
// and the HIP CPU runtime's always 64.
#if defined(BUTTERFLY_HIP_CPU)
#define BUTTERFLY_GPU_WIDTHS 64
#elif defined(__HIP__)
#define BUTTERFLY_GPU_WIDTHS 32, 64
#else
#define BUTTERFLY_GPU_WIDTHS 32
#endif

namespace butterfly::cuda_hip {
namespace kernel {

// hipcc compiles the device code once per --offload-arch; only the kernel whose W matches
// that target's wavefront size is built for it (the host picks by the device's warpSize).
template <int W>
constexpr bool built_for_this_target() {
#if defined(__HIP_DEVICE_COMPILE__)
  return W == __AMDGCN_WAVEFRONT_SIZE;
#else
  return true;
#endif
}

template <class Algorithm, int W, class Source>
__global__ void __launch_bounds__(block_threads, BUTTERFLY_GPU_MIN_BLOCKS)
    draw(const Source src, std::int32_t* z, float* scratch, std::int64_t warps, std::uint64_t seed,
         std::uint32_t iteration, std::uint64_t first_token) {
  if constexpr (built_for_this_target<W>()) {
    using SG = device_warp::warp<W>;
    constexpr int warps_per_block = block_threads / W;
    // slot is the same on every lane of a warp, so the loop below is warp-uniform.
    const std::int64_t slot =
        static_cast<std::int64_t>(blockIdx.x) * warps_per_block + threadIdx.x / W;
    const std::int64_t resident = static_cast<std::int64_t>(gridDim.x) * warps_per_block;
    float* const own = scratch + slot * detail::warp_scratch<SG>::template floats<Algorithm>(src.K);
    for (std::int64_t q = slot; q < warps; q += resident)
      // Blocks are whole warps, so the lane is the low bits of the thread index.
      detail::draw_warp<Algorithm>(SG{static_cast<int>(threadIdx.x) & (W - 1)}, src, q, own, z,
                                   seed, iteration, first_token);
  }
}

}  // namespace kernel

namespace {

class gpu_executor final : public detail::executor_of<gpu_executor, BUTTERFLY_GPU_WIDTHS> {
 public:
  gpu_executor() : executor_of(device_memory()) { start_runtime(); }

  std::string_view name() const override { return BUTTERFLY_RT_NAME; }

  std::string unavailable_reason() const override {
    int count = 0;
    const error_t e = BUTTERFLY_RT(GetDeviceCount)(&count);
    if (e != BUTTERFLY_RT(Success)) {
      static_cast<void>(BUTTERFLY_RT(GetLastError)());  // not sticky; clear it for later calls
      return std::string("no " BUTTERFLY_RT_NAME " device: " BUTTERFLY_RT_NAME
                         "GetDeviceCount returned ") +
             BUTTERFLY_RT(GetErrorName)(e) + " (" + BUTTERFLY_RT(GetErrorString)(e) + ")";
    }
    if (count == 0)
      return "no " BUTTERFLY_RT_NAME " device: " BUTTERFLY_RT_NAME "GetDeviceCount found 0 devices";
    return {};
  }

  // The device's warp size. On HIP without a device we report 64, the wavefront of the CDNA
  // targets (gfx90a) this backend aims at.
  int default_width() const override {
#if defined(__HIP__)
    if (unavailable_reason().empty()) return device_warp_size();
    return 64;
#else
    return 32;
#endif
  }
  const std::vector<int>& widths() const override {
    static const std::vector<int> widths{default_width()};
    return widths;
  }

  // On the caller's stream; returns when z is written.
  template <int W, class Algorithm, class Source>
  void run_warps(const detail::warp_launch<Source>& l, std::int64_t warps) const {
    using scratch_t = detail::warp_scratch<device_warp::warp<W>>;
    constexpr int warps_per_block = block_threads / W;
    void (*const k)(Source, std::int32_t*, float*, std::int64_t, std::uint64_t, std::uint32_t,
                    std::uint64_t) = kernel::draw<Algorithm, W, Source>;
    // Scratch for the warps that can be resident at once, at most half the free memory (the
    // warps stride over the rest): kept by the executor between launches (executor::scratch).
    const std::size_t block_bytes =
        warps_per_block * scratch_t::template floats<Algorithm>(l.src.K) * sizeof(float);
    const std::int64_t affordable =
        static_cast<std::int64_t>(free_device_bytes() / 2 / block_bytes);
    if (affordable < 1)
      throw std::runtime_error("butterfly: K = " + std::to_string(l.src.K) + " needs " +
                               std::to_string(block_bytes) +
                               " bytes of draw scratch per block; the device has " +
                               std::to_string(free_device_bytes()) + " free");
    const std::int64_t blocks =
        std::min(affordable, resident_blocks(k, (warps + warps_per_block - 1) / warps_per_block));
    const auto scratch = this->scratch(static_cast<std::size_t>(blocks) * block_bytes);
    const draw_options& o = l.options;
    launch_and_wait(k, blocks, static_cast<stream_t>(l.stream), l.src, l.z,
                    static_cast<float*>(scratch.data), warps, o.seed, o.iteration, o.first_token);
  }
};

}  // namespace
}  // namespace butterfly::cuda_hip

namespace butterfly::detail {

const executor& configured_executor() {
  static const cuda_hip::gpu_executor e;
  return e;
}

}  // namespace butterfly::detail
