# BACKEND=hip runs on one of two HIP runtimes (BUTTERFLY_HIP_RUNTIME):
#   rocm  hipcc and libamdhip64 (a real AMD GPU; Debian's packages or /opt/rocm);
#   cpu   a HIP CPU runtime the developer already has (-DHIP_CPU_INCLUDE_DIR; not in CI):
#         g++ compiles the same kernels and runs them on the host (hip_cpu.cmake).
set(BUTTERFLY_HIP_RUNTIME rocm CACHE STRING "HIP runtime for BACKEND=hip: rocm or cpu")
set_property(CACHE BUTTERFLY_HIP_RUNTIME PROPERTY STRINGS rocm cpu)
if(BUTTERFLY_HIP_RUNTIME STREQUAL "cpu")
  include(${CMAKE_CURRENT_LIST_DIR}/hip_cpu.cmake)
  return()
elseif(NOT BUTTERFLY_HIP_RUNTIME STREQUAL "rocm")
  message(FATAL_ERROR "BUTTERFLY_HIP_RUNTIME='${BUTTERFLY_HIP_RUNTIME}': valid values are rocm, cpu")
endif()

# Finds hipcc for BACKEND=hip (included from cmake/Backend.cmake at top level).
#
# CMake's own HIP language (3.21+) needs ROCm's hip-lang package under <root>/lib/cmake,
# but Debian installs it under lib/x86_64-linux-gnu/cmake, which CMake 3.25 does not
# search. The backend therefore runs hipcc itself (backends/hip/CMakeLists.txt), which
# works with Debian's packages and with /opt/rocm alike.
find_program(BUTTERFLY_HIPCC hipcc HINTS ENV ROCM_PATH ENV HIP_PATH PATH_SUFFIXES bin
             PATHS /opt/rocm/bin REQUIRED DOC "hipcc for BACKEND=hip")
find_library(BUTTERFLY_AMDHIP64 amdhip64 HINTS ENV ROCM_PATH ENV HIP_PATH PATH_SUFFIXES lib
             PATHS /opt/rocm/lib REQUIRED DOC "the HIP runtime library")
# MI200/MI250 (gfx90a, wave64) and RDNA2 (gfx1030, wave32) unless told otherwise.
if(DEFINED CMAKE_HIP_ARCHITECTURES)
  set(_hip_archs_default "${CMAKE_HIP_ARCHITECTURES}")
else()
  set(_hip_archs_default "gfx90a;gfx1030")
endif()
set(BUTTERFLY_HIP_ARCHITECTURES "${_hip_archs_default}" CACHE STRING
    "AMD GPU targets (--offload-arch) to build for")
