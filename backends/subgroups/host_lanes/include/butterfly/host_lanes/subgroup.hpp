// The explicit-lane subgroup of the host backends: W lanes executed by one host thread in
// lock step. The serial reference runs it as is.
//
// It implements the subgroup interface that core/ is written against (see
// core/include/butterfly/detail/subgroup.hpp). Every primitive is the obvious
// lane loop, so the reference is easy to trust, and fixed-trip loops over plain arrays
// are what the host compiler vectorizes.
#pragma once

#include <cstdint>

#include "butterfly/detail/config.hpp"
#include "butterfly/host_lanes/lanes.hpp"

namespace butterfly::host_lanes {

template <int W>
struct subgroup {
  static constexpr int width = W;
  template <class T>
  using varying = lanes<T, W>;
  using mask = lanes<bool, W>;

  BUTTERFLY_FN varying<int> lane() const {
    varying<int> r;
    for (int l = 0; l < W; ++l) r.v[l] = l;
    return r;
  }

  BUTTERFLY_FN bool any(const mask& m) const {
    bool r = false;
    for (int l = 0; l < W; ++l) r = r || m.v[l];
    return r;
  }
  // A uniform condition (one bool for the whole subgroup) needs no reduction.
  BUTTERFLY_FN bool any(bool m) const { return m; }

  template <class A, class B>
  BUTTERFLY_FN auto select(const mask& m, const A& a, const B& b) const {
    using T = std::common_type_t<typename lane_type<A>::type, typename lane_type<B>::type>;
    varying<T> r;
    for (int l = 0; l < W; ++l)
      r.v[l] = m.v[l] ? static_cast<T>(lane_value(a, l)) : static_cast<T>(lane_value(b, l));
    return r;
  }

  // Source lane numbers wrap modulo W, as __shfl_sync's do.
  template <class T>
  BUTTERFLY_FN T shuffle(const varying<T>& v, int src) const {
    return v.v[src & (W - 1)];
  }
  template <class T>
  BUTTERFLY_FN varying<T> shuffle(const varying<T>& v, const varying<int>& src) const {
    varying<T> r;
    for (int l = 0; l < W; ++l) r.v[l] = v.v[src.v[l] & (W - 1)];
    return r;
  }
  template <class T>
  BUTTERFLY_FN varying<T> shuffle_xor(const varying<T>& v, int lane_mask) const {
    varying<T> r;
    for (int l = 0; l < W; ++l) r.v[l] = v.v[(l ^ lane_mask) & (W - 1)];
    return r;
  }
  template <class T>
  BUTTERFLY_FN varying<T> shuffle_xor(const varying<T>& v, const varying<int>& lane_mask) const {
    varying<T> r;
    for (int l = 0; l < W; ++l) r.v[l] = v.v[(l ^ lane_mask.v[l]) & (W - 1)];
    return r;
  }

  // Lane l reads lane l - delta; lanes below delta keep their own value (__shfl_up_sync).
  template <class T>
  BUTTERFLY_FN varying<T> shuffle_up(const varying<T>& v, int delta) const {
    varying<T> r;
    for (int l = 0; l < W; ++l) r.v[l] = v.v[l >= delta ? l - delta : l];
    return r;
  }

  // Bit l set iff lane l's m is set (__ballot_sync); 64 bits so that W = 64 fits.
  BUTTERFLY_FN std::uint64_t ballot(const mask& m) const {
    std::uint64_t r = 0;
    for (int l = 0; l < W; ++l) r |= static_cast<std::uint64_t>(m.v[l]) << l;
    return r;
  }

  // Contiguous access from a uniform base: lane l touches base[l] (a coalesced access on a GPU).
  template <class T>
  BUTTERFLY_FN varying<T> load(const T* base) const {
    varying<T> r;
    for (int l = 0; l < W; ++l) r.v[l] = base[l];
    return r;
  }
  template <class T>
  BUTTERFLY_FN void store(T* base, const varying<T>& v) const {
    for (int l = 0; l < W; ++l) base[l] = v.v[l];
  }

  // Per-lane addresses. Masked-off lanes do not touch memory.
  template <class T, class I>
  BUTTERFLY_FN varying<T> gather(const T* base, const varying<I>& idx) const {
    varying<T> r;
    for (int l = 0; l < W; ++l) r.v[l] = base[idx.v[l]];
    return r;
  }
  template <class T, class I>
  BUTTERFLY_FN varying<T> gather(const T* base, const varying<I>& idx, const mask& m,
                                 T fallback) const {
    varying<T> r;
    for (int l = 0; l < W; ++l) r.v[l] = m.v[l] ? base[idx.v[l]] : fallback;
    return r;
  }
  template <class T, class I>
  BUTTERFLY_FN void scatter(T* base, const varying<I>& idx, const varying<T>& v,
                            const mask& m) const {
    for (int l = 0; l < W; ++l)
      if (m.v[l]) base[idx.v[l]] = v.v[l];
  }

  // One thread runs all lanes in program order: every store is already visible.
  BUTTERFLY_FN void sync() const {}
};

}  // namespace butterfly::host_lanes
