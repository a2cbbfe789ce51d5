// butterfly::warp_draw on host SIMD lanes: one thread runs W = 8 lanes in SIMD registers,
// each lane a document, the way the paper runs a GPU warp (Algorithm 6's outer loop with
// its master index), then the row form. Both are checked against butterfly::reference:
// with the library's uniforms (token_uniforms) and each document on lane m mod W, the
// collective draws exactly the library's z. Exit status 1 on any difference.
#include <butterfly/butterfly.hpp>
#include <butterfly/host_lanes/simd_subgroup.hpp>
#include <butterfly/warp_draw.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int W = 8;
using lanes = butterfly::host_lanes::simd_subgroup<W>;
using draw_t = butterfly::warp_draw<lanes, butterfly::algorithm::butterfly>;
template <class T>
using varying = draw_t::varying<T>;

// Documents q*W .. q*W+W-1 on lanes 0..W-1; lanes past the last document redo it and
// write nothing.
void draw_topics(const std::vector<float>& theta, const std::vector<float>& phi, int K,
                 const std::vector<std::int64_t>& offsets, const std::vector<std::int32_t>& words,
                 std::uint64_t seed, std::vector<std::int32_t>& z) {
  const lanes sg;
  std::vector<float> scratch(draw_t::scratch_floats(K));
  const std::int64_t M = static_cast<std::int64_t>(offsets.size()) - 1;
  for (std::int64_t q = 0; q * W < M; ++q) {
    std::int64_t m[W], first[W], count[W], longest = 0;
    for (int l = 0; l < W; ++l) {
      m[l] = std::min(q * W + l, M - 1);
      first[l] = offsets[m[l]];
      count[l] = q * W + l < M ? offsets[m[l] + 1] - first[l] : 0;
      longest = std::max(longest, count[l]);
    }
    draw_t::cache_theta(sg, scratch.data(), K, theta.data(), sg.load(m));
    for (std::int64_t i = 0; i < longest; ++i) {  // the master index: all lanes stay awake
      std::int32_t c[W];
      std::uint64_t t[W];
      for (int l = 0; l < W; ++l) {
        // A finished or empty lane redraws a real token (any one will do) and ignores it.
        const std::int64_t own = first[l] + std::min(i, std::max<std::int64_t>(count[l] - 1, 0));
        t[l] = static_cast<std::uint64_t>(std::min<std::int64_t>(own, words.size() - 1));
        c[l] = words[t[l]];
      }
      const varying<float> u = butterfly::token_uniforms(sg, seed, 0, sg.load(t));
      const varying<int> k = draw_t::products(sg, scratch.data(), K, theta.data(), phi.data(),
                                              sg.load(m), sg.load(c), u);
      for (int l = 0; l < W; ++l)
        if (i < count[l]) z[t[l]] = k[l];
    }
  }
}

// Row form: rows r*W .. r*W+W-1, one per lane (the last warp clamps and discards).
void draw_rows(const std::vector<float>& weights, int K, std::uint64_t seed,
               std::vector<std::int32_t>& out) {
  const lanes sg;
  std::vector<float> scratch(draw_t::scratch_floats(K));
  const std::int32_t R = static_cast<std::int32_t>(out.size());
  for (std::int32_t q = 0; q * W < R; ++q) {
    std::int32_t row[W];
    for (int l = 0; l < W; ++l) row[l] = std::min(q * W + l, R - 1);
    const varying<std::int32_t> rows = sg.load(row);
    const varying<float> u = butterfly::token_uniforms(sg, seed, 0, varying<std::uint64_t>(rows));
    const varying<int> k = draw_t::rows(sg, scratch.data(), K, weights.data(), rows, u);
    for (int l = 0; l < W && q * W + l < R; ++l) out[q * W + l] = k[l];
  }
}

int main() {
  // A small corpus: 21 documents (not a multiple of W), one empty, K = 19 (a remnant of 3
  // and two blocks of 8, as Figure 2 of the paper), weights with zeros among them.
  const int K = 19, V = 30, M = 21;
  std::vector<float> theta(M * K), phi(V * K);
  for (int i = 0; i < M * K; ++i) theta[i] = static_cast<float>((i * 7919) % 13) / 13.0f;
  for (int i = 0; i < V * K; ++i) phi[i] = static_cast<float>((i * 104729) % 17) / 17.0f;
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> words;
  for (int m = 0; m < M; ++m) {
    const int length = m == 5 ? 0 : 1 + (m * 37) % 23;
    for (int i = 0; i < length; ++i) words.push_back((m * 11 + i * 3) % V);
    offsets.push_back(static_cast<std::int64_t>(words.size()));
  }
  const std::uint64_t seed = 42;

  std::vector<std::int32_t> z(words.size()), expected(words.size());
  draw_topics(theta, phi, K, offsets, words, seed, z);
  butterfly::draw_options options;
  options.method = butterfly::algorithm::butterfly;
  options.seed = seed;
  options.width = W;
  butterfly::reference::draw_topics(theta, phi, K, offsets, words, expected, options);
  std::size_t differ = 0;
  for (std::size_t t = 0; t < z.size(); ++t) differ += z[t] != expected[t];
  std::printf("product form: %zu tokens, %zu differ from butterfly::reference\n", z.size(), differ);

  std::vector<std::int32_t> out(M), expected_rows(M);
  draw_rows(theta, K, seed, out);
  butterfly::reference::draw_rows(theta, K, expected_rows, options);
  std::size_t rows_differ = 0;
  for (int r = 0; r < M; ++r) rows_differ += out[r] != expected_rows[r];
  std::printf("row form: %d rows, %zu differ from butterfly::reference\n", M, rows_differ);
  return differ == 0 && rows_differ == 0 ? 0 : 1;
}
