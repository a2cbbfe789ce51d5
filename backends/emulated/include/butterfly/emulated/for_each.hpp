// for_each_index(f, n): f(i) for every i in [0, n) as one launch of the emulated device: what
// CUDA's and HIP's element-wise kernels do (butterfly/cuda_hip/for_each.hpp), here in order on
// the calling thread, device memory accessible while it runs (device_memory.hpp's launch).
// for_each_subgroup(f, n): f(warp, i), a warp of 32 host lanes per element (a CUDA warp's
// width), as the CUDA and HIP ones launch a device warp per element.
#pragma once

#include <cstdint>

#include "butterfly/emulated/device_memory.hpp"
#include "butterfly/host_lanes/subgroup.hpp"

namespace butterfly::backend {

template <class F>
void for_each_index(const F& f, std::int64_t n) {
  if (n <= 0) return;
  const emulated::launch kernel;
  for (std::int64_t i = 0; i < n; ++i) f(i);
}

template <class F>
void for_each_subgroup(const F& f, std::int64_t n) {
  if (n <= 0) return;
  const emulated::launch kernel;
  for (std::int64_t i = 0; i < n; ++i) f(host_lanes::subgroup<32>{}, i);
}

}  // namespace butterfly::backend
