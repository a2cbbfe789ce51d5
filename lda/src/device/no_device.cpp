// The steps' device form in a build whose backend has no device memory: its executors report
// host memory, so detail::executor::run never calls it. Reaching it means an executor
// reported device memory (a Kokkos device space) without the build compiling the steps as
// device kernels; the host loops cannot read that memory.
#include <stdexcept>

#include "butterfly/lda/run_steps.hpp"

namespace butterfly::lda::steps {

void run_on_device(const any&, std::int64_t) {
  throw std::logic_error(
      "butterfly::lda::sampler: this build compiles the LDA steps for host memory only, but "
      "the executor's kernels read device memory");
}

}  // namespace butterfly::lda::steps
