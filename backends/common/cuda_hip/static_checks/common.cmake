# Helpers shared by check_cuda.cmake and check_hip.cmake (run with cmake -P).

# Runs a compiler; stops the check with its output if it fails.
function(run_compiler out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "compile failed (${rc}):\n${cmd}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}\n${err}" PARENT_SCOPE)
endfunction()

# "draw<butterfly, 32, product_form>" from a mangled kernel name.
function(kernel_label mangled out_var)
  set(label "${mangled}")
  if(CXXFILT)
    execute_process(COMMAND ${CXXFILT} ${mangled} OUTPUT_VARIABLE label OUTPUT_STRIP_TRAILING_WHITESPACE)
    string(REGEX REPLACE "^void butterfly::cuda_hip::kernel::(draw<[^>]*>).*" "\\1" label "${label}")
    string(REPLACE "butterfly::detail::" "" label "${label}")
  endif()
  set(${out_var} "${label}" PARENT_SCOPE)
endfunction()

# Prints the table, writes it to WORK/resource_usage.md, and fails on any problem.
function(report title header rows problems)
  file(MAKE_DIRECTORY ${WORK})
  set(table "### ${title}\n\n${header}\n${rows}")
  file(WRITE ${WORK}/resource_usage.md "${table}")
  message("${table}")
  if(problems)
    message(FATAL_ERROR "static check FAILED:\n${problems}")
  endif()
  message("static check passed")
endfunction()
