/* The public SGEMM on host arrays: shapes, layouts, transposes, alpha/beta,
 * leading dimensions, against the reference with fresh random inputs (C is
 * poisoned with NaN whenever beta == 0, so unwritten or read elements show). */
#include "test_support.h"

static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};

static gk_sgemm_case make_case(gemmkit_layout layout, gemmkit_transpose ta, gemmkit_transpose tb, int64_t m,
                               int64_t n, int64_t k, float alpha, float beta)
{
    gk_sgemm_case c = {layout, ta, tb, m, n, k, alpha, beta, 0, 0, 0};
    return c;
}

static void check_col(int64_t m, int64_t n, int64_t k)
{
    assert_case_ok(NULL, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, m, n, k, 1.0f, 0.0f));
}

static void test_one_by_one(void **state)
{
    (void)state;
    check_col(1, 1, 1);
}

static void test_primes_and_non_multiples(void **state)
{
    (void)state;
    static const int64_t sizes[][3] = {{7, 13, 17}, {31, 37, 41}, {33, 65, 17}, {97, 101, 103}, {2, 3, 5}, {127, 1, 129}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) check_col(sizes[i][0], sizes[i][1], sizes[i][2]);
}

static void test_skinny_shapes(void **state)
{
    (void)state;
    check_col(1000, 3, 77);
    check_col(3, 1000, 77);
    check_col(1, 300, 1);
    check_col(300, 1, 500);
}

static void test_cube_512(void **state)
{
    (void)state;
    check_col(512, 512, 512);
}

static void test_all_transposes_both_layouts(void **state)
{
    (void)state;
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                assert_case_ok(NULL, make_case(layouts[l], transposes[a], transposes[b], 67, 45, 83, 1.25f, -0.5f));
                assert_case_ok(NULL, make_case(layouts[l], transposes[a], transposes[b], 64, 96, 32, 1.0f, 0.0f));
            }
}

static void test_conj_trans_is_trans(void **state)
{
    (void)state;
    assert_case_ok(NULL, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_CONJ_TRANS, GEMMKIT_CONJ_TRANS, 19, 23, 29, 1.0f, 0.5f));
}

static void test_alpha_beta_values(void **state)
{
    (void)state;
    static const float values[] = {0.0f, 1.0f, -2.5f};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            assert_case_ok(NULL, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 45, 38, 51, values[a],
                                           values[b]));
}

static void test_zero_sizes(void **state)
{
    (void)state;
    /* K == 0: C = beta * C; M or N == 0: nothing to do. */
    assert_case_ok(NULL, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 20, 30, 0, 1.0f, 0.5f));
    assert_case_ok(NULL, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 20, 30, 0, 1.0f, 0.0f));
    assert_case_ok(NULL, make_case(GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 20, 30, 0, 2.0f, 1.0f));
    assert_case_ok(NULL, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 0, 30, 10, 1.0f, 0.0f));
    assert_case_ok(NULL, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 20, 0, 10, 1.0f, 0.0f));
}

static void test_quick_return_touches_nothing(void **state)
{
    (void)state;
    /* alpha == 0 and beta == 1: C stays bit-identical, A and B may be NULL. */
    float c[6] = {1, 2, 3, 4, 5, 6}, before[6];
    memcpy(before, c, sizeof c);
    assert_int_equal(gemmkit_sgemm(test_ctx, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 3, 4, 0.0f, NULL,
                                   2, NULL, 4, 1.0f, c, 2),
                     GEMMKIT_SUCCESS);
    assert_memory_equal(c, before, sizeof c);
    /* M == 0: C may be NULL. */
    assert_int_equal(gemmkit_sgemm(test_ctx, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 0, 3, 4, 1.0f, NULL,
                                   1, NULL, 4, 0.0f, NULL, 1),
                     GEMMKIT_SUCCESS);
}

static void test_nan_in_c_with_beta_zero(void **state)
{
    (void)state;
    /* gk_check_run fills C with NaN when beta == 0; every layout and transpose. */
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            assert_case_ok(NULL, make_case(layouts[l], transposes[a], GEMMKIT_NO_TRANS, 33, 29, 40, 0.5f, 0.0f));
    /* alpha == 0, beta == 0: C becomes exactly zero without being read. */
    assert_case_ok(NULL, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 17, 9, 5, 0.0f, 0.0f));
}

static void test_large_leading_dimensions(void **state)
{
    (void)state;
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                gk_sgemm_case c = make_case(layouts[l], transposes[a], transposes[b], 23, 31, 19, 1.5f, 0.25f);
                c.lda = 70;
                c.ldb = 81;
                c.ldc = 90; /* gaps in C must come back unchanged */
                assert_case_ok(NULL, c);
                c.beta = 0.0f;
                assert_case_ok(NULL, c);
            }
}

/* The library's own kernels by name, with default and other parameters; xgemm's
 * cp.async ring (plain copies here) with more tiles in K than stages, and fewer
 * (K = 9: one or two tiles against 3 or 4 stages). */
static void test_library_kernels_explicitly(void **state)
{
    (void)state;
    static const gemmkit_options kernels[] = {
        {.kernel = "direct"},
        {.kernel = "direct", .params = "TS=8,WPT=1"},
        {.kernel = "direct", .params = "TS=16,WPT=4"},
        {.kernel = "xgemm"},
        {.kernel = "xgemm", .params = "TSM=64,TSN=32,TSK=16,WPTM=4,WPTN=8"},
        {.kernel = "xgemm", .params = "ASYNC_STAGES=3,SWIZZLE=8"},
        {.kernel = "xgemm", .params = "TSM=64,TSN=32,TSK=8,WPTM=4,WPTN=8,ASYNC_STAGES=4"},
        {.kernel = "xgemm", .params = "TSM=32,TSN=64,TSK=16,WPTM=4,WPTN=4,ASYNC_STAGES=2"},
    };
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        for (int l = 0; l < 2; l++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    gk_sgemm_case c = make_case(layouts[l], transposes[a], transposes[b], 75, 130, 41, -1.0f, 0.75f);
                    c.ldc = l ? 140 : 80;
                    assert_case_ok(&kernels[i], c);
                    assert_case_ok(&kernels[i], make_case(layouts[l], transposes[a], transposes[b], 128, 64, 64, 1.0f, 0.0f));
                    assert_case_ok(&kernels[i], make_case(layouts[l], transposes[a], transposes[b], 70, 33, 9, 0.5f, -1.0f));
                }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_by_one),
        cmocka_unit_test(test_primes_and_non_multiples),
        cmocka_unit_test(test_skinny_shapes),
        cmocka_unit_test(test_cube_512),
        cmocka_unit_test(test_all_transposes_both_layouts),
        cmocka_unit_test(test_conj_trans_is_trans),
        cmocka_unit_test(test_alpha_beta_values),
        cmocka_unit_test(test_zero_sizes),
        cmocka_unit_test(test_quick_return_touches_nothing),
        cmocka_unit_test(test_nan_in_c_with_beta_zero),
        cmocka_unit_test(test_large_leading_dimensions),
        cmocka_unit_test(test_library_kernels_explicitly),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
