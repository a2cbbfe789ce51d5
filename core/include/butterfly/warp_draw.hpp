// butterfly::warp_draw: the paper's draw as a warp-level collective, for your own CUDA or
// HIP kernel, Kokkos team or host SIMD loop (as cub::WarpScan is for scans). The library's
// own draws (draw_topics, draw_rows, the LDA trainer) run through it. Guide with an example
// per form: docs/warp_draw.md; compiled examples: examples/.
//
// THE SUBGROUP. `Subgroup` is the W lanes that cooperate, a type meeting the contract of
// butterfly/detail/subgroup.hpp. The library ships three:
//   butterfly::device_warp::warp<W>{lane}   <butterfly/device_warp/warp.hpp>: one CUDA warp
//       (W = 32) or HIP wavefront (W = 64 on CDNA, 32 on RDNA; the device's warpSize), one
//       thread per lane, lane = the thread's lane id. Also a Kokkos device team's vector
//       lanes (ThreadVectorRange of length W = the warp size). nvcc / hipcc only.
//   butterfly::host_lanes::simd_subgroup<W>{}   <butterfly/host_lanes/simd_subgroup.hpp>:
//       W lanes in SIMD registers, run by ONE host thread (W = 4, 8, 16, 32 or 64; fastest
//       where W lanes fill one or two registers: 8 with AVX2). Varying values are
//       simd::simd_lanes: build one with sg.load(ptr), read lane l with v[l].
//   butterfly::host_lanes::subgroup<W>{}   <butterfly/host_lanes/subgroup.hpp>: the same on
//       plain arrays (the library's reference); bit-identical results.
// The logical width is the subgroup's: a device warp is the whole hardware warp (all
// shuffles use the full mask), host lanes are any power of two from 4 to 64.
//
// THE CALLS. warp_draw<Subgroup, algorithm> has static member functions only, each taking
// the subgroup, the subgroup's scratch and K first:
//   warp_draw<SG>::cache_theta(sg, scratch, K, theta, m);            // product form
//   k = warp_draw<SG>::products(sg, scratch, K, theta, phi, m, c, u);
//   k = warp_draw<SG>::rows(sg, scratch, K, weights, row, u);        // row form
//
// WHICH LANES TAKE PART. Every member is a collective: all W lanes call it, converged (no
// lane inside a branch the others skipped), with the same uniform arguments (K, the
// pointers, and for the *_together members every argument). A lane with nothing to draw
// still calls, with any valid row (e.g. a real neighbour's), and ignores its result.
//
// SCRATCH. scratch_floats(K) floats per subgroup (not per lane), what the algorithm uses:
// K W for basic, 2 K W for butterfly, (2K + W) W for transposed, ceil(K / W) W for
// warp_scan; laid out [k][lane] so that every access is contiguous across the lanes. Each
// concurrently running subgroup needs its own; on a GPU it is global memory (for LDA-sized K it
// exceeds shared memory), e.g. scratch + warp_id * scratch_floats(K). It is the only state between
// calls: keep it untouched between cache_theta and the draws that use it, and pass the
// same K to every call on it.
//
// INPUTS PER LANE AND WHAT A DRAW RETURNS. Lane l draws index k in [0, K) with probability
// weight(l, k) / sum over k of weight(l, k), for its uniform u[l] in [0, 1) (a float below
// 1; the library's own uniform is token_uniforms below). Weights are unnormalized floats,
// rows of K in row-major matrices:
//   product form  weight(l, k) = theta[m[l] * K + k] * phi[c[l] * K + k]   (LDA: document
//                 m, word c; mixture models: group and observation)
//   row form      weight(l, k) = weights[row[l] * K + k]   (torch.multinomial(weights, 1))
// Zero weights are never drawn (also at u = 0 and u = 1 - 2^-24). A row whose float sum
// or products overflow or underflow is drawn correctly, in double precision. -1 when all
// of a lane's weights are zero, or when its weights hold a NaN or an infinity; a negative
// weight gives an unspecified index in [-1, K). No weights are validated here (the
// library's draw_topics/draw_rows do that first). No undefined behaviour for any float.
// Each result depends only on the lane's own weights, u, K, W and the lane number, so
// the same inputs on the same lane give the same index on every backend (basic and
// transposed: on any lane and at any W).
//
// ALGORITHMS (the public enum): basic (Alg. 1+3), transposed (Alg. 4+5), butterfly
// (Alg. 6+7+8, the default), warp_scan (lanes = topics; per-lane members draw the W
// lanes' tokens one after another, the *_together members are its natural form).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/kernels.hpp"
#include "butterfly/detail/rng_lanes.hpp"
#include "butterfly/detail/sources.hpp"

namespace butterfly {
namespace detail {

// warp_draw below, for one algorithm's kernel type (draw_warp, which launchers instantiate
// per kernel type, uses it directly).
//
// Why static functions that take the subgroup, the scratch and K as parameters, and why
// cache_theta holds Algorithm 5's loops itself instead of calling a helper: hipcc (clang
// 15) optimizes every function layer between a kernel and the algorithm on its own before
// inlining it into the next, and two layers showed in the butterfly kernels' registers.
// - Members that read sg, scratch and K through `this` (an object built per warp) added
//   5 VGPRs to the row kernel on gfx90a, 4 on gfx1030.
// - A function around Algorithm 5's loops gets their unrolled broadcast shuffles alone
//   and rewrites each lane address ((lane_id & -W) + k) << 2 (HIP's __shfl) as
//   ((lane_id << 2) & -4W) | 4k, where next to the draw's shuffles it stays
//   ((lane_id & -W) << 2) | 4k: equal values that no longer merge with the addresses of
//   the draw's own broadcasts (c_warp). Loop-invariant, both sets of W - 1 addresses were
//   hoisted out of the kernel's warp loop and stayed live across its token loop: the
//   butterfly product kernel spilled 23 VGPRs on gfx90a (96 B/lane of scratch), 4 on
//   gfx1030. Written here, the loops are inlined straight into the caller, which holds
//   the draw's shuffles too.
// Both are compiler artefacts, not arithmetic: z is the same either way. The static checks
// (backends/common/cuda_hip/static_checks: the library's kernels, which call these
// functions from draw_warp) and the examples step of .ci/run (a user's kernel) check the resource
// reports.
template <class Subgroup, class Kernel>
struct basic_warp_draw {
  template <class T>
  using varying = detail::varying<Subgroup, T>;
  static constexpr int width = Subgroup::width;

  // Floats of scratch one subgroup needs for K topics (indices per distribution).
  static constexpr std::size_t scratch_floats(int K) {
    return warp_scratch<Subgroup>::template floats<Kernel>(K);
  }

  // Product form, step 1: Algorithm 5's "cache theta values into theta_local", for the
  // documents (theta rows) m[l] of the lanes: the remnant of K mod W topics as is, each
  // W x W block transposed, so that every load reads W consecutive floats of one theta
  // row. Every products() call until the next cache_theta must pass the same theta and m.
  // Departure from the paper: lane k's row is broadcast (row[k]) rather than computed as
  // q * W + k, so that documents in any order on the lanes (a packed or shifted warp of
  // the library, or a caller's own) cache the right rows. Algorithms that read theta
  // straight from its rows (basic, warp_scan) cache nothing.
  BUTTERFLY_FN static void cache_theta(const Subgroup& sg, float* scratch, int K,
                                       const float* theta, const varying<std::int64_t>& m) {
    if constexpr (Kernel::caches_theta) {
      constexpr int W = Subgroup::width;
      const lane_local<Subgroup> theta_local =
          warp_scratch<Subgroup>::template carve<Kernel>(scratch, K).theta_local;
      const weight_rows rows{theta, K};
      int j = 0;
      for (; j < K % W; ++j) theta_local.set(sg, j, rows.at(sg, m, j));
      std::int64_t row[W];
      BUTTERFLY_UNROLL
      for (int k = 0; k < W; ++k) row[k] = sg.shuffle(m, k);
      for (; j < K; j += W) {
        BUTTERFLY_UNROLL
        for (int k = 0; k < W; ++k) theta_local.set(sg, j + k, sg.load(rows.row(row[k]) + j));
      }
    }
  }

  // Product form, step 2: lane l draws from theta[m[l], :] * phi[c[l], :].
  BUTTERFLY_FN static varying<int> products(const Subgroup& sg, float* scratch, int K,
                                            const float* theta, const float* phi,
                                            const varying<std::int64_t>& m,
                                            const varying<std::int32_t>& c,
                                            const varying<float>& u) {
    return Kernel::draw(sg, product_weights{theta, phi, K},
                        warp_scratch<Subgroup>::template carve<Kernel>(scratch, K),
                        token<Subgroup>{m, c}, u);
  }

  // Row form: lane l draws from weights[row[l], :]. Rows are counted from `weights`
  // (32-bit: for a larger matrix pass a pointer to the warp's first row).
  BUTTERFLY_FN static varying<int> rows(const Subgroup& sg, float* scratch, int K,
                                        const float* weights, const varying<std::int32_t>& row,
                                        const varying<float>& u) {
    return Kernel::draw(sg, row_weights{weights, K},
                        warp_scratch<Subgroup>::template carve<Kernel>(scratch, K),
                        token<Subgroup>{varying<std::int64_t>(row), row}, u);
  }

  // algorithm::warp_scan only: the whole subgroup draws ONE distribution (m, c and u the
  // same on every lane), lane r holding topics r, r + W, ...; every lane returns the index.
  BUTTERFLY_FN static int products_together(const Subgroup& sg, float* scratch, int K,
                                            const float* theta, const float* phi, std::int64_t m,
                                            std::int32_t c, float u) {
    static_assert(std::is_same_v<Kernel, warp_scan>, "the lanes draw together in warp_scan");
    return Kernel::draw_token(sg, product_weights{theta, phi, K},
                              warp_scratch<Subgroup>::template carve<Kernel>(scratch, K).p.base, m,
                              c, u);
  }
  BUTTERFLY_FN static int row_together(const Subgroup& sg, float* scratch, int K,
                                       const float* weights, std::int32_t row, float u) {
    static_assert(std::is_same_v<Kernel, warp_scan>, "the lanes draw together in warp_scan");
    return Kernel::draw_token(sg, row_weights{weights, K},
                              warp_scratch<Subgroup>::template carve<Kernel>(scratch, K).p.base,
                              row, row, u);
  }
};

}  // namespace detail

// The collective (contract at the top of this file).
template <class Subgroup, algorithm Algorithm = algorithm::butterfly>
using warp_draw = detail::basic_warp_draw<Subgroup, typename detail::kernel_for<Algorithm>::type>;

// token_uniforms(sg, seed, iteration, index): on lane l the uniform in [0, 1) with which
// draw_topics and draw_rows draw token (row) index[l] (Philox4x32-10, key = seed, counter =
// (index, iteration, 0, 0), top 24 bits of the first word). Pass it as u to reproduce the
// library's draws in your own kernel, or pass any uniforms of your own.
using detail::token_uniforms;

}  // namespace butterfly
