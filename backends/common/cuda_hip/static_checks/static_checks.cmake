# Static resource checks of every GPU kernel (no GPU needed): the draw kernels
# (../src/executor.cpp) must keep a[W] and c_warp[W] in registers, i.e. no stack/scratch and
# no spill, and the butterfly kernels must use the hardware butterfly shuffle; the LDA steps'
# kernels (lda/src/device/run_on_device.cpp through ../include/butterfly/cuda_hip/for_each.hpp,
# one per alternative of lda::steps::any) must not spill. Each
# check recompiles both files for one target with the library's device flags and parses the
# compiler's resource report (common.cmake says what fails); the table it prints (and writes
# to <build>/tests/backend_tests/<test>/resource_usage.md, next to the compiler's raw
# reports) is what bench/RESULTS.md records.
#
# BUTTERFLY_STATIC_CHECK_EXTRA_FLAGS adds flags to these compiles only.
# butterfly_static_check(... FORCE_SPILL) registers the demonstration that a check can fail:
# the same check with the register caps raised (-DBUTTERFLY_GPU_MIN_BLOCKS=8 for the draw
# kernels, -DBUTTERFLY_FOR_EACH_MIN_BLOCKS=8 for the LDA kernels: at least 8 resident blocks of 256
# threads, so at most 32 registers per thread on NVIDIA, 8 waves per SIMD on AMD), which passes
# only if the check finds spills in both files.
set(BUTTERFLY_STATIC_CHECK_EXTRA_FLAGS "" CACHE STRING
    "Extra flags for the static-check compiles (e.g. -DBUTTERFLY_GPU_MIN_BLOCKS=8 to force a spill)")
get_property(gpu_flags GLOBAL PROPERTY BUTTERFLY_GPU_FLAGS)
set(butterfly_static_checks_dir ${CMAKE_CURRENT_LIST_DIR})
find_program(BUTTERFLY_CXXFILT NAMES c++filt)

# butterfly_static_check(name check_cuda.cmake|check_hip.cmake [FORCE_SPILL] -DARCH=... ...):
# one target.
function(butterfly_static_check name script)
  set(args ${ARGN})
  set(flags ${gpu_flags} ${BUTTERFLY_STATIC_CHECK_EXTRA_FLAGS})
  list(FIND args FORCE_SPILL force)
  if(force GREATER -1)
    list(REMOVE_AT args ${force})
    list(APPEND flags -DBUTTERFLY_GPU_MIN_BLOCKS=8 -DBUTTERFLY_FOR_EACH_MIN_BLOCKS=8)
    list(APPEND args -DEXPECT_SPILLS=ON)
  endif()
  set(src ${butterfly_static_checks_dir}/../src)
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} "-DFLAGS=${flags}"
                   -DDRAW_SOURCE=${src}/executor.cpp
                   -DLDA_SOURCE=${PROJECT_SOURCE_DIR}/lda/src/device/run_on_device.cpp
                   -DLDA_INCLUDE=${PROJECT_SOURCE_DIR}/lda/include
                   -DSTEPS_HEADER=${PROJECT_SOURCE_DIR}/lda/include/butterfly/lda/steps.hpp
                   -DWORK=${CMAKE_CURRENT_BINARY_DIR}/${name} -DCXXFILT=${BUTTERFLY_CXXFILT}
                   ${args} -P ${butterfly_static_checks_dir}/${script})
endfunction()
