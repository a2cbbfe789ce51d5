// The contract of host_parallel_for (core/include/butterfly/detail/host_parallel.hpp) on
// OpenMP threads: fixed chunks, each index exactly once, errors surface deterministically.
#include <catch2/catch.hpp>
#include <omp.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "butterfly/detail/host_parallel.hpp"

using butterfly::detail::host_parallel_for;

namespace {
struct thread_count {
  int saved = omp_get_max_threads();
  explicit thread_count(int n) { omp_set_num_threads(n); }
  ~thread_count() { omp_set_num_threads(saved); }
};
}  // namespace

TEST_CASE("host_parallel_for: chunk boundaries depend only on n and chunk", "[openmp]") {
  for (int threads : {1, 2, 3}) {
    const thread_count t(threads);
    REQUIRE(butterfly::detail::host_threads() == threads);
    for (std::int64_t n : {0, 1, 5, 64, 1000, 1001})
      for (std::int64_t chunk : {1, 3, 64, 5000}) {
        INFO(threads << " threads, n " << n << ", chunk " << chunk);
        const std::int64_t chunks = n == 0 ? 0 : (n - 1) / chunk + 1;
        std::vector<int> seen(static_cast<std::size_t>(n), 0);
        std::vector<std::int64_t> ends(static_cast<std::size_t>(chunks), -1);
        host_parallel_for(n, chunk, [&](std::int64_t b, std::int64_t e) {
          if (b % chunk != 0 || b / chunk >= chunks) throw std::logic_error("bad chunk start");
          ends[static_cast<std::size_t>(b / chunk)] = e;  // each chunk owns its slot
          for (std::int64_t i = b; i < e; ++i) ++seen[static_cast<std::size_t>(i)];
        });
        CHECK(seen == std::vector<int>(static_cast<std::size_t>(n), 1));
        for (std::int64_t c = 0; c < chunks; ++c)
          CHECK(ends[static_cast<std::size_t>(c)] == std::min(n, (c + 1) * chunk));
      }
  }
}

TEST_CASE("host_parallel_for: per-chunk float sums combined in order are thread-count independent",
          "[openmp]") {
  const std::int64_t n = 100003, chunk = 1000;
  std::vector<float> x(n);
  for (std::int64_t i = 0; i < n; ++i) x[i] = 1.0f / static_cast<float>(1 + i % 977);
  std::vector<float> totals;
  for (int threads : {1, 2, 3}) {
    const thread_count t(threads);
    std::vector<float> partial((n - 1) / chunk + 1, 0.0f);
    host_parallel_for(n, chunk, [&](std::int64_t b, std::int64_t e) {
      float s = 0.0f;
      for (std::int64_t i = b; i < e; ++i) s += x[i];
      partial[b / chunk] = s;
    });
    float total = 0.0f;
    for (float p : partial) total += p;
    totals.push_back(total);
  }
  CHECK(totals[1] == totals[0]);
  CHECK(totals[2] == totals[0]);
}

TEST_CASE("host_parallel_for: the lowest failing chunk's exception reaches the caller",
          "[openmp]") {
  for (int threads : {1, 2, 3}) {
    const thread_count t(threads);
    INFO(threads << " threads");
    // Chunks 3 and 7 fail; whichever thread fails first, the caller sees chunk 3's error.
    CHECK_THROWS_WITH(host_parallel_for(100, 10,
                                        [](std::int64_t b, std::int64_t) {
                                          if (b == 30 || b == 70)
                                            throw std::runtime_error("chunk " + std::to_string(b / 10));
                                        }),
                      "chunk 3");
  }
  CHECK_THROWS_AS(host_parallel_for(10, 0, [](std::int64_t, std::int64_t) {}),
                  std::invalid_argument);
}
