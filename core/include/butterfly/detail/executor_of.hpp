// A backend's executor from its warp launch: the width and algorithm switches, written once.
// A backend writes
//
//   class my_executor final : public executor_of<my_executor, 32> {  // the widths it compiles
//    public:
//     template <int W, class Algorithm, class Source>
//     void run_warps(const warp_launch<Source>& l, std::int64_t warps) const;
//     ... capabilities ...
//   };
//
// and a backend whose kernels read device memory passes its memory space (memory_space.hpp)
// to the constructor.
//
// run_warps runs detail::draw_warp<Algorithm> (draw_warp.hpp) for every warp q in
// [0, warps) on W lanes of its hardware, each warp with its own warp_scratch, and returns
// when l.z is written.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "butterfly/detail/executor.hpp"
#include "butterfly/detail/kernels.hpp"

namespace butterfly::detail {

// Calls f(std::integral_constant<int, W>{}) for the W among Ws that equals w.
template <int... Ws, class F>
void with_width(int w, F&& f) {
  if (!((w == Ws && (f(std::integral_constant<int, Ws>{}), true)) || ...))
    throw std::invalid_argument("butterfly: no kernel for width " + std::to_string(w));
}

template <class Derived, int... Ws>
class executor_of : public executor {
 public:
  explicit executor_of(const memory_space& space = host_memory()) : executor(space) {}
  const std::vector<int>& widths() const override {
    static const std::vector<int> w{Ws...};
    return w;
  }
  void for_each_warp(const warp_launch<product_form>& l) const final { dispatch(l); }
  void for_each_warp(const warp_launch<row_form>& l) const final { dispatch(l); }

 private:
  // The width, then the algorithm, as compile-time arguments of the backend's run_warps.
  template <class Source>
  void dispatch(const warp_launch<Source>& l) const {
    const std::int64_t warps = (l.src.items() + l.width - 1) / l.width;
    with_width<Ws...>(l.width, [&](auto w) {
      constexpr int W = decltype(w)::value;
      const Derived& self = static_cast<const Derived&>(*this);
      switch (l.options.method) {
        case algorithm::basic: return self.template run_warps<W, basic>(l, warps);
        case algorithm::transposed: return self.template run_warps<W, transposed>(l, warps);
        case algorithm::butterfly: return self.template run_warps<W, butterfly>(l, warps);
        case algorithm::warp_scan: return self.template run_warps<W, warp_scan>(l, warps);
      }
      throw std::invalid_argument("butterfly: unknown algorithm");
    });
  }
};

}  // namespace butterfly::detail
