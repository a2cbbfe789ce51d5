// How the LDA steps (steps.hpp) run on an executor: as host loops over its threads
// (run_on_host, lda/src/run_steps.cpp) where its kernels read host memory, and as the device
// backend's kernels (run_on_device, lda/src/device) where they read device memory. A
// step_run hands both forms to the executor (detail::executor::run), which picks one.
#pragma once

#include <cstdint>
#include <type_traits>

#include "butterfly/detail/executor.hpp"
#include "butterfly/lda/steps.hpp"

namespace butterfly::lda::steps {

// A step whose element is written for a subgroup, operator()(sg, i): it says so with
// `static constexpr bool per_subgroup = true`.
template <class Step, class = void>
struct runs_on_subgroup : std::false_type {};
template <class Step>
struct runs_on_subgroup<Step, std::void_t<decltype(Step::per_subgroup)>>
    : std::bool_constant<Step::per_subgroup> {};

// The lanes of a subgroup step's element on the host. Any width draws the same topics
// (collapsed_lanes.hpp); 8 is a vector register of doubles with AVX-512.
inline constexpr int host_subgroup_width = 8;

// Runs s for every element in [0, n) on host pointers over e.for_each and returns when it
// is done; a subgroup step's elements each on host_subgroup_width lanes of one thread.
void run_on_host(const detail::executor& e, const any& s, std::int64_t n);

// Runs s for every element in [0, n) on device pointers, one thread per element (a subgroup
// step's: one warp per element), and returns when it is done.
void run_on_device(const any& s, std::int64_t n);

// Step s for every element in [0, n), in the form the executor's memory needs.
class step_run final : public detail::operation {
 public:
  step_run(const any& s, std::int64_t n) : s_(s), n_(n) {}
  void run_on_host(const detail::executor& e) const override { steps::run_on_host(e, s_, n_); }
  void run_on_device(const detail::executor&) const override { steps::run_on_device(s_, n_); }

 private:
  const any& s_;
  std::int64_t n_;
};

}  // namespace butterfly::lda::steps
