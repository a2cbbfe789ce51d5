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

namespace butterfly::lda::steps {
class any;  // lda/steps.hpp
}

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

  // The memory the backend's kernels read: device memory on CUDA/HIP, host memory on the
  // host backends (the defaults below). lda::engine keeps the training state there.
  virtual memory kernel_memory() const { return memory::host; }
  // Allocation and copies of kernel memory; each copy across the bus adds to
  // copied_bytes(). On host memory these are operator new, delete and memcpy.
  virtual void* allocate(std::size_t bytes) const;
  virtual void release(void* p) const noexcept;
  virtual void copy_to_device(void* dst, const void* host_src, std::size_t bytes) const;
  // Device memory to host memory (the device-resident API reads doc_offsets to plan warps).
  virtual void copy_to_host(void* host_dst, const void* src, std::size_t bytes) const;
  // Copies a warp plan to kernel memory now rather than at the first draw that uses it (a
  // loop that keeps its state on the device then copies nothing while it draws). Host
  // backends read the plan in place: nothing to do.
  virtual void upload(const std::shared_ptr<const warp_plan>& plan) const;
  // Bytes copied between host and device memory by this process so far, both directions;
  // always 0 on host memory.
  virtual std::uint64_t copied_bytes() const { return 0; }
  // Runs step s (lda/steps.hpp) for every element in [0, n) on pointers into kernel memory,
  // returning when it is done. The default runs it on the host (run_on_host).
  virtual void run(const lda::steps::any& s, std::int64_t n) const;
};

// Runs step s for every element in [0, n) over host_parallel_for, on host memory.
void run_on_host(const lda::steps::any& s, std::int64_t n);

// The backend chosen with cmake -DBACKEND=..., and the serial reference (in every build).
const backend& configured_backend();
const backend& reference_backend();

// Throws std::runtime_error "butterfly::FN: REASON" when b cannot run here (no device).
void require_available(const backend& b, const char* fn);

}  // namespace butterfly::detail
