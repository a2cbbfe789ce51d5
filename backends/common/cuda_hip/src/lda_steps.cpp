// The LDA iteration's steps (core/include/butterfly/lda/steps.hpp) as kernels: one thread per
// element, the threads strided over a grid of the blocks that can be resident at once.
// Compiled into the LDA library (butterfly::lda) by the device backends; the sampling
// library compiles no LDA code.
// First: hipcc's __forceinline__ (used by core's BUTTERFLY_FN) comes from the HIP headers.
#include "butterfly/cuda_hip/runtime.hpp"

#include <type_traits>

#include "butterfly/cuda_hip/grid.hpp"
#include "butterfly/lda/run_steps.hpp"

// The second __launch_bounds__ argument: at least 4 resident blocks of 256 threads, i.e. at
// most 64 registers per thread on sm_80/sm_90 (occupancy >= 50 %) and 4 waves per SIMD
// (at most 128 VGPRs) on AMD. With the first argument alone, ptxas 13 for sm_90 picks its own
// register target and spills 8-16 bytes in word_buckets and token_partials; with 4 no step
// spills on any target the static checks cover (static_checks/). Raising it (8: 32 registers)
// is how those checks demonstrate that a forced spill in these kernels is caught.
#ifndef BUTTERFLY_LDA_MIN_BLOCKS
#define BUTTERFLY_LDA_MIN_BLOCKS 4
#endif

namespace butterfly::cuda_hip::kernel {

template <class Step>
__global__ void __launch_bounds__(block_threads, BUTTERFLY_LDA_MIN_BLOCKS)
    for_each(const Step step, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    step(i);
}

}  // namespace butterfly::cuda_hip::kernel

namespace butterfly::lda::steps {

void run_on_device(const any& s, std::int64_t n) {
  if (n <= 0) return;
  std::visit(
      [&](const auto& step) {
        using Step = std::decay_t<decltype(step)>;
        using namespace cuda_hip;
        void (*const k)(Step, std::int64_t) = kernel::for_each<Step>;
        // Waits: the next step reads what this one wrote; the host may read it too.
        launch_and_wait(k, resident_blocks(k, (n + block_threads - 1) / block_threads), nullptr,
                        step, n);
      },
      static_cast<const any::variant&>(s));
}

}  // namespace butterfly::lda::steps
