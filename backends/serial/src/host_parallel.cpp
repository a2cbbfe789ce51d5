#include "butterfly/detail/host_parallel.hpp"

namespace butterfly::detail {

void host_parallel_for(std::int64_t n, std::int64_t chunk,
                       const std::function<void(std::int64_t, std::int64_t)>& body) {
  for (std::int64_t b = 0; b < n; b += chunk) body(b, b + chunk < n ? b + chunk : n);
}

int host_threads() { return 1; }

}  // namespace butterfly::detail
