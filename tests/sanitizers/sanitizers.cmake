# Run-time settings for the tests of the sanitizer build (GEMMKIT_SANITIZE=ON;
# `make test` builds one in build-asan/). Included at the end of
# tests/CMakeLists.txt so that it reaches every test defined there.
# docs/RELIABILITY.md explains each setting and suppression.

# Options every machine needs, whatever the cache holds (a build directory
# configured before a change here still gets it):
# - protect_shadow_gap=0: NVIDIA's driver maps memory into the shadow gap ASan
#   otherwise protects (google/sanitizers#629), so that `make test` runs on a GPU
#   machine too. It only gives up faulting on wild accesses into that gap.
# - use_sigaltstack=0: PoCL's LLVM replaces a thread's alternate signal stack
#   with one from malloc the first time it compiles in that thread; ASan, which
#   made the one replaced, munmaps LLVM's at thread exit and aborts ("unable to
#   unmap"). Without ASan's own alternate stacks it has nothing to unmap.
# - intercept_tls_get_addr=0: the runtime's record of dynamically allocated TLS
#   blocks (GCC 12's libasan on glibc 2.36) holds a bogus range after PoCL loads
#   a freshly compiled kernel library, and LeakSanitizer's tracer then faults
#   reading it at exit ("Tracer caught signal 11"). gemmkit's own thread-local
#   data is static TLS, which is still scanned.
# docs/RELIABILITY.md has the details.
set(GEMMKIT_ASAN_OPTIONS "detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1"
    CACHE STRING "ASAN_OPTIONS for the tests of the sanitizer build (the required ones are added)")
set(GEMMKIT_TEST_ASAN_OPTIONS "${GEMMKIT_ASAN_OPTIONS}:protect_shadow_gap=0:use_sigaltstack=0:intercept_tls_get_addr=0")
set(GEMMKIT_LSAN_SUPPRESSIONS "${CMAKE_CURRENT_LIST_DIR}/lsan.supp"
    CACHE FILEPATH "LeakSanitizer suppressions (third-party driver internals only)")
# The soak's length under the sanitizers: the full 10,000 calls take about
# 15 s on 2 cores, so nothing is shortened; lower it here if that changes.
set(GEMMKIT_SANITIZE_SOAK_CALLS 10000 CACHE STRING "test_soak calls in the sanitizer build")

# Every test compiles its kernels with an empty PoCL cache of its own, as on a
# fresh machine: a warm cache skips PoCL's LLVM, and with it a class of bugs
# (the one above slipped through that way). The fixture empties the caches
# before each run; other OpenCL drivers ignore POCL_CACHE_DIR.
set(GEMMKIT_POCL_CACHE_ROOT "${CMAKE_BINARY_DIR}/pocl-cache")
get_property(gemmkit_pocl_reset_defined GLOBAL PROPERTY GEMMKIT_POCL_RESET_DEFINED)
if(NOT gemmkit_pocl_reset_defined) # this file is included by more than one directory
  add_test(NAME pocl_cache_reset COMMAND ${CMAKE_COMMAND} -E rm -rf "${GEMMKIT_POCL_CACHE_ROOT}")
  set_tests_properties(pocl_cache_reset PROPERTIES FIXTURES_SETUP pocl_cache_empty)
  set_property(GLOBAL PROPERTY GEMMKIT_POCL_RESET_DEFINED TRUE)
endif()

get_property(gemmkit_all_tests DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTY TESTS)
list(REMOVE_ITEM gemmkit_all_tests pocl_cache_reset)
foreach(test ${gemmkit_all_tests})
  set_property(TEST ${test} APPEND PROPERTY FIXTURES_REQUIRED pocl_cache_empty)
  set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
    "POCL_CACHE_DIR=${GEMMKIT_POCL_CACHE_ROOT}/${test}"
    "ASAN_OPTIONS=${GEMMKIT_TEST_ASAN_OPTIONS}"
    "LSAN_OPTIONS=suppressions=${GEMMKIT_LSAN_SUPPRESSIONS}:print_suppressions=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
    "GEMMKIT_SOAK_CALLS=${GEMMKIT_SANITIZE_SOAK_CALLS}")
endforeach()

# Tests too slow to run under the sanitizers, if any: they stay in the plain
# build. Empty today (the whole suite takes ~16 s here); justify any entry in
# docs/RELIABILITY.md. test_threads, test_failures and test_soak must stay.
set(GEMMKIT_SANITIZE_SKIP "" CACHE STRING "tests not run in the sanitizer build")
foreach(test ${GEMMKIT_SANITIZE_SKIP})
  if(TEST ${test})
    set_tests_properties(${test} PROPERTIES DISABLED TRUE)
  endif()
endforeach()
