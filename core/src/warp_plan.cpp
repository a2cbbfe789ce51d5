#include "butterfly/detail/warp_plan.hpp"

#include <algorithm>
#include <mutex>
#include <numeric>

namespace butterfly::detail {

std::vector<std::int64_t> make_packing_plan(span<const std::int64_t> doc_offsets) {
  const std::int64_t M = static_cast<std::int64_t>(doc_offsets.size()) - 1;
  std::vector<std::int64_t> plan(M > 0 ? M : 0);
  std::iota(plan.begin(), plan.end(), std::int64_t{0});
  const auto length = [&](std::int64_t m) { return doc_offsets[m + 1] - doc_offsets[m]; };
  std::stable_sort(plan.begin(), plan.end(),
                   [&](std::int64_t a, std::int64_t b) { return length(a) > length(b); });
  return plan;
}

namespace {

struct cached_plan {
  std::vector<std::int64_t> offsets;
  std::shared_ptr<const std::vector<std::int64_t>> plan;
};

constexpr std::size_t cache_entries = 4;

}  // namespace

std::shared_ptr<const std::vector<std::int64_t>> packing_plan(
    span<const std::int64_t> doc_offsets) {
  static std::mutex mutex;
  static std::vector<cached_plan> cache;  // most recently used first
  std::lock_guard<std::mutex> lock(mutex);
  for (std::size_t i = 0; i < cache.size(); ++i)
    if (std::equal(doc_offsets.begin(), doc_offsets.end(), cache[i].offsets.begin(),
                   cache[i].offsets.end())) {
      std::rotate(cache.begin(), cache.begin() + static_cast<std::ptrdiff_t>(i),
                  cache.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      return cache.front().plan;
    }
  cached_plan entry{std::vector<std::int64_t>(doc_offsets.begin(), doc_offsets.end()),
                    std::make_shared<const std::vector<std::int64_t>>(
                        make_packing_plan(doc_offsets))};
  cache.insert(cache.begin(), std::move(entry));
  if (cache.size() > cache_entries) cache.pop_back();
  return cache.front().plan;
}

double lane_utilization(span<const std::int64_t> doc_offsets, const std::int64_t* order, int W) {
  const std::int64_t M = static_cast<std::int64_t>(doc_offsets.size()) - 1;
  if (M <= 0) return 1.0;
  double steps = 0;
  for (std::int64_t q = 0; q * W < M; ++q) {
    std::int64_t longest = 0;
    for (std::int64_t s = q * W; s < std::min(M, (q + 1) * W); ++s) {
      const std::int64_t m = order ? order[s] : s;
      longest = std::max(longest, doc_offsets[m + 1] - doc_offsets[m]);
    }
    steps += static_cast<double>(longest) * W;
  }
  const double tokens = static_cast<double>(doc_offsets[M] - doc_offsets[0]);
  return steps > 0 ? tokens / steps : 1.0;
}

}  // namespace butterfly::detail
