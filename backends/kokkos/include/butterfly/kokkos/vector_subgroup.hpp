// The subgroup of a Kokkos device space: one vector lane of a TeamPolicy thread is one lane,
// and the lanes exchange values with the hardware shuffles (Kokkos::shfl, which Kokkos 4.x
// provides on Cuda and HIP only). The subgroup spans the whole hardware warp/wavefront, so
// the full-warp masks below are the right ones.
//
// UNTESTED: no GPU and no device build of Kokkos on the development machines.
#pragma once

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

  KOKKOS_INLINE_FUNCTION int lane() const { return lane_; }

  KOKKOS_INLINE_FUNCTION bool any(bool m) const {
#if defined(KOKKOS_ENABLE_CUDA)
    return __any_sync(0xffffffffu, m);
#else
    return __any(m);
#endif
  }
  KOKKOS_INLINE_FUNCTION bool all(bool m) const {
#if defined(KOKKOS_ENABLE_CUDA)
    return __all_sync(0xffffffffu, m);
#else
    return __all(m);
#endif
  }

  template <class A, class B>
  KOKKOS_INLINE_FUNCTION std::common_type_t<A, B> select(bool m, const A& a, const B& b) const {
    return m ? a : b;
  }

  template <class T>
  KOKKOS_INLINE_FUNCTION T shuffle(const T& v, int src) const {
    return Kokkos::shfl(v, src & (W - 1), W);
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION T shuffle_xor(const T& v, int lane_mask) const {
    return Kokkos::shfl(v, (lane_ ^ lane_mask) & (W - 1), W);
  }

  template <class T>
  KOKKOS_INLINE_FUNCTION T load(const T* base) const {
    return base[lane_];
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION void store(T* base, const T& v) const {
    base[lane_] = v;
  }
  template <class T, class I>
  KOKKOS_INLINE_FUNCTION T gather(const T* base, const I& idx) const {
    return base[idx];
  }
  template <class T, class I>
  KOKKOS_INLINE_FUNCTION T gather(const T* base, const I& idx, bool m, T fallback) const {
    return m ? base[idx] : fallback;
  }
  template <class T, class I>
  KOKKOS_INLINE_FUNCTION void scatter(T* base, const I& idx, const T& v, bool m) const {
    if (m) base[idx] = v;
  }

  KOKKOS_INLINE_FUNCTION void sync() const {
#if defined(KOKKOS_ENABLE_CUDA)
    __syncwarp();
#else
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#endif
  }

  template <class F, class T>
  KOKKOS_INLINE_FUNCTION auto map(F f, const T& v) const {
    return f(v);
  }
};

}  // namespace butterfly::kokkos

#endif
