# Static resource checks of the GPU kernels (no GPU needed): every draw kernel must keep
# a[W] and c_warp[W] in registers, i.e. spill nothing to local/scratch memory, on each
# target the project cares about, and the butterfly kernel must use the hardware
# butterfly shuffle. Each check recompiles ../src/executor.cpp (the draw kernel) for one target
# with the library's device flags and parses the compiler's resource report; the table
# it prints (and writes next to it) is what bench/RESULTS.md records.
#
# BUTTERFLY_STATIC_CHECK_EXTRA_FLAGS adds flags to these compiles only, e.g.
# -DBUTTERFLY_GPU_MIN_BLOCKS=8, which caps registers per thread and forces spills: the
# checks must then fail.
set(BUTTERFLY_STATIC_CHECK_EXTRA_FLAGS "" CACHE STRING
    "Extra flags for the static-check compiles (e.g. -DBUTTERFLY_GPU_MIN_BLOCKS=8 to force a spill)")
get_property(gpu_flags GLOBAL PROPERTY BUTTERFLY_GPU_FLAGS)
set(butterfly_static_checks_dir ${CMAKE_CURRENT_LIST_DIR})
find_program(BUTTERFLY_CXXFILT NAMES c++filt)

# butterfly_static_check(name check_cuda.cmake|check_hip.cmake -DARCH=... ...): one target.
function(butterfly_static_check name script)
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} "-DFLAGS=${gpu_flags};${BUTTERFLY_STATIC_CHECK_EXTRA_FLAGS}"
                   -DSOURCE=${butterfly_static_checks_dir}/../src/executor.cpp -DWORK=${CMAKE_CURRENT_BINARY_DIR}/${name}
                   -DCXXFILT=${BUTTERFLY_CXXFILT} ${ARGN} -P ${butterfly_static_checks_dir}/${script})
endfunction()
