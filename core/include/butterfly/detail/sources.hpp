// Where the unnormalized weights come from, in two layers.
//
// Weights (what the algorithms read, draw_*.hpp and remnant.hpp; also what the public
// warp_draw takes): rows of K floats, from which the algorithms do the paper's loads.
// product_weights: LDA's weight of topic k for a token of document m with word c is
//                  theta[m,k] * phi[c,k]: theta_rows() row m times phi_rows() row c.
// row_weights:     row r of an R x K matrix. It is the product form with no theta
//                  (has_theta is false), phi = the weight matrix and the row itself as
//                  the "word" c, so the transposed loads of Algorithm 7 apply unchanged.
//
// Forms (what draw_warp.hpp walks): which warp slot draws which tokens, and each token's
// word. product_form is a CSR corpus over product weights; row_form draws every row once.
//
// Lanes: the butterfly rounds differently on different lanes, so a document's lane must
// not depend on where a caller cut the corpus. Document (or row) g of the whole corpus runs
// on lane g mod W: the source's slot s is the call's document s - lane_shift, with
// lane_shift = first_document mod W (first_token mod W for rows), and the first lane_shift
// slots are idle. With warp packing the plan puts each document on its lane instead.
//
// Padding lanes (past the last slot, or idle) and finished lanes read a real row (the last
// slot's, or document 0's) instead of being masked: they must stay awake for the shuffles,
// their results are never written, and a lane's draw depends only on its own weights.
#pragma once

#include <cstdint>

#include "butterfly/detail/subgroup.hpp"

namespace butterfly::detail {

// The lane that global document (or row) number g runs on: g mod W.
BUTTERFLY_FN int lane_of(std::uint64_t g, int W) {
  return static_cast<int>(g % static_cast<std::uint64_t>(W));
}

// Warp slot s (lane s mod W of warp s / W) walks tokens first .. first + count - 1 of
// document m.
template <class SG>
struct lane_slot {
  varying<SG, std::int64_t> m, first, count;
};

// Warp packing (detail/warp_plan.hpp): slot s holds doc[s], first[s], count[s]. With
// doc == nullptr slot s is all of document s - lane_shift.
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

// A row-major matrix of K columns, as a source offers it. row(i) starts row i, for loads
// in which the whole subgroup reads one row (contiguous: the transposed accesses); at()
// reads column k of row i on each lane, every lane from its own row (Algorithm 1's loads).
struct weight_rows {
  const float* data;
  int K;

  BUTTERFLY_FN const float* row(std::int64_t i) const { return data + i * K; }

  template <class SG, class Row, class Col>
  BUTTERFLY_FN varying<SG, float> at(const SG& sg, const Row& i, const Col& k) const {
    return sg.gather(data, varying<SG, std::int64_t>(i) * K + k);
  }
  // Lanes outside `live` read nothing and get 0.
  template <class SG, class Row, class Col>
  BUTTERFLY_FN varying<SG, float> at(const SG& sg, const Row& i, const Col& k,
                                     const typename SG::mask& live) const {
    return sg.gather(data, varying<SG, std::int64_t>(i) * K + k, live, 0.0f);
  }
};

struct product_weights {
  const float* theta;  // rows of K: theta row m
  const float* phi;    // rows of K: phi row c
  int K;

  static constexpr bool has_theta = true;

  BUTTERFLY_FN weight_rows theta_rows() const { return {theta, K}; }
  BUTTERFLY_FN weight_rows phi_rows() const { return {phi, K}; }
};

struct row_weights {
  const float* weights;  // rows of K
  int K;

  // No theta: nothing to cache (a row is drawn once) and nothing to multiply by.
  static constexpr bool has_theta = false;

  BUTTERFLY_FN weight_rows phi_rows() const { return {weights, K}; }
};

struct product_form {
  const float* theta;           // M x K, row-major
  const float* phi;             // V x K, row-major
  const std::int64_t* offsets;  // M + 1
  const std::int32_t* words;    // N
  std::int64_t M;
  std::int64_t N;
  int K;
  packed_slots packed{nullptr, nullptr, nullptr, 0};  // no packing unless a backend passes a plan
  int lane_shift = 0;  // first_document mod W; used without packing (the plan has it built in)
  std::int64_t V = 0;  // rows of phi (the kernels never need it; a backend that copies phi does)

  // Warp slots: lane_shift idle ones, then the documents; or with packing the plan's.
  BUTTERFLY_FN std::int64_t items() const { return packed.doc ? packed.slots : lane_shift + M; }
  BUTTERFLY_FN std::int64_t tokens() const { return N; }

  // s < items(). An idle slot reads document 0 and has no tokens.
  template <class SG>
  BUTTERFLY_FN lane_slot<SG> slot(const SG& sg, const varying<SG, std::int64_t>& s) const {
    if (packed.doc)
      return {sg.gather(packed.doc, s), sg.gather(packed.first, s), sg.gather(packed.count, s)};
    const varying<SG, std::int64_t> m = s - lane_shift;
    const auto idle = m < 0;
    const varying<SG, std::int64_t> m_addr = sg.select(idle, std::int64_t{0}, m);
    const varying<SG, std::int64_t> first = sg.gather(offsets, m_addr);
    return {m_addr, first,
            sg.select(idle, std::int64_t{0}, sg.gather(offsets, m_addr + 1) - first)};
  }
  template <class SG>
  BUTTERFLY_FN varying<SG, std::int32_t> word(const SG& sg,
                                              const varying<SG, std::int64_t>& t) const {
    return sg.gather(words, t);
  }
  BUTTERFLY_FN std::int32_t word_at(std::int64_t t) const { return words[t]; }
};

struct row_form {
  const float* weights;  // R x K, row-major
  std::int64_t R;
  int K;
  int lane_shift = 0;  // first_token mod W: row r of the call runs on lane (first_token + r) mod W

  BUTTERFLY_FN std::int64_t items() const { return lane_shift + R; }
  BUTTERFLY_FN std::int64_t tokens() const { return R; }

  // Slot s is row s - lane_shift, one token; an idle slot reads row 0 and has none.
  template <class SG>
  BUTTERFLY_FN lane_slot<SG> slot(const SG& sg, const varying<SG, std::int64_t>& s) const {
    const varying<SG, std::int64_t> r = s - lane_shift;
    const auto idle = r < 0;
    const varying<SG, std::int64_t> r_addr = sg.select(idle, std::int64_t{0}, r);
    return {r_addr, r_addr, sg.select(idle, std::int64_t{0}, std::int64_t{1})};
  }
  template <class SG>
  BUTTERFLY_FN varying<SG, std::int32_t> word(const SG&, const varying<SG, std::int64_t>& t) const {
    return varying<SG, std::int32_t>(t);
  }
  BUTTERFLY_FN std::int32_t word_at(std::int64_t t) const { return static_cast<std::int32_t>(t); }
};

}  // namespace butterfly::detail
