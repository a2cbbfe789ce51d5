// Host launch of the core kernels on explicit lanes: pick the compile-time width and
// algorithm, then run draw_warp over a range of warps. The openmp backend reuses this with
// the warp range split across threads.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/kernels.hpp"
#include "butterfly/detail/draw_warp.hpp"
#include "butterfly/serial/subgroup.hpp"

namespace butterfly::serial {

inline const std::vector<int>& widths() {
  static const std::vector<int> w{4, 8, 16, 32, 64};
  return w;
}

template <class F>
void with_width(int w, F&& f) {
  switch (w) {
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 16: return f(std::integral_constant<int, 16>{});
    case 32: return f(std::integral_constant<int, 32>{});
    case 64: return f(std::integral_constant<int, 64>{});
  }
  throw std::invalid_argument("butterfly: no serial kernel for width " + std::to_string(w));
}

// Runs warps [q_begin, q_end) of src with one scratch buffer.
template <int W, class Algorithm, class Source>
void draw_warp_range(const Source& src, std::int32_t* z, const draw_options& o,
                     std::int64_t q_begin, std::int64_t q_end) {
  using SG = subgroup<W>;
  std::vector<float> scratch(detail::warp_scratch<SG>::floats(src.K));
  const auto ws = detail::warp_scratch<SG>::carve(scratch.data(), src.K);
  const SG sg;
  for (std::int64_t q = q_begin; q < q_end; ++q)
    detail::draw_warp<Algorithm>(sg, src, q, ws, z, o.seed, o.iteration, o.first_token);
}

inline std::int64_t warp_count(std::int64_t items, int W) { return (items + W - 1) / W; }

}  // namespace butterfly::serial
