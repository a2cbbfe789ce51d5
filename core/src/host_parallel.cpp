#include "butterfly/detail/host_parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "butterfly/detail/executor.hpp"

namespace butterfly::detail {
namespace {

// Whether the configured executor's kernels read device memory (cuda, hip, emulated): its
// for_each is then the default loop on the calling thread, since its threads are the
// device's, and host_parallel_for's work (the held-out fold-in, evaluation.cpp) would run on
// one host thread. There host_parallel_for runs on std::threads instead.
bool device_backend() { return configured_executor().kernel_memory() == memory::device; }

// The std::threads of a device backend: OMP_NUM_THREADS when it is a positive number (what
// the host-threaded backends read, so one setting serves every build), else every hardware
// thread. Read once per process.
int device_backend_host_threads() {
  static const int n = [] {
    if (const char* s = std::getenv("OMP_NUM_THREADS")) {
      char* end = nullptr;
      const long v = std::strtol(s, &end, 10);
      if (end != s && v > 0) return static_cast<int>(std::min<long>(v, 1024));
    }
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  }();
  return n;
}

// The chunks of [0, n) on up to `threads` threads, the calling one among them, each taking the
// next chunk not yet taken: the same chunks as any executor's for_each, so the same results.
// A thread that cannot be started leaves its share to the others.
void for_each_on_threads(int threads, std::int64_t n, std::int64_t chunk, const chunk_body& body) {
  chunked_loop loop(n, chunk, body);
  std::atomic<std::int64_t> next{0};
  const auto work = [&loop, &next] {
    for (std::int64_t c = next.fetch_add(1); c < loop.chunks(); c = next.fetch_add(1)) loop.run(c);
  };
  const std::int64_t helpers = std::min<std::int64_t>(threads, loop.chunks()) - 1;
  std::vector<std::thread> team;
  try {
    for (std::int64_t i = 0; i < helpers; ++i) team.emplace_back(work);
  } catch (...) {  // fewer threads: the ones started and this one take every chunk
  }
  work();
  for (std::thread& t : team) t.join();
  loop.rethrow();
}

}  // namespace

void host_parallel_for(std::int64_t n, std::int64_t chunk, const chunk_body& body) {
  if (device_backend()) return for_each_on_threads(device_backend_host_threads(), n, chunk, body);
  configured_executor().for_each(n, chunk, body);
}

int host_threads() {
  return device_backend() ? device_backend_host_threads() : configured_executor().threads();
}

chunked_loop::chunked_loop(std::int64_t n, std::int64_t chunk, const chunk_body& body)
    : n_(n), chunk_(chunk), chunks_(0), body_(body), failed_(0) {
  if (chunk < 1)
    throw std::invalid_argument(
        "butterfly::detail::host_parallel_for: chunk must be at least 1, got " +
        std::to_string(chunk));
  chunks_ = n > 0 ? (n - 1) / chunk + 1 : 0;
  failed_ = chunks_;
}

void chunked_loop::run(std::int64_t c) noexcept {
  if (c > failed_.load(std::memory_order_relaxed)) return;
  const std::int64_t begin = c * chunk_;
  try {
    body_(begin, begin + chunk_ < n_ ? begin + chunk_ : n_);
  } catch (...) {
    const std::lock_guard<std::mutex> lock(error_mutex_);
    if (c < failed_.load(std::memory_order_relaxed)) {
      failed_.store(c, std::memory_order_relaxed);
      error_ = std::current_exception();
    }
  }
}

void chunked_loop::rethrow() const {
  if (error_) std::rethrow_exception(error_);
}

}  // namespace butterfly::detail
