// Test helpers: run one algorithm through the public collective (butterfly::warp_draw) on
// one warp of the host lanes (the serial reference's subgroup) with a chosen uniform per
// lane, and the double-precision oracle the algorithms are checked against.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/search.hpp"
#include "butterfly/host_lanes/executor.hpp"
#include "butterfly/warp_draw.hpp"

namespace butterfly::test {

// Algorithm tags for TEMPLATE_TEST_CASE.
struct Basic {
  static constexpr algorithm value = algorithm::basic;
};
struct Transposed {
  static constexpr algorithm value = algorithm::transposed;
};
struct Butterfly {
  static constexpr algorithm value = algorithm::butterfly;
};
struct WarpScan {
  static constexpr algorithm value = algorithm::warp_scan;
};

inline const std::vector<int> all_widths{4, 8, 16, 32, 64};

// The widths the configured backend runs (serial and openmp: 4..64; CUDA: 32; HIP: the
// device's 64 or 32). Tests of the public API take their widths from here, never from
// all_widths, so that the same tests run on every backend and a device build skips only
// for "no device", never for an unsupported width.
inline std::vector<int> backend_widths() { return supported_widths(); }

// `preferred` where the configured backend supports it, else its native width: a test
// written for a list of (case, width) pairs keeps its cases on every backend.
inline int backend_width(int preferred) {
  for (int w : supported_widths())
    if (w == preferred) return w;
  return default_width();
}

// Calls f(std::integral_constant<int, W>) for every width the serial backend has.
template <class F>
void for_all_widths(F f) {
  for (int w : all_widths) detail::with_width<4, 8, 16, 32, 64>(w, f);
}

// K values from the issue: edge cases around W plus two large ones.
inline std::vector<int> k_grid(int W) {
  return {1, 2, W - 1, W, W + 1, 2 * W - 1, 2 * W, 3 * W + 5, 240, 1000};
}

template <int W>
typename host_lanes::subgroup<W>::template varying<float> lanes_of(const std::vector<float>& u) {
  typename host_lanes::subgroup<W>::template varying<float> v;
  for (int l = 0; l < W; ++l) v[l] = u[l];
  return v;
}

// Row form: lane r draws from row r of `weights` (W x K) with uniform u[r].
template <int W, algorithm A>
std::vector<int> draw_rows_with_u(const std::vector<float>& weights, int K,
                                  const std::vector<float>& u) {
  using SG = host_lanes::subgroup<W>;
  const SG sg;
  std::vector<float> scratch(warp_draw<SG, A>::scratch_floats(K));
  const auto j =
      warp_draw<SG, A>::rows(sg, scratch.data(), K, weights.data(), sg.lane(), lanes_of<W>(u));
  return std::vector<int>(j.v, j.v + W);
}

// Product form: lane r is document r with one token of word words[r]; theta is W x K,
// phi V x K.
template <int W, algorithm A>
std::vector<int> draw_products_with_u(const std::vector<float>& theta,
                                      const std::vector<float>& phi, int K,
                                      const std::vector<std::int32_t>& words,
                                      const std::vector<float>& u) {
  using SG = host_lanes::subgroup<W>;
  const SG sg;
  using draw = warp_draw<SG, A>;
  std::vector<float> scratch(draw::scratch_floats(K));
  const typename SG::template varying<std::int64_t> m(sg.lane());
  typename SG::template varying<std::int32_t> c;
  for (int l = 0; l < W; ++l) c[l] = words[l];
  draw::cache_theta(sg, scratch.data(), K, theta.data(), m);
  const auto j =
      draw::products(sg, scratch.data(), K, theta.data(), phi.data(), m, c, lanes_of<W>(u));
  return std::vector<int>(j.v, j.v + W);
}

// The oracle: prefix sums in double, the same float stop = sum * u (kept below sum) that
// the kernels compute, and the smallest index whose prefix sum exceeds it.
// A corpus in the product form's arrays: theta M x K, phi V x K, CSR documents of word ids.
struct corpus {
  int K = 0;
  std::vector<float> theta, phi;
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> words;
};

inline int oracle(const float* w, int K, float u) {
  std::vector<double> prefix(K);
  double s = 0;
  for (int k = 0; k < K; ++k) prefix[k] = s += w[k];
  if (!(s > 0)) return -1;
  const float sum = static_cast<float>(s);
  float stop = sum * u;
  if (!(stop < sum)) stop = std::nextafter(sum, 0.0f);
  for (int k = 0; k < K; ++k)
    if (static_cast<double>(stop) < prefix[k]) return k;
  return K - 1;
}

}  // namespace butterfly::test
