# Tests of the BLAS drop-in and the .npy tools (docs/DROPIN.md), included
# from tests/CMakeLists.txt after the test_*.c programs are defined.
if(GEMMKIT_BLAS_SYMBOLS)
  foreach(name test_blas_dropin test_blas_env test_blas_fallback)
    target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src/blas)
    target_link_libraries(${name} PRIVATE gemmkit_blas_static)
  endforeach()
  target_link_libraries(test_blas_dropin PRIVATE Threads::Threads)
else()
  foreach(name test_blas_dropin test_blas_env test_blas_fallback)
    set_target_properties(${name} PROPERTIES EXCLUDE_FROM_ALL TRUE)
    set_tests_properties(${name} PROPERTIES DISABLED TRUE)
  endforeach()
endif()

# The .npy reader/writer.
foreach(name test_npy test_npy_fuzz test_cli_gemm)
  target_link_libraries(${name} PRIVATE gemmkit_npy)
endforeach()
# `gemmkit gemm` end to end: the test runs the command it is given.
set_tests_properties(test_cli_gemm PROPERTIES ENVIRONMENT "GEMMKIT_CLI=$<TARGET_FILE:gemmkit_cli>")
add_dependencies(test_cli_gemm gemmkit_cli)

# A short libFuzzer run over the .npy reader, when clang with libFuzzer is
# available (the deterministic test_npy_fuzz runs everywhere).
find_program(GEMMKIT_CLANG NAMES clang clang-15 clang-14)
if(GEMMKIT_CLANG AND NOT DEFINED GEMMKIT_LIBFUZZER_WORKS)
  set(probe ${CMAKE_BINARY_DIR}/CMakeFiles/libfuzzer_probe.c)
  file(WRITE ${probe} "#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n")
  execute_process(COMMAND ${GEMMKIT_CLANG} -fsanitize=fuzzer,address ${probe} -o ${CMAKE_BINARY_DIR}/CMakeFiles/libfuzzer_probe
                  RESULT_VARIABLE probe_result OUTPUT_QUIET ERROR_QUIET)
  if(probe_result EQUAL 0)
    set(GEMMKIT_LIBFUZZER_WORKS ON CACHE INTERNAL "clang can build libFuzzer targets")
  else()
    set(GEMMKIT_LIBFUZZER_WORKS OFF CACHE INTERNAL "clang can build libFuzzer targets")
  endif()
endif()
if(GEMMKIT_LIBFUZZER_WORKS)
  set(npy_dir ${CMAKE_SOURCE_DIR}/tools/npy)
  set(output_dir ${CMAKE_SOURCE_DIR}/tools/common)
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/fuzz_npy
    COMMAND ${GEMMKIT_CLANG} -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -fsanitize=fuzzer,address,undefined
            -fno-sanitize-recover=undefined -I${npy_dir} -I${output_dir} ${npy_dir}/fuzz_npy.c ${npy_dir}/npy.c
            ${output_dir}/output_file.c -o ${CMAKE_BINARY_DIR}/fuzz_npy
    DEPENDS ${npy_dir}/fuzz_npy.c ${npy_dir}/npy.c ${npy_dir}/npy.h ${output_dir}/output_file.c
    COMMENT "Building the libFuzzer target fuzz_npy")
  add_custom_target(fuzz_npy_build ALL DEPENDS ${CMAKE_BINARY_DIR}/fuzz_npy)
  # New inputs go to a scratch corpus in the build tree; the seeds stay read-only.
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz_npy_corpus)
  add_test(NAME npy_libfuzzer
           COMMAND ${CMAKE_BINARY_DIR}/fuzz_npy -max_total_time=15 -seed=1 -max_len=4096 -rss_limit_mb=1024
                   -dict=${npy_dir}/npy.dict ${CMAKE_BINARY_DIR}/fuzz_npy_corpus ${npy_dir}/fuzz_seeds)
  set_tests_properties(npy_libfuzzer PROPERTIES TIMEOUT 60)
else()
  message(STATUS "gemmkit: no clang with libFuzzer; the .npy reader is fuzzed by test_npy_fuzz only")
endif()

# Unmodified C and Fortran BLAS programs run against gemmkit.
if(GEMMKIT_BLAS_SYMBOLS)
  add_subdirectory(${CMAKE_SOURCE_DIR}/examples/dropin ${CMAKE_BINARY_DIR}/examples/dropin)
endif()

# The routing of host-array SGEMM to the CPU BLAS (route_gemm.c), with the
# drop-in's path for the check that a drop-in is never taken as the CPU BLAS.
if(TARGET test_route AND TARGET gemmkit_blas)
  target_compile_definitions(test_route PRIVATE GEMMKIT_BLAS_LIBRARY="$<TARGET_FILE:gemmkit_blas>")
  add_dependencies(test_route gemmkit_blas)
elseif(TARGET test_route)
  target_compile_definitions(test_route PRIVATE GEMMKIT_BLAS_LIBRARY="libgemmkit_blas.so")
endif()
