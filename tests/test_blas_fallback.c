/* The BLAS drop-in when the device fails (a kernel that does not build): the
 * call is redone on the CPU with the right result, the device is turned off
 * for the rest of the process with one message, and later calls go straight
 * to the CPU. A process of its own, since the device state is process-wide. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "blas_dropin.h"
#include "check.h"
#include "context.h"
#include "stderr_capture.h"

void cblas_sgemm(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b, int m, int n, int k,
                 float alpha, const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc);

static char captured[8192];

/* One checked call; returns what the library wrote to stderr meanwhile. */
static const char *checked_call(gk_rng *rng, uint64_t seed)
{
    gk_sgemm_case c = {GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 33, 27, 45, -1.5f, 0.5f, 0, 0, 0};
    gk_case_complete(&c);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    float *a = malloc(ea * sizeof *a), *b = malloc(eb * sizeof *b), *c0 = malloc(ec * sizeof *c0),
          *res = malloc(ec * sizeof *res);
    assert_true(a && b && c0 && res);
    gk_fill_random(rng, a, ea);
    gk_fill_random(rng, b, eb);
    gk_fill_random(rng, c0, ec);
    memcpy(res, c0, ec * sizeof *res);
    stderr_capture capture;
    assert_int_equal(stderr_capture_begin(&capture), 0);
    cblas_sgemm(c.layout, c.trans_a, c.trans_b, (int)c.m, (int)c.n, (int)c.k, c.alpha, a, (int)c.lda, b, (int)c.ldb,
                c.beta, res, (int)c.ldc);
    stderr_capture_end(&capture, captured, sizeof captured);
    gk_check_result result;
    gk_check_sgemm(&c, a, b, c0, res, &result);
    if (!result.passed) print_error("GEMMKIT_SEED=%llu: %s\n", (unsigned long long)seed, result.message);
    assert_true(result.passed);
    free(a);
    free(b);
    free(c0);
    free(res);
    return captured;
}

static void test_device_failure_falls_back(void **state)
{
    (void)state;
    setenv("GEMMKIT_BLAS_THRESHOLD", "0", 1);
    gemmkit_test_inject_build_error("#error injected by test_blas_fallback\n");
    gk_rng rng;
    uint64_t seed = gk_rng_fresh_seed();
    gk_rng_seed(&rng, seed);
    gk_blas_stats s0, s1, s2;
    gk_blas_get_stats(&s0);
    const char *text = checked_call(&rng, seed);
    gk_blas_get_stats(&s1);
    assert_int_equal(s1.fallbacks, s0.fallbacks + 1);
    assert_int_equal(s1.cpu_calls, s0.cpu_calls + 1);
    assert_int_equal(s1.device_calls, s0.device_calls);
    assert_non_null(strstr(text, "gemmkit-blas: the device failed"));
    assert_non_null(strstr(text, "kernel build failed"));
    /* The device stays off: no second attempt, no second message. */
    text = checked_call(&rng, seed);
    gk_blas_get_stats(&s2);
    assert_int_equal(s2.fallbacks, s1.fallbacks);
    assert_int_equal(s2.cpu_calls, s1.cpu_calls + 1);
    assert_string_equal(text, "");
    gemmkit_test_inject_build_error(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_failure_falls_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
