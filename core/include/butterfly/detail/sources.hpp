// Where the unnormalized weights come from. The algorithms see weights only through these.
//
// product_form: LDA's weight of topic k for token t of document m, theta[m,k] * phi[w[t],k].
// row_form:     row r of an R x K matrix, drawn once. It is the product form with theta == 1,
//               phi = the weight matrix and each row a one-token document whose "word" is the
//               row itself, so the transposed loads of Algorithm 7 apply to it unchanged.
//
// Padding lanes (m >= M) and finished lanes read a real row (the last one) instead of being
// masked: they must stay awake for the shuffles, their results are never written, and a
// lane's draw depends only on its own weights.
#pragma once

#include <cstdint>

#include "butterfly/detail/subgroup.hpp"

namespace butterfly::detail {

// Warp slot s (lane s mod W of warp s / W) walks tokens first .. first + count - 1 of
// document m.
template <class SG>
struct lane_slot {
  varying<SG, std::int64_t> m, first, count;
};

// Warp packing (detail/warp_plan.hpp): slot s holds doc[s], first[s], count[s]. With
// doc == nullptr slot m is all of document m.
struct packed_slots {
  const std::int64_t* doc;
  const std::int64_t* first;
  const std::int64_t* count;
  std::int64_t slots;
};

template <class SG>
struct token {
  varying<SG, std::int64_t> m;  // the lane's document / row (clamped to a real one)
  varying<SG, std::int32_t> c;  // the paper's c = w[m][i]; for rows, the row itself
};

// theta_row[j + r] * phi_row[j + r] on lane r, 0 for j + r >= K. Full chunks (all but the
// last when W does not divide K) use plain contiguous loads.
template <class SG>
BUTTERFLY_FN varying<SG, float> chunk_product(const SG& sg, const float* theta_row,
                                              const float* phi_row, int j, int K) {
  if (j + SG::width <= K) return sg.load(theta_row + j) * sg.load(phi_row + j);
  const varying<SG, int> k = j + sg.lane();
  const auto in = k < K;
  return sg.gather(theta_row, k, in, 0.0f) * sg.gather(phi_row, k, in, 0.0f);
}

struct product_form {
  const float* theta;            // M x K, row-major
  const float* phi;              // V x K, row-major
  const std::int64_t* offsets;   // M + 1
  const std::int32_t* words;     // N
  std::int64_t M;
  std::int64_t N;
  int K;
  packed_slots packed{nullptr, nullptr, nullptr, 0};  // no packing unless a backend passes a plan
  std::int64_t V = 0;  // rows of phi (the kernels never need it; a backend that copies phi does)

  static constexpr bool caches_theta = true;

  // Warp slots: documents, or with packing the plan's segments.
  BUTTERFLY_FN std::int64_t items() const { return packed.doc ? packed.slots : M; }
  BUTTERFLY_FN std::int64_t tokens() const { return N; }

  template <class SG>
  BUTTERFLY_FN lane_slot<SG> slot(const SG& sg, const varying<SG, std::int64_t>& s) const {
    if (packed.doc)
      return {sg.gather(packed.doc, s), sg.gather(packed.first, s), sg.gather(packed.count, s)};
    const varying<SG, std::int64_t> first = sg.gather(offsets, s);
    return {s, first, sg.gather(offsets, s + 1) - first};
  }
  template <class SG>
  BUTTERFLY_FN varying<SG, std::int32_t> word(const SG& sg,
                                               const varying<SG, std::int64_t>& t) const {
    return sg.gather(words, t);
  }
  BUTTERFLY_FN std::int32_t word_at(std::int64_t t) const { return words[t]; }

  // Algorithm 5: the remnant is cached as is, each W x W block transposed, so that every
  // load reads W consecutive floats of one theta row. m holds each lane's (real) document;
  // lane k's row is broadcast rather than computed from the warp index, so that a packed
  // warp (documents not consecutive) caches the right rows.
  template <class SG>
  BUTTERFLY_FN void cache_theta(const SG& sg, const varying<SG, std::int64_t>& m,
                                const lane_local<SG>& theta_local) const {
    constexpr int W = SG::width;
    int j = 0;
    for (; j < K % W; ++j) theta_local.set(sg, j, sg.gather(theta, m * K + j));
    std::int64_t row[W];
    BUTTERFLY_UNROLL
    for (int k = 0; k < W; ++k) row[k] = sg.shuffle(m, k);
    for (; j < K; j += W) {
      BUTTERFLY_UNROLL
      for (int k = 0; k < W; ++k) theta_local.set(sg, j + k, sg.load(theta + row[k] * K + j));
    }
  }

  // Weight of the lane's own token at topic k, straight from memory (Algorithm 1).
  template <class SG, class Index, class Mask>
  BUTTERFLY_FN varying<SG, float> direct(const SG& sg, const token<SG>& tok, const Index& k,
                                         const Mask& live) const {
    return sg.gather(theta, tok.m * K + k, live, 0.0f) *
           sg.gather(phi, varying<SG, std::int64_t>(tok.c) * K + k, live, 0.0f);
  }
  // Weight of the lane's own token at remnant topic k < K mod W, where theta_local is
  // not transposed.
  template <class SG>
  BUTTERFLY_FN varying<SG, float> remnant(const SG& sg, const lane_local<SG>& theta_local,
                                          const token<SG>& tok, int k) const {
    return theta_local.get(sg, k) * sg.gather(phi, varying<SG, std::int64_t>(tok.c) * K + k);
  }
  // a[k] of Algorithm 7: on lane r, the weight of lane k's token at topic j + r. c_k is lane
  // k's word (c_warp[k]), so the phi load is contiguous across lanes.
  template <class SG>
  BUTTERFLY_FN varying<SG, float> transposed(const SG& sg, const lane_local<SG>& theta_local,
                                             std::int32_t c_k, int j, int k) const {
    return theta_local.get(sg, j + k) * sg.load(phi + static_cast<std::int64_t>(c_k) * K + j);
  }
  // warp_scan: on lane r, the weight of ONE token (document m, word c) at topic j + r; both
  // loads contiguous. Lanes past K read nothing and get weight 0.
  template <class SG>
  BUTTERFLY_FN varying<SG, float> topic_chunk(const SG& sg, std::int64_t m, std::int32_t c,
                                              int j) const {
    return chunk_product(sg, theta + m * K, phi + static_cast<std::int64_t>(c) * K, j, K);
  }
};


struct row_form {
  const float* weights;  // R x K, row-major
  std::int64_t R;
  int K;

  // A row is drawn once, so caching it would only add traffic.
  static constexpr bool caches_theta = false;

  BUTTERFLY_FN std::int64_t items() const { return R; }
  BUTTERFLY_FN std::int64_t tokens() const { return R; }

  template <class SG>
  BUTTERFLY_FN lane_slot<SG> slot(const SG&, const varying<SG, std::int64_t>& s) const {
    return {s, s, varying<SG, std::int64_t>(1)};
  }
  template <class SG>
  BUTTERFLY_FN varying<SG, std::int32_t> word(const SG&, const varying<SG, std::int64_t>& t) const {
    return varying<SG, std::int32_t>(t);
  }
  BUTTERFLY_FN std::int32_t word_at(std::int64_t t) const { return static_cast<std::int32_t>(t); }
  template <class SG>
  BUTTERFLY_FN void cache_theta(const SG&, const varying<SG, std::int64_t>&,
                                const lane_local<SG>&) const {}

  template <class SG, class Index, class Mask>
  BUTTERFLY_FN varying<SG, float> direct(const SG& sg, const token<SG>& tok, const Index& k,
                                         const Mask& live) const {
    return sg.gather(weights, tok.m * K + k, live, 0.0f);
  }
  template <class SG>
  BUTTERFLY_FN varying<SG, float> remnant(const SG& sg, const lane_local<SG>&,
                                          const token<SG>& tok, int k) const {
    return sg.gather(weights, tok.m * K + k);
  }
  template <class SG>
  BUTTERFLY_FN varying<SG, float> transposed(const SG& sg, const lane_local<SG>&,
                                             std::int32_t c_k, int j, int) const {
    return sg.load(weights + static_cast<std::int64_t>(c_k) * K + j);
  }
  // A row is its own "word": weights row c, times nothing.
  template <class SG>
  BUTTERFLY_FN varying<SG, float> topic_chunk(const SG& sg, std::int64_t, std::int32_t c,
                                              int j) const {
    const float* row = weights + static_cast<std::int64_t>(c) * K;
    if (j + SG::width <= K) return sg.load(row + j);
    const varying<SG, int> k = j + sg.lane();
    return sg.gather(row, k, k < K, 0.0f);
  }
};

}  // namespace butterfly::detail
