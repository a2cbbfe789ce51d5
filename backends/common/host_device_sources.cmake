# butterfly_device_sources(target SOURCES ... [INCLUDES ...] [DEFINITIONS ...]) for the
# backends whose kernels are plain C++ for the host compiler (the emulated device, the HIP CPU
# runtime): code above the seam (the LDA steps) compiles its kernels as the target's other
# sources, with DEFINITIONS (INCLUDES are the target's own already).
function(butterfly_device_sources target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;INCLUDES;DEFINITIONS")
  set_source_files_properties(${arg_SOURCES} TARGET_DIRECTORY ${target} PROPERTIES
                              COMPILE_DEFINITIONS "${arg_DEFINITIONS}")
  target_sources(${target} PRIVATE ${arg_SOURCES})
endfunction()
