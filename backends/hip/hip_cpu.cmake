# BUTTERFLY_HIP_RUNTIME=cpu, an opt-in for developers, never in CI: g++ compiles the HIP
# kernels against a HIP CPU runtime (ROCm/HIP-CPU: header-only, on TBB) that the developer
# already has, named by -DHIP_CPU_INCLUDE_DIR=<the folder holding hip/hip_runtime.h>, and
# runs them on the host. The repository never downloads, unpacks or builds that runtime; it
# is not a Debian package. Kept because it is the one way to execute the device kernels
# (the same source the GPU runs) without a GPU: run the device suite under it when device
# code changes and record the run in bench/RESULTS.md. Included from toolchain.cmake.
set(HIP_CPU_INCLUDE_DIR "" CACHE PATH
    "HIP CPU runtime headers (the folder holding hip/hip_runtime.h) for BUTTERFLY_HIP_RUNTIME=cpu")
if(NOT EXISTS "${HIP_CPU_INCLUDE_DIR}/hip/hip_runtime.h")
  message(FATAL_ERROR "BUTTERFLY_HIP_RUNTIME=cpu compiles against a HIP CPU runtime you "
          "already have: pass -DHIP_CPU_INCLUDE_DIR=<the folder holding hip/hip_runtime.h> "
          "(HIP_CPU_INCLUDE_DIR='${HIP_CPU_INCLUDE_DIR}' has none)")
endif()
# Each fiber (one GPU lane) of the runtime's released headers has a 7 KB stack; a W = 64
# draw keeps its a[W] and c_warp[W] there and overflows it, so the kernels would crash.
# Refuse such a copy at configure time instead.
# (The runtime's include/hip headers include its src/include/hip/detail ones.)
get_filename_component(_fiber "${HIP_CPU_INCLUDE_DIR}/../src/include/hip/detail/fiber.hpp" ABSOLUTE)
if(EXISTS "${_fiber}")
  file(STRINGS "${_fiber}" _small_stack REGEX "\\(7168 \\+")
  if(_small_stack)
    message(FATAL_ERROR "${_fiber}: the runtime's fiber stack (min_stack_byte_cnt_) is 7 KB "
            "per lane; the W = 64 kernels need at least 256 KB per lane")
  endif()
endif()
find_package(TBB REQUIRED)  # Debian: libtbb-dev
find_package(Threads REQUIRED)
message(STATUS "HIP CPU runtime: ${HIP_CPU_INCLUDE_DIR} (TBB ${TBB_VERSION})")
