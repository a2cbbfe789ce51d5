// Device-resident API of the HIP backend (BACKEND=hip): keep theta, phi, the corpus and z
// in GPU memory across iterations instead of copying host spans on every call. Used
// exactly like butterfly/cuda/device.hpp, with butterfly::hip in place of butterfly::cuda.
//
// Plain C++ can include this header: the stream type is declared here as hip_runtime_api.h
// declares it (hipStream_t is ihipStream_t*), so no HIP header is needed.
#pragma once

#define BUTTERFLY_GPU_NS hip
#if defined(BUTTERFLY_HIP_CPU)
// The HIP CPU runtime's hipStream_t cannot be forward-declared; pass it as void*.
#define BUTTERFLY_GPU_STREAM void*
#else
struct ihipStream_t;
#define BUTTERFLY_GPU_STREAM ihipStream_t*  // hipStream_t; nullptr is the default stream
#endif
#include "butterfly/cuda_hip/device_api.hpp"
