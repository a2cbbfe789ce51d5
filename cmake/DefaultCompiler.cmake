# The C++ compiler when the user names none (no -DCMAKE_CXX_COMPILER, no CXX in the
# environment): clang++ where it is installed, for the backends whose code the host compiler
# alone compiles (serial, openmp, emulated; the device toolchains pick their own host
# compiler). GCC 12 compiles the LDA sweeps into code that takes 1.2-1.4x clang 14's time
# per iteration, with the same bits: its register allocator keeps the X loop's pointers on
# the stack, and no flag that keeps every value changes that (bench/journal/2026-11-28.md).
# BACKEND=openmp takes clang only with clang's OpenMP runtime beside it (Debian: libomp-dev),
# else the build stays with the system's c++. So does a BUTTERFLY_SANITIZE build: clang 14
# compiles the serial executor's lanes under ASan + UBSan at -O1 in more than 16
# minutes, GCC 12 in 3 (one file; the speed of the sweep is no concern there). Included
# before project(), which fixes the compiler.
option(BUTTERFLY_PREFER_CLANG "Compile with clang++ where installed when no compiler is named" ON)
if(BUTTERFLY_PREFER_CLANG AND NOT DEFINED CMAKE_CXX_COMPILER AND NOT DEFINED ENV{CXX}
   AND NOT BUTTERFLY_SANITIZE
   AND (NOT DEFINED BACKEND OR BACKEND MATCHES "^(serial|openmp|emulated)$"))
  find_program(BUTTERFLY_CLANGXX clang++)
  if(BUTTERFLY_CLANGXX)
    # clang links the runtimes of its own installation (<prefix>/bin/clang -> <prefix>/lib).
    get_filename_component(_clang_bin "${BUTTERFLY_CLANGXX}" REALPATH)
    get_filename_component(_clang_prefix "${_clang_bin}" DIRECTORY)
    get_filename_component(_clang_prefix "${_clang_prefix}" DIRECTORY)
    if(NOT BACKEND STREQUAL "openmp" OR EXISTS "${_clang_prefix}/lib/libomp.so")
      set(CMAKE_CXX_COMPILER "${BUTTERFLY_CLANGXX}")
    endif()
  endif()
endif()
