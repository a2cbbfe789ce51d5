// The openmp backend's z must not depend on the thread count: each warp's draws are a pure
// function of its inputs. Checked against the serial reference at every width.
#include <catch2/catch.hpp>

#include <omp.h>

#include <cstdint>
#include <vector>

#include "butterfly/butterfly.hpp"

namespace {

// A corpus with empty documents, K not a multiple of any width, and some zero weights, from
// a fixed LCG (independent of the library's Philox).
struct corpus {
  int K = 37;
  int V = 53;
  std::vector<float> theta, phi;
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> words;

  corpus() {
    std::uint64_t s = 12345;
    auto next = [&] {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      return static_cast<std::uint32_t>(s >> 33);
    };
    const int M = 301;
    for (int m = 0; m < M; ++m) {
      const int len = m % 7 == 3 ? 0 : static_cast<int>(next() % 40);
      for (int i = 0; i < len; ++i) words.push_back(static_cast<std::int32_t>(next() % V));
      offsets.push_back(static_cast<std::int64_t>(words.size()));
    }
    for (int i = 0; i < M * K; ++i)
      theta.push_back(next() % 5 == 0 ? 0.0f : (next() % 1000) / 997.0f);
    for (int i = 0; i < V * K; ++i)
      phi.push_back(next() % 4 == 0 ? 0.0f : (next() % 1000) / 991.0f);
  }
};

struct thread_count {
  int saved = omp_get_max_threads();
  explicit thread_count(int n) { omp_set_num_threads(n); }
  ~thread_count() { omp_set_num_threads(saved); }
};

}  // namespace

TEST_CASE("openmp draw_topics: 1, 2 and 3 threads give the reference's z", "[openmp]") {
  REQUIRE(butterfly::backend_name() == "openmp");
  const corpus c;
  for (int width : butterfly::supported_widths())
    for (auto method : butterfly::all_algorithms) {
      butterfly::draw_options o;
      o.method = method;
      o.width = width;
      o.seed = 7;
      o.iteration = 3;
      std::vector<std::int32_t> expected(c.words.size(), -2);
      butterfly::reference::draw_topics(c.theta, c.phi, c.K, c.offsets, c.words, expected, o);
      for (int threads : {1, 2, 3}) {
        const thread_count t(threads);
        std::vector<std::int32_t> z(c.words.size(), -2);
        butterfly::draw_topics(c.theta, c.phi, c.K, c.offsets, c.words, z, o);
        INFO("width " << width << ", " << butterfly::name(method) << ", " << threads << " threads");
        CHECK(z == expected);
      }
    }
}

TEST_CASE("openmp draw_rows: 1, 2 and 3 threads give the reference's out", "[openmp]") {
  const corpus c;  // phi's V rows of K weights
  for (int width : butterfly::supported_widths()) {
    butterfly::draw_options o;
    o.width = width;
    o.seed = 11;
    std::vector<std::int32_t> expected(c.V, -2);
    butterfly::reference::draw_rows(c.phi, c.K, expected, o);
    for (int threads : {1, 2, 3}) {
      const thread_count t(threads);
      std::vector<std::int32_t> out(c.V, -2);
      butterfly::draw_rows(c.phi, c.K, out, o);
      INFO("width " << width << ", " << threads << " threads");
      CHECK(out == expected);
    }
  }
}
