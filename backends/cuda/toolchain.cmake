# Finds nvcc and enables CUDA (included from cmake/Backend.cmake at top level).
#
# nvcc is often not on PATH (the toolkit installs to /usr/local/cuda), so look there too
# unless the user chose a compiler (CMAKE_CUDA_COMPILER or the CUDACXX environment).
if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  find_program(BUTTERFLY_NVCC nvcc HINTS ENV CUDA_PATH ENV CUDA_HOME PATH_SUFFIXES bin
               PATHS /usr/local/cuda/bin DOC "nvcc for BACKEND=cuda")
  if(BUTTERFLY_NVCC)
    set(CMAKE_CUDA_COMPILER "${BUTTERFLY_NVCC}")
  endif()
endif()
# A100 (sm_80) and H100 (sm_90) unless told otherwise.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(CMAKE_CUDA_ARCHITECTURES 80 90 CACHE STRING "CUDA architectures to build for")
endif()
# The host half of .cu files must be compiled like the rest of the library.
if(NOT CMAKE_CUDA_HOST_COMPILER AND NOT DEFINED ENV{CUDAHOSTCXX})
  set(CMAKE_CUDA_HOST_COMPILER "${CMAKE_CXX_COMPILER}")
endif()
enable_language(CUDA)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
set(CMAKE_CUDA_EXTENSIONS OFF)
# The library links CUDA::cudart itself, so executables get exactly one runtime.
set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
