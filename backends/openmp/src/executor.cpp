// BACKEND=openmp: the host lanes with ranges of warps, and the host loops, on OpenMP threads.
// Chunks are handed out dynamically (documents and rows vary in cost); their boundaries are
// fixed by n and chunk, and a warp's draws depend only on its own inputs, so z and every
// host loop's result are the same for any thread count and schedule.
#include <omp.h>

#include <algorithm>

#include "butterfly/host_lanes/host_subgroup.hpp"

namespace butterfly::detail {
namespace {

class openmp_executor final : public host_lanes::lanes_executor<openmp_executor> {
 public:
  std::string_view name() const override { return "openmp"; }
  int threads() const override { return omp_get_max_threads(); }
  bool set_threads(int n) const override {
    omp_set_num_threads(n);
    return true;
  }

  void for_each(std::int64_t n, std::int64_t chunk, const chunk_body& body) const override {
    chunked_loop loop(n, chunk, body);
#pragma omp parallel for schedule(dynamic) if (loop.chunks() > 1)
    for (std::int64_t c = 0; c < loop.chunks(); ++c) loop.run(c);
    loop.rethrow();
  }

  // Ranges of warps on the threads, each thread with its own scratch (allocated here, so
  // nothing in the parallel region throws).
  template <int W, class Algorithm, class Source>
  void run_warps(const warp_launch<Source>& l, std::int64_t warps) const {
    using SG = host_lanes::host_subgroup<W>;
    const int team = threads();
    host_lanes::warp_scratch_buffer<SG, Algorithm> scratch(l.src.K, team);
    const std::int64_t chunk = host_lanes::warp_chunk(warps, team);
#pragma omp parallel for schedule(dynamic) num_threads(team) if (warps > chunk)
    for (std::int64_t b = 0; b < warps; b += chunk)
      draw_warps<Algorithm>(SG{}, l.src, l.z, l.options, b, std::min(warps, b + chunk),
                            scratch.of(omp_get_thread_num()));
  }
};

}  // namespace

const executor& configured_executor() {
  static const openmp_executor e;
  return e;
}

}  // namespace butterfly::detail
