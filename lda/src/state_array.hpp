// The LDA sampler's training state in an executor's kernel memory: detail::kernel_array whose
// host vector is placed on huge pages.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "butterfly/detail/kernel_array.hpp"

namespace butterfly::lda {

// Host memory for the state: arrays of 2 MiB and more are placed on 2 MiB boundaries and
// offered to the kernel as transparent huge pages (Linux, where THP is "madvise" or
// "always"). The LDA sweeps read entries scattered over V x K counts: with 4 KiB pages nearly
// every one of those reads also misses the TLB (measured on 20news at K = 1000: an mh or
// collapsed iteration took 0.75-0.94x the time on huge pages).
template <class T>
struct huge_page_allocator {
  using value_type = T;
  static constexpr std::size_t huge = std::size_t{2} << 20;
  huge_page_allocator() = default;
  template <class U>
  huge_page_allocator(const huge_page_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge) return std::allocator<T>().allocate(n);
    void* p = std::aligned_alloc(huge, (bytes + huge - 1) / huge * huge);
    if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without it the pages are small
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < huge) std::allocator<T>().deallocate(p, n);
    else std::free(p);
  }
  template <class U>
  bool operator==(const huge_page_allocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const huge_page_allocator<U>&) const noexcept {
    return false;
  }
};

template <class T>
using state_array = detail::kernel_array<T, huge_page_allocator<T>>;

}  // namespace butterfly::lda
