// How the LDA steps (steps.hpp) run on an executor: as host loops over its threads
// (run_on_host, core/src/lda/run_steps.cpp) where its kernels read host memory, and on a
// device executor's grid (run_on_device) where they read device memory. run_on_device is
// defined where the backend has device memory: the CUDA/HIP backends compile
// backends/common/cuda_hip/src/lda_steps.cpp into the LDA library and define
// BUTTERFLY_DEVICE_STEPS for it.
#pragma once

#include <cstdint>

#include "butterfly/detail/executor.hpp"
#include "butterfly/lda/steps.hpp"

namespace butterfly::lda::steps {

// Runs s for every element in [0, n) on host pointers over e.for_each and returns when it
// is done.
void run_on_host(const detail::executor& e, const any& s, std::int64_t n);

#if defined(BUTTERFLY_DEVICE_STEPS)
// Runs s for every element in [0, n) on device pointers, one thread per element, and returns
// when it is done.
void run_on_device(const any& s, std::int64_t n);
#endif

}  // namespace butterfly::lda::steps
