// The subgroup of a Kokkos device space: one vector lane of a TeamPolicy thread is one lane,
// and the lanes exchange values with the hardware shuffles (Kokkos::shfl, which Kokkos 4.x
// provides on Cuda and HIP only, and the native xor shuffle). The subgroup spans the whole
// hardware warp/wavefront, so the full-warp masks below are the right ones.
//
// Every member is __device__ only (the intrinsics are), so the core's __host__ __device__
// templates instantiate with it only in device code.
//
// UNTESTED on a GPU: no device build of Kokkos on the development machines. Compile-checked
// with nvcc 13 for sm_80 against the core (with a stand-in for Kokkos::shfl, and the gpu
// branch's lane_local fix for subgroups whose varying<int> is int): 0 spills, shfl.sync.bfly.
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)

namespace butterfly::kokkos {

#if defined(KOKKOS_ENABLE_CUDA)
inline constexpr int device_width = 32;
#else
inline constexpr int device_width = Kokkos::Impl::HIPTraits::WarpSize;
#endif

template <int W>
struct vector_subgroup {
  static constexpr int width = W;
  template <class T>
  using varying = T;
  using mask = bool;

  int lane_;

  __device__ inline int lane() const { return lane_; }

  __device__ inline bool any(bool m) const {
#if defined(KOKKOS_ENABLE_CUDA)
    return __any_sync(0xffffffffu, m);
#else
    return __any(m);
#endif
  }
  __device__ inline bool all(bool m) const {
#if defined(KOKKOS_ENABLE_CUDA)
    return __all_sync(0xffffffffu, m);
#else
    return __all(m);
#endif
  }

  template <class A, class B>
  __device__ inline std::common_type_t<A, B> select(bool m, const A& a, const B& b) const {
    return m ? a : b;
  }

  template <class T>
  __device__ inline T shuffle(const T& v, int src) const {
    return Kokkos::shfl(v, src & (W - 1), W);
  }
  // The native xor shuffle, not Kokkos::shfl(v, lane ^ mask): it compiles to the butterfly
  // mode of the hardware shuffle (SHFL.BFLY) the paper's tables are built on.
  template <class T>
  __device__ inline T shuffle_xor(const T& v, int lane_mask) const {
#if defined(KOKKOS_ENABLE_CUDA)
    return __shfl_xor_sync(0xffffffffu, v, lane_mask, W);
#else
    return __shfl_xor(v, lane_mask, W);
#endif
  }

  // Kokkos::shfl_up keeps a lane's own value below delta, as __shfl_up_sync does.
  template <class T>
  __device__ inline T shuffle_up(const T& v, int delta) const {
    return Kokkos::shfl_up(v, static_cast<unsigned>(delta), W);
  }
  __device__ inline std::uint64_t ballot(bool m) const {
#if defined(KOKKOS_ENABLE_CUDA)
    return __ballot_sync(0xffffffffu, m);
#else
    return static_cast<std::uint64_t>(__ballot(m));
#endif
  }

  template <class T>
  __device__ inline T load(const T* base) const {
    return base[lane_];
  }
  template <class T>
  __device__ inline void store(T* base, const T& v) const {
    base[lane_] = v;
  }
  template <class T, class I>
  __device__ inline T gather(const T* base, const I& idx) const {
    return base[idx];
  }
  template <class T, class I>
  __device__ inline T gather(const T* base, const I& idx, bool m, T fallback) const {
    return m ? base[idx] : fallback;
  }
  template <class T, class I>
  __device__ inline void scatter(T* base, const I& idx, const T& v, bool m) const {
    if (m) base[idx] = v;
  }

  __device__ inline void sync() const {
#if defined(KOKKOS_ENABLE_CUDA)
    __syncwarp();
#else
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#endif
  }

  template <class F, class T>
  __device__ inline auto map(F f, const T& v) const {
    return f(v);
  }
};

}  // namespace butterfly::kokkos

#endif
