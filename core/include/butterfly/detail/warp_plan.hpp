// Warp packing: which document each warp slot holds. The master-index loop keeps a warp busy
// until its longest document is done, so a warp of one long and W-1 short documents wastes
// most lane-steps; putting documents of similar length side by side removes that waste.
// Each token's u depends only on its index and each lane's draw only on its own weights, so
// the packing changes the speed, never z.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "butterfly/span.hpp"

namespace butterfly::detail {

// Document ids by decreasing length, ties by id (a stable sort): warp slot s holds document
// plan[s]. Longest first so that, when warps run concurrently, the long ones start early.
std::vector<std::int64_t> make_packing_plan(span<const std::int64_t> doc_offsets);

// The same, cached: an LDA loop calls draw_topics with the same doc_offsets every
// iteration, and comparing M + 1 offsets costs far less than sorting M documents. A few
// recent plans are kept (e.g. training and held-out corpora alternating); safe to call
// from several threads.
std::shared_ptr<const std::vector<std::int64_t>> packing_plan(
    span<const std::int64_t> doc_offsets);

// Useful lane-steps / total lane-steps of the master-index loop at width W: the tokens,
// over W times the sum of every warp's longest document. order == nullptr: no packing.
double lane_utilization(span<const std::int64_t> doc_offsets, const std::int64_t* order, int W);

}  // namespace butterfly::detail
