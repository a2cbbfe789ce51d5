# The CUDA/HIP sources, for backends/cuda and backends/hip: the executor and the device memory
# go into the sampling library (gpu_sources), the LDA steps' kernels into the LDA library
# (lda/run_steps.hpp). The device-resident API (device_api_source) is plain C++ on the
# backend's device header, which backends/emulated compiles too. Include dirs: this folder's
# and the device warp's.
set(cuda_hip_dir ${CMAKE_CURRENT_LIST_DIR})
set(cuda_hip_includes ${cuda_hip_dir}/include ${BUTTERFLY_COMMON_DIR}/device_warp/include)
set(device_api_source ${cuda_hip_dir}/src/device_api.cpp)
set(gpu_sources ${cuda_hip_dir}/src/executor.cpp ${cuda_hip_dir}/src/memory.cpp)
set(lda_gpu_sources ${cuda_hip_dir}/src/lda_steps.cpp)
