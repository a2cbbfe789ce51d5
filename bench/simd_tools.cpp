// butterfly-bench-simd-tools: the SIMD tool for the host lanes, chosen by measurement
// (GCC/Clang vector extensions, Highway, xsimd or std::experimental::simd).
//
// The same kernel in each tool, at W = 8 float lanes (one AVX2 register): the heart of the
// butterfly draw (draw_butterfly.hpp), the butterfly-patterned sum of W product vectors.
// Per block, W contiguous vector loads of theta and of phi and W products, then
// log2(W) = 3 rounds that pair vectors up: for the pair (a, b) at distance d,
//   r = select(m_d, b, a) + shuffle_xor(select(m_d, a, b), d),   m_d = (lane & d) != 0,
// i.e. two blends, one permutation and one add, so that lane l ends with the sum of one
// product vector. The permutations are the three the butterfly needs on AVX2: xor 1 and
// xor 2 (inside 128-bit halves) and xor 4 (swapping the halves).
//
// Each tool's result is checked bit for bit against a plain-array version before timing
// (the same IEEE operations in the same order: a tool may change the speed, not the bits).
// items_per_second = blocks (8 x 8 products and the 3 rounds) per second. Measured on AVX2:
// vector_ext 7.3 ns per block, Highway the same, std_simd 1.14x and xsimd 1.21x slower, the
// plain arrays 8x slower (bench/journal/ keeps the run and its command).
// Not the whole draw: re-writing the whole subgroup four times would be the copy this file
// exists to avoid; the draw's other operations (ballot = movemask, broadcasts, the search's
// compare-and-select) are one instruction in every tool.
#include <cstdio>

#if !defined(__AVX2__)
// The comparison is of W = 8 lanes in one register; a portable (SSE2) build has none.
int main() {
  std::puts(
      "butterfly-bench-simd-tools: not measured: the build's ISA has no AVX2 (8 float lanes per "
      "register)");
  return 0;
}
#else
#include <benchmark/benchmark.h>

#include <experimental/simd>
#include <hwy/highway.h>
#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"  // 32-byte vector arguments of inlined functions
#endif

namespace {

constexpr int W = 8;
constexpr int blocks =
    512;  // 2 x 128 KiB of input: L2-resident, as phi rows of a hot vocabulary are

struct inputs {
  std::vector<float> theta, phi;  // blocks x W x W
  std::vector<float> out;         // blocks x W
  inputs() : theta(blocks * W * W), phi(blocks * W * W), out(blocks * W) {
    std::mt19937 g(7);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (auto& x : theta) x = u(g);
    for (auto& x : phi) x = u(g);
  }
};

// ---- plain arrays: the definition
void arrays(inputs& in) {
  for (int b = 0; b < blocks; ++b) {
    float v[W][W];
    for (int i = 0; i < W; ++i)
      for (int l = 0; l < W; ++l)
        v[i][l] = in.theta[(b * W + i) * W + l] * in.phi[(b * W + i) * W + l];
    for (int d = W / 2, n = W; d >= 1; d /= 2, n /= 2)
      for (int i = 0; i < n / 2; ++i) {
        float r[W];
        for (int l = 0; l < W; ++l) {
          const bool m = (l & d) != 0;
          const float keep = m ? v[i + n / 2][l] : v[i][l];
          const float give = m ? v[i + n / 2][l ^ d] : v[i][l ^ d];  // lane l ^ d has the other m
          r[l] = keep + give;
        }
        std::memcpy(v[i], r, sizeof r);
      }
    std::memcpy(&in.out[b * W], v[0], sizeof v[0]);
  }
}

// ---- GCC/Clang vector extensions (what backends/subgroups/host_lanes/simd_lanes.hpp uses)
typedef float v8f __attribute__((vector_size(32)));
typedef std::int32_t v8i __attribute__((vector_size(32)));
template <int D>
inline v8f xor_shuffle(v8f x) {
  // Constant indices: the one shuffle builtin GCC (12 and later) and clang share.
  return __builtin_shufflevector(x, x, 0 ^ D, 1 ^ D, 2 ^ D, 3 ^ D, 4 ^ D, 5 ^ D, 6 ^ D, 7 ^ D);
}
template <int D>
inline void round_ext(v8f* v, int n) {
  const v8i lane = {0, 1, 2, 3, 4, 5, 6, 7};
  const v8i m = (lane & D) != 0;
  for (int i = 0; i < n / 2; ++i) {
    const v8f a = v[i], b = v[i + n / 2];
    v[i] = (m ? b : a) + xor_shuffle<D>(m ? a : b);
  }
}
void vector_ext(inputs& in) {
  for (int b = 0; b < blocks; ++b) {
    v8f v[W];
    for (int i = 0; i < W; ++i) {
      v8f t, p;
      std::memcpy(&t, &in.theta[(b * W + i) * W], sizeof t);
      std::memcpy(&p, &in.phi[(b * W + i) * W], sizeof p);
      v[i] = t * p;
    }
    round_ext<4>(v, 8);
    round_ext<2>(v, 4);
    round_ext<1>(v, 2);
    std::memcpy(&in.out[b * W], &v[0], sizeof v[0]);
  }
}

// ---- xsimd 8.1 (compile-time swizzle and blend constants)
using xb = xsimd::batch<float, xsimd::avx2>;
using xu = xsimd::batch<std::uint32_t, xsimd::avx2>;
template <int D>
struct xsimd_masks {
  static constexpr bool m(int l) { return (l & D) != 0; }
  using keep_b = xsimd::batch_bool_constant<xb, m(0), m(1), m(2), m(3), m(4), m(5), m(6), m(7)>;
  using perm = xsimd::batch_constant<xu, 0 ^ D, 1 ^ D, 2 ^ D, 3 ^ D, 4 ^ D, 5 ^ D, 6 ^ D, 7 ^ D>;
};
template <int D>
inline void round_xsimd(xb* v, int n) {
  for (int i = 0; i < n / 2; ++i) {
    const xb a = v[i], b = v[i + n / 2];
    v[i] = xsimd::select(typename xsimd_masks<D>::keep_b(), b, a) +
           xsimd::swizzle(xsimd::select(typename xsimd_masks<D>::keep_b(), a, b),
                          typename xsimd_masks<D>::perm());
  }
}
void xsimd_tool(inputs& in) {
  for (int b = 0; b < blocks; ++b) {
    xb v[W];
    for (int i = 0; i < W; ++i)
      v[i] = xb::load_unaligned(&in.theta[(b * W + i) * W]) *
             xb::load_unaligned(&in.phi[(b * W + i) * W]);
    round_xsimd<4>(v, 8);
    round_xsimd<2>(v, 4);
    round_xsimd<1>(v, 2);
    v[0].store_unaligned(&in.out[b * W]);
  }
}

// ---- Highway 1.0.3, static dispatch to the build's target (AVX2 here); its named
// permutations: Shuffle2301 = xor 1, Shuffle1032 = xor 2, SwapAdjacentBlocks = xor 4.
namespace hn = hwy::HWY_NAMESPACE;
using hd = hn::FixedTag<float, W>;
using hv = hn::Vec<hd>;
template <int D>
inline hv xor_hwy(hv x) {
  if constexpr (D == 1) return hn::Shuffle2301(x);
  else if constexpr (D == 2) return hn::Shuffle1032(x);
  else return hn::SwapAdjacentBlocks(x);
}
template <int D>
inline void round_hwy(hv* v, int n) {
  const hn::RebindToSigned<hd> di;
  const auto m =
      hn::RebindMask(hd(), hn::Ne(hn::And(hn::Iota(di, 0), hn::Set(di, D)), hn::Zero(di)));
  for (int i = 0; i < n / 2; ++i) {
    const hv a = v[i], b = v[i + n / 2];
    v[i] = hn::Add(hn::IfThenElse(m, b, a), xor_hwy<D>(hn::IfThenElse(m, a, b)));
  }
}
void highway(inputs& in) {
  const hd d;
  for (int b = 0; b < blocks; ++b) {
    hv v[W];
    for (int i = 0; i < W; ++i)
      v[i] =
          hn::Mul(hn::LoadU(d, &in.theta[(b * W + i) * W]), hn::LoadU(d, &in.phi[(b * W + i) * W]));
    round_hwy<4>(v, 8);
    round_hwy<2>(v, 4);
    round_hwy<1>(v, 2);
    hn::StoreU(v[0], d, &in.out[b * W]);
  }
}

// ---- std::experimental::simd (g++ 12): no permutation operation, so shuffle_xor is the
// generator constructor reading lane i ^ d (the compiler may or may not find a permute).
namespace stdx = std::experimental;
using sv = stdx::fixed_size_simd<float, W>;
using sm = sv::mask_type;
template <int D>
inline void round_stdx(sv* v, int n) {
  const sm m = sv([](auto l) { return float(int(l) & D); }) != 0.0f;
  for (int i = 0; i < n / 2; ++i) {
    const sv a = v[i], b = v[i + n / 2];
    sv keep = a, give = b;
    stdx::where(m, keep) = b;
    stdx::where(m, give) = a;
    // Read lanes through a const reference: a non-const simd's operator[] returns a
    // reference proxy, and g++ 12's generator constructor then yields zeros (seen here).
    const sv& g = give;
    v[i] = keep + sv([&](auto l) { return float(g[int(l) ^ D]); });
  }
}
void std_simd(inputs& in) {
  for (int b = 0; b < blocks; ++b) {
    sv v[W];
    for (int i = 0; i < W; ++i)
      v[i] = sv(&in.theta[(b * W + i) * W], stdx::element_aligned) *
             sv(&in.phi[(b * W + i) * W], stdx::element_aligned);
    round_stdx<4>(v, 8);
    round_stdx<2>(v, 4);
    round_stdx<1>(v, 2);
    v[0].copy_to(&in.out[b * W], stdx::element_aligned);
  }
}

using kernel = void (*)(inputs&);

void run(benchmark::State& state, kernel k) {
  inputs in;
  for (auto _ : state) {
    k(in);
    benchmark::DoNotOptimize(in.out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          blocks);  // items = blocks
}

}  // namespace

int main(int argc, char** argv) {
  const struct {
    const char* name;
    kernel k;
  } tools[] = {{"arrays", arrays},
               {"vector_ext", vector_ext},
               {"xsimd", xsimd_tool},
               {"highway", highway},
               {"std_simd", std_simd}};
  // Only a tool whose sums equal the plain arrays' bit for bit is timed. One that differs is
  // named and left out: clang 14 with libstdc++ 12's std::experimental::simd at AVX-512
  // leaves its where() assignments undone.
  inputs want;
  arrays(want);
  benchmark::Initialize(&argc, argv);
  int equal = 0;
  for (const auto& t : tools) {
    inputs got;
    t.k(got);
    if (std::memcmp(got.out.data(), want.out.data(), want.out.size() * sizeof(float)) != 0) {
      std::fprintf(stderr,
                   "butterfly-bench-simd-tools: %s differs from the plain arrays: not timed\n",
                   t.name);
      continue;
    }
    ++equal;
    benchmark::RegisterBenchmark((std::string("simd_tools/") + t.name).c_str(), run, t.k)
        ->Unit(benchmark::kMicrosecond);
  }
  std::printf(
      "butterfly-bench-simd-tools: %d of %zu tools equal the plain arrays bit for bit (%s)\n",
      equal, std::size(tools), hwy::TargetName(HWY_STATIC_TARGET));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
#endif  // __AVX2__
