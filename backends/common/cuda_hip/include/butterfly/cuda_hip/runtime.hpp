// The CUDA and HIP runtime APIs behind one spelling, for the code in backends/common/cuda_hip
// that both backends compile (as Ginkgo's common/cuda_hip does). Chosen by the language dialect:
// nvcc defines __CUDACC__, hipcc (clang -x hip) defines __HIP__.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#if defined(BUTTERFLY_HIP_CPU)
// BACKEND=hip with BUTTERFLY_HIP_RUNTIME=cpu: the HIP CPU runtime (ROCm/HIP-CPU) runs the
// same kernels on the host, compiled by g++; its hip_runtime.h defines __HIP__ itself.
#include <hip/hip_runtime.h>
// With g++ the runtime marks __device__ and __global__ functions __attribute__((simd)):
// SIMD clones that its fibers never call, which cost compile time, a warning per kernel
// ("unsupported argument type for simd") and, being strong symbols, duplicate definitions
// at link. Our kernels and device functions do without.
#undef __device__
#define __device__
#undef __global__
#define __global__ __attribute__((flatten))
#endif

#if defined(__HIP__)
#include <hip/hip_runtime.h>
#define BUTTERFLY_RT(name) hip##name
#define BUTTERFLY_RT_NAME "hip"
#define BUTTERFLY_GPU_NS hip
#if defined(BUTTERFLY_HIP_CPU)
// The runtime's hipStream_t points to a class template instance that plain C++ cannot
// forward-declare, so butterfly/hip/device.hpp spells it void* there (see stream_t below).
#define BUTTERFLY_GPU_STREAM void*
#else
#define BUTTERFLY_GPU_STREAM hipStream_t
#endif
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

#if defined(BUTTERFLY_HIP_CPU)
// The runtime runs every lane of a block as a fiber and implements each warp intrinsic
// (__shfl*, __ballot, __any) as a barrier over the whole *block*: it is correct only when
// every thread of the block executes the same intrinsics. A warp's lanes do (core/ keeps
// them together), different warps of a block do not (other documents, other trip counts of
// the grid-stride loop), and a warp that leaves early makes the fibers of the others resume
// into the *next* launch: the heap-use-after-free that the first trial hit. So on this
// runtime a block is exactly one wavefront, and its barrier is the wavefront barrier that
// device_warp::warp::sync() asks the AMDGCN builtins for.
#define __builtin_amdgcn_wave_barrier() __syncthreads()
#define __builtin_amdgcn_fence(order, scope) __atomic_thread_fence(order)
#endif

namespace butterfly::cuda_hip {

// Threads per block of the draw kernels: 8 warps of 32 (CUDA) or 4 wavefronts of 64 (HIP);
// one wavefront on the HIP CPU runtime (see above).
#if defined(BUTTERFLY_HIP_CPU)
inline constexpr int block_threads = warpSize;
#else
inline constexpr int block_threads = 256;
#endif

using error_t = BUTTERFLY_RT(Error_t);
using stream_t = BUTTERFLY_RT(Stream_t);

inline void check(error_t e, const char* call, const char* file, int line) {
  if (e == BUTTERFLY_RT(Success)) return;
  throw std::runtime_error(std::string("butterfly: ") + call + " failed at " + file + ":" +
                           std::to_string(line) + ": " + BUTTERFLY_RT(GetErrorName)(e) + " (" +
                           BUTTERFLY_RT(GetErrorString)(e) + ")");
}

// Starts the runtime's own static state before the caller's constructor finishes, so that it
// is destroyed after the caller: the backend singleton frees its cached plans at exit. Only
// the HIP CPU runtime needs it: its worker thread is a function-local static started by the
// first synchronisation, and a hipFree after that thread has been joined waits forever.
inline void start_runtime() {
#if defined(BUTTERFLY_HIP_CPU)
  BUTTERFLY_GPU_CHECK(hipDeviceSynchronize());
#endif
}

// Streaming multiprocessors (CUDA) or compute units (HIP) of the current device; the HIP CPU
// runtime has no hipDeviceGetAttribute, and its cores play the multiprocessors.
inline int multiprocessors() {
  int device = 0, count = 0;
  BUTTERFLY_GPU_CHECK(BUTTERFLY_RT(GetDevice)(&device));
#if defined(BUTTERFLY_HIP_CPU)
  hipDeviceProp_t p{};
  BUTTERFLY_GPU_CHECK(hipGetDeviceProperties(&p, device));
  count = p.multiProcessorCount;
#elif defined(__HIP__)
  BUTTERFLY_GPU_CHECK(hipDeviceGetAttribute(&count, hipDeviceAttributeMultiprocessorCount, device));
#else
  BUTTERFLY_GPU_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
#endif
  return count;
}

// Bytes of device memory free now. The HIP CPU runtime's device memory is the host's, which
// it does not measure: there, as much as a size_t can say.
inline std::size_t free_device_bytes() {
#if defined(BUTTERFLY_HIP_CPU)
  return static_cast<std::size_t>(-1);
#else
  std::size_t free = 0, total = 0;
  BUTTERFLY_GPU_CHECK(BUTTERFLY_RT(MemGetInfo)(&free, &total));
  return free;
#endif
}

// Lanes per warp (wavefront) of the current device: 32 on NVIDIA and RDNA, 64 on CDNA and
// on the HIP CPU runtime (its warpSize constant; its device properties report the host's
// SIMD width instead, which is not what its intrinsics use).
inline int device_warp_size() {
#if defined(BUTTERFLY_HIP_CPU)
  return warpSize;
#else
  int device = 0, size = 0;
  BUTTERFLY_GPU_CHECK(BUTTERFLY_RT(GetDevice)(&device));
#if defined(__HIP__)
  BUTTERFLY_GPU_CHECK(hipDeviceGetAttribute(&size, hipDeviceAttributeWarpSize, device));
#else
  BUTTERFLY_GPU_CHECK(cudaDeviceGetAttribute(&size, cudaDevAttrWarpSize, device));
#endif
  return size;
#endif
}

}  // namespace butterfly::cuda_hip
