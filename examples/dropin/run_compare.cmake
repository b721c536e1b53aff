# Runs a drop-in demo built against the reference BLAS and the same demo
# served by gemmkit (linked, or the reference build with LD_PRELOAD), checks
# from gemmkit's verbose log that gemmkit did serve it (on the device and/or
# the CPU as EXPECT says), and compares the outputs.
# -DREFERENCE=exe -DCANDIDATE=exe -DCOMPARE=exe -DWORK=dir
# [-DPRELOAD=lib] [-DTHRESHOLD=n] [-DEXPECT=device,cpu]
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${REFERENCE} OUTPUT_FILE ${WORK}/reference.txt RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${REFERENCE} failed: ${status}")
endif()

set(ENV{GEMMKIT_BLAS_VERBOSE} 1)
if(DEFINED THRESHOLD)
  set(ENV{GEMMKIT_BLAS_THRESHOLD} ${THRESHOLD})
endif()
if(PRELOAD)
  set(ENV{LD_PRELOAD} ${PRELOAD})
endif()
execute_process(COMMAND ${CANDIDATE} OUTPUT_FILE ${WORK}/candidate.txt ERROR_VARIABLE log RESULT_VARIABLE status)
unset(ENV{LD_PRELOAD})
file(WRITE ${WORK}/candidate.log "${log}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${CANDIDATE} failed: ${status}\n${log}")
endif()

# Proof that gemmkit, not the reference BLAS, did the work.
string(REGEX MATCHALL "gemmkit-blas: [a-z_]*sgemm[^\n]*" calls "${log}")
list(LENGTH calls count)
if(count EQUAL 0)
  message(FATAL_ERROR "gemmkit served no call (is it linked or preloaded?); log:\n${log}")
endif()
if(log MATCHES "device failed")
  message(FATAL_ERROR "the device failed:\n${log}")
endif()
string(REPLACE "," ";" expected "${EXPECT}")
foreach(where ${expected})
  if(NOT log MATCHES "\\): ${where}")
    message(FATAL_ERROR "no call ran on the ${where}; log:\n${log}")
  endif()
endforeach()
message(STATUS "gemmkit served ${count} calls (log: ${WORK}/candidate.log)")

execute_process(COMMAND ${COMPARE} ${WORK}/reference.txt ${WORK}/candidate.txt RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the outputs differ beyond float32 rounding")
endif()
