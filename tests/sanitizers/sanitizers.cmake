# Run-time settings for the tests of the sanitizer build (GEMMKIT_SANITIZE=ON;
# `make test` builds one in build-asan/). Included at the end of
# tests/CMakeLists.txt so that it reaches every test defined there.
# docs/RELIABILITY.md explains each setting and suppression.

# PoCL needs no special ASan flags. NVIDIA's driver does: it maps memory into
# the shadow gap ASan otherwise protects (google/sanitizers#629), so
# protect_shadow_gap=0 is on for every machine, so that `make test` runs on a GPU
# machine too. It only gives up faulting on wild accesses into that gap.
set(GEMMKIT_ASAN_OPTIONS "detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:protect_shadow_gap=0"
    CACHE STRING "ASAN_OPTIONS for the tests of the sanitizer build")
set(GEMMKIT_LSAN_SUPPRESSIONS "${CMAKE_CURRENT_LIST_DIR}/lsan.supp"
    CACHE FILEPATH "LeakSanitizer suppressions (third-party driver internals only)")
# The soak's length under the sanitizers: the full 10,000 calls take about
# 15 s on 2 cores, so nothing is shortened; lower it here if that changes.
set(GEMMKIT_SANITIZE_SOAK_CALLS 10000 CACHE STRING "test_soak calls in the sanitizer build")

get_property(gemmkit_all_tests DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTY TESTS)
foreach(test ${gemmkit_all_tests})
  set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
    "ASAN_OPTIONS=${GEMMKIT_ASAN_OPTIONS}"
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
