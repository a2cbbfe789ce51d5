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
  std::uint64_t first_token = 0;
  // Lanes per subgroup; 0 picks the backend's native width. The butterfly's sums depend
  // on it, so compare backends at equal width.
  int width = 0;
  // Also reject NaN, infinite and negative weights (one extra pass over the inputs).
  bool validate = false;
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
// A token whose K products are all zero gets z = -1. Empty documents are allowed.
void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options = {});

// Row form (what torch.multinomial(weights, 1) does): out[r] = k with probability
// proportional to weights[r,k]. weights is R x K row-major; out has R entries. A row of
// all zeros gets -1.
void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options = {});

// What this build runs on.
std::string_view backend_name();
// Empty when the configured backend can run on this machine; otherwise why not (e.g. "no
// CUDA device: cudaGetDeviceCount returned 0"). Device tests skip with this reason.
std::string backend_unavailable_reason();
int native_width();
std::vector<int> supported_widths();

namespace reference {
// The serial backend, whatever BACKEND was configured: the reference the others match.
void draw_topics(span<const float> theta, span<const float> phi, int num_topics,
                 span<const std::int64_t> doc_offsets, span<const std::int32_t> words,
                 span<std::int32_t> z, const draw_options& options = {});
void draw_rows(span<const float> weights, int num_topics, span<std::int32_t> out,
               const draw_options& options = {});
int native_width();
std::vector<int> supported_widths();
}  // namespace reference

}  // namespace butterfly
