// Warp packing: which tokens each warp slot (lane r of warp q is slot qW + r) walks. The
// master-index loop keeps a warp busy until its longest lane is done, so a warp holding one
// long and W-1 short documents wastes most lane-steps. The plan cuts documents longer than
// max_segment tokens into near-equal segments (a segment is drawn with its document's theta
// row, exactly as the whole document would be), drops empty documents, and sorts the
// segments by length so that each warp's lanes finish together. Each token's u depends only
// on its index, so a plan changes the speed, never z -- provided, for the butterfly, that
// every document stays on the lane it has without a plan, (first_document + m) mod W with
// m its index in the call: its search (Algorithm 9) rebuilds a midpoint as highValue - y
// or lowValue + y according to the lane's bits, so in a rare rounding case the same
// weights and u draw another topic on another lane (found on AP: one token in 5.2 million
// draws of the default run). With keep_lanes the plan sorts segments within each lane
// class (first_document + m) mod W and warp q takes the q-th longest of every class; that
// keeps the butterfly's z equal across packing, backends and any cut of the corpus into
// calls (MPI shards), at some cost in lane utilization.
// The other algorithms add in an order that does not depend on the lane and get one class
// for all lanes.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/span.hpp"

namespace butterfly::detail {

struct warp_plan {
  // Per slot: the document, its first token and its token count.
  std::vector<std::int64_t> doc, first, count;
};

// 256 tokens: long documents are cut so that the lane classes come out about even (lane
// utilization in bench/RESULTS.md); each extra slot costs one theta_local fill (K floats
// per lane) for the algorithms that cache theta.
inline constexpr std::int64_t default_max_segment = 256;

// Segments by decreasing length within each class (ties in document, then token order;
// idle slots have count 0), so long segments start early when warps run concurrently.
// first_document (>= 0) is the global number of document 0; only keep_lanes uses it.
warp_plan make_warp_plan(span<const std::int64_t> doc_offsets, int W, bool keep_lanes,
                         std::int64_t max_segment = default_max_segment,
                         std::int64_t first_document = 0);

// The same, cached: an LDA loop calls draw_topics with the same doc_offsets every
// iteration, and comparing M + 1 offsets costs far less than building the plan. A few
// recent plans are kept (e.g. training and held-out corpora alternating); safe to call
// from several threads.
std::shared_ptr<const warp_plan> cached_warp_plan(span<const std::int64_t> doc_offsets, int W,
                                                  bool keep_lanes, std::int64_t first_document = 0);
// Whether algorithm a needs keep_lanes (its rounding depends on the lane).
bool lane_dependent(algorithm a);

// Useful lane-steps / all lane-steps of the master-index loop at width W: the tokens over W
// times the sum of every warp's longest slot. Without a plan, slot m is document m.
double lane_utilization(span<const std::int64_t> doc_offsets, int W);
double lane_utilization(const warp_plan& plan, int W);

}  // namespace butterfly::detail
