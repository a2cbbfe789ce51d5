// host_parallel_for on Kokkos's default host execution space (OpenMP, Threads or Serial,
// as Kokkos was built), so the LDA host loops use the same threads as the draws.
#include "butterfly/detail/host_parallel.hpp"

#include <Kokkos_Core.hpp>

#include "butterfly/kokkos/compat.hpp"

#include "session.hpp"

namespace butterfly::detail {

using host_space = Kokkos::DefaultHostExecutionSpace;

void host_parallel_for(std::int64_t n, std::int64_t chunk, const chunk_body& body) {
  chunked_loop loop(n, chunk, body);
  if (loop.chunks() == 0) return;
  kokkos::detail::require_session("host_parallel_for");
  using policy = Kokkos::RangePolicy<host_space, Kokkos::Schedule<Kokkos::Dynamic>,
                                     Kokkos::IndexType<std::int64_t>>;
  chunked_loop* l = &loop;
  Kokkos::parallel_for("butterfly::host_parallel_for", policy(0, loop.chunks()),
                       [l](std::int64_t c) { l->run(c); });
  kokkos::compat::fence(host_space(), "butterfly::host_parallel_for");
  loop.rethrow();
}

int host_threads() {
  kokkos::detail::require_session("host_threads");
  return host_space().concurrency();
}

}  // namespace butterfly::detail
