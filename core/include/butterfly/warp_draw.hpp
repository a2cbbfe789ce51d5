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
// WHICH LANES TAKE PART. Every member is a collective: all W lanes call it, converged (no
// lane inside a branch the others skipped), with the same uniform arguments (K, the
// pointers, and for the *_together members every argument). A lane with nothing to draw
// still calls, with any valid row (e.g. a real neighbour's), and ignores its result.
//
// SCRATCH. scratch_floats(K) floats per subgroup (not per lane), (2K + W) * W, laid out
// [k][lane] so that every access is contiguous across the lanes. Each concurrently running
// subgroup needs its own; on a GPU it is global memory (for LDA-sized K it exceeds shared
// memory), e.g. scratch + warp_id * scratch_floats(K). It is the object's only state:
// keep it untouched between cache_theta and the draws that use it.
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
template <class Subgroup, class Kernel>
class basic_warp_draw {
  using scratch_t = warp_scratch<Subgroup>;

 public:
  template <class T>
  using varying = detail::varying<Subgroup, T>;
  static constexpr int width = Subgroup::width;

  // Floats of scratch one subgroup needs for K topics (indices per distribution).
  static constexpr std::size_t scratch_floats(int K) { return scratch_t::floats(K); }

  // K >= 1, the same on every lane; scratch holds scratch_floats(K) floats.
  BUTTERFLY_FN basic_warp_draw(const Subgroup& sg, float* scratch, int K)
      : basic_warp_draw(sg, scratch_t::carve(scratch, K), K) {}
  // The library's launchers, which carve the scratch themselves.
  BUTTERFLY_FN basic_warp_draw(const Subgroup& sg, const scratch_t& ws, int K)
      : sg_(sg), ws_(ws), K_(K) {}

  // Product form, step 1 (Algorithm 5): cache theta rows m[l] in scratch, transposed, once
  // for all the draws of these documents. Every products() call until the next
  // cache_theta must pass the same theta and m.
  BUTTERFLY_FN void cache_theta(const float* theta, const varying<std::int64_t>& m) const {
    Kernel::cache_theta(sg_, product_weights{theta, nullptr, K_}, ws_, m);
  }

  // Product form, step 2: lane l draws from theta[m[l], :] * phi[c[l], :].
  BUTTERFLY_FN varying<int> products(const float* theta, const float* phi,
                                     const varying<std::int64_t>& m,
                                     const varying<std::int32_t>& c,
                                     const varying<float>& u) const {
    return Kernel::draw(sg_, product_weights{theta, phi, K_}, ws_, token<Subgroup>{m, c}, u);
  }

  // Row form: lane l draws from weights[row[l], :]. Rows are counted from `weights`
  // (32-bit: for a larger matrix pass a pointer to the warp's first row).
  BUTTERFLY_FN varying<int> rows(const float* weights, const varying<std::int32_t>& row,
                                 const varying<float>& u) const {
    return Kernel::draw(sg_, row_weights{weights, K_}, ws_,
                        token<Subgroup>{varying<std::int64_t>(row), row}, u);
  }

  // algorithm::warp_scan only: the whole subgroup draws ONE distribution (m, c and u the
  // same on every lane), lane r holding topics r, r + W, ...; every lane returns the index.
  BUTTERFLY_FN int products_together(const float* theta, const float* phi, std::int64_t m,
                                     std::int32_t c, float u) const {
    static_assert(std::is_same_v<Kernel, warp_scan>, "the lanes draw together in warp_scan");
    return Kernel::draw_token(sg_, product_weights{theta, phi, K_}, ws_.p.base, m, c, u);
  }
  BUTTERFLY_FN int row_together(const float* weights, std::int32_t row, float u) const {
    static_assert(std::is_same_v<Kernel, warp_scan>, "the lanes draw together in warp_scan");
    return Kernel::draw_token(sg_, row_weights{weights, K_}, ws_.p.base, row, row, u);
  }

 private:
  Subgroup sg_;
  scratch_t ws_;
  int K_;
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
