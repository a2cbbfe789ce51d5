// The one seam between core/ and a backend (as Ginkgo declares each kernel once and lets each
// executor define it): what a backend's hardware does and nothing else.
//   capabilities  its name, whether it can run here, its widths, its host threads
//   memory space  where its kernels read (host or device), allocate, copy, release: a
//                 memory_space it is constructed with (memory_space.hpp says why not virtuals)
//   launches      for_each(n, chunk, body): a host loop over chunks (the LDA's host steps,
//                 evaluation); for_each_warp(launch): the draw kernel over every warp;
//                 run(operation): work above the seam in the form its kernels' memory needs
// Everything that computes sits above it: the front door (core/src/draw.cpp) checks the
// arguments, resolves the width, plans the warps and stages host spans for a device; the
// draw kernel is core's draw_warp; the LDA steps are the LDA library's. A backend derives
// its executor from executor_of (executor_of.hpp), which turns its warp launch template
// into for_each_warp, and returns it from configured_executor() in its own folder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/host_parallel.hpp"
#include "butterfly/detail/memory_space.hpp"
#include "butterfly/detail/sources.hpp"
#include "butterfly/detail/uploaded_plans.hpp"
#include "butterfly/detail/warp_plan.hpp"

namespace butterfly::detail {

// One checked draw, its pointers (src, its packed slots, z) in the executor's kernel memory.
// Called only with at least one item and a width from widths().
template <class Source>
struct warp_launch {
  Source src;
  int width;
  const draw_options& options;
  std::int32_t* z;         // one output per token (product form) or row
  void* stream = nullptr;  // the device executors' stream; null elsewhere
};

class executor;

// Work defined above the seam (the LDA steps) in two forms: one for kernels that read host
// memory, one for kernels that read device memory (Ginkgo's executor::run(operation)). The
// executor runs the form its kernel memory needs, so code that calls it needs no knowledge of
// which backend was configured; the device form is compiled only where a backend has device
// memory.
class operation {
 public:
  virtual void run_on_host(const executor& e) const = 0;
  virtual void run_on_device(const executor& e) const = 0;

 protected:
  ~operation() = default;
};

class executor {
 public:
  explicit executor(const memory_space& space = host_memory()) : space_(space) {}
  virtual ~executor();
  executor(const executor&) = delete;
  executor& operator=(const executor&) = delete;

  // ---- capabilities
  virtual std::string_view name() const = 0;
  // Empty when this executor can run here; otherwise why not (e.g. no CUDA device).
  virtual std::string unavailable_reason() const { return {}; }
  // The widths it has kernels for, and the one a draw with options.width = 0 runs: a fixed
  // number on the host (the butterfly's z depends on W, and the same seed must give the
  // same model on every x86-64 machine), the warp size on a GPU.
  virtual const std::vector<int>& widths() const = 0;
  virtual int default_width() const = 0;
  // Host threads for_each may use, and a request to use n of them (false where the count
  // is not this executor's to set).
  virtual int threads() const { return 1; }
  virtual bool set_threads(int) const { return false; }

  // ---- memory space (memory_space.hpp): its kernels' memory, allocations there released
  // through the executor that made them.
  memory kernel_memory() const { return space_.where(); }
  void* allocate(std::size_t bytes) const { return space_.allocate(*this, bytes); }
  void release(void* p) const noexcept { space_.release(*this, p); }
  void copy_to_device(void* dst, const void* host_src, std::size_t bytes,
                      void* stream = nullptr) const {
    if (bytes > 0) space_.copy_to_device(dst, host_src, bytes, stream);
  }
  void copy_to_host(void* host_dst, const void* src, std::size_t bytes,
                    void* stream = nullptr) const {
    if (bytes > 0) space_.copy_to_host(host_dst, src, bytes, stream);
  }
  std::uint64_t copied_bytes() const { return space_.copied_bytes(); }
  // The slots of a warp plan where the kernels read them: the host plan itself on host
  // memory, else a copy uploaded once per plan and cached (uploaded_plans.hpp), so a loop
  // that keeps its state on the device copies nothing while it draws. Hold the result
  // until the kernels are done: another thread's call may evict the cache entry meanwhile.
  struct placed_plan {
    packed_slots slots;
    std::shared_ptr<const void> keep;
  };
  placed_plan place(const std::shared_ptr<const warp_plan>& plan) const;
  // At least `bytes` of the executor's memory for a launch's scratch (the draw kernels'
  // warp_scratch): one block kept between launches, grown when a launch needs more, never
  // shrunk, released with the executor. One launch at a time: the lease holds a lock.
  struct scratch_lease {
    void* data;
    std::unique_lock<std::mutex> lock;
  };
  scratch_lease scratch(std::size_t bytes) const;

  // ---- launches
  // Calls body(begin, end) for the chunks of [0, n) (host_parallel.hpp's contract); the
  // default runs them in order on the calling thread.
  virtual void for_each(std::int64_t n, std::int64_t chunk, const chunk_body& body) const;
  // Draws every token (row) of l.src into l.z and returns when z is written.
  virtual void for_each_warp(const warp_launch<product_form>& l) const = 0;
  virtual void for_each_warp(const warp_launch<row_form>& l) const = 0;
  // Runs op's form for this executor's kernel memory and returns when it is done.
  void run(const operation& op) const {
    if (kernel_memory() == memory::host) op.run_on_host(*this);
    else op.run_on_device(*this);
  }

 private:
  const memory_space& space_;
  struct device_plan;
  mutable uploaded_plans<device_plan> plans_;  // device memory only
  mutable std::mutex scratch_mutex_;
  mutable void* scratch_ = nullptr;
  mutable std::size_t scratch_bytes_ = 0;
};

// The executor chosen with cmake -DBACKEND=... (defined in that backend's folder), and the
// serial reference (in every build).
const executor& configured_executor();
const executor& reference_executor();

// Throws std::runtime_error "butterfly::FN: REASON" when e cannot run here (no device).
void require_available(const executor& e, const char* fn);

}  // namespace butterfly::detail
