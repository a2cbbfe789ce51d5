// n elements of T in an executor's kernel memory: a host vector on host memory, a device
// allocation otherwise. The front door stages host spans for a device executor in these, and
// the LDA sampler keeps its training state in them.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "butterfly/detail/executor.hpp"

namespace butterfly::detail {

template <class T>
class kernel_array {
 public:
  kernel_array(const executor& e, std::size_t n) : e_(e), n_(n) {
    if (e.kernel_memory() == memory::host) host_.resize(n);
    else if (n > 0) device_ = static_cast<T*>(e.allocate(n * sizeof(T)));
  }
  // A copy of host[0, n).
  kernel_array(const executor& e, const T* host, std::size_t n) : kernel_array(e, n) {
    if (n > 0) e.copy_to_device(data(), host, n * sizeof(T));
  }
  kernel_array(kernel_array&& other) noexcept
      : e_(other.e_), n_(other.n_), host_(std::move(other.host_)),
        device_(std::exchange(other.device_, nullptr)) {}
  kernel_array(const kernel_array&) = delete;
  kernel_array& operator=(const kernel_array&) = delete;
  ~kernel_array() {
    if (device_) e_.release(device_);
  }

  T* data() { return device_ ? device_ : host_.data(); }
  const T* data() const { return device_ ? device_ : host_.data(); }
  std::size_t size() const { return n_; }
  void copy_to(T* host) const {
    if (n_ > 0) e_.copy_to_host(host, data(), n_ * sizeof(T));
  }
  void copy_to(std::vector<T>& out) const {
    out.resize(n_);
    copy_to(out.data());
  }
  // f(data, n) on the array as host memory: in place there, else on a copy that then goes
  // back to the device.
  template <class F>
  void update_on_host(F&& f) {
    if (!device_) {
      f(host_.data(), n_);
      return;
    }
    std::vector<T> copy;
    copy_to(copy);
    f(copy.data(), n_);
    if (n_ > 0) e_.copy_to_device(device_, copy.data(), n_ * sizeof(T));
  }

 private:
  const executor& e_;
  std::size_t n_;
  std::vector<T> host_;
  T* device_ = nullptr;
};

}  // namespace butterfly::detail
