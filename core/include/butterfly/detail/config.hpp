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
#elif defined(__GNUC__)
// On a CPU a[W] lives in vector registers or on the stack either way; forcing full unrolls
// of W-lane loops would multiply code size and compile time for no register benefit.
#define BUTTERFLY_FN inline __attribute__((always_inline))
#define BUTTERFLY_UNROLL
#else
#define BUTTERFLY_FN inline
#define BUTTERFLY_UNROLL
#endif
