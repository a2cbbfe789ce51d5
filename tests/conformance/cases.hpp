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

// The widths goldens are kept for: the host backends' native width (8; 16 before issue
// 12), and the GPU widths.
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
          make_products("lda-k19", 2, 37, 50, 19, 40),
          make_products("lda-k1", 3, 9, 5, 1, 10),
          make_rows("rows-k1000", 4, 150, 1000),
          make_rows("rows-k33", 5, 333, 33)};
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
  if (c.rows)
    rows(c.theta, c.K, z, o);
  else
    topics(c.theta, c.phi, c.K, c.offsets, c.words, z, o);
  return z;
}

inline std::vector<std::int32_t> run_reference(const case_inputs& c, algorithm a, int width) {
  return run(
      c, a, width,
      [](auto&&... args) { reference::draw_topics(args...); },
      [](auto&&... args) { reference::draw_rows(args...); });
}

inline std::vector<std::int32_t> run_backend(const case_inputs& c, algorithm a, int width) {
  return run(
      c, a, width,
      [](auto&&... args) { butterfly::draw_topics(args...); },
      [](auto&&... args) { butterfly::draw_rows(args...); });
}

inline std::string golden_path(const std::string& dir, const case_inputs& c) {
  return dir + "/" + c.name + ".txt";
}

}  // namespace butterfly::conformance
