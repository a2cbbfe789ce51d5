// Function qualifiers shared by every backend.
//
// The algorithms in core/ are compiled by the host compiler for the serial and openmp
// backends and by nvcc/hipcc as device code for cuda/hip. These macros test the
// *language dialect*, not the configured backend, so one source serves all of them.
#pragma once

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
// butterfly's loops rolled at W = 8 and kept a[] on the stack (bench/RESULTS.md, issue 12). Up to
// 16 iterations: every width that fits SIMD registers on the host; the array lanes at
// W = 32 and 64 are unrolled in part, which keeps their compile time down.
#define BUTTERFLY_FN inline __attribute__((always_inline))
#define BUTTERFLY_UNROLL _Pragma("GCC unroll 16")
#else
#define BUTTERFLY_FN inline
#define BUTTERFLY_UNROLL
#endif
