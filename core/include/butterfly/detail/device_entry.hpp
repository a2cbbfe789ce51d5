// The device-resident draws (butterfly::cuda::draw_topics, butterfly::hip::draw_rows, ...),
// written once: the same checks, width and warp plan as the host-span functions, then the
// backend's seam with memory::device. Every span points to the backend's device memory.
//
// The host cannot read device memory in place, so the checks read copies: doc_offsets and
// words always (the warp plan needs doc_offsets on the host anyway; an out-of-range word id
// would make the kernel read out of bounds), theta, phi and weights only with
// options.validate. An LDA loop that keeps its state on the device passes validate = false.
#pragma once

#include <cstdint>

#include "butterfly/detail/backend.hpp"

namespace butterfly::detail {

void draw_topics_device(const backend& b, const char* fn, span<const float> theta,
                        span<const float> phi, int num_topics,
                        span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                        span<std::int32_t> z, const draw_options& options, void* stream);

void draw_rows_device(const backend& b, const char* fn, span<const float> weights,
                      int num_topics, span<std::int32_t> out, const draw_options& options,
                      void* stream);

}  // namespace butterfly::detail
