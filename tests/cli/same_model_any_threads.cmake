# ctest script: trains the bundled corpus with OMP_NUM_THREADS = 1, 2 and 3 and requires
# byte-identical model files (the counts, or phi.npy and theta.npy, whichever the options
# write) and metrics.jsonl (its held-out perplexities among them).
# Skips (prints SKIPPED:) where a device backend has no device.
#   cmake -DLDA=<butterfly-lda> -DWORK=<dir> [-DOPTIONS=<;-list of more train options>] -P same_model_any_threads.cmake
file(REMOVE_RECURSE ${WORK})
foreach(threads 1 2 3)
  set(ENV{OMP_NUM_THREADS} ${threads})
  execute_process(COMMAND ${LDA} train --quiet --iterations 12 --topics 16 --holdout 0.1 ${OPTIONS}
                          --out ${WORK}/t${threads}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 AND err MATCHES "no [A-Za-z]+ device")
    # A device backend on a machine without its device (the test's SKIP_REGULAR_EXPRESSION).
    # The line CI reads says "cannot run here: no ... device" like the Catch2 tests' skips.
    string(REGEX MATCH "no [A-Za-z]+ device" missing "${err}")
    string(STRIP "${err}" err)
    message("SKIPPED: butterfly-lda cannot run here: ${missing} (${err})")
    return()
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "OMP_NUM_THREADS=${threads}: butterfly-lda exited ${rc}: ${err}")
  endif()
endforeach()
set(files "")
foreach(file word-topic-counts.txt doc-topic-counts.txt phi.npy theta.npy)
  if(EXISTS ${WORK}/t1/${file})
    list(APPEND files ${file})
  endif()
endforeach()
if(NOT files)
  message(FATAL_ERROR "OMP_NUM_THREADS=1 wrote no model file into ${WORK}/t1")
endif()
foreach(file ${files} metrics.jsonl)
  file(SHA256 ${WORK}/t1/${file} want)
  foreach(threads 2 3)
    file(SHA256 ${WORK}/t${threads}/${file} got)
    if(NOT got STREQUAL want)
      message(FATAL_ERROR "${file} differs between OMP_NUM_THREADS=1 and ${threads}")
    endif()
  endforeach()
  message(STATUS "${file}: identical for 1, 2 and 3 threads (${want})")
endforeach()
