# Configure-time backend choice (like Thrust's device system): one of these per build.
set(BUTTERFLY_BACKENDS serial openmp cuda hip kokkos)
# Backends whose implementation has landed; the others are listed but refused.
set(BUTTERFLY_BACKENDS_IMPLEMENTED serial openmp kokkos)

set(BACKEND serial CACHE STRING "Backend to build: ${BUTTERFLY_BACKENDS}")
set_property(CACHE BACKEND PROPERTY STRINGS ${BUTTERFLY_BACKENDS})

list(JOIN BUTTERFLY_BACKENDS ", " _valid)
list(JOIN BUTTERFLY_BACKENDS_IMPLEMENTED ", " _implemented)
if(NOT BACKEND IN_LIST BUTTERFLY_BACKENDS)
  message(FATAL_ERROR "Unknown BACKEND='${BACKEND}'. Valid backends: ${_valid} "
                      "(implemented so far: ${_implemented}).")
endif()
if(NOT BACKEND IN_LIST BUTTERFLY_BACKENDS_IMPLEMENTED)
  message(FATAL_ERROR "BACKEND='${BACKEND}' is a valid backend but is not built yet. "
                      "Implemented so far: ${_implemented}.")
endif()
message(STATUS "butterfly backend: ${BACKEND}")
