#include "butterfly/detail/device_entry.hpp"

#include <vector>

#include "butterfly/detail/prepare.hpp"

namespace butterfly::detail {
namespace {

// A host copy of device span s, or s itself (only its size is read) when not needed.
template <class T>
struct readable {
  std::vector<T> copy;
  span<const T> view;
  readable(const backend& b, span<const T> s, bool needed) : view(s) {
    if (!needed) return;
    copy.resize(s.size());
    if (!s.empty()) b.copy_to_host(copy.data(), s.data(), s.size() * sizeof(T));
    view = copy;
  }
};

}  // namespace

void draw_topics_device(const backend& b, const char* fn, span<const float> theta,
                        span<const float> phi, int num_topics,
                        span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                        span<std::int32_t> z, const draw_options& o, void* stream) {
  const readable<float> theta_h(b, theta, o.validate), phi_h(b, phi, o.validate);
  const readable<std::int64_t> offsets_h(b, doc_offsets, true);
  const readable<std::int32_t> words_h(b, words, true);
  auto call = prepare_topics(fn, theta_h.view, phi_h.view, num_topics, offsets_h.view,
                             words_h.view, z, o, b.native_width(), b.supported_widths());
  if (call.empty()) return;
  require_available(b, fn);
  // The checks read host copies; the kernels read the device memory. packed still points
  // into the host plan: the backend swaps in its uploaded copy.
  call.src.theta = theta.data();
  call.src.phi = phi.data();
  call.src.offsets = doc_offsets.data();
  call.src.words = words.data();
  b.draw(call.src, {call.width, o, z.data(), call.plan, memory::device, stream});
}

void draw_rows_device(const backend& b, const char* fn, span<const float> weights,
                      int num_topics, span<std::int32_t> out, const draw_options& o,
                      void* stream) {
  const readable<float> weights_h(b, weights, o.validate);
  auto call = prepare_rows(fn, weights_h.view, num_topics, out, o, b.native_width(),
                           b.supported_widths());
  if (call.empty()) return;
  require_available(b, fn);
  call.src.weights = weights.data();
  b.draw(call.src, {call.width, o, out.data(), nullptr, memory::device, stream});
}

}  // namespace butterfly::detail
