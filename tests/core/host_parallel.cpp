// The contract of host_parallel_for (core/include/butterfly/detail/host_parallel.hpp) on the
// configured backend: fixed chunks, each index exactly once, errors surface deterministically.
// The parallel backends take their thread count from OMP_NUM_THREADS once per process, so
// CMake runs this program once per count and says in BUTTERFLY_TEST_HOST_THREADS how many
// threads the backend must then report.
#include <catch2/catch.hpp>

#include "butterfly/detail/host_parallel.hpp"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

using butterfly::detail::host_parallel_for;

TEST_CASE("host_parallel_for: the backend uses the thread count it was given", "[host_parallel]") {
  const char* want = std::getenv("BUTTERFLY_TEST_HOST_THREADS");
  REQUIRE(want != nullptr);
  CHECK(butterfly::detail::host_threads() == std::atoi(want));
}

TEST_CASE("host_parallel_for: chunk boundaries depend only on n and chunk", "[host_parallel]") {
  for (std::int64_t n : {0, 1, 5, 64, 1000, 1001})
    for (std::int64_t chunk : {1, 3, 64, 5000}) {
      INFO("n " << n << ", chunk " << chunk);
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

TEST_CASE("host_parallel_for: per-chunk float sums combined in order equal the sequential ones",
          "[host_parallel]") {
  const std::int64_t n = 100003, chunk = 1000;
  std::vector<float> x(n);
  for (std::int64_t i = 0; i < n; ++i) x[i] = 1.0f / static_cast<float>(1 + i % 977);
  // The same sums, one chunk after the other on this thread.
  float want = 0.0f;
  for (std::int64_t b = 0; b < n; b += chunk) {
    float s = 0.0f;
    for (std::int64_t i = b; i < std::min(n, b + chunk); ++i) s += x[i];
    want += s;
  }
  std::vector<float> partial((n - 1) / chunk + 1, 0.0f);
  host_parallel_for(n, chunk, [&](std::int64_t b, std::int64_t e) {
    float s = 0.0f;
    for (std::int64_t i = b; i < e; ++i) s += x[i];
    partial[b / chunk] = s;
  });
  float got = 0.0f;
  for (float p : partial) got += p;
  CHECK(got == want);
}

TEST_CASE("host_parallel_for: the lowest failing chunk's exception reaches the caller",
          "[host_parallel]") {
  // Chunks 3 and 7 fail; whichever thread fails first, the caller sees chunk 3's error.
  for (int repeat = 0; repeat < 20; ++repeat)
    CHECK_THROWS_WITH(
        host_parallel_for(100, 10,
                          [](std::int64_t b, std::int64_t) {
                            if (b == 30 || b == 70)
                              throw std::runtime_error("chunk " + std::to_string(b / 10));
                          }),
        "chunk 3");
  CHECK_THROWS_AS(host_parallel_for(10, 0, [](std::int64_t, std::int64_t) {}),
                  std::invalid_argument);
}
