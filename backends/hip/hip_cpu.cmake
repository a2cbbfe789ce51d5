# BUTTERFLY_HIP_RUNTIME=cpu: unpacks the HIP CPU runtime from the shared third-party archive
# into the build tree (never into the source tree, never downloaded) and finds TBB, which
# its parallel algorithms run on. Included from toolchain.cmake.
set(BUTTERFLY_HIP_CPU_ARCHIVE
    "${PROJECT_SOURCE_DIR}/../shared/third_party/hip-cpu-e112c93.tar.gz"
    CACHE FILEPATH "ROCm/HIP-CPU release archive (../shared/third_party)")
if(NOT EXISTS "${BUTTERFLY_HIP_CPU_ARCHIVE}")
  message(FATAL_ERROR "BUTTERFLY_HIP_RUNTIME=cpu needs the HIP CPU runtime archive: "
          "BUTTERFLY_HIP_CPU_ARCHIVE='${BUTTERFLY_HIP_CPU_ARCHIVE}' does not exist "
          "(it lives in ../shared/third_party beside the checkout)")
endif()
set(_hip_cpu_root "${CMAKE_BINARY_DIR}/_deps/hip-cpu")
file(SHA256 "${BUTTERFLY_HIP_CPU_ARCHIVE}" _hip_cpu_sha)
if(NOT EXISTS "${_hip_cpu_root}/${_hip_cpu_sha}.stamp")
  file(REMOVE_RECURSE "${_hip_cpu_root}")
  file(ARCHIVE_EXTRACT INPUT "${BUTTERFLY_HIP_CPU_ARCHIVE}" DESTINATION "${_hip_cpu_root}")
  file(GLOB _hip_cpu_top LIST_DIRECTORIES true "${_hip_cpu_root}/*")
  file(RENAME "${_hip_cpu_top}" "${_hip_cpu_root}/src")
  # The runtime gives each fiber (one GPU lane) 7 KB of stack; a W = 64 draw keeps its
  # a[W] and c_warp[W] there and overflows it. 256 KB per lane is what the kernels need
  # with room to spare (64 lanes per block: 16 MB per worker thread).
  set(_fiber "${_hip_cpu_root}/src/src/include/hip/detail/fiber.hpp")
  file(READ "${_fiber}" _text)
  string(REPLACE "(7168 + sizeof(void*) - 1)" "(262144 + sizeof(void*) - 1)" _patched "${_text}")
  if(_patched STREQUAL _text)
    message(FATAL_ERROR "${_fiber}: the fiber stack size (7168) was not found; "
            "the archive is not the expected HIP-CPU e112c93")
  endif()
  file(WRITE "${_fiber}" "${_patched}")
  file(TOUCH "${_hip_cpu_root}/${_hip_cpu_sha}.stamp")
endif()
set(BUTTERFLY_HIP_CPU_INCLUDE_DIR "${_hip_cpu_root}/src/include")
find_package(TBB REQUIRED)  # Debian: libtbb-dev
find_package(Threads REQUIRED)
message(STATUS "HIP CPU runtime: ${BUTTERFLY_HIP_CPU_INCLUDE_DIR} (TBB ${TBB_VERSION})")
