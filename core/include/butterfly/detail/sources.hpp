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

template <class SG>
struct token {
  varying<SG, std::int64_t> m;  // the lane's document / row (clamped to a real one)
  varying<SG, std::int32_t> c;  // the paper's c = w[m][i]; for rows, the row itself
};

struct product_form {
  const float* theta;            // M x K, row-major
  const float* phi;              // V x K, row-major
  const std::int64_t* offsets;   // M + 1
  const std::int32_t* words;     // N
  std::int64_t M;
  std::int64_t N;
  int K;

  static constexpr bool caches_theta = true;

  BUTTERFLY_FN std::int64_t items() const { return M; }
  BUTTERFLY_FN std::int64_t tokens() const { return N; }

  template <class SG>
  BUTTERFLY_FN varying<SG, std::int64_t> first_token(const SG& sg,
                                                      const varying<SG, std::int64_t>& m) const {
    return sg.gather(offsets, m);
  }
  template <class SG>
  BUTTERFLY_FN varying<SG, std::int64_t> token_count(const SG& sg,
                                                      const varying<SG, std::int64_t>& m) const {
    return sg.gather(offsets, m + 1) - sg.gather(offsets, m);
  }
  template <class SG>
  BUTTERFLY_FN varying<SG, std::int32_t> word(const SG& sg,
                                               const varying<SG, std::int64_t>& t) const {
    return sg.gather(words, t);
  }

  // Algorithm 5: the remnant is cached as is, each W x W block transposed, so that every
  // load reads W consecutive floats of one theta row.
  template <class SG>
  BUTTERFLY_FN void cache_theta(const SG& sg, std::int64_t q, const varying<SG, std::int64_t>& m,
                                const lane_local<SG>& theta_local) const {
    constexpr int W = SG::width;
    int j = 0;
    for (; j < K % W; ++j) theta_local.set(sg, j, sg.gather(theta, m * K + j));
    for (; j < K; j += W) {
      BUTTERFLY_UNROLL
      for (int k = 0; k < W; ++k) {
        const std::int64_t row = q * W + k < M ? q * W + k : M - 1;
        theta_local.set(sg, j + k, sg.load(theta + row * K + j));
      }
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
  BUTTERFLY_FN varying<SG, std::int64_t> first_token(const SG&,
                                                      const varying<SG, std::int64_t>& m) const {
    return m;
  }
  template <class SG>
  BUTTERFLY_FN varying<SG, std::int64_t> token_count(const SG&,
                                                      const varying<SG, std::int64_t>&) const {
    return varying<SG, std::int64_t>(1);
  }
  template <class SG>
  BUTTERFLY_FN varying<SG, std::int32_t> word(const SG&, const varying<SG, std::int64_t>& t) const {
    return varying<SG, std::int32_t>(t);
  }
  template <class SG>
  BUTTERFLY_FN void cache_theta(const SG&, std::int64_t, const varying<SG, std::int64_t>&,
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
};

}  // namespace butterfly::detail
