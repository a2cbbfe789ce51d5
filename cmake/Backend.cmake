# Configure-time backend choice (like Thrust's device system): one of these per build.
# emulated: the CUDA/HIP path on the host, its device memory rules enforced (backends/emulated).
set(BUTTERFLY_BACKENDS serial openmp cuda hip kokkos emulated)

set(BACKEND serial CACHE STRING "Backend to build: ${BUTTERFLY_BACKENDS}")
set_property(CACHE BACKEND PROPERTY STRINGS ${BUTTERFLY_BACKENDS})

if(NOT BACKEND IN_LIST BUTTERFLY_BACKENDS)
  list(JOIN BUTTERFLY_BACKENDS ", " _valid)
  message(FATAL_ERROR "Unknown BACKEND='${BACKEND}'. Valid backends: ${_valid}.")
endif()
message(STATUS "butterfly backend: ${BACKEND}")

# A backend that needs a device compiler enables it in backends/<name>/toolchain.cmake,
# included here because enable_language() must run in the top-level directory, where the
# butterfly target is created.
include(${PROJECT_SOURCE_DIR}/backends/${BACKEND}/toolchain.cmake OPTIONAL)
