// What every entry point does before launching: check the arguments, resolve the width, and
// build the weight source (for the product form with the cached warp plan when
// options.pack_warps). Used by core/src/entry.cpp and by the Kokkos View API, whose widths
// depend on the execution space.
#pragma once

#include <memory>
#include <vector>

#include "butterfly/detail/checks.hpp"
#include "butterfly/detail/sources.hpp"
#include "butterfly/detail/warp_plan.hpp"

namespace butterfly::detail {

struct topics_call {
  product_form src;
  std::shared_ptr<const warp_plan> plan;  // keeps src.packed valid; null when unpacked
  int width;
  bool empty() const { return src.N == 0; }
};

struct rows_call {
  row_form src;
  int width;
  bool empty() const { return src.R == 0; }
};

topics_call prepare_topics(const char* fn, span<const float> theta, span<const float> phi,
                           int num_topics, span<const std::int64_t> doc_offsets,
                           span<const std::int32_t> words, span<std::int32_t> z,
                           const draw_options& options, int native_width,
                           const std::vector<int>& supported_widths);

rows_call prepare_rows(const char* fn, span<const float> weights, int num_topics,
                       span<std::int32_t> out, const draw_options& options, int native_width,
                       const std::vector<int>& supported_widths);

}  // namespace butterfly::detail
