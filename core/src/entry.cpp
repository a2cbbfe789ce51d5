// The public functions of butterfly.hpp, written once for every backend: check the
// arguments, resolve the width and fetch the warp plan (prepare.cpp), then hand the call to
// the backend's one seam (detail/backend.hpp). butterfly::reference:: runs the same path on
// the serial reference, so error messages name the function the caller called.
#include "butterfly/detail/backend.hpp"
#include "butterfly/detail/prepare.hpp"

namespace butterfly {
namespace {

void topics(const detail::backend& b, const char* fn, span<const float> theta,
            span<const float> phi, int num_topics, span<const std::int64_t> doc_offsets,
            span<const std::int32_t> words, span<std::int32_t> z, const draw_options& o) {
  const auto call = detail::prepare_topics(fn, theta, phi, num_topics, doc_offsets, words, z, o,
                                           b.native_width(), b.supported_widths());
  if (call.empty()) return;
  detail::require_available(b, fn);
  b.draw(call.src, {call.width, o, z.data(), call.plan});
}

void rows(const detail::backend& b, const char* fn, span<const float> weights, int num_topics,
          span<std::int32_t> out, const draw_options& o) {
  const auto call = detail::prepare_rows(fn, weights, num_topics, out, o, b.native_width(),
                                         b.supported_widths());
  if (call.empty()) return;
  detail::require_available(b, fn);
  b.draw(call.src, {call.width, o, out.data(), nullptr});
}

}  // namespace

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options) {
  topics(detail::configured_backend(), "draw_topics", theta, phi, num_topics, doc_offsets, words,
         z, options);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options) {
  rows(detail::configured_backend(), "draw_rows", weights, num_topics, out, options);
}

std::string_view backend_name() { return detail::configured_backend().name(); }
std::string backend_unavailable_reason() {
  return detail::configured_backend().unavailable_reason();
}
int native_width() { return detail::configured_backend().native_width(); }
std::vector<int> supported_widths() { return detail::configured_backend().supported_widths(); }

namespace reference {

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options) {
  topics(detail::reference_backend(), "reference::draw_topics", theta, phi, num_topics,
         doc_offsets, words, z, options);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options) {
  rows(detail::reference_backend(), "reference::draw_rows", weights, num_topics, out, options);
}

int native_width() { return detail::reference_backend().native_width(); }
std::vector<int> supported_widths() { return detail::reference_backend().supported_widths(); }

}  // namespace reference
}  // namespace butterfly
