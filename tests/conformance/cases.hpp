// Fixed inputs for the cross-backend conformance suite and its goldens. Inputs come from
// Philox bits through exact float operations only (no libm), so a machine with another C
// library regenerates the very same bits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/rng.hpp"

namespace butterfly::conformance {

struct case_inputs {
  std::string name;
  bool rows = false;  // row form (weights in theta, R = M) or product form
  int K = 1;
  std::vector<float> theta, phi;
  std::vector<std::int64_t> offsets;
  std::vector<std::int32_t> words;
  std::size_t outputs() const { return rows ? offsets.size() - 1 : words.size(); }
};

// The widths goldens are kept for: the host backends' default width (8), 16 (the host lanes'
// widest SIMD width on AVX2) and the GPU widths (32; 64 on AMD's wave64 GPUs).
inline const std::vector<int> golden_widths{8, 16, 32, 64};
inline constexpr std::uint64_t draw_seed = 20150101;
inline constexpr std::uint32_t draw_iteration = 7;

namespace detail_cases {
struct source {
  std::uint64_t seed;
  std::uint64_t next = 0;
  std::uint32_t word() { return rng::bits(seed, 0, rng::stream::z, next++)[0]; }
  // u^2: skewed, non-integer weights whose sums round, so the butterfly's order matters.
  float weight() {
    const float u = rng::u01(word());
    return u * u;
  }
};
}  // namespace detail_cases

inline case_inputs make_products(std::string name, std::uint64_t seed, int M, int V, int K,
                                 int max_len) {
  detail_cases::source s{seed};
  case_inputs c{std::move(name), false, K, {}, {}, {0}, {}};
  for (int m = 0; m < M; ++m) {
    const int len = static_cast<int>(s.word() % (max_len + 1));  // 0 included: empty docs
    for (int i = 0; i < len; ++i) c.words.push_back(static_cast<std::int32_t>(s.word() % V));
    c.offsets.push_back(static_cast<std::int64_t>(c.words.size()));
  }
  c.theta.resize(static_cast<std::size_t>(M) * K);
  c.phi.resize(static_cast<std::size_t>(V) * K);
  for (float& x : c.theta) x = s.weight();
  for (float& x : c.phi) x = s.weight();
  return c;
}

inline case_inputs make_rows(std::string name, std::uint64_t seed, int R, int K) {
  detail_cases::source s{seed};
  case_inputs c{std::move(name), true, K, {}, {}, {}, {}};
  for (int r = 0; r <= R; ++r) c.offsets.push_back(r);
  c.theta.resize(static_cast<std::size_t>(R) * K);
  for (float& x : c.theta) x = s.weight();
  return c;
}

// M not a multiple of any W, empty documents, K around and far from the widths.
inline std::vector<case_inputs> all_cases() {
  return {make_products("lda-k240", 1, 75, 300, 240, 60),
          make_products("lda-k19", 2, 37, 50, 19, 40), make_products("lda-k1", 3, 9, 5, 1, 10),
          make_rows("rows-k1000", 4, 150, 1000), make_rows("rows-k33", 5, 333, 33)};
}

// Awkward weights: what the weights' contract (draw_options::validate) says about
// finite, non-negative weights, exercised on every backend. Each theta, phi or weights row
// has a regime: ordinary (half its entries zero), all zero, big (~1e20: products overflow
// float), tiny (~1e-25: products underflow float to 0 but not in double), small (~1e-20:
// products are subnormal floats), huge (~3e38: their float sum overflows), a single non-zero
// entry, or subnormal entries themselves (rows). Documents: every fifth is empty, and (in two
// of the cases) two are longer than a warp-plan segment (256 tokens). A token (row) draws -1
// exactly when all its exact products are zero; tests/conformance/conformance.cpp checks that
// independently.
namespace detail_cases {
inline void fill_awkward_row(source& s, float* row, int K, bool rows) {
  const std::uint32_t regime = s.word() % (rows ? 8 : 7);
  const int single = static_cast<int>(s.word() % static_cast<std::uint32_t>(K));
  for (int k = 0; k < K; ++k) {
    const float u = rng::u01(s.word());
    const bool zero = (s.word() & 1) != 0;
    float x = 0.0f;
    switch (regime) {
      case 0: x = zero ? 0.0f : u * u; break;                      // ordinary, half zero
      case 1: x = 0.0f; break;                                     // all zero
      case 2: x = zero ? 0.0f : 1e20f * (1.0f + u); break;         // big
      case 3: x = zero ? 0.0f : 1e-25f * (1.0f + u); break;        // tiny
      case 4: x = zero ? 0.0f : 1e-20f * (1.0f + u); break;        // small
      case 5: x = zero ? 0.0f : 3e38f * (0.5f + 0.5f * u); break;  // huge
      case 6: x = k == single ? 0.5f + u : 0.0f; break;            // one non-zero entry
      default: x = zero ? 0.0f : 1e-40f * (1.0f + u); break;       // subnormal entries (rows)
    }
    row[k] = x;
  }
}
}  // namespace detail_cases

inline case_inputs make_awkward_products(std::string name, std::uint64_t seed, int M, int V, int K,
                                         int max_len, bool long_documents) {
  detail_cases::source s{seed};
  case_inputs c{std::move(name), false, K, {}, {}, {0}, {}};
  for (int m = 0; m < M; ++m) {
    int len = static_cast<int>(s.word() % (max_len + 1));
    if (m % 5 == 2) len = 0;  // guaranteed empty
    if (long_documents && (m == 1 || m == M - 3))
      len = 257 + static_cast<int>(s.word() % 300);  // > one segment
    for (int i = 0; i < len; ++i) c.words.push_back(static_cast<std::int32_t>(s.word() % V));
    c.offsets.push_back(static_cast<std::int64_t>(c.words.size()));
  }
  c.theta.resize(static_cast<std::size_t>(M) * K);
  c.phi.resize(static_cast<std::size_t>(V) * K);
  for (int m = 0; m < M; ++m)
    detail_cases::fill_awkward_row(s, &c.theta[static_cast<std::size_t>(m) * K], K, false);
  for (int w = 0; w < V; ++w)
    detail_cases::fill_awkward_row(s, &c.phi[static_cast<std::size_t>(w) * K], K, false);
  return c;
}

inline case_inputs make_awkward_rows(std::string name, std::uint64_t seed, int R, int K) {
  detail_cases::source s{seed};
  case_inputs c{std::move(name), true, K, {}, {}, {}, {}};
  for (int r = 0; r <= R; ++r) c.offsets.push_back(r);
  c.theta.resize(static_cast<std::size_t>(R) * K);
  for (int r = 0; r < R; ++r)
    detail_cases::fill_awkward_row(s, &c.theta[static_cast<std::size_t>(r) * K], K, true);
  return c;
}

inline std::vector<case_inputs> awkward_cases() {
  return {make_awkward_products("awkward-k1024", 11, 41, 30, 1024, 12, false),
          make_awkward_products("awkward-k37", 12, 67, 25, 37, 40, true),
          make_awkward_products("awkward-k1", 13, 30, 9, 1, 20, true),
          make_awkward_rows("awkward-rows-k4097", 14, 70, 4097),
          make_awkward_rows("awkward-rows-k1", 15, 45, 1)};
}

// The weight of topic k for token (or row) t of document m, as the exact product of the two
// floats (float x float is exact in double, subnormals included), and as the float product a
// float kernel computes.
inline double exact_weight(const case_inputs& c, std::size_t m, std::size_t t, int k) {
  const std::size_t K = static_cast<std::size_t>(c.K), kk = static_cast<std::size_t>(k);
  if (c.rows) return c.theta[t * K + kk];
  return static_cast<double>(c.theta[m * K + kk]) *
         static_cast<double>(c.phi[static_cast<std::size_t>(c.words[t]) * K + kk]);
}
inline float float_weight(const case_inputs& c, std::size_t m, std::size_t t, int k) {
  const std::size_t K = static_cast<std::size_t>(c.K), kk = static_cast<std::size_t>(k);
  if (c.rows) return c.theta[t * K + kk];
  return c.theta[m * K + kk] * c.phi[static_cast<std::size_t>(c.words[t]) * K + kk];
}
// The document of each output (rows: the row itself).
inline std::vector<std::size_t> document_of_outputs(const case_inputs& c) {
  std::vector<std::size_t> doc(c.outputs());
  for (std::size_t m = 0; m + 1 < c.offsets.size(); ++m)
    for (auto t = c.offsets[m]; t < c.offsets[m + 1]; ++t) doc[static_cast<std::size_t>(t)] = m;
  return doc;
}

// The options every conformance draw uses: the algorithm and width under test, fixed seed.
inline draw_options case_options(algorithm a, int width) {
  draw_options o;
  o.method = a;
  o.seed = draw_seed;
  o.iteration = draw_iteration;
  o.width = width;
  return o;
}

template <class Topics, class Rows>
std::vector<std::int32_t> run(const case_inputs& c, algorithm a, int width, Topics topics,
                              Rows rows) {
  const draw_options o = case_options(a, width);
  std::vector<std::int32_t> z(c.outputs(), -2);
  if (c.rows) rows(c.theta, c.K, z, o);
  else topics(c.theta, c.phi, c.K, c.offsets, c.words, z, o);
  return z;
}

inline std::vector<std::int32_t> run_reference(const case_inputs& c, algorithm a, int width) {
  return run(
      c, a, width, [](auto&&... args) { reference::draw_topics(args...); },
      [](auto&&... args) { reference::draw_rows(args...); });
}

inline std::vector<std::int32_t> run_backend(const case_inputs& c, algorithm a, int width) {
  return run(
      c, a, width, [](auto&&... args) { butterfly::draw_topics(args...); },
      [](auto&&... args) { butterfly::draw_rows(args...); });
}

inline std::string golden_path(const std::string& dir, const case_inputs& c) {
  return dir + "/" + c.name + ".txt";
}

}  // namespace butterfly::conformance
