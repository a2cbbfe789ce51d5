// The one seam between core/ and a backend, declared once here and defined by every backend
// (as Ginkgo declares each kernel once and lets each executor define it). The public
// functions of butterfly.hpp, written once in core/src/entry.cpp, check the arguments,
// resolve the width and fetch the warp plan, then call draw(); a backend only launches and
// never re-checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/sources.hpp"
#include "butterfly/detail/warp_plan.hpp"

namespace butterfly::detail {

// Where the pointers of a source and z live. Only the GPU backends accept device memory
// (their device-resident API); core/src/device_entry.cpp is the one caller that passes it.
enum class memory { host, device };

// One checked call. src.packed points into *plan (host memory) when options.pack_warps;
// a backend whose kernels cannot read host memory uploads the plan itself, keyed by the plan
// object (the cache in warp_plan.cpp returns the same object for the same doc_offsets).
struct launch {
  int width;                               // one of supported_widths()
  const draw_options& options;
  std::int32_t* z;                         // one output per token (product form) or row
  std::shared_ptr<const warp_plan> plan;   // null when unpacked (and always for rows)
  memory where = memory::host;
  void* stream = nullptr;                  // the GPU backends' stream; null elsewhere
};

class backend {
 public:
  virtual ~backend() = default;
  virtual std::string_view name() const = 0;
  // Empty when this backend can run here; otherwise why not (e.g. no CUDA device).
  virtual std::string unavailable_reason() const = 0;
  virtual int native_width() const = 0;
  virtual const std::vector<int>& supported_widths() const = 0;
  // Draws every token (row) of src into l.z. Called only with N > 0 (R > 0), a supported
  // width, and arguments that core/src/checks.cpp accepted.
  virtual void draw(const product_form& src, const launch& l) const = 0;
  virtual void draw(const row_form& src, const launch& l) const = 0;
  // Device memory to host memory (the device-resident API reads doc_offsets to plan warps).
  // Host backends have no device memory and never get this call.
  virtual void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const;
};

// The backend chosen with cmake -DBACKEND=..., and the serial reference (in every build).
const backend& configured_backend();
const backend& reference_backend();

// Throws std::runtime_error "butterfly::FN: REASON" when b cannot run here (no device).
void require_available(const backend& b, const char* fn);

}  // namespace butterfly::detail
