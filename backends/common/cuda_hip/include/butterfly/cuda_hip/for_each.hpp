// for_each_index(f, n): f(i) for every i in [0, n), one device thread per element: how code
// above the seam (the LDA steps, lda/src/device) launches its element-wise kernels on CUDA and
// HIP; for_each_subgroup(f, n): f(warp, i), one warp per element (device_warp::warp, the
// device's warp size). Compiled by nvcc or hipcc only.
#pragma once

// First: hipcc's __forceinline__ (used by core's BUTTERFLY_FN) comes from the HIP headers.
#include "butterfly/cuda_hip/runtime.hpp"

#include <cstdint>
#include <type_traits>

#include "butterfly/cuda_hip/grid.hpp"
#include "butterfly/device_warp/warp.hpp"

// The second __launch_bounds__ argument: at least 4 resident blocks of 256 threads, i.e. at
// most 64 registers per thread on sm_80/sm_90 (occupancy >= 50 %) and 4 waves per SIMD (at
// most 128 VGPRs) on AMD. With the first argument alone, ptxas 13 for sm_90 picks its own
// register target and spills 8-16 bytes in two of the LDA steps (word_buckets,
// token_partials); with 4 no step spills on any target the static checks cover
// (static_checks/). Raising it (8: 32 registers) is how those checks demonstrate that a forced
// spill in these kernels is caught.
#ifndef BUTTERFLY_FOR_EACH_MIN_BLOCKS
#define BUTTERFLY_FOR_EACH_MIN_BLOCKS 4
#endif

namespace butterfly::cuda_hip::kernel {

// The resident blocks a step's kernel is compiled for: BUTTERFLY_FOR_EACH_MIN_BLOCKS, or fewer
// where the step names its own F::min_blocks (a step whose threads hold more live values than
// 64 registers: 2 blocks allow 128 on NVIDIA, 256 VGPRs on AMD).
template <class F, class = void>
struct min_blocks_of {
  static constexpr int value = BUTTERFLY_FOR_EACH_MIN_BLOCKS;
};
template <class F>
struct min_blocks_of<F, std::void_t<decltype(F::min_blocks)>> {
  static constexpr int value =
      F::min_blocks < BUTTERFLY_FOR_EACH_MIN_BLOCKS ? F::min_blocks : BUTTERFLY_FOR_EACH_MIN_BLOCKS;
};

// Grid-stride: the blocks that can be resident at once loop over the elements.
template <class F>
__global__ void __launch_bounds__(block_threads, min_blocks_of<F>::value)
    for_each(const F f, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    f(i);
}

// Grid-stride over the elements, a warp each: a block's warps take consecutive elements.
// hipcc compiles the device code once per --offload-arch, and only the kernel whose W is that
// target's wavefront size has a body there (the host launches the one of the device's
// warpSize).
template <int W, class F>
__global__ void __launch_bounds__(block_threads, min_blocks_of<F>::value)
    for_each_subgroup(const F f, std::int64_t n) {
#if defined(__HIP_DEVICE_COMPILE__)
  if constexpr (W == __AMDGCN_WAVEFRONT_SIZE)
#endif
  {
    constexpr int warps_per_block = block_threads / W;
    // The element is the same on every lane of a warp, so the loop is warp-uniform.
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * warps_per_block;
    const device_warp::warp<W> warp{static_cast<int>(threadIdx.x) & (W - 1)};
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * warps_per_block + threadIdx.x / W;
         i < n; i += stride)
      f(warp, i);
  }
}

}  // namespace butterfly::cuda_hip::kernel

namespace butterfly::backend {

// f is copied to the device by value (its pointers are device pointers). Returns when the
// kernel is done: the next launch may read what this one wrote, and so may the host.
template <class F>
void for_each_index(const F& f, std::int64_t n) {
  if (n <= 0) return;
  using namespace cuda_hip;
  void (*const k)(F, std::int64_t) = kernel::for_each<F>;
  launch_and_wait(k, resident_blocks(k, (n + block_threads - 1) / block_threads), nullptr, f, n);
}

// f(warp, i) for every i in [0, n), one warp per element; as for_each_index otherwise.
template <class F>
void for_each_subgroup(const F& f, std::int64_t n) {
  if (n <= 0) return;
  using namespace cuda_hip;
  const auto launch = [&](auto width) {
    constexpr int W = decltype(width)::value;
    void (*const k)(F, std::int64_t) = kernel::for_each_subgroup<W, F>;
    constexpr std::int64_t warps_per_block = block_threads / W;
    launch_and_wait(k, resident_blocks(k, (n + warps_per_block - 1) / warps_per_block), nullptr, f,
                    n);
  };
#if defined(BUTTERFLY_HIP_CPU)
  launch(std::integral_constant<int, 64>{});  // the HIP CPU runtime's wavefront
#elif defined(__HIP__)
  if (device_warp_size() == 32) launch(std::integral_constant<int, 32>{});
  else launch(std::integral_constant<int, 64>{});
#else
  launch(std::integral_constant<int, 32>{});
#endif
}

}  // namespace butterfly::backend
