/* Helpers shared by the cmocka tests: one context per test program, and a
 * one-call "run this case and assert it matches the reference". */
#ifndef GK_TEST_SUPPORT_H
#define GK_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check.h"
#include "gemmkit.h"

static gemmkit_context *test_ctx;
static gk_rng test_rng;
static uint64_t test_seed;

static inline int test_setup_context(void **state)
{
    (void)state;
    test_seed = gk_rng_fresh_seed();
    gk_rng_seed(&test_rng, test_seed);
    gemmkit_status status = gemmkit_context_create(&test_ctx, NULL);
    if (status != GEMMKIT_SUCCESS) {
        fprintf(stderr, "no device: %s\n", gemmkit_last_error_message());
        return -1;
    }
    /* Which device ran the test: GEMMKIT_DEVICE chooses, the default is the first GPU. */
    gemmkit_device_info info;
    if (gemmkit_context_device_info(test_ctx, &info) == GEMMKIT_SUCCESS)
        printf("device: %s | %s (%s, GEMMKIT_DEVICE=%s)\n", info.platform, info.name, info.is_gpu ? "GPU" : "CPU/other",
               getenv("GEMMKIT_DEVICE") ? getenv("GEMMKIT_DEVICE") : "unset");
    return 0;
}

/* Whether the test context runs on the named backend ("opencl" or "cuda", as gemmkit_device_info names it). */
static inline int test_backend_is(const char *backend)
{
    gemmkit_device_info info;
    return gemmkit_context_device_info(test_ctx, &info) == GEMMKIT_SUCCESS && strcmp(info.backend, backend) == 0;
}

/* Skips the current test, saying why: for what a backend does not have. */
#define skip_because(...)                                                                                            \
    do {                                                                                                               \
        printf("skipped: " __VA_ARGS__);                                                                               \
        printf("\n");                                                                                                  \
        skip();                                                                                                        \
    } while (0)

static inline int test_teardown_context(void **state)
{
    (void)state;
    gemmkit_context_destroy(test_ctx);
    test_ctx = NULL;
    return 0;
}

/* Runs a case on fresh random data on ctx (a full check up to full_check
 * multiply-adds, sampled above) and fails the test, with the seed, on a mismatch. */
static inline void assert_case_ok_on(gemmkit_context *ctx, const gemmkit_options *options, gk_sgemm_case c,
                                     double full_check)
{
    gk_check_result result;
    gemmkit_status status = gk_check_run(ctx, options, c, &test_rng, full_check, &result);
    if (status != GEMMKIT_SUCCESS || !result.passed)
        print_error("case %s %c%c m=%lld n=%lld k=%lld alpha=%g beta=%g lda=%lld ldb=%lld ldc=%lld kernel=%s params=%s "
                    "(GEMMKIT_SEED=%llu): %s %s\n",
                    c.layout == GEMMKIT_ROW_MAJOR ? "row" : "col", c.trans_a == GEMMKIT_NO_TRANS ? 'N' : 'T',
                    c.trans_b == GEMMKIT_NO_TRANS ? 'N' : 'T', (long long)c.m, (long long)c.n, (long long)c.k,
                    c.alpha, c.beta, (long long)c.lda, (long long)c.ldb, (long long)c.ldc,
                    options && options->kernel ? options->kernel : "default",
                    options && options->params ? options->params : "-", (unsigned long long)test_seed,
                    gemmkit_strerror(status), status ? gemmkit_last_error_message() : result.message);
    assert_int_equal(status, GEMMKIT_SUCCESS);
    assert_true(result.passed);
}

/* The same on the test's context. */
static inline void assert_case_ok(const gemmkit_options *options, gk_sgemm_case c)
{
    assert_case_ok_on(test_ctx, options, c, 2e8);
}

/* A case in both layouts and all four transpose combinations (its own layout and transposes ignored). */
static inline void assert_case_every_form(gemmkit_context *ctx, const gemmkit_options *options, gk_sgemm_case c,
                                          double full_check)
{
    for (int layout = 0; layout < 2; layout++)
        for (int t = 0; t < 4; t++) {
            c.layout = layout ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR;
            c.trans_a = t & 1 ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS;
            c.trans_b = t & 2 ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS;
            assert_case_ok_on(ctx, options, c, full_check);
        }
}

#endif
