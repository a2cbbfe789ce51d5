// butterfly::reference: the serial backend, built into every configuration.
#include "butterfly/detail/checks.hpp"
#include "butterfly/detail/warp_plan.hpp"
#include "butterfly/serial/run.hpp"

namespace butterfly::reference {
namespace {

template <class Source>
void run(const Source& src, int width, std::int32_t* z, const draw_options& o) {
  serial::with_width(width, [&](auto w) {
    serial::with_algorithm(o.method, [&](auto alg) {
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
  const char* fn = "reference::draw_topics";
  const auto s = detail::check_topics(fn, theta, phi, num_topics, doc_offsets, words, z, o);
  const int width = detail::resolve_width(fn, o.width, native_width(), supported_widths());
  if (s.N == 0) return;
  const auto plan = o.pack_warps ? detail::cached_warp_plan(doc_offsets) : nullptr;
  const detail::packed_slots packed =
      plan ? detail::packed_slots{plan->doc.data(), plan->first.data(), plan->count.data(),
                                  static_cast<std::int64_t>(plan->doc.size())}
           : detail::packed_slots{nullptr, nullptr, nullptr, 0};
  run(detail::product_form{theta.data(), phi.data(), doc_offsets.data(), words.data(), s.M, s.N,
                           s.K, packed},
      width, z.data(), o);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& o) {
  const char* fn = "reference::draw_rows";
  const std::int64_t R = detail::check_rows(fn, weights, num_topics, out, o);
  const int width = detail::resolve_width(fn, o.width, native_width(), supported_widths());
  if (R == 0) return;
  run(detail::row_form{weights.data(), R, num_topics}, width, out.data(), o);
}

}  // namespace butterfly::reference
