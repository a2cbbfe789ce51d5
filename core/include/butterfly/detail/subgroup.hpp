// The seam between core/ and backends/: what a subgroup type SG must provide.
//
// A value is *uniform* (a plain T, the same for the whole subgroup) or *varying*
// (SG::varying<T>, one per lane). On CUDA/HIP a varying<T> is just T, one thread per lane;
// on the serial and openmp backends it is an array of W values. Core code therefore only
// ever combines values with operators and the members below, and keeps control flow
// uniform: per-lane decisions are select()s, per-lane loops are bounded by any().
//
//   SG::width                         W, a compile-time power of two
//   SG::varying<T>, SG::mask          per-lane values and per-lane booleans
//   sg.lane()                         varying<int> 0..W-1
//   sg.any(m)                         subgroup-wide "any lane" (all lanes must participate)
//   sg.select(m, a, b)                per-lane choice, a and b uniform or varying
//   sg.shuffle(v, src)                src uniform: broadcast lane src (result uniform);
//                                     src varying: each lane reads lane src[l] (mod W)
//   sg.shuffle_xor(v, lane_mask)      each lane reads lane l ^ lane_mask (mask uniform or varying)
//   sg.shuffle_up(v, delta)           delta uniform, 0 < delta < W: lane l reads lane l - delta;
//                                     lanes l < delta keep their own value (__shfl_up_sync
//                                     with the full mask and width W)
//   sg.ballot(m)                      uniform std::uint64_t: bit l set iff lane l's m is set,
//                                     bits >= W zero (__ballot_sync(full mask) widened on
//                                     CUDA, __ballot on HIP wave64); all lanes participate
//   sg.load(base), sg.store(base, v)  lane l touches base[l]: contiguous (coalesced)
//   sg.gather(base, idx[, m, fb])     per-lane addresses; masked-off lanes read nothing, get fb
//   sg.scatter(base, idx, v, m)       per-lane stores where m is set
//   sg.mulhilo(m, x, hi, lo)          optional: hi, lo = the 32-bit halves of m * x[l]
//                                     (the lane-wise Philox, rng_lanes.hpp; without it
//                                     the product is taken in 64-bit lanes)
//   sg.sync()                         makes each lane's stores visible to the other lanes
//                                     (__syncwarp on CUDA); needed before reading memory
//                                     another lane wrote
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "butterfly/detail/config.hpp"

namespace butterfly::detail {

// The lowest and the highest set bit of x != 0: the first and last lane of a ballot.
// __CUDA_ARCH__ names the device compilation pass (a dialect, like config.hpp's tests):
// nvcc's device code has __ffsll/__clzll instead of the GCC/Clang builtins.
BUTTERFLY_FN int lowest_set_bit(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return __builtin_ctzll(x);
#endif
}
BUTTERFLY_FN int highest_set_bit(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 63 - __clzll(static_cast<long long>(x));
#else
  return 63 - __builtin_clzll(x);
#endif
}

template <class SG, class T>
using varying = typename SG::template varying<T>;

constexpr int log2_exact(int w) { return w <= 1 ? 0 : 1 + log2_exact(w / 2); }

// A per-lane array of run-time length K (the paper's theta_local[K] and p[K]). Stored
// [k][lane] so that every lane touching the same k is one contiguous access; that is also
// how CUDA lays out a thread's local memory, so on a GPU this costs what a local array would.
template <class SG>
struct lane_local {
  float* base;

  BUTTERFLY_FN varying<SG, float> get(const SG& sg, int k) const {
    return sg.load(base + static_cast<std::ptrdiff_t>(k) * SG::width);
  }
  BUTTERFLY_FN void set(const SG& sg, int k, const varying<SG, float>& v) const {
    sg.store(base + static_cast<std::ptrdiff_t>(k) * SG::width, v);
  }
  // Each lane reads its own entry k[lane]. Where varying<int> is int (CUDA, HIP) the
  // overload above already reads base[k * W + lane], so this one steps aside.
  template <class K, class = std::enable_if_t<std::is_same_v<K, varying<SG, int>> &&
                                              !std::is_same_v<K, int>>>
  BUTTERFLY_FN varying<SG, float> get(const SG& sg, const K& k) const {
    return sg.gather(base, k * SG::width + sg.lane());
  }
};

// Per-warp working memory of the draw algorithm Kernel, carved out of floats<Kernel>(K)
// floats supplied by the backend: only what that algorithm uses, as its traits say
// (Kernel::caches_theta, Kernel::p_floats, Kernel::exchanges), so that at K = 10,000 and
// W = 32 a warp_scan warp needs 40 KB and a basic one 1.3 MB, not every algorithm 2.6 MB.
template <class SG>
struct warp_scratch {
  lane_local<SG> theta_local;  // cached theta (Algorithm 5); null where Kernel caches none
  lane_local<SG> p;            // prefix sums, the butterfly table, or warp_scan's chunk ends
  float* exchange;             // W x W, the transposed a[] of Algorithm 5; null where unused

  template <class Kernel>
  static constexpr std::size_t floats(int K) {
    constexpr std::size_t W = SG::width;
    return (Kernel::caches_theta ? static_cast<std::size_t>(K) * W : 0) +
           Kernel::template p_floats<SG::width>(K) + (Kernel::exchanges ? W * W : 0);
  }
  template <class Kernel>
  BUTTERFLY_FN static warp_scratch carve(float* base, int K) {
    float* const p =
        Kernel::caches_theta ? base + static_cast<std::ptrdiff_t>(K) * SG::width : base;
    float* const exchange = p + Kernel::template p_floats<SG::width>(K);
    return {{Kernel::caches_theta ? base : nullptr}, {p}, Kernel::exchanges ? exchange : nullptr};
  }
};

}  // namespace butterfly::detail
