// Device-resident draws, declared once for both GPU backends. Include it through
// butterfly/cuda/device.hpp or butterfly/hip/device.hpp, which name the namespace
// (BUTTERFLY_GPU_NS = cuda or hip) and the stream type (BUTTERFLY_GPU_STREAM) first; the
// library's own sources get both from butterfly/cuda_hip/runtime.hpp.
//
// The arguments mean what they mean for butterfly::draw_topics / draw_rows, but every span
// points to device memory (e.g. device_buffer::view()), so an application can keep theta,
// phi, the corpus and z on the GPU across Gibbs iterations. The work runs on `stream`; the
// call returns when z (out) is written.
//
// The same checks as the host-span functions run on host copies, made on `stream`:
// doc_offsets and words are always copied to the host (the warp plan needs doc_offsets
// there), theta, phi and weights only with options.validate (on by default). A loop that
// draws the same documents every iteration prepares the draw once instead (topic_draw):
// then no call copies anything.
#pragma once

#include <cstdint>
#include <memory>

#include "butterfly/butterfly.hpp"
#include "butterfly/cuda_hip/device_buffer.hpp"

#if !defined(BUTTERFLY_GPU_NS) || !defined(BUTTERFLY_GPU_STREAM)
#error "include butterfly/cuda/device.hpp or butterfly/hip/device.hpp instead"
#endif

namespace butterfly::BUTTERFLY_GPU_NS {

using stream_t = BUTTERFLY_GPU_STREAM;

template <class T>
using device_buffer = cuda_hip::device_buffer<T>;

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options = {}, stream_t stream = nullptr);

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options = {}, stream_t stream = nullptr);

// draw_topics for one corpus, prepared once: doc_offsets and words (HOST spans here) are
// checked and the warp plan is made and uploaded when it is constructed; each call then
// draws from device spans of the same sizes and copies nothing between host and device.
// theta and phi are not validated (the caller vouches that they are finite and
// non-negative); options.validate is ignored. Calls with other sizes throw
// std::invalid_argument naming the argument.
class topic_draw {
 public:
  topic_draw(span<const std::int64_t> doc_offsets, span<const std::int32_t> words, int num_topics,
             std::int64_t vocab_size, const draw_options& options = {});
  ~topic_draw();
  topic_draw(topic_draw&&) noexcept;
  topic_draw& operator=(topic_draw&&) noexcept;

  // The draw of `iteration` (draw_options::iteration) on `stream`; returns when z is written.
  void operator()(span<const float> theta, span<const float> phi,
                  span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                  span<std::int32_t> z, std::uint32_t iteration, stream_t stream = nullptr) const;

 private:
  struct prepared;
  std::unique_ptr<const prepared> p_;
};

}  // namespace butterfly::BUTTERFLY_GPU_NS
