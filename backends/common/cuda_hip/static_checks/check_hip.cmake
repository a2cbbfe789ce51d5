# Compiles every device kernel for one AMD target (device code only; the draw kernels and the
# LDA steps' kernels, common.cmake) and reads the backend's kernel-resource-usage remarks. Of
# the draw kernels only those whose W equals the target's wavefront size WAVE are built for
# it (the others are empty stubs, not listed). Fails when a kernel spills VGPRs, when a draw
# kernel uses scratch memory at all, or when a unit's kernels are not exactly those expected.
# SGPR spills are listed but allowed: they go to VGPR lanes (v_writelane), not to memory.
# Scratch without VGPR spills in an LDA kernel is a local array of the step (reported).
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(MAKE_DIRECTORY ${WORK})
expected_kernels(expected_draw expected_lda)

set(rows "")
set(notes "")
set(problems "")
set(spills "")
set(spilled_units "")
foreach(unit draw lda)
  unit_source(${unit} source defines)
  run_compiler(log ${HIPCC} ${FLAGS} ${defines} --offload-arch=${ARCH} --cuda-device-only -x hip -c ${source}
               -o ${WORK}/${unit}.o -Rpass-analysis=kernel-resource-usage)
  file(WRITE ${WORK}/${unit}.remarks.log "${log}")

  string(REPLACE ";" "," log "${log}")
  string(REPLACE "\n" ";" lines "${log}")
  set(found "")
  set(unit_rows "")
  set(kernel "")
  foreach(line IN LISTS lines)
    if(line MATCHES "remark: Function Name: ([^ ]+)")
      set(kernel ${CMAKE_MATCH_1})
      set(agprs "-")
      set(occupancy "-")
    elseif(kernel AND line MATCHES "remark: +VGPRs: ([0-9]+)")
      set(vgprs ${CMAKE_MATCH_1})
    elseif(kernel AND line MATCHES "remark: +AGPRs: ([0-9]+)")
      set(agprs ${CMAKE_MATCH_1})
    elseif(kernel AND line MATCHES "remark: +SGPRs: ([0-9]+)")
      set(sgprs ${CMAKE_MATCH_1})
    elseif(kernel AND line MATCHES "remark: +ScratchSize \\[bytes/lane\\]: ([0-9]+)")
      set(scratch ${CMAKE_MATCH_1})
    elseif(kernel AND line MATCHES "remark: +Occupancy \\[waves/SIMD\\]: ([0-9]+)")
      set(occupancy ${CMAKE_MATCH_1})
    elseif(kernel AND line MATCHES "remark: +SGPRs Spill: ([0-9]+)")
      set(sspill ${CMAKE_MATCH_1})
    elseif(kernel AND line MATCHES "remark: +VGPRs Spill: ([0-9]+)")
      set(vspill ${CMAKE_MATCH_1})
      # Draw kernels of the other wavefront size are stubs on this target.
      if(unit STREQUAL "lda" OR kernel MATCHES "ELi${WAVE}E")
        kernel_label(${kernel} label)
        kernel_key(${kernel} ${WAVE} key)
        list(APPEND found "${key}")
        string(APPEND unit_rows "| ${label} | ${ARCH} | ${vgprs} | ${agprs} | ${sgprs} | ${scratch} | ${vspill} | ${sspill} | ${occupancy} |\n")
        judge_kernel(${unit} "${label}" ${vspill} "${vspill} VGPRs spilled, ScratchSize ${scratch} bytes/lane on ${ARCH}"
                     ${scratch} "ScratchSize ${scratch} bytes/lane on ${ARCH}")
      endif()
      set(kernel "")
    endif()
  endforeach()
  string(REGEX REPLACE "\n$" "" unit_rows "${unit_rows}")
  string(REPLACE "\n" ";" unit_rows "${unit_rows}")
  list(SORT unit_rows)
  list(JOIN unit_rows "\n" unit_rows)
  string(APPEND rows "${unit_rows}\n")
  compare_kernels(${unit} "${found}" "${expected_${unit}}" problems)
endforeach()
report("HIP ${ARCH}, wave${WAVE} (hipcc -Rpass-analysis=kernel-resource-usage)"
       "| kernel | arch | VGPRs | AGPRs | SGPRs | scratch [B/lane] | VGPR spills | SGPR spills (to VGPR lanes) | occupancy [waves/SIMD] |\n|---|---|---|---|---|---|---|---|---|"
       "${rows}" "${notes}" "${problems}" "${spills}" "${spilled_units}")
