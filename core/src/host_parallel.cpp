#include "butterfly/detail/host_parallel.hpp"

#include "butterfly/detail/executor.hpp"

#include <stdexcept>
#include <string>

namespace butterfly::detail {

void host_parallel_for(std::int64_t n, std::int64_t chunk, const chunk_body& body) {
  configured_executor().for_each(n, chunk, body);
}

int host_threads() { return configured_executor().threads(); }

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
