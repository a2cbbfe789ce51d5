# The CUDA/HIP sources, for backends/cuda and backends/hip: the executor, the device memory
# and the device-resident API go into the sampling library, the LDA steps' kernels into the
# LDA library (lda/run_steps.hpp). Include dirs: this folder's and the device warp's.
set(cuda_hip_dir ${CMAKE_CURRENT_LIST_DIR})
set(cuda_hip_includes ${cuda_hip_dir}/include ${BUTTERFLY_COMMON_DIR}/device_warp/include)
set(gpu_sources ${cuda_hip_dir}/src/executor.cpp ${cuda_hip_dir}/src/memory.cpp
                ${cuda_hip_dir}/src/device_api.cpp)
set(lda_gpu_sources ${cuda_hip_dir}/src/lda_steps.cpp)
target_compile_definitions(butterfly_lda PRIVATE BUTTERFLY_DEVICE_STEPS)
