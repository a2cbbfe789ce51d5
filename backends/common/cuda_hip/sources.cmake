# The CUDA/HIP sources, for backends/cuda and backends/hip: the executor and the device memory
# go into the sampling library (gpu_sources). The device-resident API (device_api_source) is
# plain C++ on the backend's device header, which backends/emulated compiles too. Code above
# the seam launches its element-wise kernels through for_each_header. Include dirs: this
# folder's and the device warp's.
set(cuda_hip_dir ${CMAKE_CURRENT_LIST_DIR})
set(cuda_hip_includes ${cuda_hip_dir}/include ${BUTTERFLY_SUBGROUPS_DIR}/device_warp/include)
set(device_api_source ${cuda_hip_dir}/src/device_api.cpp)
set(gpu_sources ${cuda_hip_dir}/src/executor.cpp ${cuda_hip_dir}/src/memory.cpp)
set(for_each_header "butterfly/cuda_hip/for_each.hpp")
