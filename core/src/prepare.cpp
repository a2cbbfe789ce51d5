#include "butterfly/detail/prepare.hpp"

namespace butterfly::detail {

topics_call prepare_topics(const char* fn, span<const float> theta, span<const float> phi,
                           int num_topics, span<const std::int64_t> doc_offsets,
                           span<const std::int32_t> words, span<std::int32_t> z,
                           const draw_options& o, int native_width,
                           const std::vector<int>& supported_widths) {
  const auto s = check_topics(fn, theta, phi, num_topics, doc_offsets, words, z, o);
  const int width = resolve_width(fn, o.width, native_width, supported_widths);
  auto plan = o.pack_warps && s.N > 0
                  ? cached_warp_plan(doc_offsets, width, lane_dependent(o.method), o.first_document)
                  : nullptr;
  const packed_slots packed =
      plan ? packed_slots{plan->doc.data(), plan->first.data(), plan->count.data(),
                          static_cast<std::int64_t>(plan->doc.size())}
           : packed_slots{nullptr, nullptr, nullptr, 0};
  return {product_form{theta.data(), phi.data(), doc_offsets.data(), words.data(), s.M, s.N, s.K,
                       packed, lane_of(static_cast<std::uint64_t>(o.first_document), width),
                       s.V},
          std::move(plan), width};
}

rows_call prepare_rows(const char* fn, span<const float> weights, int num_topics,
                       span<std::int32_t> out, const draw_options& o, int native_width,
                       const std::vector<int>& supported_widths) {
  const std::int64_t R = check_rows(fn, weights, num_topics, out, o);
  const int width = resolve_width(fn, o.width, native_width, supported_widths);
  return {row_form{weights.data(), R, num_topics, lane_of(o.first_token, width)}, width};
}

}  // namespace butterfly::detail
