// A minimal non-owning view of contiguous elements (C++17 has no std::span).
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace butterfly {

template <class T>
class span {
 public:
  constexpr span() = default;
  constexpr span(T* data, std::size_t size) : data_(data), size_(size) {}
  template <class U, class A, class = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  span(std::vector<U, A>& v) : data_(v.data()), size_(v.size()) {}
  template <class U, class A,
            class = std::enable_if_t<std::is_convertible_v<const U (*)[], T (*)[]>>>
  span(const std::vector<U, A>& v) : data_(v.data()), size_(v.size()) {}
  template <class U, std::size_t N,
            class = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  constexpr span(std::array<U, N>& a) : data_(a.data()), size_(N) {}
  template <class U, class = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  constexpr span(span<U> o) : data_(o.data()), size_(o.size()) {}

  constexpr T* data() const { return data_; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T& operator[](std::size_t i) const { return data_[i]; }
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace butterfly
