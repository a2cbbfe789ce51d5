// The one seam through which host-side loops (LDA counts, Gamma draws, log-likelihood) may
// run in parallel. The serial backend runs chunks in order; the openmp backend spreads them
// over threads.
#pragma once

#include <cstdint>
#include <functional>

namespace butterfly::detail {

// Calls body(begin, end) for the chunks [0, chunk), [chunk, 2 chunk), ... of [0, n).
// Chunk boundaries depend only on n and chunk, never on the thread count, so a reduction
// kept per chunk and combined in chunk order gives the same bits on any number of threads.
// Chunks may run concurrently: body must only write what its own range owns.
void host_parallel_for(std::int64_t n, std::int64_t chunk,
                       const std::function<void(std::int64_t begin, std::int64_t end)>& body);

// Threads host_parallel_for may use (1 on the serial backend).
int host_threads();

}  // namespace butterfly::detail
