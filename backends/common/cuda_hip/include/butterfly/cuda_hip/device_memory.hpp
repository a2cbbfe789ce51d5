// The GPU's global memory as the executor's memory space (src/memory.cpp): cudaMalloc /
// hipMalloc, cudaFree / hipFree, copies on the caller's stream. Plain C++.
#pragma once

#include "butterfly/detail/memory_space.hpp"

namespace butterfly::cuda_hip {

const detail::memory_space& device_memory();

}  // namespace butterfly::cuda_hip
