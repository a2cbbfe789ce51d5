// The public entry points of butterfly.hpp when BACKEND=cuda or hip: check the host spans
// as every backend does, copy them to the device, draw there, copy z back.
#include <stdexcept>
#include <string>

#include "butterfly/detail/checks.hpp"
#include "butterfly/gpu/launch.hpp"
#if defined(__HIP__)
#include "butterfly/hip/device.hpp"
#else
#include "butterfly/cuda/device.hpp"
#endif

namespace butterfly {
namespace {

void require_device(const char* fn) {
  const std::string reason = backend_unavailable_reason();
  if (!reason.empty()) throw std::runtime_error(std::string("butterfly::") + fn + ": " + reason);
}

draw_options checked_on_host(draw_options o) {
  o.validate = false;
  return o;
}

}  // namespace

std::string_view backend_name() { return BUTTERFLY_RT_NAME; }

std::string backend_unavailable_reason() {
  int count = 0;
  const gpu::error_t e = BUTTERFLY_RT(GetDeviceCount)(&count);
  if (e != BUTTERFLY_RT(Success)) {
    static_cast<void>(BUTTERFLY_RT(GetLastError)());  // not sticky; clear it for later calls
    return std::string("no " BUTTERFLY_RT_NAME " device: " BUTTERFLY_RT_NAME
                       "GetDeviceCount returned ") +
           BUTTERFLY_RT(GetErrorName)(e) + " (" + BUTTERFLY_RT(GetErrorString)(e) + ")";
  }
  if (count == 0)
    return "no " BUTTERFLY_RT_NAME " device: " BUTTERFLY_RT_NAME "GetDeviceCount found 0 devices";
  return {};
}

// CUDA warps have 32 lanes. On HIP the width is the device's wavefront size; without a
// device we report 64, the wavefront of the CDNA targets (gfx90a) this backend aims at.
int native_width() {
#if defined(__HIP__)
  if (backend_unavailable_reason().empty()) return gpu::device_warp_size();
  return 64;
#else
  return 32;
#endif
}

std::vector<int> supported_widths() { return {native_width()}; }

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options) {
  const char* fn = "draw_topics";
  const auto s = detail::check_topics(fn, theta, phi, num_topics, doc_offsets, words, z, options);
  detail::resolve_width(fn, options.width, native_width(), supported_widths());
  if (s.N == 0) return;
  require_device(fn);
  const gpu::device_buffer<float> theta_d(theta), phi_d(phi);
  const gpu::device_buffer<std::int64_t> offsets_d(doc_offsets);
  const gpu::device_buffer<std::int32_t> words_d(words);
  gpu::device_buffer<std::int32_t> z_d(z.size());
  BUTTERFLY_GPU_NS::draw_topics(theta_d.view(), phi_d.view(), num_topics, offsets_d.view(),
                                words_d.view(), z_d.view(), checked_on_host(options));
  z_d.copy_to(z);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options) {
  const char* fn = "draw_rows";
  const std::int64_t R = detail::check_rows(fn, weights, num_topics, out, options);
  detail::resolve_width(fn, options.width, native_width(), supported_widths());
  if (R == 0) return;
  require_device(fn);
  const gpu::device_buffer<float> weights_d(weights);
  gpu::device_buffer<std::int32_t> out_d(out.size());
  BUTTERFLY_GPU_NS::draw_rows(weights_d.view(), num_topics, out_d.view(),
                              checked_on_host(options));
  out_d.copy_to(out);
}

}  // namespace butterfly
