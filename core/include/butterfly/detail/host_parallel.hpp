// Host-side loops (the LDA's host steps, evaluation) over the configured executor's threads:
// executor::for_each (executor.hpp) is how a backend runs them; host_parallel_for is that
// loop for code that has no executor at hand. The serial executor runs chunks in order; the
// openmp and kokkos executors spread them over threads. Where the configured executor's
// kernels read device memory (cuda, hip, emulated), its for_each runs on the calling thread,
// and host_parallel_for runs the chunks on std::threads instead (OMP_NUM_THREADS of them when
// set, else one per hardware thread): host work beside a device need not be serial.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>

namespace butterfly::detail {

using chunk_body = std::function<void(std::int64_t begin, std::int64_t end)>;

// Calls body(begin, end) for the chunks [0, chunk), [chunk, 2 chunk), ... of [0, n).
// Chunk boundaries depend only on n and chunk, never on the thread count, so a reduction
// kept per chunk and combined in chunk order gives the same bits on any number of threads.
// Chunks may run concurrently: body must only write what its own range owns.
// If bodies throw, the exception of the lowest failing chunk reaches the caller, whatever
// the thread count. chunk < 1 is std::invalid_argument.
void host_parallel_for(std::int64_t n, std::int64_t chunk, const chunk_body& body);

// Threads host_parallel_for may use (1 on the serial backend; on a device backend its
// std::threads).
int host_threads();

// What a backend's for_each hands to its threads: run(c) for every c in
// [0, chunks()), in any order and concurrently, then rethrow(). An exception must not leave
// an OpenMP region or a Kokkos kernel, so run() catches it and keeps the lowest chunk's;
// chunks above a failed one are skipped, since their work is thrown away.
class chunked_loop {
 public:
  chunked_loop(std::int64_t n, std::int64_t chunk, const chunk_body& body);
  std::int64_t chunks() const { return chunks_; }
  void run(std::int64_t c) noexcept;
  void rethrow() const;

 private:
  std::int64_t n_, chunk_, chunks_;
  const chunk_body& body_;
  std::atomic<std::int64_t> failed_;  // lowest failed chunk, chunks_ if none
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

}  // namespace butterfly::detail
