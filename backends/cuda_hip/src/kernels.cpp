// The draw kernels: one warp per W documents (rows), the warps strided over the grid so
// that scratch is needed only for the warps that can be resident at once.
// First: hipcc's __forceinline__ (used by core's BUTTERFLY_FN) comes from the HIP headers.
#include "butterfly/cuda_hip/runtime.hpp"


#include "butterfly/detail/kernels.hpp"
#include "butterfly/detail/draw_warp.hpp"
#include "butterfly/cuda_hip/device_buffer.hpp"
#include "butterfly/cuda_hip/grid.hpp"
#include "butterfly/cuda_hip/launch.hpp"
#include "butterfly/device_warp/warp.hpp"

// The second __launch_bounds__ argument (minimum resident blocks per multiprocessor) caps
// registers per thread. Raising it is how tests/static_checks demonstrates that a forced
// spill is caught.
#ifndef BUTTERFLY_GPU_MIN_BLOCKS
#define BUTTERFLY_GPU_MIN_BLOCKS 1
#endif

namespace butterfly::cuda_hip {
namespace kernel {

using cuda_hip::block_threads;

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
    draw(const Source src, std::int32_t* z, float* scratch, std::int64_t warps,
         std::uint64_t seed, std::uint32_t iteration, std::uint64_t first_token) {
  if constexpr (built_for_this_target<W>()) {
    using SG = device_warp::warp<W>;
    using scratch_t = detail::warp_scratch<SG>;
    constexpr int warps_per_block = block_threads / W;
    // slot is the same on every lane of a warp, so the loop below is warp-uniform.
    const std::int64_t slot =
        static_cast<std::int64_t>(blockIdx.x) * warps_per_block + threadIdx.x / W;
    const std::int64_t resident = static_cast<std::int64_t>(gridDim.x) * warps_per_block;
    const auto ws = scratch_t::carve(scratch + slot * scratch_t::floats(src.K), src.K);
    for (std::int64_t q = slot; q < warps; q += resident)
      // Blocks are whole warps, so the lane is the low bits of the thread index.
      detail::draw_warp<Algorithm>(SG{static_cast<int>(threadIdx.x) & (W - 1)}, src, q, ws, z,
                                   seed, iteration, first_token);
  }
}

}  // namespace kernel

namespace {

template <int W, class Algorithm, class Source>
void launch(const Source& src, std::int32_t* z, const draw_options& o, stream_t stream) {
  using scratch_t = detail::warp_scratch<device_warp::warp<W>>;
  constexpr int warps_per_block = kernel::block_threads / W;
  const std::int64_t warps = (src.items() + W - 1) / W;
  if (warps == 0) return;
  void (*const k)(Source, std::int32_t*, float*, std::int64_t, std::uint64_t, std::uint32_t,
                  std::uint64_t) =
      kernel::draw<Algorithm, W, Source>;
  const std::int64_t blocks = resident_blocks(k, (warps + warps_per_block - 1) / warps_per_block);
  // Freed on return: launch_and_wait returns when the kernel is done with it.
  device_buffer<float> scratch(static_cast<std::size_t>(blocks) * warps_per_block *
                               scratch_t::floats(src.K));
  launch_and_wait(k, blocks, stream, src, z, scratch.data(), warps, o.seed, o.iteration, o.first_token);
}

template <class Source>
void dispatch(const Source& src, std::int32_t* z, int width, const draw_options& o,
              stream_t stream) {
  const auto with_width = [&](auto w) {
    detail::with_algorithm(o.method, [&](auto alg) {
      launch<decltype(w)::value, decltype(alg)>(src, z, o, stream);
    });
  };
  switch (width) {
#if !defined(BUTTERFLY_HIP_CPU)  // the HIP CPU runtime's wavefront is 64 lanes, never 32
    case 32: return with_width(std::integral_constant<int, 32>{});
#endif
#if defined(__HIP__)
    case 64: return with_width(std::integral_constant<int, 64>{});
#endif
  }
  throw std::invalid_argument("butterfly: no " BUTTERFLY_RT_NAME " kernel for width " +
                              std::to_string(width));
}

}  // namespace

void launch_draw(const detail::product_form& src, std::int32_t* z, int width,
                 const draw_options& options, stream_t stream) {
  dispatch(src, z, width, options, stream);
}
void launch_draw(const detail::row_form& src, std::int32_t* out, int width,
                 const draw_options& options, stream_t stream) {
  dispatch(src, out, width, options, stream);
}

}  // namespace butterfly::cuda_hip
