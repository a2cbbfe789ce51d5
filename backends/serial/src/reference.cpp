// butterfly::reference: the serial backend, built into every configuration.
#include "butterfly/detail/prepare.hpp"
#include "butterfly/serial/run.hpp"

namespace butterfly::reference {
namespace {

template <class Source>
void run(const Source& src, int width, std::int32_t* z, const draw_options& o) {
  serial::with_width(width, [&](auto w) {
    detail::with_algorithm(o.method, [&](auto alg) {
      serial::draw_warp_range<decltype(w)::value, decltype(alg)>(
          src, z, o, 0, serial::warp_count(src.items(), w));
    });
  });
}

}  // namespace

int native_width() { return 16; }
std::vector<int> supported_widths() { return serial::widths(); }

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& o) {
  const auto call = detail::prepare_topics("reference::draw_topics", theta, phi, num_topics,
                                           doc_offsets, words, z, o, native_width(),
                                           supported_widths());
  if (!call.empty()) run(call.src, call.width, z.data(), o);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& o) {
  const auto call = detail::prepare_rows("reference::draw_rows", weights, num_topics, out, o,
                                         native_width(), supported_widths());
  if (!call.empty()) run(call.src, call.width, out.data(), o);
}

}  // namespace butterfly::reference
