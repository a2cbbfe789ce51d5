// The public entry points when BACKEND=kokkos: the draws on Kokkos's default host execution
// space.
//
// Kokkos's lifetime: session.hpp.
#include <string>

#include <Kokkos_Core.hpp>

#include "butterfly/detail/prepare.hpp"
#include "butterfly/kokkos/launch.hpp"
#include "session.hpp"

namespace butterfly {
namespace {

using host_space = Kokkos::DefaultHostExecutionSpace;

template <class Source>
void run(const Source& src, int width, std::int32_t* z, const draw_options& o, const char* fn) {
  const host_space space;
  kokkos::detail::launch(space, src, width, z, o);
  space.fence(std::string("butterfly::") + fn);
}

}  // namespace

std::string_view backend_name() { return "kokkos"; }
std::string backend_unavailable_reason() { return kokkos::detail::session_unavailable_reason(); }
int native_width() { return kokkos::native_width<host_space>(); }
std::vector<int> supported_widths() { return kokkos::supported_widths<host_space>(); }

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& o) {
  const char* fn = "draw_topics";
  const auto call = detail::prepare_topics(fn, theta, phi, num_topics, doc_offsets, words, z, o,
                                           native_width(), supported_widths());
  kokkos::detail::require_session(fn);
  if (!call.empty()) run(call.src, call.width, z.data(), o, fn);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& o) {
  const char* fn = "draw_rows";
  const auto call = detail::prepare_rows(fn, weights, num_topics, out, o, native_width(),
                                         supported_widths());
  kokkos::detail::require_session(fn);
  if (!call.empty()) run(call.src, call.width, out.data(), o, fn);
}

}  // namespace butterfly
