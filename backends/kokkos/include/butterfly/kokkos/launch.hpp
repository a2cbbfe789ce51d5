// How the core kernels launch on a Kokkos execution space. Host spaces (Serial, OpenMP,
// Threads) run the serial backend's explicit lanes, a range of warps per work item; device
// spaces (Cuda, HIP) run one warp per TeamPolicy thread with the W lanes as its vector lanes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <Kokkos_Core.hpp>

#include "butterfly/butterfly.hpp"
#include "butterfly/kokkos/vector_subgroup.hpp"
#include "butterfly/serial/run.hpp"

namespace butterfly::kokkos {

// Host spaces can read host memory; that is what lets them run the explicit-lane code.
template <class ExecSpace>
inline constexpr bool is_host_space =
    Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

template <class ExecSpace>
std::vector<int> supported_widths() {
  if constexpr (is_host_space<ExecSpace>) {
    return serial::widths();
  } else {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
    return {device_width};
#else
    return {};
#endif
  }
}

template <class ExecSpace>
int native_width() {
  if constexpr (is_host_space<ExecSpace>)
    return 16;  // as the serial reference
  else
    return supported_widths<ExecSpace>().front();
}

namespace detail {

template <int W, class Algorithm, class ExecSpace, class Source>
void launch_host(const ExecSpace& space, const Source& src, std::int32_t* z,
                 const draw_options& o) {
  const std::int64_t warps = serial::warp_count(src.items(), W);
  // Ranges of warps share one scratch allocation; about eight per thread keep the dynamic
  // schedule balanced when documents differ in length.
  const std::int64_t chunk =
      std::max<std::int64_t>(1, warps / (8 * static_cast<std::int64_t>(space.concurrency())));
  const std::int64_t chunks = (warps + chunk - 1) / chunk;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                                     Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for(
      "butterfly::draw(host lanes)", policy(space, 0, chunks), [=](std::int64_t c) {
        serial::draw_warp_range<W, Algorithm>(src, z, o, c * chunk, std::min(warps, (c + 1) * chunk));
      });
}

#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
// UNTESTED (no GPU here). theta_local and p (2K floats per lane) do not fit in shared
// memory for LDA-sized K, so each warp's scratch is level-1 (global) team-thread scratch,
// laid out [k][lane] so every access is coalesced.
template <int W, class Algorithm, class ExecSpace, class Source>
void launch_device(const ExecSpace& space, const Source& src, std::int32_t* z,
                   const draw_options& o) {
  using SG = vector_subgroup<W>;
  using policy = Kokkos::TeamPolicy<ExecSpace>;
  constexpr int warps_per_team = 4;
  const std::int64_t warps = serial::warp_count(src.items(), W);
  const std::size_t bytes = butterfly::detail::warp_scratch<SG>::floats(src.K) * sizeof(float);
  const std::uint64_t seed = o.seed;
  const std::uint32_t iteration = o.iteration;
  const std::uint64_t first_token = o.first_token;
  policy p(space, static_cast<int>((warps + warps_per_team - 1) / warps_per_team),
           warps_per_team, W);
  p.set_scratch_size(1, Kokkos::PerThread(bytes));
  Kokkos::parallel_for(
      "butterfly::draw(vector lanes)", p, KOKKOS_LAMBDA(const typename policy::member_type& team) {
        const std::int64_t q =
            static_cast<std::int64_t>(team.league_rank()) * warps_per_team + team.team_rank();
        float* scratch = static_cast<float*>(team.thread_scratch(1).get_shmem(bytes));
        if (q >= warps) return;  // uniform over the warp's lanes
        const auto ws = butterfly::detail::warp_scratch<SG>::carve(scratch, src.K);
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, W), [&](int lane) {
          butterfly::detail::draw_warp<Algorithm>(SG{lane}, src, q, ws, z, seed, iteration,
                                                 first_token);
        });
      });
}
#endif

template <class>
inline constexpr bool always_false = false;

// Enqueues the draws of src on space; like any Kokkos kernel it may return before z is
// written. width must be one of supported_widths<ExecSpace>().
template <class ExecSpace, class Source>
void launch(const ExecSpace& space, const Source& src, int width, std::int32_t* z,
            const draw_options& o) {
  butterfly::detail::with_algorithm(o.method, [&](auto alg) {
    using Algorithm = decltype(alg);
    if constexpr (is_host_space<ExecSpace>) {
      serial::with_width(width, [&](auto w) {
        launch_host<decltype(w)::value, Algorithm>(space, src, z, o);
      });
    } else {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
      launch_device<device_width, Algorithm>(space, src, z, o);
#else
      static_assert(always_false<ExecSpace>, "butterfly: no device launch for this space");
#endif
    }
  });
}

}  // namespace detail
}  // namespace butterfly::kokkos
