# Tests of the BLAS drop-in and the .npy tools (docs/DROPIN.md), included
# from tests/CMakeLists.txt after the test_*.c programs are defined.
if(GEMMKIT_BLAS_SYMBOLS)
  foreach(name test_blas_dropin test_blas_env test_blas_fallback test_blas_measured)
    target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src/blas)
    target_link_libraries(${name} PRIVATE gemmkit_blas_static)
  endforeach()
  target_link_libraries(test_blas_dropin PRIVATE Threads::Threads)
  # The drop-in over every device (GEMMKIT_DEVICE=all; two PoCL devices): its device calls are tiled.
  add_test(NAME test_blas_dropin_all_devices COMMAND test_blas_dropin)
  set_tests_properties(test_blas_dropin_all_devices PROPERTIES ENVIRONMENT
                       "GEMMKIT_DEVICE=all;POCL_DEVICES=pthread pthread" TIMEOUT 1200)
else()
  foreach(name test_blas_dropin test_blas_env test_blas_fallback test_blas_measured)
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

# Real clients under LD_PRELOAD (not in the sanitizer build: a sanitized
# library cannot be preloaded into an unsanitized program): the reference
# LAPACK's LU and Cholesky (Debian: liblapack3, liblapack-dev), and numpy's
# own matmul/dot tests and its LAPACK error handler (python3-numpy,
# python3-pytest; skipped without them). CPU path by default, the device with
# GEMMKIT_BLAS_THRESHOLD=0.
if(GEMMKIT_BLAS_SYMBOLS AND NOT GEMMKIT_SANITIZE)
  # The reference LAPACK by full path: its directory goes into the client's
  # RUNPATH, so Debian's liblapack.so.3 alternative (maybe OpenBLAS's, which
  # calls its own SGEMM internally) does not replace it.
  find_library(GEMMKIT_REFERENCE_LAPACK NAMES lapack PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/lapack
               NO_DEFAULT_PATH)
  if(GEMMKIT_REFERENCE_LAPACK)
    add_executable(lapack_client clients/lapack_client.c)
    target_link_libraries(lapack_client PRIVATE ${GEMMKIT_REFERENCE_LAPACK} m)
    foreach(path cpu device)
      set(threshold "")
      if(path STREQUAL "device")
        set(threshold -DTHRESHOLD=0)
      endif()
      add_test(NAME dropin_lapack_${path}
               COMMAND ${CMAKE_COMMAND} -DCLIENT=$<TARGET_FILE:lapack_client> -DARGS=300
                       -DPRELOAD=$<TARGET_FILE:gemmkit_blas> -DEXPECT=${path} ${threshold}
                       -P ${CMAKE_CURRENT_SOURCE_DIR}/clients/run_client.cmake)
    endforeach()
  else()
    message(STATUS "gemmkit: no reference LAPACK (liblapack-dev); the LAPACK client test is skipped")
  endif()
  # The reference BLAS's test programs (xblat3s, xscblat3; Debian's libblas-test) over the drop-in on the device.
  add_test(NAME dropin_blas_reference
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/blas_reference.sh $<TARGET_FILE:gemmkit_blas>)
  set_tests_properties(dropin_blas_reference PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
  foreach(mode cpu device xerbla)
    add_test(NAME dropin_numpy_${mode}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/numpy_preload.sh $<TARGET_FILE:gemmkit_blas> ${mode})
    set_tests_properties(dropin_numpy_${mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
  endforeach()

  # scipy-openblas's names (NumPy >= 2.0 and SciPy wheels from PyPI):
  # a program linked to a stand-in library exporting them (calls counted),
  # under the preload, on the CPU (the stand-in must serve those) and the
  # device (PoCL); then pip's numpy itself, when the python3 on PATH has
  # one bundling scipy-openblas (skipped otherwise).
  add_library(gemmkit_scipy_shim SHARED clients/scipy_blas_shim.c)
  set_target_properties(gemmkit_scipy_shim PROPERTIES C_VISIBILITY_PRESET hidden)
  add_executable(scipy_client clients/scipy_client.c)
  target_link_libraries(scipy_client PRIVATE gemmkit_scipy_shim ${CMAKE_DL_LIBS} m)
  set_target_properties(scipy_client PROPERTIES ENABLE_EXPORTS ON) # its xerbla_ and cblas_xerbla, for the drop-in
  add_test(NAME dropin_scipy_names
           COMMAND ${CMAKE_COMMAND} -E env LD_PRELOAD=$<TARGET_FILE:gemmkit_blas> $<TARGET_FILE:scipy_client>)
  set_tests_properties(dropin_scipy_names PROPERTIES TIMEOUT 600)
  foreach(mode cpu device)
    add_test(NAME dropin_pipnumpy_${mode}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/numpy_pip_preload.sh $<TARGET_FILE:gemmkit_blas> ${mode})
    set_tests_properties(dropin_pipnumpy_${mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
  endforeach()
endif()
