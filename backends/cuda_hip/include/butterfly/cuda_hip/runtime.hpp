// The CUDA and HIP runtime APIs behind one spelling, for the code in backends/cuda_hip that
// both backends compile (as Ginkgo's common/cuda_hip does). Chosen by the language dialect:
// nvcc defines __CUDACC__, hipcc (clang -x hip) defines __HIP__.
#pragma once

#include <stdexcept>
#include <string>

#if defined(__HIP__)
#include <hip/hip_runtime.h>
#define BUTTERFLY_RT(name) hip##name
#define BUTTERFLY_RT_NAME "hip"
#define BUTTERFLY_GPU_NS hip
#define BUTTERFLY_GPU_STREAM hipStream_t
#elif defined(__CUDACC__)
#include <cuda_runtime.h>
#define BUTTERFLY_RT(name) cuda##name
#define BUTTERFLY_RT_NAME "cuda"
#define BUTTERFLY_GPU_NS cuda
#define BUTTERFLY_GPU_STREAM cudaStream_t
#else
#error "butterfly/cuda_hip/runtime.hpp is compiled by nvcc or hipcc only"
#endif
// BUTTERFLY_GPU_NS and BUTTERFLY_GPU_STREAM: the public namespace of the device-resident API
// and its stream type, which butterfly/cuda/device.hpp and butterfly/hip/device.hpp spell
// without the runtime's headers for plain C++ users (cudaStream_t is CUstream_st*).

// Runs a runtime call and turns a failure into an exception naming the call and the place.
#define BUTTERFLY_GPU_CHECK(call) ::butterfly::cuda_hip::check((call), #call, __FILE__, __LINE__)

namespace butterfly::cuda_hip {

using error_t = BUTTERFLY_RT(Error_t);
using stream_t = BUTTERFLY_RT(Stream_t);

inline void check(error_t e, const char* call, const char* file, int line) {
  if (e == BUTTERFLY_RT(Success)) return;
  throw std::runtime_error(std::string("butterfly: ") + call + " failed at " + file + ":" +
                           std::to_string(line) + ": " + BUTTERFLY_RT(GetErrorName)(e) + " (" +
                           BUTTERFLY_RT(GetErrorString)(e) + ")");
}

// Streaming multiprocessors (CUDA) or compute units (HIP) of the current device.
inline int multiprocessors() {
  int device = 0, count = 0;
  BUTTERFLY_GPU_CHECK(BUTTERFLY_RT(GetDevice)(&device));
#if defined(__HIP__)
  BUTTERFLY_GPU_CHECK(
      hipDeviceGetAttribute(&count, hipDeviceAttributeMultiprocessorCount, device));
#else
  BUTTERFLY_GPU_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
#endif
  return count;
}

// Lanes per warp (wavefront) of the current device: 32 on NVIDIA and RDNA, 64 on CDNA.
inline int device_warp_size() {
  int device = 0, size = 0;
  BUTTERFLY_GPU_CHECK(BUTTERFLY_RT(GetDevice)(&device));
#if defined(__HIP__)
  BUTTERFLY_GPU_CHECK(hipDeviceGetAttribute(&size, hipDeviceAttributeWarpSize, device));
#else
  BUTTERFLY_GPU_CHECK(cudaDeviceGetAttribute(&size, cudaDevAttrWarpSize, device));
#endif
  return size;
}

}  // namespace butterfly::cuda_hip
