// Device-resident API of the CUDA backend (BACKEND=cuda): keep theta, phi, the corpus and z
// in GPU memory across iterations instead of copying host spans on every call.
//
//   butterfly::cuda::device_buffer<float> theta(theta_host), phi(phi_host);
//   butterfly::cuda::device_buffer<std::int64_t> offsets(offsets_host);
//   butterfly::cuda::device_buffer<std::int32_t> words(words_host), z(words_host.size());
//   for (std::uint32_t it = 0; it < iterations; ++it) {
//     butterfly::cuda::draw_topics(theta.view(), phi.view(), K, offsets.view(), words.view(),
//                                  z.view(), {butterfly::algorithm::butterfly, seed, it},
//                                  stream);
//     ... update theta and phi on the device ...
//   }
//   std::vector<std::int32_t> z_host = z.to_host();
//
// Plain C++ can include this header: the stream type is declared here as cuda_runtime_api.h
// declares it (cudaStream_t is CUstream_st*), so no CUDA header is needed.
#pragma once

struct CUstream_st;
#define BUTTERFLY_GPU_NS cuda
#define BUTTERFLY_GPU_STREAM CUstream_st*  // cudaStream_t; nullptr is the default stream
#include "butterfly/cuda_hip/device_api.hpp"
