// The public entry points when BACKEND=openmp: the serial reference's lanes and kernels,
// with the warps shared out over host_parallel_for. A warp's draws depend only on its own
// inputs, so z is bit-identical to the reference for any thread count and schedule.
#include <algorithm>

#include "butterfly/detail/prepare.hpp"
#include "butterfly/detail/host_parallel.hpp"
#include "butterfly/serial/run.hpp"

namespace butterfly {
namespace {

template <class Source>
void run(const Source& src, int width, std::int32_t* z, const draw_options& o) {
  serial::with_width(width, [&](auto w) {
    detail::with_algorithm(o.method, [&](auto alg) {
      constexpr int W = decltype(w)::value;
      const std::int64_t warps = serial::warp_count(src.items(), W);
      // About eight chunks per thread: enough for the dynamic schedule to even out long and
      // short documents, few enough that each chunk's scratch allocation is noise.
      const std::int64_t chunk =
          std::max<std::int64_t>(1, warps / (8 * static_cast<std::int64_t>(detail::host_threads())));
      detail::host_parallel_for(warps, chunk, [&](std::int64_t q_begin, std::int64_t q_end) {
        serial::draw_warp_range<W, decltype(alg)>(src, z, o, q_begin, q_end);
      });
    });
  });
}

}  // namespace

std::string_view backend_name() { return "openmp"; }
std::string backend_unavailable_reason() { return {}; }
int native_width() { return reference::native_width(); }
std::vector<int> supported_widths() { return reference::supported_widths(); }

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& o) {
  const auto call = detail::prepare_topics("draw_topics", theta, phi, num_topics, doc_offsets,
                                           words, z, o, native_width(), supported_widths());
  if (!call.empty()) run(call.src, call.width, z.data(), o);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& o) {
  const auto call = detail::prepare_rows("draw_rows", weights, num_topics, out, o,
                                         native_width(), supported_widths());
  if (!call.empty()) run(call.src, call.width, out.data(), o);
}

}  // namespace butterfly
