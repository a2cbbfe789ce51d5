// How the core kernels launch on a Kokkos execution space. Host spaces (Serial, OpenMP,
// Threads) run the host lanes, ranges of warps per work item; device spaces (Cuda, HIP) run
// one warp per TeamPolicy thread with the W lanes as its vector lanes (the device warp type
// the CUDA/HIP kernels use too).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

#include "butterfly/butterfly.hpp"
#include "butterfly/kokkos/compat.hpp"
#include "butterfly/host_lanes/host_subgroup.hpp"
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
#include "butterfly/detail/draw_warp.hpp"
#include "butterfly/detail/kernels.hpp"
#include "butterfly/device_warp/warp.hpp"
#endif

namespace butterfly::kokkos {

// Host spaces can read host memory; that is what lets them run the host lanes.
template <class ExecSpace>
inline constexpr bool is_host_space =
    Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

#if defined(KOKKOS_ENABLE_CUDA)
inline constexpr int device_width = 32;
#elif defined(KOKKOS_ENABLE_HIP)
inline constexpr int device_width = Kokkos::Impl::HIPTraits::WarpSize;
#endif

template <class ExecSpace>
std::vector<int> supported_widths() {
  if constexpr (is_host_space<ExecSpace>) {
    return host_lanes::widths();
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
    return host_lanes::native_width;
  else
    return supported_widths<ExecSpace>().front();
}

namespace detail {

// Spreads ranges of warps over a host space; each range shares one scratch allocation, and
// about eight per thread keep the dynamic schedule balanced when documents differ in length.
template <class ExecSpace, class Range>
void host_spread(const ExecSpace& space, std::int64_t warps, const Range& range) {
  const std::int64_t chunk =
      std::max<std::int64_t>(1, warps / (8 * static_cast<std::int64_t>(space.concurrency())));
  const std::int64_t chunks = (warps + chunk - 1) / chunk;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                                     Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for("butterfly::draw(host lanes)", policy(space, 0, chunks),
                       [=](std::int64_t c) { range(c * chunk, std::min(warps, (c + 1) * chunk)); });
  // range refers to the caller's frame; host spaces run kernels to completion anyway.
  compat::fence(space, "butterfly::draw(host lanes)");
}

#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
// UNTESTED (no GPU here). theta_local and p (2K floats per lane) do not fit in shared
// memory for LDA-sized K, so each warp's scratch is level-1 (global) team-thread scratch,
// laid out [k][lane] so every access is coalesced.
template <int W, class Algorithm, class ExecSpace, class Source>
void launch_device(const ExecSpace& space, const Source& src, std::int32_t* z,
                   const draw_options& o) {
  using SG = device_warp::warp<W>;
  using policy = Kokkos::TeamPolicy<ExecSpace>;
  constexpr int warps_per_team = 4;
  const std::int64_t warps = host_lanes::warp_count(src.items(), W);
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
// written. width must be one of supported_widths<ExecSpace>(); src's pointers (its packed
// slots included) must be accessible from space.
template <class ExecSpace, class Source>
void launch(const ExecSpace& space, const Source& src, int width, std::int32_t* z,
            const draw_options& o) {
  if constexpr (is_host_space<ExecSpace>) {
    host_lanes::draw<host_lanes::host_subgroup>(src, width, z, o, [&](std::int64_t warps, const auto& range) {
      host_spread(space, warps, range);
    });
  } else {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
    butterfly::detail::with_algorithm(o.method, [&](auto alg) {
      launch_device<device_width, decltype(alg)>(space, src, z, o);
    });
#else
    static_assert(always_false<ExecSpace>, "butterfly: no device launch for this space");
#endif
  }
}

}  // namespace detail
}  // namespace butterfly::kokkos
