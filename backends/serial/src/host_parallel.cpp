#include "butterfly/detail/host_parallel.hpp"

namespace butterfly::detail {

void host_parallel_for(std::int64_t n, std::int64_t chunk, const chunk_body& body) {
  chunked_loop loop(n, chunk, body);
  for (std::int64_t c = 0; c < loop.chunks(); ++c) loop.run(c);
  loop.rethrow();
}

int host_threads() { return 1; }

}  // namespace butterfly::detail
