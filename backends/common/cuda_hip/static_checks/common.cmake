# Helpers shared by check_cuda.cmake and check_hip.cmake (run with cmake -P).
#
# Both checks cover every device kernel, in two units:
#   draw  DRAW_SOURCE (src/executor.cpp): kernel::draw<Algorithm, W, Source>, 4 algorithms x
#         2 weight sources = exactly 8 kernels per target
#   lda   LDA_SOURCE (lda/src/device/run_on_device.cpp on butterfly/cuda_hip/for_each.hpp):
#         kernel::for_each<Step> (kernel::for_each_subgroup<W, Step> for a step written for a
#         subgroup), exactly one per alternative of lda::steps::any in STEPS_HEADER
#         (lda/steps.hpp)
# Policy: a draw kernel fails on any stack/scratch at all (a[W] and c_warp[W] must stay in
# registers; a local array there is as bad as a spill); an LDA kernel fails on spills only
# (a stack frame without spills is a local array of the step, reported in the table).
# With EXPECT_SPILLS (the forced_spill tests, built with the register caps raised) the check
# passes only if it finds spills in both units: it shows the check can fail.

# Runs a compiler; stops the check with its output if it fails.
function(run_compiler out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "compile failed (${rc}):\n${cmd}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}\n${err}" PARENT_SCOPE)
endfunction()

# "draw<butterfly, 32, product_form>" or "for_each<column_partials<int, long>>" from a mangled
# kernel name (the mangled name itself without c++filt).
function(kernel_label mangled out_var)
  set(label "${mangled}")
  if(CXXFILT)
    execute_process(COMMAND ${CXXFILT} ${mangled} OUTPUT_VARIABLE label OUTPUT_STRIP_TRAILING_WHITESPACE)
    string(REGEX REPLACE "^void butterfly::cuda_hip::kernel::([a-z_]+<.*>)\\(.*" "\\1" label "${label}")
    string(REPLACE "butterfly::detail::" "" label "${label}")
    string(REPLACE "butterfly::lda::steps::" "" label "${label}")
    string(REPLACE "> >" ">>" label "${label}")
  endif()
  set(${out_var} "${label}" PARENT_SCOPE)
endfunction()

# The kernel's identity for the set check, from the mangled name alone: "butterfly/product_form"
# for a draw kernel of width W, the step's name ("column_partials") for an LDA kernel, "" for
# anything else.
function(kernel_key mangled W out_var)
  set(key "")
  if(mangled MATCHES "kernel4drawINS_6detail[0-9]+([a-z_]+)ELi${W}ENS[0-9]*_[0-9]+([a-z_]+)EEEv")
    set(key "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
  elseif(mangled MATCHES "kernel8for_eachINS_3lda5steps([0-9]+)([A-Za-z0-9_]+)")
    string(SUBSTRING "${CMAKE_MATCH_2}" 0 ${CMAKE_MATCH_1} key)
  elseif(mangled MATCHES "kernel17for_each_subgroupILi${W}ENS_3lda5steps([0-9]+)([A-Za-z0-9_]+)")
    string(SUBSTRING "${CMAKE_MATCH_2}" 0 ${CMAKE_MATCH_1} key)
  endif()
  set(${out_var} "${key}" PARENT_SCOPE)
endfunction()

# The kernels each unit must have, one entry per kernel: the draw unit's 4 x 2, the LDA unit's
# from the alternatives of lda::steps::any (template arguments dropped, repeats kept).
function(expected_kernels draw_var lda_var)
  set(draw "")
  foreach(algorithm basic transposed butterfly warp_scan)
    foreach(source product_form row_form)
      list(APPEND draw "${algorithm}/${source}")
    endforeach()
  endforeach()
  file(READ ${STEPS_HEADER} text)
  if(NOT text MATCHES "class any[ \t\r\n]*:[ \t\r\n]*public std::variant<([^{;]*)> {")
    message(FATAL_ERROR "static check: no 'class any : public std::variant<...> {' in ${STEPS_HEADER}")
  endif()
  string(REGEX REPLACE "[ \t\r\n]" "" steps "${CMAKE_MATCH_1}")
  while(steps MATCHES "<[^<>]*>")
    string(REGEX REPLACE "<[^<>]*>" "" steps "${steps}")
  endwhile()
  string(REPLACE "," ";" steps "${steps}")
  set(${draw_var} "${draw}" PARENT_SCOPE)
  set(${lda_var} "${steps}" PARENT_SCOPE)
endfunction()

# Appends to problems_var what differs between the kernels found and those expected (both
# lists of keys, repeats counted): the counts must be equal, not merely large enough.
# out_var: the entries of list a left after removing, one for one, those of list b.
function(list_minus out_var a b)
  foreach(k IN LISTS b)
    list(FIND a "${k}" at)
    if(at GREATER -1)
      list(REMOVE_AT a ${at})
    endif()
  endforeach()
  set(${out_var} "${a}" PARENT_SCOPE)
endfunction()

function(compare_kernels unit found expected problems_var)
  set(problems "${${problems_var}}")
  list(LENGTH found n_found)
  list(LENGTH expected n_expected)
  list(SORT found)
  list(SORT expected)
  if(NOT n_found EQUAL n_expected OR NOT found STREQUAL expected)
    list_minus(missing "${expected}" "${found}")
    list_minus(extra "${found}" "${expected}")
    list(JOIN missing ", " missing)
    list(JOIN extra ", " extra)
    string(APPEND problems "  ${unit}: expected exactly ${n_expected} kernels, found ${n_found}"
                           " (missing: ${missing}; unexpected: ${extra})\n")
  endif()
  set(${problems_var} "${problems}" PARENT_SCOPE)
endfunction()

# Prints the table, writes it to WORK/resource_usage.md, and decides: fails on any problem
# and any spill; with EXPECT_SPILLS, passes only on spills in both units and no other problem.
function(report title header rows notes problems spills spilled_units)
  file(MAKE_DIRECTORY ${WORK})
  set(table "### ${title}\n\n${header}\n${rows}")
  if(notes)
    string(APPEND table "\n${notes}")
  endif()
  file(WRITE ${WORK}/resource_usage.md "${table}")
  message("${table}")
  if(EXPECT_SPILLS)
    foreach(unit draw lda)
      list(FIND spilled_units ${unit} at)
      if(at EQUAL -1)
        string(APPEND problems "  forced spill: no ${unit} kernel spilled, so this check could not fail there\n")
      endif()
    endforeach()
    if(problems)
      message(FATAL_ERROR "static check FAILED (forced-spill demonstration):\n${problems}")
    endif()
    message("static check failed as it must with the register caps raised:\n${spills}"
            "static check passed (forced-spill demonstration: the spills above are caught)")
    return()
  endif()
  if(problems OR spills)
    message(FATAL_ERROR "static check FAILED:\n${problems}${spills}")
  endif()
  message("static check passed")
endfunction()

# The source and the definitions of one unit of device code: the draw kernels, or the LDA
# steps' kernels (which the LDA library compiles with the CUDA/HIP launch header, from its
# own include folder).
function(unit_source unit source_var defines_var)
  if(unit STREQUAL "draw")
    set(${source_var} ${DRAW_SOURCE} PARENT_SCOPE)
    set(${defines_var} "" PARENT_SCOPE)
  else()
    set(${source_var} ${LDA_SOURCE} PARENT_SCOPE)
    set(${defines_var} "-DBUTTERFLY_FOR_EACH_HEADER=\"butterfly/cuda_hip/for_each.hpp\"" -I${LDA_INCLUDE}
        PARENT_SCOPE)
  endif()
endfunction()

# One kernel's verdict, appended to the caller's spills, spilled_units, problems and notes: a
# spill (spilled bytes or registers, spill_text) always counts; local memory without a spill
# (local_bytes of stack or scratch, local_text: a local array) is a problem in a draw kernel
# and a note in an LDA step's.
macro(judge_kernel unit label spilled spill_text local_bytes local_text)
  if(NOT "${spilled}" EQUAL 0)
    string(APPEND spills "  ${label}: ${spill_text}\n")
    list(APPEND spilled_units ${unit})
  elseif(NOT "${local_bytes}" EQUAL 0)
    if("${unit}" STREQUAL "draw")
      string(APPEND problems "  ${label}: ${local_text} (a local array)\n")
    else()
      string(APPEND notes "- ${label}: ${local_text} and no spill: a local array of the step (allowed).\n")
    endif()
  endif()
endmacro()
