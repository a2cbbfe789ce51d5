// The device-resident draws (butterfly::cuda::draw_topics, butterfly::hip::draw_topics, ...):
// shape checks, then the kernels.
#include <stdexcept>
#include <string>

#include "butterfly/detail/checks.hpp"
#include "butterfly/gpu/launch.hpp"
#if defined(__HIP__)
#include "butterfly/hip/device.hpp"
#else
#include "butterfly/cuda/device.hpp"
#endif

namespace butterfly::BUTTERFLY_GPU_NS {
namespace {

[[noreturn]] void fail(const char* fn, const std::string& what) {
  throw std::invalid_argument(std::string("butterfly::") + fn + ": " + what);
}

void require_size(const char* fn, const char* what, std::size_t size, std::int64_t expected) {
  if (static_cast<std::int64_t>(size) != expected)
    fail(fn, std::string(what) + " must have " + std::to_string(expected) + " entries, got " +
                 std::to_string(size));
}

int checked_width(const char* fn, int num_topics, const draw_options& o) {
  if (num_topics < 1) fail(fn, "num_topics (K) must be at least 1, got " + std::to_string(num_topics));
  if (o.validate)
    fail(fn, "options.validate cannot inspect device memory; use the host-span overload in "
             "butterfly.hpp to validate");
  return detail::resolve_width(fn, o.width, native_width(), supported_widths());
}

}  // namespace

void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options, stream_t stream) {
  const char* fn = BUTTERFLY_RT_NAME "::draw_topics";
  const int width = checked_width(fn, num_topics, options);
  if (doc_offsets.empty()) fail(fn, "doc_offsets must have M + 1 entries (at least 1)");
  const std::int64_t M = static_cast<std::int64_t>(doc_offsets.size()) - 1;
  const std::int64_t N = static_cast<std::int64_t>(words.size());
  require_size(fn, "theta (M x K)", theta.size(), M * num_topics);
  if (phi.size() % num_topics != 0)
    fail(fn, "phi must have V * K entries for K = " + std::to_string(num_topics) + ", got " +
                 std::to_string(phi.size()));
  require_size(fn, "z (one per word)", z.size(), N);
  if (N == 0) return;
  gpu::launch_draw(
      detail::product_form{theta.data(), phi.data(), doc_offsets.data(), words.data(), M, N,
                           num_topics},
      z.data(), width, options, stream);
}

void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options, stream_t stream) {
  const char* fn = BUTTERFLY_RT_NAME "::draw_rows";
  const int width = checked_width(fn, num_topics, options);
  if (weights.size() % num_topics != 0)
    fail(fn, "weights must have R * K entries for K = " + std::to_string(num_topics) +
                 ", got " + std::to_string(weights.size()));
  const std::int64_t R = static_cast<std::int64_t>(weights.size()) / num_topics;
  require_size(fn, "out (one per row)", out.size(), R);
  if (R == 0) return;
  gpu::launch_draw(detail::row_form{weights.data(), R, num_topics}, out.data(), width, options,
                   stream);
}

}  // namespace butterfly::BUTTERFLY_GPU_NS
