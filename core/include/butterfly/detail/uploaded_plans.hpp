// The warp plans a device backend has copied to its memory, keyed by the host plan object.
// cached_warp_plan (warp_plan.hpp) hands out the same object for the same doc_offsets and
// width, so an LDA loop uploads its plan once; holding the host plan keeps its address from
// being reused by another plan while the copy is cached.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "butterfly/detail/warp_plan.hpp"

namespace butterfly::detail {

// Copy: the backend's device copy of one plan, built by upload(const warp_plan&). The caller
// holds the returned pointer until its kernels are done, since another thread's call may
// evict the entry meanwhile. Safe to call from several threads.
template <class Copy>
class uploaded_plans {
 public:
  template <class Upload>
  std::shared_ptr<const Copy> get(const std::shared_ptr<const warp_plan>& plan, Upload&& upload) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const entry& e) { return e.plan == plan; });
    if (it == entries_.end()) {
      entries_.insert(entries_.begin(), entry{plan, std::make_shared<const Copy>(upload(*plan))});
      if (entries_.size() > capacity) entries_.pop_back();
    } else {
      std::rotate(entries_.begin(), it, it + 1);  // most recently used first
    }
    return entries_.front().copy;
  }

 private:
  static constexpr std::size_t capacity = 4;  // as the host cache
  struct entry {
    std::shared_ptr<const warp_plan> plan;
    std::shared_ptr<const Copy> copy;
  };
  std::mutex mutex_;
  std::vector<entry> entries_;
};

}  // namespace butterfly::detail
