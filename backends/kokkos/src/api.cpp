// The public entry points when BACKEND=kokkos: the draws on Kokkos's default host execution
// space.
//
// Who owns Kokkos's lifetime: the application, whenever it wants to. These span functions
// are backend-neutral (a program written against butterfly.hpp must run unchanged on every
// backend), so when the application has not initialized Kokkos, the first draw does it
// with Kokkos's defaults (which honour OMP_NUM_THREADS and the KOKKOS_* variables) and
// finalizes it at exit. An application that configures Kokkos itself must therefore
// initialize it before its first butterfly call; the View API (butterfly/kokkos/draw.hpp)
// never initializes anything, since holding Views already requires a live Kokkos.
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>

#include <Kokkos_Core.hpp>

#include "butterfly/detail/prepare.hpp"
#include "butterfly/kokkos/launch.hpp"

namespace butterfly {
namespace {

using host_space = Kokkos::DefaultHostExecutionSpace;

std::string kokkos_state() {
  if (Kokkos::is_finalized())
    return "Kokkos has been finalized and cannot be initialized again in this process";
  return {};
}

void finalize_at_exit() {
  if (Kokkos::is_initialized()) Kokkos::finalize();
}

void require_kokkos(const char* fn) {
  static std::mutex m;
  const std::lock_guard<std::mutex> lock(m);
  const std::string why = kokkos_state();
  if (!why.empty()) throw std::runtime_error(std::string("butterfly::") + fn + ": " + why);
  if (Kokkos::is_initialized()) return;
  Kokkos::initialize(Kokkos::InitializationSettings().set_disable_warnings(true));
  // Registered after Kokkos's own statics exist, so it runs before they are destroyed.
  std::atexit(finalize_at_exit);
}

template <class Source>
void run(const Source& src, int width, std::int32_t* z, const draw_options& o, const char* fn) {
  const host_space space;
  kokkos::detail::launch(space, src, width, z, o);
  space.fence(std::string("butterfly::") + fn);
}

}  // namespace

std::string_view backend_name() { return "kokkos"; }
std::string backend_unavailable_reason() { return kokkos_state(); }
int native_width() { return kokkos::native_width<host_space>(); }
std::vector<int> supported_widths() { return kokkos::supported_widths<host_space>(); }

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& o) {
  const char* fn = "draw_topics";
  const auto call = detail::prepare_topics(fn, theta, phi, num_topics, doc_offsets, words, z, o,
                                           native_width(), supported_widths());
  require_kokkos(fn);
  if (!call.empty()) run(call.src, call.width, z.data(), o, fn);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& o) {
  const char* fn = "draw_rows";
  const auto call = detail::prepare_rows(fn, weights, num_topics, out, o, native_width(),
                                         supported_widths());
  require_kokkos(fn);
  if (!call.empty()) run(call.src, call.width, out.data(), o, fn);
}

}  // namespace butterfly
