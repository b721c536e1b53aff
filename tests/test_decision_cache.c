/* The context's cache of SGEMM choices (src/core/decision_cache.h): a cached choice is the choice made anew, for
 * every signature it holds, whichever signatures share its slots; calls through the public API fill it and are
 * answered from it; a call of another math mode, orientation or beta is not answered with another's choice. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "context.h"
#include "decision_cache.h"
#include "policy.h"
#include "sgemm.h"

static gk_sgemm_problem problem(int64_t m, int64_t n, int64_t k, int trans_a, int trans_b, float beta)
{
    gk_sgemm_problem p = {0};
    p.m = m, p.n = n, p.k = k, p.trans_a = trans_a, p.trans_b = trans_b, p.alpha = 1, p.beta = beta;
    return p;
}

static void assert_same_choice(const gk_sgemm_choice *a, const gk_sgemm_choice *b)
{
    assert_ptr_equal(a->def, b->def);
    assert_ptr_equal(a->params, b->params);
    assert_memory_equal(a->config.values, b->config.values, sizeof a->config.values);
}

/* 300 signatures over 64 slots, asked twice in different orders: every answer is the choice made anew. */
static void test_cached_choice_is_the_fresh_one(void **state)
{
    (void)state;
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    srand(35);
    gk_sgemm_problem problems[300];
    for (int i = 0; i < 300; i++)
        problems[i] = problem(1 + rand() % 3000, 1 + rand() % 3000, 1 + rand() % 5000, rand() & 1, rand() & 1,
                              (float)(rand() & 1));
    for (int round = 0; round < 2; round++)
        for (int j = 0; j < 300; j++) {
            const gk_sgemm_problem *p = &problems[round ? 299 - j : j];
            const gk_sgemm_choice cached = gk_sgemm_default_kernel_for(ctx, p);
            const gk_sgemm_choice again = gk_sgemm_default_kernel_for(ctx, p);
            const gk_sgemm_choice fresh = gk_sgemm_choose_for(gk_policy_builtin(), &ctx->info, &ctx->tuned, p);
            assert_same_choice(&cached, &fresh);
            assert_same_choice(&again, &fresh);
        }
    assert_true(ctx->decisions->hits >= 300); /* each "again" at least */
    gemmkit_context_destroy(ctx);
}

/* Public calls repeat a shape: after the first, the choice comes from the cache; a call differing only in its
 * math mode or beta is a new signature. */
static void test_public_calls_fill_and_use_it(void **state)
{
    (void)state;
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    enum { N = 24 };
    float a[N * N], b[N * N], c[N * N];
    for (int i = 0; i < N * N; i++) a[i] = (float)(i % 7) - 3, b[i] = (float)(i % 5) - 2, c[i] = 1;
    gemmkit_options options = {0};
    options.device_only = 1; /* CPU devices would hand host arrays to the CPU BLAS, which chooses no kernel */
    for (int i = 0; i < 3; i++)
        assert_int_equal(gemmkit_sgemm_ex(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, N, N,
                                          N, 1, a, N, b, N, 0, c, N),
                         GEMMKIT_SUCCESS);
    const uint64_t misses = ctx->decisions->misses, hits = ctx->decisions->hits;
    assert_true(misses >= 1);
    assert_true(hits >= 2);
    assert_int_equal(gemmkit_sgemm_ex(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, N, N, N,
                                      1, a, N, b, N, 0.5f, c, N),
                     GEMMKIT_SUCCESS);
    assert_int_equal(ctx->decisions->misses, misses + 1);
    gemmkit_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cached_choice_is_the_fresh_one),
        cmocka_unit_test(test_public_calls_fill_and_use_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
