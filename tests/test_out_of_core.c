/* Out-of-core SGEMM on one device (issue 18): with a device-memory limit
 * the operands exceed, host-array calls are tiled with K in chunks, and
 * match the reference over layouts, transposes, alpha/beta (C poisoned when
 * beta = 0) and odd sizes; calls that fit keep the staging path; a limit
 * too small for any tile fails clearly with C untouched. */
#include <string.h>

#include "context.h"
#include "multi_gemm.h"
#include "route_gemm.h"
#include "test_support.h"
#include "test_random.h"

static const gemmkit_options device_only = {.device_only = 1};

static gk_sgemm_problem problem_of(int64_t m, int64_t n, int64_t k)
{
    const gk_gemm_call call = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, m, n, k, 1.0f, 0.5f,
                               NULL, NULL, NULL, 0, 0, 0, m, k, m};
    gk_sgemm_problem p;
    assert_int_equal(gk_sgemm_prepare(&call, &p), GEMMKIT_SUCCESS);
    return p;
}

static gemmkit_context *one_device(size_t limit)
{
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_context_set_memory_limit(ctx, limit), GEMMKIT_SUCCESS);
    return ctx;
}

static void test_routing(void **state)
{
    (void)state;
    gemmkit_context *ctx = one_device(1 << 20);
    /* 100^3 stages 120 KB: the ordinary path; 300^3 stages 1 MB, twice that over the limit: tiled. */
    gk_sgemm_problem small = problem_of(100, 100, 100), large = problem_of(300, 300, 300);
    assert_false(gk_sgemm_route_tiled(ctx, &small, gk_sgemm_route_choice(ctx, &small)));
    assert_true(gk_sgemm_route_tiled(ctx, &large, gk_sgemm_route_choice(ctx, &large)));
    /* The tiles: K in chunks, many tiles, every lane's share within half of the limit. */
    gk_tiling t;
    assert_int_equal(gk_sgemm_tiling(ctx, &large, &t), GEMMKIT_SUCCESS);
    printf("300^3 under 1 MiB: tiles %lld x %lld, K chunk %lld: %lld x %lld tiles, %lld chunks\n", (long long)t.tm,
           (long long)t.tn, (long long)t.kc, (long long)t.rows, (long long)t.cols, (long long)t.chunks);
    assert_true(t.chunks > 1);
    assert_true(t.rows * t.cols > GK_LANES_PER_DEVICE);
    assert_true(2 * 4 * (t.tm * t.kc + t.kc * t.tn + t.tm * t.tn) <= (1 << 20) / GK_LANES_PER_DEVICE);
    /* Without a limit the device's memory is the budget: 300^3 fits. */
    assert_int_equal(gemmkit_context_set_memory_limit(ctx, 0), GEMMKIT_SUCCESS);
    assert_false(gk_sgemm_route_tiled(ctx, &large, gk_sgemm_route_choice(ctx, &large)));
    gemmkit_context_destroy(ctx);
}

static void test_out_of_core_cases(void **state)
{
    (void)state;
    gemmkit_context *ctx = one_device(1 << 20);
    const gk_sgemm_case cases[] = {
        {0, 0, 0, 300, 290, 310, 1.0f, 0.0f, 0, 0, 0},   /* beta = 0: C poisoned */
        {0, 0, 0, 257, 301, 283, -0.75f, 1.25f, 0, 0, 0},
        {0, 0, 0, 260, 270, 290, 0.5f, -1.0f, 333, 317, 335}, /* gaps between columns stay */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) assert_case_every_form(ctx, &device_only, cases[i], 1e6);
    gemmkit_context_destroy(ctx);
}

/* GEMMKIT_DEVICE_MEMORY_LIMIT sets a new context's limit; one too small for any tile fails, C untouched. */
static void test_limit_too_small(void **state)
{
    (void)state;
    setenv("GEMMKIT_DEVICE_MEMORY_LIMIT", "4K", 1);
    gemmkit_context *ctx = NULL;
    gemmkit_status status = gemmkit_context_create(&ctx, NULL);
    unsetenv("GEMMKIT_DEVICE_MEMORY_LIMIT");
    assert_int_equal(status, GEMMKIT_SUCCESS);
    enum { M = 40, N = 30, K = 20 };
    float a[M * K], b[K * N], c[M * N], before[M * N];
    gk_fill_random(&test_rng, a, M * K);
    gk_fill_random(&test_rng, b, K * N);
    gk_fill_random(&test_rng, c, M * N);
    memcpy(before, c, sizeof c);
    status = gemmkit_sgemm_ex(ctx, &device_only, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N, K, 1.0f,
                              a, M, b, K, 1.0f, c, M);
    assert_int_equal(status, GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY);
    assert_non_null(strstr(gemmkit_last_error_message(), "too few"));
    assert_memory_equal(c, before, sizeof c);
    /* Raised (the call stages 21 KB: still tiled), the same shape runs right. */
    assert_int_equal(gemmkit_context_set_memory_limit(ctx, 16 << 10), GEMMKIT_SUCCESS);
    gk_check_result result;
    const gk_sgemm_case one = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, M, N, K, 1.0f, 0.5f, 0, 0, 0};
    assert_int_equal(gk_check_run(ctx, &device_only, one, &test_rng, 1e9, &result), GEMMKIT_SUCCESS);
    assert_true(result.passed);
    assert_int_equal(gemmkit_context_set_memory_limit(NULL, 1), GEMMKIT_ERROR_NULL_POINTER);
    gemmkit_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_routing),
        cmocka_unit_test(test_out_of_core_cases),
        cmocka_unit_test(test_limit_too_small),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
