/* The BLAS drop-in's defaults and settings, in a process of their own: the
 * default xerbla_/cblas_xerbla messages (and that they return), the verbose
 * log, a bad GEMMKIT_BLAS_THRESHOLD, and the CPU fallback (with a warning
 * even when the log is off) when GEMMKIT_DEVICE or GEMMKIT_BACKEND cannot be
 * honoured. */
#define _XOPEN_SOURCE 700 /* putenv, beside the project's _POSIX_C_SOURCE */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "blas_dropin.h"
#include "check.h"
#include "env_cache.h"
#include "stderr_capture.h"

void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k, const float *alpha,
            const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
            const int *ldc);
void cblas_sgemm(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b, int m, int n, int k,
                 float alpha, const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc);

/* Captures what the library writes to stderr between the two calls. */
static char captured[8192];
static stderr_capture capture;

static void capture_begin(void) { assert_int_equal(stderr_capture_begin(&capture), 0); }

static const char *capture_end(void) { return stderr_capture_end(&capture, captured, sizeof captured); }

static void test_default_xerbla_prints_and_returns(void **state)
{
    (void)state;
    float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4}, c[4] = {5, 6, 7, 8}, keep[4];
    memcpy(keep, c, sizeof c);
    float one = 1.0f;
    int m = -1, n = 2, k = 2, ld = 2, bad_ldc = 1;
    capture_begin();
    sgemm_("N", "N", &m, &n, &k, &one, a, &ld, b, &ld, &one, c, &ld);
    const char *text = capture_end();
    assert_string_equal(text, " ** On entry to SGEMM  parameter number  3 had an illegal value\n");
    m = 2;
    capture_begin();
    sgemm_("N", "N", &m, &n, &k, &one, a, &ld, b, &ld, &one, c, &bad_ldc);
    text = capture_end();
    assert_string_equal(text, " ** On entry to SGEMM  parameter number 13 had an illegal value\n");
    capture_begin();
    cblas_sgemm(GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2, 2, 1.0f, a, 1, b, 2, 0.0f, c, 2);
    text = capture_end();
    assert_string_equal(text, "Parameter 9 to routine cblas_sgemm was incorrect\n");
    capture_begin();
    cblas_sgemm(GEMMKIT_ROW_MAJOR, (gemmkit_transpose)7, GEMMKIT_NO_TRANS, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    text = capture_end();
    assert_string_equal(text, "Parameter 2 to routine cblas_sgemm was incorrect\nIllegal TransA setting, 7\n");
    assert_memory_equal(c, keep, sizeof c); /* and we are still here: the library never exits */
}

static void test_verbose_log_and_bad_threshold(void **state)
{
    (void)state;
    setenv("GEMMKIT_BLAS_VERBOSE", "1", 1);
    setenv("GEMMKIT_BLAS_THRESHOLD", "lots", 1);
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, -1, 2, -2, 3, -3}, c[4];
    capture_begin();
    cblas_sgemm(GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2, 3, 1.0f, a, 3, b, 2, 0.0f, c, 2);
    cblas_sgemm(GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 0, 2, 3, 1.0f, a, 3, b, 2, 0.0f, c, 2);
    const char *text = capture_end();
    unsetenv("GEMMKIT_BLAS_VERBOSE");
    unsetenv("GEMMKIT_BLAS_THRESHOLD");
    assert_non_null(strstr(text, "ignoring GEMMKIT_BLAS_THRESHOLD=\"lots\""));
    assert_non_null(strstr(text, "gemmkit-blas: cblas_sgemm(row-major, N, N, m=2, n=2, k=3"));
    assert_non_null(strstr(text, "cpu (12 multiply-adds < threshold 1000000, default; no device opened yet) by "));
    /* (names the CPU BLAS or own loop; no device is opened for a call below every threshold) */
    assert_non_null(strstr(text, "m=0, n=2, k=3"));
    assert_non_null(strstr(text, "quick return"));
    /* [1 2 3; 4 5 6] [1 -1; 2 -2; 3 -3] */
    assert_true(c[0] == 14.0f && c[1] == -14.0f && c[2] == 32.0f && c[3] == -32.0f);
    /* Silent again once verbose is off. */
    capture_begin();
    cblas_sgemm(GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2, 3, 1.0f, a, 3, b, 2, 0.0f, c, 2);
    text = capture_end();
    assert_string_equal(text, "");
}

/* One sgemm_ call of a random problem (C0 = NaN, beta = 0) through the drop-in;
 * returns whether the result is right. */
static int random_call_is_right(uint64_t seed, gk_check_result *result)
{
    gk_rng rng;
    gk_rng_seed(&rng, seed);
    gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 37, 21, 45, 0.5f, 0.0f, 0, 0, 0};
    gk_case_complete(&c);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    float *a = malloc(ea * sizeof *a), *b = malloc(eb * sizeof *b), *c0 = malloc(ec * sizeof *c0),
          *res = malloc(ec * sizeof *res);
    int passed = 0;
    if (a && b && c0 && res) {
        gk_fill_random(&rng, a, ea);
        gk_fill_random(&rng, b, eb);
        gk_fill_value(c0, ec, NAN);
        memcpy(res, c0, ec * sizeof *res);
        int m = (int)c.m, n = (int)c.n, k = (int)c.k, lda = (int)c.lda, ldb = (int)c.ldb, ldc = (int)c.ldc;
        sgemm_("T", "N", &m, &n, &k, &c.alpha, a, &lda, b, &ldb, &c.beta, res, &ldc);
        gk_check_sgemm(&c, a, b, c0, res, result);
        passed = result->passed;
    }
    free(a);
    free(b);
    free(c0);
    free(res);
    return passed;
}

/* A device setting the drop-in cannot honour is said once on stderr, with
 * the log off, and the calls still come out right (on the CPU). In a child
 * process, forked before this process touches a device: the drop-in makes
 * its context once per process. */
static void expect_warning_once(const char *name, const char *value, const char *words)
{
    uint64_t seed = gk_rng_fresh_seed();
    capture_begin();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv(name, value, 1);
        setenv("GEMMKIT_BLAS_THRESHOLD", "0", 1);
        unsetenv("GEMMKIT_BLAS_VERBOSE");
        gk_check_result result;
        int right = random_call_is_right(seed, &result) && random_call_is_right(seed + 1, &result);
        if (!right) fprintf(stderr, "GEMMKIT_SEED=%llu: %s\n", (unsigned long long)seed, result.message);
        fflush(stderr);
        _exit(right ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    const char *text = capture_end();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail_msg("%s=\"%s\": the calls failed: %s", name, value, text);
    const char *warning = strstr(text, "gemmkit-blas: ");
    if (!warning || !strstr(warning, words) || !strstr(warning, "every call runs on the CPU"))
        fail_msg("%s=\"%s\": expected one warning with \"%s\", got \"%s\"", name, value, words, text);
    assert_null(strstr(warning + 1, "gemmkit-blas: ")); /* once, not per call */
}

static void test_bad_device_setting_warns_once(void **state)
{
    (void)state;
    expect_warning_once("GEMMKIT_DEVICE", "no-such-device-anywhere", "GEMMKIT_DEVICE=\"no-such-device-anywhere\"");
    expect_warning_once("GEMMKIT_BACKEND", "bogus", "GEMMKIT_BACKEND=\"bogus\"");
}

/* No device matches: calls above the threshold still succeed, on the CPU. */
static void test_no_device_falls_back_to_cpu(void **state)
{
    (void)state;
    setenv("GEMMKIT_DEVICE", "no-such-device-anywhere", 1);
    setenv("GEMMKIT_BLAS_THRESHOLD", "0", 1);
    setenv("GEMMKIT_BLAS_VERBOSE", "1", 1);
    uint64_t seed = gk_rng_fresh_seed();
    gk_blas_stats before, after;
    gk_blas_get_stats(&before);
    gk_check_result result;
    capture_begin();
    int right = random_call_is_right(seed, &result);
    const char *text = capture_end();
    gk_blas_get_stats(&after);
    assert_int_equal(after.cpu_calls, before.cpu_calls + 1);
    assert_int_equal(after.device_calls, before.device_calls);
    assert_non_null(strstr(text, "no-such-device-anywhere"));
    assert_non_null(strstr(text, "cpu (no device)"));
    if (!right) print_error("GEMMKIT_SEED=%llu: %s\n", (unsigned long long)seed, result.message);
    assert_true(right);
}

/* The settings' cache answers as getenv does through every way a program changes its environment. */
static void test_env_cache_follows_every_change(void **state)
{
    (void)state;
    gk_env_cache cache = {0};
    int changed = 0;
    unsetenv("GK_TEST_CACHED");
    assert_null(gk_env_cached(&cache, "GK_TEST_CACHED", &changed));
    assert_int_equal(changed, 1);
    assert_null(gk_env_cached(&cache, "GK_TEST_CACHED", &changed));
    assert_int_equal(changed, 0);
    setenv("GK_TEST_CACHED", "12", 1); /* added */
    assert_string_equal(gk_env_cached(&cache, "GK_TEST_CACHED", &changed), "12");
    assert_int_equal(changed, 1);
    assert_string_equal(gk_env_cached(&cache, "GK_TEST_CACHED", &changed), "12");
    assert_int_equal(changed, 0);
    setenv("GK_TEST_CACHED", "3", 1); /* replaced */
    assert_string_equal(gk_env_cached(&cache, "GK_TEST_CACHED", &changed), "3");
    assert_int_equal(changed, 1);
    setenv("GK_TEST_OTHER", "x", 1); /* another variable: same value */
    assert_string_equal(gk_env_cached(&cache, "GK_TEST_CACHED", &changed), "3");
    unsetenv("GK_TEST_OTHER");
    assert_string_equal(gk_env_cached(&cache, "GK_TEST_CACHED", &changed), "3");
    static char buffer[] = "GK_TEST_CACHED=4";
    putenv(buffer); /* the caller's buffer, then changed in place */
    assert_string_equal(gk_env_cached(&cache, "GK_TEST_CACHED", &changed), "4");
    buffer[sizeof buffer - 2] = '5';
    assert_string_equal(gk_env_cached(&cache, "GK_TEST_CACHED", &changed), "5");
    assert_int_equal(changed, 1);
    unsetenv("GK_TEST_CACHED"); /* removed */
    assert_null(gk_env_cached(&cache, "GK_TEST_CACHED", &changed));
    assert_int_equal(changed, 1);
    /* A prefix of another name is not the variable. */
    setenv("GK_TEST_CACHED_LONGER", "no", 1);
    assert_null(gk_env_cached(&cache, "GK_TEST_CACHED", &changed));
    unsetenv("GK_TEST_CACHED_LONGER");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* First: its children must not inherit a device this process opened. */
        cmocka_unit_test(test_env_cache_follows_every_change),
        cmocka_unit_test(test_bad_device_setting_warns_once),
        cmocka_unit_test(test_default_xerbla_prints_and_returns),
        cmocka_unit_test(test_verbose_log_and_bad_threshold),
        cmocka_unit_test(test_no_device_falls_back_to_cpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
