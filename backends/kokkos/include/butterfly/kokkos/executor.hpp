// The executor of a Kokkos execution space: how the draw kernel and the host loops launch on
// it. Host spaces (Serial, OpenMP, Threads) run the host lanes, ranges of warps per work
// item; device spaces (Cuda, HIP) run one warp per TeamPolicy thread with the W lanes as its
// vector lanes (the device warp type the CUDA/HIP kernels use too). One executor per space
// type; the instance a call runs on travels in warp_launch::stream (null: the default one).
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "butterfly/host_lanes/host_subgroup.hpp"
#include "butterfly/kokkos/compat.hpp"
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
#include "butterfly/device_warp/warp.hpp"
#endif

namespace butterfly::kokkos {

// Host spaces can read host memory; that is what lets them run the host lanes.
template <class ExecSpace>
inline constexpr bool is_host_space =
    Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

namespace detail {

using butterfly::detail::warp_launch;

template <class ExecSpace>
ExecSpace space_of(const void* stream) {
  return stream ? *static_cast<const ExecSpace*>(stream) : ExecSpace();
}

// The View API needs a live Kokkos (its Views do) and starts nothing; the backend-neutral
// span API starts Kokkos itself (src/session.hpp).
struct application_session {
  static std::string reason() { return {}; }
  static void require(const char*) {}
};

template <class ExecSpace>
using dynamic_range = Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                                          Kokkos::IndexType<std::int64_t>>;

template <class ExecSpace, class Session = application_session>
class host_space_executor final
    : public host_lanes::lanes_executor<host_space_executor<ExecSpace, Session>> {
 public:
  std::string_view name() const override { return "kokkos"; }
  std::string unavailable_reason() const override { return Session::reason(); }
  int threads() const override {
    Session::require("host_threads");
    return ExecSpace().concurrency();
  }

  void for_each(std::int64_t n, std::int64_t chunk,
                const butterfly::detail::chunk_body& body) const override {
    butterfly::detail::chunked_loop loop(n, chunk, body);
    if (loop.chunks() == 0) return;
    Session::require("host_parallel_for");
    butterfly::detail::chunked_loop* l = &loop;
    Kokkos::parallel_for("butterfly::for_each", dynamic_range<ExecSpace>(0, loop.chunks()),
                         [l](std::int64_t c) { l->run(c); });
    compat::fence(ExecSpace(), "butterfly::for_each");
    loop.rethrow();
  }

  template <int W, class Algorithm, class Source>
  void run_warps(const warp_launch<Source>& l, std::int64_t warps) const {
    Session::require("draw");
    const ExecSpace space = space_of<ExecSpace>(l.stream);
    const std::int64_t chunk = host_lanes::warp_chunk(warps, space.concurrency());
    const std::int64_t chunks = (warps + chunk - 1) / chunk;
    const warp_launch<Source>* launch = &l;
    Kokkos::parallel_for("butterfly::draw(host lanes)", dynamic_range<ExecSpace>(space, 0, chunks),
                         [=](std::int64_t c) {
                           using SG = host_lanes::host_subgroup<W>;
                           host_lanes::warp_scratch_buffer<SG, Algorithm> scratch(launch->src.K, 1);
                           butterfly::detail::draw_warps<Algorithm>(
                               SG{}, launch->src, launch->z, launch->options, c * chunk,
                               std::min(warps, (c + 1) * chunk), scratch.of(0));
                         });
    // The launch refers to the caller's frame; host spaces run kernels to completion anyway.
    compat::fence(space, "butterfly::draw(host lanes)");
  }
};

#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
#if defined(KOKKOS_ENABLE_CUDA)
inline constexpr int device_width = 32;
#else
inline constexpr int device_width = Kokkos::Impl::HIPTraits::WarpSize;
#endif

// UNTESTED (no GPU here, and Debian's Kokkos has no device space). theta_local and p (2K
// floats per lane) do not fit in shared memory for LDA-sized K, so each warp's scratch is
// level-1 (global) team-thread scratch, laid out [k][lane] so every access is coalesced.
template <class ExecSpace>
class device_space_executor final
    : public butterfly::detail::executor_of<device_space_executor<ExecSpace>, device_width> {
  // The space's memory as the executor's (memory_space.hpp): one per space type, never
  // destroyed, so it outlives the executor whose cached plans it releases.
  class space_memory final : public butterfly::detail::memory_space {
    using kokkos_memory = typename ExecSpace::memory_space;
    using bytes = Kokkos::View<char*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    using device_bytes = Kokkos::View<char*, kokkos_memory, Kokkos::MemoryUnmanaged>;

   public:
    butterfly::detail::memory where() const override { return butterfly::detail::memory::device; }
    void* allocate(const butterfly::detail::executor&, std::size_t n) const override {
      return Kokkos::kokkos_malloc<kokkos_memory>("butterfly", n);
    }
    void release(const butterfly::detail::executor&, void* p) const noexcept override {
      Kokkos::kokkos_free<kokkos_memory>(p);
    }
    void copy_to_device(void* dst, const void* src, std::size_t n, void*) const override {
      Kokkos::deep_copy(device_bytes(static_cast<char*>(dst), n),
                        bytes(static_cast<char*>(const_cast<void*>(src)), n));
    }
    void copy_to_host(void* dst, const void* src, std::size_t n, void*) const override {
      Kokkos::deep_copy(bytes(static_cast<char*>(dst), n),
                        device_bytes(static_cast<char*>(const_cast<void*>(src)), n));
    }
    std::uint64_t copied_bytes() const override { return 0; }  // not counted on Kokkos
  };
  static const space_memory& memory() {
    static const space_memory m;
    return m;
  }

 public:
  device_space_executor()
      : butterfly::detail::executor_of<device_space_executor<ExecSpace>, device_width>(memory()) {}
  std::string_view name() const override { return "kokkos"; }
  int default_width() const override { return device_width; }

  template <int W, class Algorithm, class Source>
  void run_warps(const warp_launch<Source>& l, std::int64_t warps) const {
    using SG = device_warp::warp<W>;
    using policy = Kokkos::TeamPolicy<ExecSpace>;
    constexpr int warps_per_team = 4;
    const Source src = l.src;
    std::int32_t* z = l.z;
    const std::uint64_t seed = l.options.seed;
    const std::uint32_t iteration = l.options.iteration;
    const std::uint64_t first_token = l.options.first_token;
    const std::size_t scratch =
        butterfly::detail::warp_scratch<SG>::template floats<Algorithm>(src.K) * sizeof(float);
    const ExecSpace space = space_of<ExecSpace>(l.stream);
    policy p(space, static_cast<int>((warps + warps_per_team - 1) / warps_per_team), warps_per_team,
             W);
    p.set_scratch_size(1, Kokkos::PerThread(scratch));
    Kokkos::parallel_for(
        "butterfly::draw(vector lanes)", p,
        KOKKOS_LAMBDA(const typename policy::member_type& team) {
          const std::int64_t q =
              static_cast<std::int64_t>(team.league_rank()) * warps_per_team + team.team_rank();
          float* s = static_cast<float*>(team.thread_scratch(1).get_shmem(scratch));
          if (q >= warps) return;  // uniform over the warp's lanes
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, W), [&](int lane) {
            butterfly::detail::draw_warp<Algorithm>(SG{lane}, src, q, s, z, seed, iteration,
                                                    first_token);
          });
        });
    // The front door returns when z is written, and frees what it staged.
    compat::fence(space, "butterfly::draw(vector lanes)");
  }
};
#endif

template <class>
inline constexpr bool always_false = false;

template <class ExecSpace>
auto space_executor_type() {
  if constexpr (is_host_space<ExecSpace>) {
    return static_cast<host_space_executor<ExecSpace>*>(nullptr);
  } else {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
    return static_cast<device_space_executor<ExecSpace>*>(nullptr);
#else
    static_assert(always_false<ExecSpace>, "butterfly: no device launch for this space");
#endif
  }
}

}  // namespace detail

// The executor of ExecSpace (one per space type, so a device space's uploaded warp plans
// are kept across calls).
template <class ExecSpace>
const butterfly::detail::executor& executor_for() {
  using type = std::remove_pointer_t<decltype(detail::space_executor_type<ExecSpace>())>;
  static const type e;
  return e;
}

// The widths the draws on ExecSpace support, and the one options.width = 0 picks.
template <class ExecSpace>
std::vector<int> supported_widths() {
  return executor_for<ExecSpace>().widths();
}
template <class ExecSpace>
int default_width() {
  return executor_for<ExecSpace>().default_width();
}

}  // namespace butterfly::kokkos
