# Finds Kokkos for BACKEND=kokkos (included from cmake/Backend.cmake at top level). A user's
# own Kokkos 4.x is taken when Kokkos_ROOT (variable or environment) or Kokkos_DIR says where;
# otherwise Kokkos is built once, Serial + OpenMP, from the shared third-party archive into
# this build tree (_deps/kokkos) and installed there; a reused build tree keeps it.
if(DEFINED Kokkos_ROOT OR DEFINED ENV{Kokkos_ROOT} OR DEFINED Kokkos_DIR)
  return()
endif()
set(BUTTERFLY_KOKKOS_ARCHIVE "${PROJECT_SOURCE_DIR}/../shared/third_party/kokkos-4.6.01.tar.gz"
    CACHE FILEPATH "Kokkos release archive to build when no Kokkos_ROOT is given")
if(NOT EXISTS "${BUTTERFLY_KOKKOS_ARCHIVE}")
  message(FATAL_ERROR "BACKEND=kokkos needs Kokkos 4: pass -DKokkos_ROOT=<install>, or put the "
          "archive at BUTTERFLY_KOKKOS_ARCHIVE='${BUTTERFLY_KOKKOS_ARCHIVE}' (../shared/third_party)")
endif()
set(_kokkos "${CMAKE_BINARY_DIR}/_deps/kokkos")
file(SHA256 "${BUTTERFLY_KOKKOS_ARCHIVE}" _kokkos_sha)
if(NOT EXISTS "${_kokkos}/${_kokkos_sha}.stamp")
  message(STATUS "Building Kokkos (Serial, OpenMP) from ${BUTTERFLY_KOKKOS_ARCHIVE} into ${_kokkos}")
  file(REMOVE_RECURSE "${_kokkos}")
  file(ARCHIVE_EXTRACT INPUT "${BUTTERFLY_KOKKOS_ARCHIVE}" DESTINATION "${_kokkos}/src")
  file(GLOB _kokkos_src LIST_DIRECTORIES true "${_kokkos}/src/*")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S "${_kokkos_src}" -B "${_kokkos}/build" -G "${CMAKE_GENERATOR}"
            -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
            -DCMAKE_CXX_STANDARD=17 -DCMAKE_INSTALL_PREFIX=${_kokkos}/install
            -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON
            -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF -DKokkos_ENABLE_BENCHMARKS=OFF
    OUTPUT_FILE "${_kokkos}/configure.log" ERROR_FILE "${_kokkos}/configure.log"
    RESULT_VARIABLE _rc)
  if(_rc EQUAL 0)
    include(ProcessorCount)
    ProcessorCount(_jobs)
    execute_process(COMMAND ${CMAKE_COMMAND} --build "${_kokkos}/build" --target install -j ${_jobs}
                    OUTPUT_FILE "${_kokkos}/build.log" ERROR_FILE "${_kokkos}/build.log"
                    RESULT_VARIABLE _rc)
  endif()
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "building Kokkos from ${BUTTERFLY_KOKKOS_ARCHIVE} failed; see "
            "${_kokkos}/configure.log and ${_kokkos}/build.log")
  endif()
  file(REMOVE_RECURSE "${_kokkos}/build" "${_kokkos}/src")  # the install is what is kept
  file(TOUCH "${_kokkos}/${_kokkos_sha}.stamp")
endif()
set(Kokkos_ROOT "${_kokkos}/install")
