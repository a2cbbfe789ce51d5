// device_buffer<T>: an array in GPU global memory that frees itself, shared by the CUDA and
// HIP backends (butterfly::cuda::device_buffer, butterfly::hip::device_buffer). Plain C++:
// including it needs no CUDA or HIP headers.
//
// Copies are synchronous with respect to the host and ordered after all work already
// queued on the default stream, so a buffer filled here may be passed straight to a draw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "butterfly/span.hpp"

namespace butterfly::cuda_hip {

// Each throws std::runtime_error naming the runtime call that failed.
void* device_allocate(std::size_t bytes);
void device_free(void* p) noexcept;
void copy_to_device(void* device_dst, const void* host_src, std::size_t bytes);
void copy_to_host(void* host_dst, const void* device_src, std::size_t bytes);
// Bytes moved by copy_to_device and copy_to_host in this process so far: every copy between
// host and device memory that butterfly makes goes through them.
std::uint64_t copied_bytes() noexcept;

template <class T>
class device_buffer {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds plain values");

 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t n)
      : data_(static_cast<T*>(device_allocate(n * sizeof(T)))), size_(n) {}
  // Allocates host.size() elements and copies host into them.
  explicit device_buffer(span<const T> host) : device_buffer(host.size()) { copy_from(host); }
  explicit device_buffer(const std::vector<T>& host) : device_buffer(span<const T>(host)) {}

  device_buffer(device_buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      device_free(data_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { device_free(data_); }

  // Device pointers: pass them to the device-resident draws, never dereference on the host.
  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  span<T> view() { return {data_, size_}; }
  span<const T> view() const { return {data_, size_}; }

  void copy_from(span<const T> host) {
    require_size("copy_from", host.size());
    if (size_ > 0) copy_to_device(data_, host.data(), size_ * sizeof(T));
  }
  void copy_to(span<T> host) const {
    require_size("copy_to", host.size());
    if (size_ > 0) copy_to_host(host.data(), data_, size_ * sizeof(T));
  }
  std::vector<T> to_host() const {
    std::vector<T> host(size_);
    copy_to(host);
    return host;
  }

 private:
  void require_size(const char* fn, std::size_t n) const {
    if (n != size_)
      throw std::invalid_argument("butterfly: device_buffer::" + std::string(fn) +
                                  ": host span has " + std::to_string(n) +
                                  " elements, the buffer " + std::to_string(size_));
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace butterfly::cuda_hip
