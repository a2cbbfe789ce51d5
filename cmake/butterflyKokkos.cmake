# Finds Kokkos (3.4 or later) for BACKEND=kokkos; the installed package's config includes
# this same file, so a consumer gets the same Kokkos::kokkos target as the build.
#
# Which Kokkos: a user's own when Kokkos_ROOT (variable or environment) or Kokkos_DIR says
# where (Kokkos 4.x with its OpenMP, CUDA or HIP spaces), otherwise the system's: on
# Debian 12 that is libtrilinos-kokkos-dev, Kokkos 3.4.01 with the Serial space only.
#
# Debian 12's package is a TriBITS export of Trilinos 13.2 and its Kokkos::kokkos target is
# unusable: the target's include directory is computed one folder too far up
# (/usr/lib/include; the headers are in /usr/include/trilinos), so CMake refuses to
# generate, and its link interface carries a stray -DKOKKOS_DEPENDENCE. The package's own
# variables (Kokkos_INCLUDE_DIRS, Kokkos_LIBRARIES) are right, so when a directory the
# target names does not exist, the target is rebuilt from them.
include(CMakeFindDependencyMacro)
find_dependency(Kokkos CONFIG)
if(Kokkos_VERSION VERSION_LESS 3.4)
  message(FATAL_ERROR "butterfly needs Kokkos 3.4 or later; found ${Kokkos_VERSION} in "
          "${Kokkos_DIR} (pass -DKokkos_ROOT=<a Kokkos 4 install>)")
endif()

get_target_property(_butterfly_kokkos_includes Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
set(_butterfly_kokkos_broken OFF)
foreach(dir IN LISTS _butterfly_kokkos_includes)
  if(NOT dir MATCHES "^\\$<" AND NOT IS_DIRECTORY "${dir}")
    set(_butterfly_kokkos_broken ON)
  endif()
endforeach()
if(_butterfly_kokkos_broken)
  find_path(_butterfly_kokkos_core_dir Kokkos_Core.hpp HINTS ${Kokkos_INCLUDE_DIRS}
            PATH_SUFFIXES trilinos NO_CACHE)
  if(NOT _butterfly_kokkos_core_dir OR NOT Kokkos_LIBRARIES)
    message(FATAL_ERROR "Kokkos ${Kokkos_VERSION} in ${Kokkos_DIR}: its Kokkos::kokkos target "
            "names include directories that do not exist (${_butterfly_kokkos_includes}) and "
            "Kokkos_Core.hpp is not in Kokkos_INCLUDE_DIRS='${Kokkos_INCLUDE_DIRS}'")
  endif()
  # Kokkos_LIBRARIES names the package's imported library targets (trilinos_kokkoscore, ...).
  set_target_properties(Kokkos::kokkos PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_butterfly_kokkos_core_dir}"
    INTERFACE_LINK_LIBRARIES "${Kokkos_LIBRARIES};${CMAKE_DL_LIBS}")
  message(STATUS "Kokkos ${Kokkos_VERSION} (${Kokkos_DIR}): the package's Kokkos::kokkos "
          "target named '${_butterfly_kokkos_includes}'; repaired to ${_butterfly_kokkos_core_dir}")
endif()
unset(_butterfly_kokkos_includes)
unset(_butterfly_kokkos_broken)
unset(_butterfly_kokkos_core_dir)
