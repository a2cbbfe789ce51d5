// Host launch of the core kernels on explicit lanes, shared by every backend whose lanes are
// host_lanes (the serial reference, serial, openmp, and Kokkos host spaces): pick the
// compile-time width and algorithm, then run draw_warp over ranges of warps. A backend only
// says how the ranges are spread over threads (its `spread`). Subgroup is host_subgroup
// (host_subgroup.hpp: SIMD registers where the lanes fit two, arrays above; what serial,
// openmp and the Kokkos host spaces run), simd_subgroup (SIMD registers at every width) or
// subgroup (plain arrays, the reference); all give the same z bit for bit.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "butterfly/detail/backend.hpp"
#include "butterfly/detail/draw_warp.hpp"
#include "butterfly/detail/host_parallel.hpp"
#include "butterfly/detail/kernels.hpp"
#include "butterfly/host_lanes/simd_subgroup.hpp"
#include "butterfly/host_lanes/subgroup.hpp"

namespace butterfly::host_lanes {

inline const std::vector<int>& widths() {
  static const std::vector<int> w{4, 8, 16, 32, 64};
  return w;
}

// The width a host backend runs when options.width is 0. A fixed number rather than the
// register width of the machine: the butterfly's z depends on W, and the same seed must give
// the same model on every x86-64 machine. 8: the fastest butterfly on AVX2 (one register;
// bench/RESULTS.md, issue 12, step 3), two registers on SSE, half of one on AVX-512.
inline constexpr int native_width = 8;

inline std::int64_t warp_count(std::int64_t items, int W) { return (items + W - 1) / W; }

// Runs warps [q_begin, q_end) of src with one scratch buffer.
template <template <int> class Subgroup, int W, class Algorithm, class Source>
void draw_warp_range(const Source& src, std::int32_t* z, const draw_options& o,
                     std::int64_t q_begin, std::int64_t q_end) {
  using SG = Subgroup<W>;
  std::vector<float> scratch(detail::warp_scratch<SG>::floats(src.K));
  const auto ws = detail::warp_scratch<SG>::carve(scratch.data(), src.K);
  const SG sg;
  for (std::int64_t q = q_begin; q < q_end; ++q)
    detail::draw_warp<Algorithm>(sg, src, q, ws, z, o.seed, o.iteration, o.first_token);
}

// Calls f(std::integral_constant<int, W>{}) for the compile-time width w.
template <class F>
void with_width(int w, F&& f) {
  switch (w) {
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 16: return f(std::integral_constant<int, 16>{});
    case 32: return f(std::integral_constant<int, 32>{});
    case 64: return f(std::integral_constant<int, 64>{});
  }
  throw std::invalid_argument("butterfly: no host-lane kernel for width " + std::to_string(w));
}

// spread(warps, range) must call range(q_begin, q_end) for ranges that cover [0, warps)
// exactly once. A warp's draws depend only on its own inputs, so z is the same for any spread.
using spread_fn = std::function<void(std::int64_t warps, const detail::chunk_body& range)>;

// Draws all of src at the compile-time width W on Subgroup<W> lanes.
template <template <int> class Subgroup, int W, class Source>
void draw_at_width(const Source& src, std::int32_t* z, const draw_options& o,
                   const spread_fn& spread) {
  detail::with_algorithm(o.method, [&](auto alg) {
    spread(warp_count(src.items(), W), [&](std::int64_t q_begin, std::int64_t q_end) {
      draw_warp_range<Subgroup, W, decltype(alg)>(src, z, o, q_begin, q_end);
    });
  });
}

// The array lanes at every width are compiled once, in the library (the reference,
// backends/serial/src/reference.cpp, is in every build): the host backends run arrays
// wherever W lanes do not fit one SIMD register (host_subgroup.hpp), and compiling those
// widths again in each backend doubled the library's build time (most of all under the
// sanitizers). PREFIX is `extern` here and empty where they are instantiated.
#define BUTTERFLY_ARRAY_LANES_AT(PREFIX, W, FORM)                                        \
  PREFIX template void draw_at_width<subgroup, W, detail::FORM>(                         \
      const detail::FORM&, std::int32_t*, const draw_options&, const spread_fn&);
#define BUTTERFLY_ARRAY_LANES(PREFIX)                 \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 4, product_form)   \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 8, product_form)   \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 16, product_form)  \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 32, product_form)  \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 64, product_form)  \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 4, row_form)       \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 8, row_form)       \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 16, row_form)      \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 32, row_form)      \
  BUTTERFLY_ARRAY_LANES_AT(PREFIX, 64, row_form)
BUTTERFLY_ARRAY_LANES(extern)

// Draws all of src at width w (one of widths()).
template <template <int> class Subgroup, class Source>
void draw(const Source& src, int w, std::int32_t* z, const draw_options& o,
          const spread_fn& spread) {
  with_width(w, [&](auto width) {
    constexpr int W = decltype(width)::value;
    if constexpr (std::is_same_v<Subgroup<W>, subgroup<W>>)
      draw_at_width<subgroup, W>(src, z, o, spread);  // the library's one copy
    else
      draw_at_width<Subgroup, W>(src, z, o, spread);
  });
}

// The seam for a backend whose lanes are host_lanes. Backends differ only in how ranges of
// warps are spread over threads (spread(warps, range) calls range(q_begin, q_end) for ranges
// covering [0, warps) exactly once) and, for Kokkos, in whether they can run at all.
template <template <int> class Subgroup>
class basic_lanes_backend final : public detail::backend {
 public:
  using reason_fn = std::function<std::string()>;

  basic_lanes_backend(std::string_view name, spread_fn spread, reason_fn reason = {})
      : name_(name), spread_(std::move(spread)), reason_(std::move(reason)) {}

  std::string_view name() const override { return name_; }
  std::string unavailable_reason() const override { return reason_ ? reason_() : std::string(); }
  int native_width() const override { return host_lanes::native_width; }
  const std::vector<int>& supported_widths() const override { return widths(); }
  void draw(const detail::product_form& src, const detail::launch& l) const override {
    host_lanes::draw<Subgroup>(src, l.width, l.z, l.options, spread_);
  }
  void draw(const detail::row_form& src, const detail::launch& l) const override {
    host_lanes::draw<Subgroup>(src, l.width, l.z, l.options, spread_);
  }

 private:
  std::string_view name_;
  spread_fn spread_;
  reason_fn reason_;
};

// The reference (butterfly::reference) and the SIMD lanes at every width, which
// tests/conformance/simd_lanes.cpp checks against it; the backends themselves run
// host_lanes_backend (host_subgroup.hpp).
using lanes_backend = basic_lanes_backend<simd_subgroup>;
using array_lanes_backend = basic_lanes_backend<subgroup>;

}  // namespace butterfly::host_lanes
