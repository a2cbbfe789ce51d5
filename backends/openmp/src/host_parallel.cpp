// host_parallel_for on OpenMP threads. Chunks are handed out dynamically (documents and
// rows vary in cost), but their boundaries depend only on n and chunk, as the contract in
// host_parallel.hpp requires.
#include "butterfly/detail/host_parallel.hpp"

#include <exception>
#include <stdexcept>
#include <string>

#include <omp.h>

namespace butterfly::detail {

void host_parallel_for(std::int64_t n, std::int64_t chunk,
                       const std::function<void(std::int64_t, std::int64_t)>& body) {
  if (chunk < 1)
    throw std::invalid_argument("butterfly::detail::host_parallel_for: chunk must be at least 1, got " +
                                std::to_string(chunk));
  if (n <= 0) return;
  const std::int64_t chunks = (n - 1) / chunk + 1;
  // An exception must not leave an OpenMP region. Keep the one from the lowest chunk, so
  // the caller sees the same error whatever the thread count.
  std::exception_ptr error;
  std::int64_t error_chunk = chunks;
#pragma omp parallel for schedule(dynamic) if (chunks > 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::int64_t begin = c * chunk;
    try {
      body(begin, begin + chunk < n ? begin + chunk : n);
    } catch (...) {
#pragma omp critical(butterfly_host_parallel_error)
      if (c < error_chunk) {
        error_chunk = c;
        error = std::current_exception();
      }
    }
  }
  if (error) std::rethrow_exception(error);
}

int host_threads() { return omp_get_max_threads(); }

}  // namespace butterfly::detail
