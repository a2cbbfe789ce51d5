// host_parallel_for on OpenMP threads. Chunks are handed out dynamically (documents and
// rows vary in cost); their boundaries are chunked_loop's, fixed by n and chunk.
#include "butterfly/detail/host_parallel.hpp"

#include <omp.h>

namespace butterfly::detail {

void host_parallel_for(std::int64_t n, std::int64_t chunk, const chunk_body& body) {
  chunked_loop loop(n, chunk, body);
#pragma omp parallel for schedule(dynamic) if (loop.chunks() > 1)
  for (std::int64_t c = 0; c < loop.chunks(); ++c) loop.run(c);
  loop.rethrow();
}

int host_threads() { return omp_get_max_threads(); }

}  // namespace butterfly::detail
