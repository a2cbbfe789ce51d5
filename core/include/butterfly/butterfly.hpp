// butterfly: draw one index from each of many unnormalized discrete distributions at once,
// with the butterfly-patterned partial sums of Steele & Tristan (Oracle Labs, 2015).
//
// This header is backend-neutral: the functions run on the backend chosen when the library
// was configured (cmake -DBACKEND=...), like Thrust's device system. butterfly::reference
// is the serial backend, always built, which every other backend must match bit for bit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "butterfly/span.hpp"

namespace butterfly {

// How the per-lane tables are built and searched (see README.md and the paper).
enum class algorithm {
  basic,       // Algorithms 1+3: full prefix sums per lane, binary search
  transposed,  // Algorithms 4+5: transposed (contiguous) loads, full prefix table
  butterfly,   // Algorithms 6+7+8: butterfly-patterned table and search
  warp_scan,   // not in the paper: the lanes share one token (lanes = topics), shuffle_up
               // scan, ballot search, as CUB WarpScan-based GPU samplers do
};

inline constexpr algorithm all_algorithms[] = {algorithm::basic, algorithm::transposed,
                                               algorithm::butterfly, algorithm::warp_scan};

std::string_view name(algorithm a);
// Throws std::invalid_argument naming the valid choices.
algorithm parse_algorithm(std::string_view text);

struct draw_options {
  algorithm method = algorithm::butterfly;
  // The uniform for token (or row) t is a pure function of (seed, iteration, first_token + t).
  std::uint64_t seed = 0;
  std::uint32_t iteration = 0;
  // Global number of the first token (or row) passed: a caller that draws a slice of a
  // larger corpus (one MPI rank's documents) gets the uniforms the whole corpus would get.
  // first_token + N - 1 (draw_rows: first_token + R - 1) must fit in 64 bits, else
  // std::invalid_argument.
  std::uint64_t first_token = 0;
  // draw_topics: global number of the first document passed (>= 0; first_document + M - 1
  // must fit in int64, else std::invalid_argument). The butterfly's rounding depends on the
  // lane a document runs on, which is (first_document + m) mod width for document m of the
  // call, so slices drawn with their first_document and first_token get exactly the z of
  // one call over the whole corpus, however it is cut. draw_rows ignores it: row r of the
  // call is global row first_token + r (each row is one token) and runs on lane
  // (first_token + r) mod width.
  std::int64_t first_document = 0;
  // Lanes per subgroup; 0 picks the backend's default_width(). The butterfly's sums depend
  // on it, so compare backends at equal width.
  int width = 0;
  // Reject NaN, infinite and negative weights with std::invalid_argument naming the first
  // one (one extra pass over theta and phi, or over weights). On by default, as torch and
  // numpy check their inputs; a caller whose weights are finite and non-negative by
  // construction (the LDA trainer) may turn it off. What each input draws, per token (or
  // row) and the same on every backend and width:
  //   all weights zero (or -0)                         -1 (validate on or off)
  //   finite, non-negative weights whose float sum or products overflow (+inf), or whose
  //   products underflow to 0 or to a subnormal total  drawn correctly: the token is
  //                                                    redrawn with its products and sums in
  //                                                    double (-1 only if every exact product
  //                                                    is 0)
  //   NaN, +inf or -inf weight among the token's       validate on: std::invalid_argument;
  //   theta row and phi row (even times 0)             off: -1
  //   negative finite weight                           validate on: std::invalid_argument;
  //                                                    off: an unspecified index in [-1, K)
  //                                                    (deterministic, may differ between
  //                                                    algorithms and widths)
  // Never undefined behaviour, never a write outside z / out.
  bool validate = true;
  // draw_topics: put documents of similar length into the same warp, so that lanes do not
  // idle while one long document finishes. Never changes z (each token's u depends only on
  // its index); the plan is computed once per distinct doc_offsets and cached.
  bool pack_warps = true;
};

// Product form (LDA): for every token t of document m, with word w = words[t], draw z[t] = k
// with probability proportional to theta[m,k] * phi[w,k].
//   theta        M x K, row-major          phi    V x K, row-major (V = phi.size() / K)
//   doc_offsets  M + 1 entries, CSR: document m owns tokens [doc_offsets[m], doc_offsets[m+1])
//   words        N = doc_offsets[M] word ids in [0, V)          z   N outputs
// A token whose K products are all zero gets z = -1 (other special weights: see
// draw_options::validate). Empty documents are allowed.
void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options = {});

// Row form (what torch.multinomial(weights, 1) does): out[r] = k with probability
// proportional to weights[r,k]. weights is R x K row-major; out has R entries. A row of
// all zeros gets -1 (other special weights: see draw_options::validate).
void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options = {});

// What this build runs on.
std::string_view backend_name();
// Empty when the configured backend can run on this machine; otherwise why not (e.g. "no
// CUDA device: cudaGetDeviceCount returned 0"). Device tests skip with this reason.
std::string backend_unavailable_reason();
// The width a draw with options.width = 0 runs: a fixed number on the host backends (8; the
// butterfly's z depends on W, so it never follows the machine's register width), the warp
// size on a GPU.
int default_width();
std::vector<int> supported_widths();
// default_width()'s name in 0.1, kept until 1.0 so that programs written against 0.1 build.
[[deprecated("renamed butterfly::default_width()")]] inline int native_width() {
  return default_width();
}

namespace reference {
// The serial backend, whatever BACKEND was configured: the reference the others match.
void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options = {});
void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options = {});
int default_width();
std::vector<int> supported_widths();
[[deprecated("renamed butterfly::reference::default_width()")]] inline int native_width() {
  return default_width();
}
}  // namespace reference

}  // namespace butterfly
