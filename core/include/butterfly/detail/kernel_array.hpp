// Arrays in an executor's kernel memory. kernel_array: n elements there (a host vector on
// host memory, a device allocation otherwise), the LDA sampler's training state. mirror: an
// array the caller holds, where the kernels read it; the front door stages host spans for a
// device executor this way, and the sampler its corpus and state.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "butterfly/detail/executor.hpp"

namespace butterfly::detail {

// HostAllocator: how the host vector is allocated where the kernels read host memory (the
// LDA's training state asks for huge pages: lda/src/state_array.hpp).
template <class T, class HostAllocator = std::allocator<T>>
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
      : e_(other.e_),
        n_(other.n_),
        host_(std::move(other.host_)),
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
  std::vector<T, HostAllocator> host_;
  T* device_ = nullptr;
};

// n elements at p, in memory `where`, as e's kernels read them: p itself where they can
// (p in device memory, or e's kernels read host memory), nothing copied; otherwise a device
// copy of host[0, n), uploaded unless the kernels only write it (upload = false).
//
// Such an output copy must be downloaded before it goes, unless an exception ends its scope:
// a missing copy back would leave the caller's host array as it was, which no test of a host
// backend can see and a GPU would not report. So it aborts, naming the array's size.
template <class T>
class mirror {
  using value = std::remove_const_t<T>;

 public:
  mirror(const executor& e, T* p, std::size_t n, memory where = memory::host, bool upload = true)
      : in_place_(where == memory::device || e.kernel_memory() == memory::host),
        copy_(e, in_place_ ? 0 : n),
        ptr_(in_place_ ? p : copy_.data()),
        owed_(!in_place_ && !upload && n > 0),
        exceptions_(std::uncaught_exceptions()) {
    if (!in_place_ && upload && n > 0) e.copy_to_device(copy_.data(), p, n * sizeof(T));
  }
  mirror(const mirror&) = delete;
  mirror& operator=(const mirror&) = delete;
  ~mirror() {
    if (owed_ && std::uncaught_exceptions() == exceptions_) {
      std::fprintf(
          stderr,
          "butterfly: an output of %zu bytes was staged in device memory and never copied back "
          "(mirror::download missing)\n",
          copy_.size() * sizeof(value));
      std::abort();
    }
  }
  T* data() const { return ptr_; }
  // Copies the device copy back to host[0, n) (nothing to do in place).
  void download(value* host) const {
    if (!in_place_) copy_.copy_to(host);
    owed_ = false;
  }

 private:
  bool in_place_;
  kernel_array<value> copy_;
  T* ptr_;
  mutable bool owed_;  // an output copy not yet downloaded
  int exceptions_;
};

}  // namespace butterfly::detail
