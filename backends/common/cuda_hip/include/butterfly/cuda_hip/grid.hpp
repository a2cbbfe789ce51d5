// Grid-stride launches, shared by the draw kernel (src/executor.cpp) and the LDA steps
// (for_each.hpp): as many blocks of block_threads as can be resident on the device at once,
// at most as many as the work needs; the kernels loop over the rest. Compiled by nvcc or
// hipcc only.
#pragma once

// First: hipcc's __forceinline__ (used by core's BUTTERFLY_FN) comes from the HIP headers.
#include "butterfly/cuda_hip/runtime.hpp"

#include <algorithm>
#include <cstdint>

namespace butterfly::cuda_hip {

// Blocks to launch kernel k with: those that can be resident at once on the current device
// (at least 1), at most `needed`.
template <class... Params>
std::int64_t resident_blocks(void (*k)(Params...), std::int64_t needed) {
  int per_multiprocessor = 0;
  BUTTERFLY_GPU_CHECK(BUTTERFLY_RT(OccupancyMaxActiveBlocksPerMultiprocessor)(&per_multiprocessor,
                                                                              k, block_threads, 0));
  const std::int64_t resident =
      std::max<std::int64_t>(1, std::int64_t{per_multiprocessor} * multiprocessors());
  return std::min(resident, needed);
}

// k<<<blocks, block_threads>>>(args...) on `stream`; returns when it is done, so the caller
// may free what the kernel used and read what it wrote.
template <class... Params, class... Args>
void launch_and_wait(void (*k)(Params...), std::int64_t blocks, stream_t stream,
                     const Args&... args) {
#if defined(__HIP__)
  // hipLaunchKernelGGL: the spelling that both hipcc and the HIP CPU runtime (g++) accept.
  hipLaunchKernelGGL(k, dim3(static_cast<unsigned>(blocks)), dim3(block_threads), 0, stream,
                     args...);
#else
  k<<<static_cast<unsigned>(blocks), block_threads, 0, stream>>>(args...);
#endif
  BUTTERFLY_GPU_CHECK(BUTTERFLY_RT(GetLastError)());
  BUTTERFLY_GPU_CHECK(BUTTERFLY_RT(StreamSynchronize)(stream));
}

}  // namespace butterfly::cuda_hip
