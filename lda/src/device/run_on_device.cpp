// The LDA iteration's steps (lda/steps.hpp) as the configured device backend's kernels: one
// thread per element (a subgroup step's: one warp per element), launched through the
// backend's element-wise launch (BUTTERFLY_FOR_EACH_HEADER: butterfly/cuda_hip/for_each.hpp
// on CUDA and HIP, butterfly/emulated/for_each.hpp on the emulated device). Compiled as that
// backend compiles device code (butterfly_device_sources, defined in its folder).
//
// First: the launch header brings the runtime's headers (hipcc's __forceinline__, used by
// core's BUTTERFLY_FN, comes from them).
#include BUTTERFLY_FOR_EACH_HEADER

#include <type_traits>

#include "butterfly/lda/run_steps.hpp"

namespace butterfly::lda::steps {

void run_on_device(const any& s, std::int64_t n) {
  std::visit(
      [n](const auto& step) {
        using Step = std::decay_t<decltype(step)>;
        if constexpr (runs_on_subgroup<Step>::value) backend::for_each_subgroup(step, n);
        else backend::for_each_index(step, n);
      },
      static_cast<const any::variant&>(s));
}

}  // namespace butterfly::lda::steps
