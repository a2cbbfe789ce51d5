// The runtime calls behind device_buffer.
#include "butterfly/cuda_hip/device_buffer.hpp"
#include "butterfly/cuda_hip/runtime.hpp"

#include <atomic>

namespace butterfly::cuda_hip {
namespace {
std::atomic<std::uint64_t> copied{0};
}  // namespace

void* device_allocate(std::size_t bytes) {
  void* p = nullptr;
  if (bytes > 0) BUTTERFLY_GPU_CHECK(BUTTERFLY_RT(Malloc)(&p, bytes));
  // The HIP CPU runtime (e112c93) reports success with a null pointer when its malloc fails
  // (it tests p, not *p); that is the out-of-memory error it should have returned.
  if (bytes > 0 && p == nullptr)
    throw std::runtime_error("butterfly: " BUTTERFLY_RT_NAME "Malloc of " + std::to_string(bytes) +
                             " bytes returned no memory");
  return p;
}

// Called from destructors, which must not throw; a failure here means the context is
// already gone (e.g. at process exit), when the memory is released anyway.
void device_free(void* p) noexcept {
  if (p) static_cast<void>(BUTTERFLY_RT(Free)(p));
}

void copy_to_device(void* device_dst, const void* host_src, std::size_t bytes) {
  BUTTERFLY_GPU_CHECK(
      BUTTERFLY_RT(Memcpy)(device_dst, host_src, bytes, BUTTERFLY_RT(MemcpyHostToDevice)));
  copied += bytes;
}

void copy_to_host(void* host_dst, const void* device_src, std::size_t bytes) {
  BUTTERFLY_GPU_CHECK(
      BUTTERFLY_RT(Memcpy)(host_dst, device_src, bytes, BUTTERFLY_RT(MemcpyDeviceToHost)));
  copied += bytes;
}

std::uint64_t copied_bytes() noexcept { return copied.load(); }

}  // namespace butterfly::cuda_hip
