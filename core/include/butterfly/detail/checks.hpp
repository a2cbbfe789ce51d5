// Argument checks shared by every backend's host entry points. Each failure throws
// std::invalid_argument naming the function, the argument and the offending value.
#pragma once

#include <cstdint>
#include <vector>

#include "butterfly/butterfly.hpp"

namespace butterfly::detail {

struct product_shape {
  std::int64_t M, V, N;
  int K;
};

product_shape check_topics(const char* fn, span<const float> theta, span<const float> phi,
                           int num_topics, span<const std::int64_t> doc_offsets,
                           span<const std::int32_t> words, span<std::int32_t> z,
                           const draw_options& options);

std::int64_t check_rows(const char* fn, span<const float> weights, int num_topics,
                        span<std::int32_t> out, const draw_options& options);

// The width to run with: options.width, or native when it is 0; rejects unsupported ones.
int resolve_width(const char* fn, int requested, int native, const std::vector<int>& supported);

}  // namespace butterfly::detail
