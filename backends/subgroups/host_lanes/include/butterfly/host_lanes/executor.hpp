// What the executors whose lanes are host_lanes share (the serial reference, serial, openmp,
// and Kokkos host spaces): each runs ranges of warps through the core's draw_warps with a
// scratch buffer from here, and only says how it spreads the ranges over its threads.
// Subgroup is host_subgroup (host_subgroup.hpp: SIMD registers where the lanes fit two,
// arrays above; what serial, openmp and the Kokkos host spaces run), simd_subgroup (SIMD
// registers at every width) or subgroup (plain arrays, the reference); all give the same z
// bit for bit.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "butterfly/detail/draw_warp.hpp"
#include "butterfly/detail/executor_of.hpp"
#include "butterfly/host_lanes/simd_subgroup.hpp"
#include "butterfly/host_lanes/subgroup.hpp"

namespace butterfly::host_lanes {

// Host scratch for `count` warps of draw algorithm Kernel at a time on SG's lanes
// (detail::warp_scratch each). The OpenMP executor allocates one per thread before its
// parallel region, so nothing inside it can throw.
template <class SG, class Kernel>
struct warp_scratch_buffer {
  std::vector<float> floats;
  std::size_t per_warp;
  warp_scratch_buffer(int K, int count)
      : floats(detail::warp_scratch<SG>::template floats<Kernel>(K) *
               static_cast<std::size_t>(count)),
        per_warp(detail::warp_scratch<SG>::template floats<Kernel>(K)) {}
  float* of(int i) { return floats.data() + per_warp * static_cast<std::size_t>(i); }
};

// Warps per range when an executor spreads them over `threads` threads: about eight ranges
// per thread, enough for a dynamic schedule to even out long and short documents, few
// enough that the cost of handing out a range is noise.
inline std::int64_t warp_chunk(std::int64_t warps, int threads) {
  return std::max<std::int64_t>(1, warps / (8 * static_cast<std::int64_t>(threads)));
}

// The widths every host executor compiles, and its default: a fixed number rather than the
// register width of the machine, since the butterfly's z depends on W and the same seed must
// give the same model on every x86-64 machine. 8: the fastest butterfly on AVX2 (one
// register; measured at K = 240: 39-40 ms per draw of ap's tokens against 45 at W = 4 and
// 61 at W = 16), two registers on SSE, half of one on AVX-512.
template <class Derived>
class lanes_executor : public detail::executor_of<Derived, 4, 8, 16, 32, 64> {
 public:
  int default_width() const override { return 8; }
};

// The lanes on the calling thread, warp after warp: the reference (plain arrays), the serial
// backend (host_subgroup) and the tests of the SIMD lanes (simd_subgroup).
template <template <int> class Subgroup>
class serial_executor final : public lanes_executor<serial_executor<Subgroup>> {
 public:
  explicit serial_executor(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  template <int W, class Algorithm, class Source>
  void run_warps(const detail::warp_launch<Source>& l, std::int64_t warps) const {
    warp_scratch_buffer<Subgroup<W>, Algorithm> scratch(l.src.K, 1);
    detail::draw_warps<Algorithm>(Subgroup<W>{}, l.src, l.z, l.options, 0, warps, scratch.of(0));
  }

 private:
  std::string_view name_;
};

// The array lanes at every width are compiled once, in the library (the serial reference's
// folder is in every build): the host executors run arrays wherever W lanes do not fit two
// SIMD registers (host_subgroup.hpp), and compiling those widths again in each backend
// doubled the library's build time (most of all under the sanitizers). PREFIX is `extern`
// here and empty where they are instantiated (in namespace butterfly, which encloses
// detail::draw_warps): backends/serial/CMakeLists.txt writes one file per width, algorithm
// and form, the same lists as below, so that a parallel build compiles them side by side.
#define BUTTERFLY_ARRAY_LANES_ALG(PREFIX, W, ALG, FORM)                                        \
  PREFIX template void detail::draw_warps<detail::ALG, host_lanes::subgroup<W>, detail::FORM>( \
      const host_lanes::subgroup<W>&, const detail::FORM&, std::int32_t*, const draw_options&, \
      std::int64_t, std::int64_t, float*) noexcept;
#define BUTTERFLY_ARRAY_LANES_AT(PREFIX, W, FORM)        \
  BUTTERFLY_ARRAY_LANES_ALG(PREFIX, W, basic, FORM)      \
  BUTTERFLY_ARRAY_LANES_ALG(PREFIX, W, transposed, FORM) \
  BUTTERFLY_ARRAY_LANES_ALG(PREFIX, W, butterfly, FORM)  \
  BUTTERFLY_ARRAY_LANES_ALG(PREFIX, W, warp_scan, FORM)
#define BUTTERFLY_ARRAY_LANES_FORM(PREFIX, FORM) \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 4, FORM)      \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 8, FORM)      \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 16, FORM)     \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 32, FORM)     \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 64, FORM)
#define BUTTERFLY_ARRAY_LANES(PREFIX)              \
  BUTTERFLY_ARRAY_LANES_FORM(PREFIX, product_form) \
  BUTTERFLY_ARRAY_LANES_FORM(PREFIX, row_form)

}  // namespace butterfly::host_lanes

namespace butterfly {
BUTTERFLY_ARRAY_LANES(extern)
}  // namespace butterfly
