// The LDA iteration's steps (lda/steps.hpp) as the emulated device's kernels: what the GPU's
// kernels do (backends/common/cuda_hip/src/lda_steps.cpp), one call of the step per element,
// here in order on the calling thread, as one launch.
#include <type_traits>

#include "butterfly/emulated/device_memory.hpp"
#include "butterfly/lda/run_steps.hpp"

namespace butterfly::lda::steps {

void run_on_device(const any& s, std::int64_t n) {
  if (n <= 0) return;
  const emulated::launch kernel;
  std::visit(
      [n](const auto& step) {
        for (std::int64_t i = 0; i < n; ++i) step(i);
      },
      static_cast<const any::variant&>(s));
}

}  // namespace butterfly::lda::steps
