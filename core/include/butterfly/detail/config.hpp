// Function qualifiers shared by every backend, and the one atomic add (atomic_add).
//
// The algorithms in core/ are compiled by the host compiler for the serial and openmp
// backends and by nvcc/hipcc as device code for cuda/hip. These macros test the
// *language dialect*, not the configured backend, so one source serves all of them.
#pragma once

#include <type_traits>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define BUTTERFLY_FN __host__ __device__ __forceinline__
// nvcc hands the host half of a .cu file to the host compiler (g++), which does not know
// the pragma; the unroll matters in device code only.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define BUTTERFLY_UNROLL _Pragma("unroll")
#else
#define BUTTERFLY_UNROLL
#endif
#elif defined(__clang__)
#define BUTTERFLY_FN inline __attribute__((always_inline))
#define BUTTERFLY_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
// a[W] stays in vector registers (Algorithm 6 declares it a register array) only where the
// loops over k, b and i are unrolled, so every a[d] has a constant index. GCC left the
// butterfly's loops rolled at W = 8 and kept a[] on the stack, indexed at run time (1,869
// instructions per token at K = 240, 537 unrolled). Up to 16 iterations: every width that
// fits SIMD registers on the host; the array lanes at W = 32 and 64 are unrolled in part,
// which keeps their compile time down.
#define BUTTERFLY_FN inline __attribute__((always_inline))
#define BUTTERFLY_UNROLL _Pragma("GCC unroll 16")
#else
#define BUTTERFLY_FN inline
#define BUTTERFLY_UNROLL
#endif

namespace butterfly::detail {

// *p += v as one atomic read-modify-write (relaxed: no ordering with other memory), for
// elements that run concurrently and add into the same integer (the LDA's counts spread over
// tokens, lda/steps.hpp). Integer sums do not depend on the order of the adds, so the result
// is the same bits however the threads interleave. On a device CUDA's and HIP's atomicAdd on
// 32- and 64-bit unsigned integers (two's complement: the same bits as the signed add); on the
// host GCC's and Clang's __atomic builtin (the emulated device runs a launch's elements in
// order on one thread, where that is a plain add with a lock prefix).
template <class T>
BUTTERFLY_FN void atomic_add(T* p, T v) {
  static_assert(std::is_integral<T>::value && (sizeof(T) == 4 || sizeof(T) == 8),
                "atomic_add: 32- or 64-bit integers");
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  if constexpr (sizeof(T) == 4)
    atomicAdd(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(v));
  else atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
#elif defined(__GNUC__)
  __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#else
  *p += v;  // no builtin known here: right only where the elements run one at a time
#endif
}

}  // namespace butterfly::detail
