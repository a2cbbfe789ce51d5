option(BUTTERFLY_WERROR "Treat warnings as errors" OFF)
option(BUTTERFLY_SANITIZE "Build everything with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)

# The z draw must give the same bits on every backend: no compiler may fuse a*b+c on its
# own (nvcc's --fmad=false plays the same role for device code).
# -fno-math-errno changes no value: nothing here reads errno, and without it GCC guards every
# std::sqrt with a branch to the libm call, which keeps the Gamma step's loops
# (butterfly/lda/gamma.hpp) from vectorizing.
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off> $<$<COMPILE_LANGUAGE:CXX>:-fno-math-errno>)

if(BUTTERFLY_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

function(butterfly_warnings target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
                         $<$<AND:$<BOOL:${BUTTERFLY_WERROR}>,$<COMPILE_LANGUAGE:CXX>>:-Werror>)
endfunction()
