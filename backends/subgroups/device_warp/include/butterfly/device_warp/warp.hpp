// The subgroup of every GPU execution: one hardware warp (wavefront) of W threads, one
// thread per lane, so a varying<T> is a plain T in a register. It implements the contract in
// core/include/butterfly/detail/subgroup.hpp for the CUDA/HIP kernels (backends/common/cuda_hip)
// and for Kokkos's device spaces (one TeamPolicy thread's vector lanes): the caller supplies
// the lane id, since a kernel knows it from threadIdx and Kokkos from ThreadVectorRange.
//
// The intrinsics are chosen by the language dialect (nvcc defines __CUDACC__, hipcc
// __HIP__), not by the configured backend. Every reduction and shuffle names all W lanes:
// core/ keeps every lane of a warp awake until the warp is done (the master-index loop), so
// the full mask is always right; the warp must be the whole hardware warp.
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__HIP__)
#include <hip/hip_runtime.h>
#elif !defined(__CUDACC__)
#error "butterfly/device_warp/warp.hpp is compiled by nvcc or hipcc only"
#endif

namespace butterfly::device_warp {

template <int W>
struct warp {
  static_assert(W == 32 || W == 64, "a warp has 32 lanes (NVIDIA, RDNA) or 64 (CDNA)");
  static constexpr int width = W;
  template <class T>
  using varying = T;
  using mask = bool;

  int lane_;  // 0 .. W-1, this thread's lane

  __device__ __forceinline__ int lane() const { return lane_; }

#if defined(__HIP__)
  __device__ __forceinline__ bool any(bool m) const { return __any(m) != 0; }
  template <class T>
  __device__ __forceinline__ T shuffle(const T& v, int src) const {
    return __shfl(v, src, W);
  }
  // lane_mask may differ per lane (Algorithm 9 passes the varying flip); ds_bpermute
  // takes a per-lane source address, so that is free.
  template <class T>
  __device__ __forceinline__ T shuffle_xor(const T& v, int lane_mask) const {
    return __shfl_xor(v, lane_mask, W);
  }
  template <class T>
  __device__ __forceinline__ T shuffle_up(const T& v, int delta) const {
    return __shfl_up(v, static_cast<unsigned>(delta), W);
  }
  // __ballot returns the whole wavefront's 64 bits (the upper 32 are zero on wave32).
  __device__ __forceinline__ std::uint64_t ballot(bool m) const {
    return static_cast<std::uint64_t>(__ballot(m));
  }
  // A wavefront runs in lock step; the fences order each lane's stores before the other
  // lanes' later loads (release before the barrier, acquire after it).
  __device__ __forceinline__ void sync() const {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
  }
#else
  static constexpr unsigned full = 0xffffffffu;
  __device__ __forceinline__ bool any(bool m) const { return __any_sync(full, m) != 0; }
  template <class T>
  __device__ __forceinline__ T shuffle(const T& v, int src) const {
    return __shfl_sync(full, v, src, W);
  }
  // __shfl_xor_sync computes the source lane per thread, so lane_mask may vary by lane; it
  // compiles to the butterfly mode of the hardware shuffle (SHFL.BFLY).
  template <class T>
  __device__ __forceinline__ T shuffle_xor(const T& v, int lane_mask) const {
    return __shfl_xor_sync(full, v, lane_mask, W);
  }
  template <class T>
  __device__ __forceinline__ T shuffle_up(const T& v, int delta) const {
    return __shfl_up_sync(full, v, static_cast<unsigned>(delta), W);
  }
  __device__ __forceinline__ std::uint64_t ballot(bool m) const { return __ballot_sync(full, m); }
  __device__ __forceinline__ void sync() const { __syncwarp(full); }
#endif

  template <class A, class B>
  __device__ __forceinline__ std::common_type_t<A, B> select(bool m, const A& a, const B& b) const {
    using T = std::common_type_t<A, B>;
    return m ? static_cast<T>(a) : static_cast<T>(b);
  }

  template <class T>
  __device__ __forceinline__ T load(const T* base) const {
    return base[lane_];
  }
  template <class T>
  __device__ __forceinline__ void store(T* base, const T& v) const {
    base[lane_] = v;
  }
  template <class T, class I>
  __device__ __forceinline__ T gather(const T* base, const I& idx) const {
    return base[idx];
  }
  template <class T, class I>
  __device__ __forceinline__ T gather(const T* base, const I& idx, bool m, T fallback) const {
    return m ? base[idx] : fallback;
  }
  template <class T, class I>
  __device__ __forceinline__ void scatter(T* base, const I& idx, const T& v, bool m) const {
    if (m) base[idx] = v;
  }
};

}  // namespace butterfly::device_warp
