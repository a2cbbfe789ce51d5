// Host side of the draw kernels (src/kernels.cpp), which run one algorithm over every warp of
// a weight source whose pointers (packed slots included) are device pointers, and of the LDA
// steps (src/steps.cpp). Compiled by nvcc or hipcc only.
#pragma once

// First: hipcc's __forceinline__ (used by core's BUTTERFLY_FN) comes from the HIP headers.
#include "butterfly/cuda_hip/runtime.hpp"

#include <cstdint>

#include "butterfly/butterfly.hpp"
#include "butterfly/detail/sources.hpp"

namespace butterfly::lda::steps {
class any;
}

namespace butterfly::cuda_hip {

// Writes z (or out) on `stream` and waits for it; width is 32, or 64 on HIP.
void launch_draw(const detail::product_form& src, std::int32_t* z, int width,
                 const draw_options& options, stream_t stream);
void launch_draw(const detail::row_form& src, std::int32_t* out, int width,
                 const draw_options& options, stream_t stream);

// Runs an LDA step (lda/steps.hpp) for every element in [0, n) on device pointers, on
// `stream`, and waits for it (src/steps.cpp).
void launch_step(const lda::steps::any& s, std::int64_t n, stream_t stream);

}  // namespace butterfly::cuda_hip
