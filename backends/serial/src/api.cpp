// The public entry points when BACKEND=serial: the reference itself.
#include "butterfly/butterfly.hpp"

namespace butterfly {

std::string_view backend_name() { return "serial"; }
std::string backend_unavailable_reason() { return {}; }
int native_width() { return reference::native_width(); }
std::vector<int> supported_widths() { return reference::supported_widths(); }

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options) {
  reference::draw_topics(theta, phi, num_topics, doc_offsets, words, z, options);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options) {
  reference::draw_rows(weights, num_topics, out, options);
}

}  // namespace butterfly
