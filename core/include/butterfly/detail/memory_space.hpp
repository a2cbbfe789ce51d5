// Where an executor's kernels read and write (Kokkos calls it a memory space): host memory, or
// a device's, with how to allocate there, release, and copy across the bus.
//
// An executor holds a reference to one instead of overriding virtual functions of its own:
// what an executor caches in its memory (uploaded warp plans, the draw scratch) is released
// while the executor is destroyed, in its base's destructor, when the derived part and every
// override it had are gone already. A virtual release reached from there was the base's
// operator delete, called on a cudaMalloc pointer: the crash at exit of every process that
// drew packed on a device. A memory space therefore outlives the executors that use it: a
// constant (host memory, the CUDA/HIP runtime's) or a static that the executor's constructor
// starts first (the emulated device's).
#pragma once

#include <cstddef>
#include <cstdint>

namespace butterfly::detail {

enum class memory { host, device };

class executor;

class memory_space {
 public:
  virtual memory where() const = 0;
  // Memory for `owner`'s kernels, released only through the same owner (the emulated device
  // checks that; the others ignore owner).
  virtual void* allocate(const executor& owner, std::size_t bytes) const = 0;
  virtual void release(const executor& owner, void* p) const noexcept = 0;
  // Synchronous with the host, ordered after the work queued on `stream` (null: the default
  // stream). Each copy across the bus adds to copied_bytes() (always 0 on host memory).
  virtual void copy_to_device(void* dst, const void* host_src, std::size_t bytes,
                              void* stream) const = 0;
  virtual void copy_to_host(void* host_dst, const void* src, std::size_t bytes,
                            void* stream) const = 0;
  virtual std::uint64_t copied_bytes() const = 0;

 protected:
  ~memory_space() = default;  // never destroyed through this interface
};

// Host memory: operator new and delete, memcpy.
const memory_space& host_memory();

}  // namespace butterfly::detail
