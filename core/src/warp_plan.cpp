#include "butterfly/detail/warp_plan.hpp"

#include <algorithm>
#include <mutex>

#include "butterfly/detail/sources.hpp"

namespace butterfly::detail {

warp_plan make_warp_plan(span<const std::int64_t> doc_offsets, int W, bool keep_lanes,
                         std::int64_t max_segment, std::int64_t first_document) {
  struct segment {
    std::int64_t doc, first, count;
  };
  // With keep_lanes, class c holds the segments of documents m with (first_document + m)
  // mod W = c and lane c of every warp draws from it; otherwise one class feeds all W lanes.
  const int classes = keep_lanes ? W : 1;
  const std::int64_t shift =
      keep_lanes ? lane_of(static_cast<std::uint64_t>(first_document), W) : 0;
  std::vector<std::vector<segment>> lane_class(static_cast<std::size_t>(classes));
  const std::int64_t M = static_cast<std::int64_t>(doc_offsets.size()) - 1;
  for (std::int64_t m = 0; m < M; ++m) {
    const std::int64_t begin = doc_offsets[m], length = doc_offsets[m + 1] - begin;
    const std::int64_t pieces = (length + max_segment - 1) / max_segment;
    for (std::int64_t i = 0; i < pieces; ++i)
      lane_class[static_cast<std::size_t>((shift + m) % classes)].push_back(
          {m, begin + length * i / pieces, length * (i + 1) / pieces - length * i / pieces});
  }
  const std::size_t lanes_per_class = static_cast<std::size_t>(W / classes);
  std::size_t warps = 0;
  for (auto& c : lane_class) {
    std::stable_sort(c.begin(), c.end(),
                     [](const segment& a, const segment& b) { return a.count > b.count; });
    warps = std::max(warps, (c.size() + lanes_per_class - 1) / lanes_per_class);
  }
  warp_plan plan;
  const std::size_t slots = warps * static_cast<std::size_t>(W);
  plan.doc.assign(slots, 0);  // an idle slot reads document 0 and draws nothing
  plan.first.assign(slots, 0);
  plan.count.assign(slots, 0);
  for (std::size_t s = 0; s < slots; ++s) {
    // Slot s is lane l of warp q; it takes rank q * lanes_per_class + l / classes of class
    // l mod classes.
    const std::size_t q = s / static_cast<std::size_t>(W), l = s % static_cast<std::size_t>(W);
    const auto& c = lane_class[l % static_cast<std::size_t>(classes)];
    const std::size_t rank = q * lanes_per_class + l / static_cast<std::size_t>(classes);
    if (rank >= c.size()) continue;
    plan.doc[s] = c[rank].doc;
    plan.first[s] = c[rank].first;
    plan.count[s] = c[rank].count;
  }
  return plan;
}

namespace {

// The plan depends on first_document only through the lane of document 0, and only with
// keep_lanes: the key holds that lane (0 without keep_lanes).
struct cached_plan {
  std::vector<std::int64_t> offsets;
  int W;
  bool keep_lanes;
  int first_lane;
  std::shared_ptr<const warp_plan> plan;
};

constexpr std::size_t cache_entries = 4;

}  // namespace

std::shared_ptr<const warp_plan> cached_warp_plan(span<const std::int64_t> doc_offsets, int W,
                                                  bool keep_lanes, std::int64_t first_document) {
  const int first_lane = keep_lanes ? lane_of(static_cast<std::uint64_t>(first_document), W) : 0;
  static std::mutex mutex;
  static std::vector<cached_plan> cache;  // most recently used first
  std::lock_guard<std::mutex> lock(mutex);
  for (std::size_t i = 0; i < cache.size(); ++i)
    if (cache[i].W == W && cache[i].keep_lanes == keep_lanes && cache[i].first_lane == first_lane &&
        std::equal(doc_offsets.begin(), doc_offsets.end(), cache[i].offsets.begin(),
                   cache[i].offsets.end())) {
      std::rotate(cache.begin(), cache.begin() + static_cast<std::ptrdiff_t>(i),
                  cache.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      return cache.front().plan;
    }
  cached_plan entry{std::vector<std::int64_t>(doc_offsets.begin(), doc_offsets.end()), W,
                    keep_lanes, first_lane,
                    std::make_shared<const warp_plan>(make_warp_plan(
                        doc_offsets, W, keep_lanes, default_max_segment, first_lane))};
  cache.insert(cache.begin(), std::move(entry));
  if (cache.size() > cache_entries) cache.pop_back();
  return cache.front().plan;
}

namespace {

template <class Count>
double utilization(std::int64_t slots, int W, Count count) {
  double tokens = 0, steps = 0;
  for (std::int64_t q = 0; q * W < slots; ++q) {
    std::int64_t longest = 0;
    for (std::int64_t s = q * W; s < std::min(slots, (q + 1) * W); ++s) {
      longest = std::max(longest, count(s));
      tokens += static_cast<double>(count(s));
    }
    steps += static_cast<double>(longest) * W;
  }
  return steps > 0 ? tokens / steps : 1.0;
}

}  // namespace

double lane_utilization(span<const std::int64_t> doc_offsets, int W) {
  const std::int64_t M = static_cast<std::int64_t>(doc_offsets.size()) - 1;
  return utilization(M, W, [&](std::int64_t m) { return doc_offsets[m + 1] - doc_offsets[m]; });
}

double lane_utilization(const warp_plan& plan, int W) {
  return utilization(static_cast<std::int64_t>(plan.count.size()), W,
                     [&](std::int64_t s) { return plan.count[s]; });
}

bool lane_dependent(algorithm a) { return a == algorithm::butterfly; }

}  // namespace butterfly::detail
