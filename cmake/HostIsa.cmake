# The instruction set the host lanes (backends/subgroups/host_lanes/simd_*.hpp) are compiled for.
# z never depends on it (see simd_lanes.hpp: the logical width W is fixed apart from the
# ISA, and -ffp-contract=off keeps every ISA's arithmetic the same IEEE operations); only
# the speed does.
#   native    (default) the build host's ISA, -march=native: AVX2 on this project's machines,
#             AVX-512 where the build host has it. The binaries run on machines like it.
#   portable  the compiler's default target (x86-64: SSE2), for binaries that must run on
#             any machine of the architecture.
set(BUTTERFLY_HOST_ISA native CACHE STRING "ISA of the SIMD host lanes: native or portable")
set_property(CACHE BUTTERFLY_HOST_ISA PROPERTY STRINGS native portable)
set(BUTTERFLY_HOST_ISA_FLAGS "")
if(BUTTERFLY_HOST_ISA STREQUAL "native")
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag(-march=native BUTTERFLY_HAVE_MARCH_NATIVE)
  if(BUTTERFLY_HAVE_MARCH_NATIVE)
    set(BUTTERFLY_HOST_ISA_FLAGS $<$<COMPILE_LANGUAGE:CXX>:-march=native>)
  endif()
elseif(NOT BUTTERFLY_HOST_ISA STREQUAL "portable")
  message(FATAL_ERROR "BUTTERFLY_HOST_ISA=${BUTTERFLY_HOST_ISA}: expected native or portable")
endif()
