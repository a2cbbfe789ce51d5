// The runtime calls behind device_buffer, and the device's memory space (memory_space.hpp)
// that the executor allocates, copies and releases through.
#include "butterfly/cuda_hip/runtime.hpp"

#include <atomic>

#include "butterfly/cuda_hip/device_buffer.hpp"
#include "butterfly/cuda_hip/device_memory.hpp"

namespace butterfly::cuda_hip {
namespace {

std::atomic<std::uint64_t> copied{0};

void copy(void* dst, const void* src, std::size_t bytes, BUTTERFLY_RT(MemcpyKind) kind,
          stream_t stream) {
  BUTTERFLY_GPU_CHECK(BUTTERFLY_RT(MemcpyAsync)(dst, src, bytes, kind, stream));
  BUTTERFLY_GPU_CHECK(BUTTERFLY_RT(StreamSynchronize)(stream));
  copied += bytes;
}

class gpu_memory final : public detail::memory_space {
 public:
  detail::memory where() const override { return detail::memory::device; }
  void* allocate(const detail::executor&, std::size_t bytes) const override {
    return device_allocate(bytes);
  }
  void release(const detail::executor&, void* p) const noexcept override { device_free(p); }
  void copy_to_device(void* dst, const void* src, std::size_t bytes, void* stream) const override {
    copy(dst, src, bytes, BUTTERFLY_RT(MemcpyHostToDevice), static_cast<stream_t>(stream));
  }
  void copy_to_host(void* dst, const void* src, std::size_t bytes, void* stream) const override {
    copy(dst, src, bytes, BUTTERFLY_RT(MemcpyDeviceToHost), static_cast<stream_t>(stream));
  }
  std::uint64_t copied_bytes() const override { return cuda_hip::copied_bytes(); }
};

}  // namespace

const detail::memory_space& device_memory() {
  static const gpu_memory m;  // trivially destructible: outlives every executor
  return m;
}

void* device_allocate(std::size_t bytes) {
  void* p = nullptr;
  if (bytes == 0) return p;
  const error_t e = BUTTERFLY_RT(Malloc)(&p, bytes);
  // An out-of-memory error is also left as the runtime's last error, which the next launch's
  // GetLastError would report as its own: clear it, the exception below reports it.
  if (e != BUTTERFLY_RT(Success)) static_cast<void>(BUTTERFLY_RT(GetLastError)());
  BUTTERFLY_GPU_CHECK(e);
  // The HIP CPU runtime (e112c93) reports success with a null pointer when its malloc fails
  // (it tests p, not *p); that is the out-of-memory error it should have returned.
  if (p == nullptr)
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
  copy(device_dst, host_src, bytes, BUTTERFLY_RT(MemcpyHostToDevice), nullptr);
}

void copy_to_host(void* host_dst, const void* device_src, std::size_t bytes) {
  copy(host_dst, device_src, bytes, BUTTERFLY_RT(MemcpyDeviceToHost), nullptr);
}

std::uint64_t copied_bytes() noexcept { return copied.load(); }

}  // namespace butterfly::cuda_hip
