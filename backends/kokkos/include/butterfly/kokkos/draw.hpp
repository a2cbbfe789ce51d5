// butterfly on Kokkos Views: the draws of butterfly.hpp enqueued on an execution space
// instance.
//
//   butterfly::kokkos::draw_topics(space, theta, phi, doc_offsets, words, z, options);
//   butterfly::kokkos::draw_rows(space, weights, out, options);
//
// theta (M x K), phi (V x K) and weights (R x K) are rank-2 LayoutRight float Views;
// doc_offsets (int64, M + 1), words (int32, N), z and out (int32) are rank-1; all contiguous
// and in a memory space that space can access. The call returns when z is written (it
// fences space), like every draw of the library. Results
// equal butterfly::reference at the same width bit for bit; host spaces support the
// reference's widths, device spaces their warp width (32 on Cuda, the wavefront size on HIP).
//
// Every option means what it means for butterfly::draw_topics: the checks, the width and the
// warp plan are the core's front door (detail/draw.hpp), run on the host. They read doc_offsets and
// words, and theta and phi only with options.validate; views the host cannot read are copied
// to the host first (the call then blocks until the copy is done).
//
// The application owns Kokkos's lifetime: initialize Kokkos before calling these.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/draw.hpp"
#include "butterfly/kokkos/executor.hpp"

namespace butterfly::kokkos {
namespace detail {

template <class ExecSpace, class View, class Value, int Rank>
constexpr void require_view() {
  static_assert(Kokkos::is_view<View>::value, "butterfly::kokkos: arguments must be Kokkos::Views");
  static_assert(static_cast<int>(View::rank) == Rank, "butterfly::kokkos: wrong View rank");
  static_assert(std::is_same_v<typename View::non_const_value_type, Value>,
                "butterfly::kokkos: wrong View value type");
  static_assert(Rank == 1 || std::is_same_v<typename View::array_layout, Kokkos::LayoutRight>,
                "butterfly::kokkos: matrices must be row-major (LayoutRight)");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename View::memory_space>::accessible,
                "butterfly::kokkos: the execution space cannot access this View's memory space");
}

template <class View>
void require_contiguous(const char* fn, const char* what, const View& v) {
  if (!v.span_is_contiguous())
    throw std::invalid_argument(std::string("butterfly::") + fn + ": " + what +
                                " must be a contiguous View (e.g. not a strided subview)");
}

// The host copy the argument checks read; empty when they do not need the values.
template <class View>
auto host_view(const View& v, bool needed) {
  using Mirror = decltype(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, v));
  return needed ? Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, v) : Mirror{};
}

// What the checks read: the host copy's data (null when not copied) with the View's size.
template <class Host, class View>
auto host_span(const Host& host, const View& original) {
  return span<const typename View::non_const_value_type>(host.data(), original.size());
}

// What the kernels read: the View's own data.
template <class View>
auto view_span(const View& v) {
  return span<const typename View::non_const_value_type>(v.data(), v.size());
}

inline int topic_count(const char* fn, std::size_t k) {
  if (k > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument(std::string("butterfly::") + fn + ": K = " + std::to_string(k) +
                                " topics do not fit in an int");
  return static_cast<int>(k);
}

}  // namespace detail

template <class ExecSpace, class Theta, class Phi, class Offsets, class Words, class Z>
void draw_topics(const ExecSpace& space, const Theta& theta, const Phi& phi,
                 const Offsets& doc_offsets, const Words& words, const Z& z,
                 const draw_options& o = {}) {
  detail::require_view<ExecSpace, Theta, float, 2>();
  detail::require_view<ExecSpace, Phi, float, 2>();
  detail::require_view<ExecSpace, Offsets, std::int64_t, 1>();
  detail::require_view<ExecSpace, Words, std::int32_t, 1>();
  detail::require_view<ExecSpace, Z, std::int32_t, 1>();
  static_assert(!std::is_const_v<typename Z::value_type>, "butterfly::kokkos: z is written");
  const char* fn = "kokkos::draw_topics";
  detail::require_contiguous(fn, "theta", theta);
  detail::require_contiguous(fn, "phi", phi);
  detail::require_contiguous(fn, "doc_offsets", doc_offsets);
  detail::require_contiguous(fn, "words", words);
  detail::require_contiguous(fn, "z", z);
  const int K = detail::topic_count(fn, theta.extent(1));
  if (phi.extent(1) != theta.extent(1))
    throw std::invalid_argument(std::string("butterfly::") + fn + ": phi has " +
                                std::to_string(phi.extent(1)) +
                                " columns but theta has K = " + std::to_string(K));
  const auto h_theta = detail::host_view(theta, o.validate);
  const auto h_phi = detail::host_view(phi, o.validate);
  const auto h_offsets = detail::host_view(doc_offsets, true);
  const auto h_words = detail::host_view(words, true);
  const span<std::int32_t> out(z.data(), z.size());
  const butterfly::detail::executor& e = executor_for<ExecSpace>();
  // The checks read the host copies; the kernels read the Views.
  butterfly::detail::draw(
      e, fn,
      {detail::view_span(theta), detail::view_span(phi), K, detail::view_span(doc_offsets),
       detail::view_span(words), out},
      {detail::host_span(h_theta, theta), detail::host_span(h_phi, phi), K,
       detail::host_span(h_offsets, doc_offsets), detail::host_span(h_words, words), out},
      o, e.kernel_memory(), const_cast<ExecSpace*>(&space));
}

template <class ExecSpace, class Weights, class Out>
void draw_rows(const ExecSpace& space, const Weights& weights, const Out& out,
               const draw_options& o = {}) {
  detail::require_view<ExecSpace, Weights, float, 2>();
  detail::require_view<ExecSpace, Out, std::int32_t, 1>();
  static_assert(!std::is_const_v<typename Out::value_type>, "butterfly::kokkos: out is written");
  const char* fn = "kokkos::draw_rows";
  detail::require_contiguous(fn, "weights", weights);
  detail::require_contiguous(fn, "out", out);
  const int K = detail::topic_count(fn, weights.extent(1));
  const auto h_weights = detail::host_view(weights, o.validate);
  const span<std::int32_t> drawn(out.data(), out.size());
  const butterfly::detail::executor& e = executor_for<ExecSpace>();
  butterfly::detail::draw(e, fn, {detail::view_span(weights), K, drawn},
                          {detail::host_span(h_weights, weights), K, drawn}, o, e.kernel_memory(),
                          const_cast<ExecSpace*>(&space));
}

}  // namespace butterfly::kokkos
