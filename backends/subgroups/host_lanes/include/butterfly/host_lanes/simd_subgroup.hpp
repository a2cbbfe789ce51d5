// The host subgroup with lanes in SIMD registers (simd_lanes.hpp): what serial, openmp and
// the Kokkos host spaces run. It implements the subgroup interface of
// core/include/butterfly/detail/subgroup.hpp like the plain-array subgroup (subgroup.hpp),
// which stays the obviously correct reference; tests/conformance checks the two bit for
// bit at every width.
//
// On a CPU the natural lane is an element of a register: shuffle_xor is a register swap
// and/or one in-register permute, select a blend, ballot a movemask, a contiguous load one
// vector load per register, and only gather (Algorithm 1's per-lane rows) goes lane by lane.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "butterfly/detail/config.hpp"
#include "butterfly/host_lanes/simd_lanes.hpp"

namespace butterfly::host_lanes::simd {

namespace simd_detail {

// 0, 1, ..., L-1 as integers of T's size.
template <class T, int L>
BUTTERFLY_FN chunk_t<same_size_int<T>, L> iota() {
  using I = same_size_int<T>;
  I a[L];
  for (int l = 0; l < L; ++l) a[l] = static_cast<I>(l);
  chunk_t<I, L> r;
  std::memcpy(&r, a, sizeof r);
  return r;
}

// Lane l of the result is lane idx[l] (taken mod L) of v.
template <class C, class I>
BUTTERFLY_FN C permute(const C& v, const I& idx) {
#if defined(__clang__)
  // Clang's __builtin_shufflevector takes constant indices only.
  constexpr int L = sizeof(C) / sizeof(v[0]);
  C r;
  for (int l = 0; l < L; ++l) r[l] = v[idx[l] & (L - 1)];
  return r;
#else
  return __builtin_shuffle(v, idx);
#endif
}

// m ? a : b per lane, m all ones or all zeros in lanes of a's size.
template <class C, class M>
BUTTERFLY_FN C blend(const M& m, const C& a, const C& b) {
#if defined(__clang__)
  M ai, bi;
  std::memcpy(&ai, &a, sizeof a);
  std::memcpy(&bi, &b, sizeof b);
  const M ri = (m & ai) | (~m & bi);
  C r;
  std::memcpy(&r, &ri, sizeof r);
  return r;
#else
  return m ? a : b;
#endif
}

// Bit l set iff lane l of the 0/-1 chunk m is set: one movemask where the ISA has it.
template <int L>
BUTTERFLY_FN std::uint32_t movemask(const chunk_t<std::int32_t, L>& m) {
#if defined(__AVX512F__)
  if constexpr (L == 16) return _mm512_test_epi32_mask((__m512i)m, (__m512i)m);
#endif
#if defined(__AVX__)
  if constexpr (L == 8) return static_cast<std::uint32_t>(_mm256_movemask_ps((__m256)m));
#endif
#if defined(__SSE2__)
  if constexpr (L == 4) return static_cast<std::uint32_t>(_mm_movemask_ps((__m128)m));
#endif
  std::uint32_t r = 0;
  for (int l = 0; l < L; ++l) r |= static_cast<std::uint32_t>(m[l] != 0) << l;
  return r;
}

// The 64-bit products m * x[l] of one chunk, split into high and low 32-bit halves (for
// the lane-wise Philox, detail/rng_lanes.hpp). pmuludq multiplies the low 32 bits of each
// 64-bit lane: the even lanes as they stand, the odd ones shifted down; two of them cover
// the chunk, where a multiply of 64-bit lanes costs six (GCC does not see that the high
// halves are zero).
template <int L>
BUTTERFLY_FN void mulhilo(std::uint32_t m, const chunk_t<std::uint32_t, L>& x,
                          chunk_t<std::uint32_t, L>& hi, chunk_t<std::uint32_t, L>& lo) {
  using V = chunk_t<std::uint32_t, L>;
  using Q = chunk_t<std::uint64_t, L / 2>;
  Q even, odd;
  const auto mv = static_cast<int>(m);
  if constexpr (false) {
#if defined(__AVX512F__)
  } else if constexpr (L == 16) {
    // The zero-masked forms with every lane selected: the same vpmuludq and vpsrlq, but
    // GCC 12's unmasked _mm512_mul_epu32 and _mm512_srli_epi64 pass their builtins an
    // _mm512_undefined_epi32() that -Wmaybe-uninitialized reports at every caller.
    const __mmask8 all = 0xff;
    const __m512i mm = _mm512_set1_epi32(mv);
    even = (Q)_mm512_maskz_mul_epu32(all, (__m512i)x, mm);
    odd = (Q)_mm512_maskz_mul_epu32(all, _mm512_maskz_srli_epi64(all, (__m512i)x, 32), mm);
#endif
#if defined(__AVX2__)
  } else if constexpr (L == 8) {
    even = (Q)_mm256_mul_epu32((__m256i)x, _mm256_set1_epi32(mv));
    odd = (Q)_mm256_mul_epu32(_mm256_srli_epi64((__m256i)x, 32), _mm256_set1_epi32(mv));
#endif
#if defined(__SSE2__)
  } else if constexpr (L == 4) {
    even = (Q)_mm_mul_epu32((__m128i)x, _mm_set1_epi32(mv));
    odd = (Q)_mm_mul_epu32(_mm_srli_epi64((__m128i)x, 32), _mm_set1_epi32(mv));
#endif
  } else {
    using P = chunk_t<std::uint64_t, L>;
    const P p = __builtin_convertvector(x, P) * std::uint64_t{m};
    lo = __builtin_convertvector(p, V);
    hi = __builtin_convertvector(p >> 32, V);
    return;
  }
  const std::uint64_t low = 0xffffffffu;
  lo = (V)((even & low) | (odd << 32));
  hi = (V)((even >> 32) | (odd & ~low));
}

// Whether the ISA gathers a chunk of L floats in one instruction (vgatherdps).
template <int L>
inline constexpr bool has_float_gather =
#if defined(__AVX512F__)
    L == 16 ||
#endif
#if defined(__AVX2__)
    L == 8 || L == 4 ||
#endif
    false;

// base[idx[l]] for one chunk of float lanes with int32 indices where m[l] is set (all
// ones), fallback elsewhere, in one vgatherdps (has_float_gather<L>). Assembling the chunk
// from L scalar loads cost about 30 instructions per chunk at L = 8 (extracts, sign
// extensions, inserts), most of the butterfly search (14 such gathers per warp step). Without
// AVX2 no L has it and nothing calls this: hence [[maybe_unused]] (clang warns otherwise).
template <int L>
BUTTERFLY_FN chunk_t<float, L> gather_float([[maybe_unused]] const float* base,
                                            [[maybe_unused]] const chunk_t<std::int32_t, L>& idx,
                                            [[maybe_unused]] const chunk_t<std::int32_t, L>& m,
                                            const chunk_t<float, L>& fallback) {
  static_assert(has_float_gather<L>);
#if defined(__AVX512F__)
  if constexpr (L == 16)
    return (chunk_t<float, L>)_mm512_mask_i32gather_ps(
        (__m512)fallback, _mm512_test_epi32_mask((__m512i)m, (__m512i)m), (__m512i)idx, base, 4);
#endif
#if defined(__AVX2__)
  if constexpr (L == 8)
    return (chunk_t<float, L>)_mm256_mask_i32gather_ps((__m256)fallback, base, (__m256i)idx,
                                                       (__m256)m, 4);
  if constexpr (L == 4)
    return (chunk_t<float, L>)_mm_mask_i32gather_ps((__m128)fallback, base, (__m128i)idx, (__m128)m,
                                                    4);
#endif
  return fallback;  // not reached: has_float_gather<L> names the cases above
}

}  // namespace simd_detail

template <int W>
struct simd_subgroup {
  static constexpr int width = W;
  template <class T>
  using varying = simd_lanes<T, W>;
  using mask = simd_mask<W>;
  static constexpr int L = simd_chunk_lanes<W>;
  static constexpr int N = W / L;
  // Float loads with int32 indices (the butterfly search's) gather in one instruction.
  template <class T, class I>
  static constexpr bool float_gather =
      std::is_same_v<T, float>&& std::is_same_v<I, std::int32_t>&& simd_detail::has_float_gather<L>;

  BUTTERFLY_FN varying<int> lane() const {
    varying<int> r;
    for (int i = 0; i < N; ++i) r.c[i] = simd_detail::iota<int, L>() + i * L;
    return r;
  }

  BUTTERFLY_FN bool any(const mask& m) const {
    typename mask::chunk acc = m.c[0];
    for (int i = 1; i < N; ++i) acc |= m.c[i];
    return simd_detail::movemask<L>(acc) != 0;
  }
  BUTTERFLY_FN bool any(bool m) const { return m; }

  template <class A, class B>
  BUTTERFLY_FN auto select(const mask& m, const A& a, const B& b) const {
    using T =
        std::common_type_t<typename simd_lane_type<A>::type, typename simd_lane_type<B>::type>;
    const varying<T> x = simd_as<T, W>(a), y = simd_as<T, W>(b);
    varying<T> r;
    for (int i = 0; i < N; ++i) r.c[i] = simd_detail::blend(m.template as<T>(i), x.c[i], y.c[i]);
    return r;
  }

  template <class T>
  BUTTERFLY_FN T shuffle(const varying<T>& v, int src) const {
    return v[src & (W - 1)];
  }
  // Lane l reads lane src[l] mod W: each source chunk permuted once, then blended in where
  // the index points into it (N^2 permutes; N is 1 to 4 at the default width).
  template <class T>
  BUTTERFLY_FN varying<T> shuffle(const varying<T>& v, const varying<int>& src) const {
    using I = same_size_int<T>;
    const varying<I> s(src & (W - 1));
    varying<T> r;
    for (int i = 0; i < N; ++i) {
      r.c[i] = simd_detail::permute(v.c[0], s.c[i]);
      for (int j = 1; j < N; ++j)
        r.c[i] = simd_detail::blend(s.c[i] / L == j, simd_detail::permute(v.c[j], s.c[i]), r.c[i]);
    }
    return r;
  }
  // A uniform lane_mask: the bits above the chunk swap whole registers, those below are one
  // permute inside each register.
  template <class T>
  BUTTERFLY_FN varying<T> shuffle_xor(const varying<T>& v, int lane_mask) const {
    const int across = (lane_mask & (W - 1)) / L, within = lane_mask & (L - 1);
    varying<T> r;
    for (int i = 0; i < N; ++i) r.c[i] = v.c[i ^ across];
    if (within != 0) {
      const auto idx = simd_detail::iota<T, L>() ^ within;
      for (int i = 0; i < N; ++i) r.c[i] = simd_detail::permute(r.c[i], idx);
    }
    return r;
  }
  template <class T>
  BUTTERFLY_FN varying<T> shuffle_xor(const varying<T>& v, const varying<int>& lane_mask) const {
    return shuffle(v, lane() ^ lane_mask);
  }
  template <class T>
  BUTTERFLY_FN varying<T> shuffle_up(const varying<T>& v, int delta) const {
    const varying<int> l = lane();
    return shuffle(v, select(l >= delta, l - delta, l));
  }

  BUTTERFLY_FN std::uint64_t ballot(const mask& m) const {
    std::uint64_t r = 0;
    for (int i = 0; i < N; ++i)
      r |= static_cast<std::uint64_t>(simd_detail::movemask<L>(m.c[i])) << (i * L);
    return r;
  }

  template <class T>
  BUTTERFLY_FN varying<T> load(const T* base) const {
    // Chunk by chunk: one memcpy of all N chunks became 16-byte moves through the stack
    // at N >= 2, a store-forwarding stall per load (measured: the butterfly at W = 16 on
    // AVX2 took 235 ms per draw at K = 240 with one memcpy, 61 ms chunk by chunk).
    varying<T> r;
    for (int i = 0; i < N; ++i) std::memcpy(&r.c[i], base + i * L, sizeof r.c[i]);
    return r;
  }
  template <class T>
  BUTTERFLY_FN void store(T* base, const varying<T>& v) const {
    for (int i = 0; i < N; ++i) std::memcpy(base + i * L, &v.c[i], sizeof v.c[i]);
  }

  template <class T, class I>
  BUTTERFLY_FN varying<T> gather(const T* base, const varying<I>& idx) const {
    if constexpr (float_gather<T, I>) return gather(base, idx, varying<int>(0) == 0, T{0});
    T r[W];
    for (int l = 0; l < W; ++l) r[l] = base[idx[l]];
    return varying<T>::from_array(r);
  }
  template <class T, class I>
  BUTTERFLY_FN varying<T> gather(const T* base, const varying<I>& idx, const mask& m,
                                 T fallback) const {
    if constexpr (float_gather<T, I>) {
      const varying<T> fb = fallback;
      varying<T> r;
      for (int i = 0; i < N; ++i)
        r.c[i] = simd_detail::gather_float<L>(base, idx.c[i], m.c[i], fb.c[i]);
      return r;
    }
    T r[W];
    for (int l = 0; l < W; ++l) r[l] = m[l] ? base[idx[l]] : fallback;
    return varying<T>::from_array(r);
  }
  template <class T, class I>
  BUTTERFLY_FN void scatter(T* base, const varying<I>& idx, const varying<T>& v,
                            const mask& m) const {
    for (int l = 0; l < W; ++l)
      if (m[l]) base[idx[l]] = v[l];
  }

  // Optional member of the subgroup interface (detail/rng_lanes.hpp): hi, lo = the halves
  // of m * x on every lane.
  BUTTERFLY_FN void mulhilo(std::uint32_t m, const varying<std::uint32_t>& x,
                            varying<std::uint32_t>& hi, varying<std::uint32_t>& lo) const {
    for (int i = 0; i < N; ++i) simd_detail::mulhilo<L>(m, x.c[i], hi.c[i], lo.c[i]);
  }

  BUTTERFLY_FN void sync() const {}
};

}  // namespace butterfly::host_lanes::simd

namespace butterfly::host_lanes {
using simd::simd_subgroup;
}  // namespace butterfly::host_lanes
