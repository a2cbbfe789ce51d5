// butterfly::cuda:: / butterfly::hip:: device-resident draws: the core's front door
// (detail/draw.hpp) on this backend's executor, with device spans.
#include "butterfly/cuda_hip/runtime.hpp"

#include "butterfly/cuda_hip/device_api.hpp"
#include "butterfly/detail/draw.hpp"

namespace butterfly::BUTTERFLY_GPU_NS {

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options, stream_t stream) {
  detail::draw_in_place(detail::configured_executor(), BUTTERFLY_RT_NAME "::draw_topics",
                        {theta, phi, num_topics, doc_offsets, words, z}, options, stream);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options, stream_t stream) {
  detail::draw_in_place(detail::configured_executor(), BUTTERFLY_RT_NAME "::draw_rows",
                        {weights, num_topics, out}, options, stream);
}

}  // namespace butterfly::BUTTERFLY_GPU_NS
