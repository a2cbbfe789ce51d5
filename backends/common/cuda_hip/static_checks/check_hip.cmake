# Compiles the draw kernels for one AMD target (device code only) and reads the backend's
# kernel-resource-usage remarks. Only the kernels whose W equals the target's wavefront
# size WAVE are built for it (the others are empty stubs). Fails when one of those uses
# scratch memory or spills VGPRs, or when not all eight (4 algorithms x 2 sources) are there.
# SGPR spills are listed but allowed: they go to VGPR lanes, not memory (ScratchSize 0).
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(MAKE_DIRECTORY ${WORK})
run_compiler(log ${HIPCC} ${FLAGS} --offload-arch=${ARCH} --cuda-device-only -x hip -c ${SOURCE}
             -o ${WORK}/kernels.o -Rpass-analysis=kernel-resource-usage)

string(REPLACE ";" "," log "${log}")
string(REPLACE "\n" ";" lines "${log}")
set(rows "")
set(problems "")
set(count 0)
set(kernel "")
foreach(line IN LISTS lines)
  if(line MATCHES "remark: Function Name: ([^ ]+)")
    set(kernel ${CMAKE_MATCH_1})
    set(agprs "-")
  elseif(kernel AND line MATCHES "remark: +VGPRs: ([0-9]+)")
    set(vgprs ${CMAKE_MATCH_1})
  elseif(kernel AND line MATCHES "remark: +AGPRs: ([0-9]+)")
    set(agprs ${CMAKE_MATCH_1})
  elseif(kernel AND line MATCHES "remark: +SGPRs: ([0-9]+)")
    set(sgprs ${CMAKE_MATCH_1})
  elseif(kernel AND line MATCHES "remark: +ScratchSize \\[bytes/lane\\]: ([0-9]+)")
    set(scratch ${CMAKE_MATCH_1})
  elseif(kernel AND line MATCHES "remark: +SGPRs Spill: ([0-9]+)")
    set(sspill ${CMAKE_MATCH_1})
  elseif(kernel AND line MATCHES "remark: +VGPRs Spill: ([0-9]+)")
    set(vspill ${CMAKE_MATCH_1})
    if(kernel MATCHES "ELi${WAVE}E")
      kernel_label(${kernel} label)
      math(EXPR count "${count} + 1")
      string(APPEND rows "| ${label} | ${ARCH} | ${vgprs} | ${agprs} | ${sgprs} | ${scratch} | ${vspill} | ${sspill} |\n")
      if(NOT scratch EQUAL 0 OR NOT vspill EQUAL 0)
        string(APPEND problems "  ${label}: ScratchSize ${scratch} bytes/lane, ${vspill} VGPRs spilled on ${ARCH}\n")
      endif()
    endif()
    set(kernel "")
  endif()
endforeach()
if(NOT count EQUAL 8)
  string(APPEND problems "  expected 8 wave${WAVE} kernels in the resource-usage remarks, found ${count}\n")
endif()
report("HIP ${ARCH}, wave${WAVE} (hipcc -Rpass-analysis=kernel-resource-usage)"
       "| kernel | arch | VGPRs | AGPRs | SGPRs | scratch [B/lane] | VGPR spills | SGPR spills (to VGPR lanes) |\n|---|---|---|---|---|---|---|---|"
       "${rows}" "${problems}")
