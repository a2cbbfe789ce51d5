# The C++ compiler when the user names none (no -DCMAKE_CXX_COMPILER, no CXX in the
# environment): clang++ where it is installed, for the backends whose code the host compiler
# alone compiles (serial, openmp, emulated; the device toolchains pick their own host
# compiler). GCC 12 compiles the LDA sweeps into code that takes 1.2-1.4x clang 14's time
# per iteration, with the same bits: its register allocator keeps the X loop's pointers on
# the stack, and no flag that keeps every value changes that (bench/journal/2026-11-28.md).
# The runtimes a build needs must sit beside it, else the build stays with the system's c++:
# for BACKEND=openmp clang's OpenMP runtime (Debian: libomp-dev), for BUTTERFLY_SANITIZE its
# sanitizer runtimes (Debian: libclang-rt-14-dev). Included before project(), which fixes the
# compiler.
option(BUTTERFLY_PREFER_CLANG "Compile with clang++ where installed when no compiler is named" ON)
if(BUTTERFLY_PREFER_CLANG AND NOT DEFINED CMAKE_CXX_COMPILER AND NOT DEFINED ENV{CXX}
   AND (NOT DEFINED BACKEND OR BACKEND MATCHES "^(serial|openmp|emulated)$"))
  find_program(BUTTERFLY_CLANGXX clang++)
  if(BUTTERFLY_CLANGXX)
    # clang links the runtimes of its own installation (<prefix>/bin/clang -> <prefix>/lib).
    get_filename_component(_clang_bin "${BUTTERFLY_CLANGXX}" REALPATH)
    get_filename_component(_clang_prefix "${_clang_bin}" DIRECTORY)
    get_filename_component(_clang_prefix "${_clang_prefix}" DIRECTORY)
    file(GLOB _clang_asan "${_clang_prefix}/lib/clang/*/lib/*/libclang_rt.asan*")
    if((NOT BACKEND STREQUAL "openmp" OR EXISTS "${_clang_prefix}/lib/libomp.so")
       AND (NOT BUTTERFLY_SANITIZE OR _clang_asan))
      set(CMAKE_CXX_COMPILER "${BUTTERFLY_CLANGXX}")
    endif()
  endif()
endif()
