/* Split-K on the operands as stored (xgemm-direct-splitk by name: K-slices
 * read in place into partials, which each tile's last slice sums, or past 4
 * slices the reduction step) against the float64
 * reference with fresh random inputs, C poisoned with NaN when beta == 0:
 * slices that end inside a K step, every transpose and layout, leading
 * dimensions and offsets with and without float4 access, alpha/beta, slice
 * counts from 1 to more than K has steps; the sum is deterministic, and one
 * slice computes exactly what xgemm-direct computes; the same with the cp.async
 * ring (ASYNC_STAGES) at every choice of the registry row. The policy's choice
 * of it is in test_policy.c. */
#include "test_choices.h"
#include "test_splitk_checks.h"
#include "test_plan_of.h" /* after test_ctx's header */

static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};

#define TILES "TSM=32,TSN=32,TSK=8,WPTM=4,WPTN=4"

static gemmkit_options splitk(const char *params)
{
    return (gemmkit_options){.kernel = "xgemm-direct-splitk", .params = params};
}

static gk_sgemm_case make(gemmkit_layout l, int a, int b, int64_t m, int64_t n, int64_t k, float alpha, float beta)
{
    return (gk_sgemm_case){l, transposes[a], transposes[b], m, n, k, alpha, beta, 0, 0, 0};
}

static void test_odd_sizes_and_slice_counts(void **state)
{
    (void)state;
    static const int64_t sizes[][3] = {{1, 1, 1}, {2, 3, 5}, {1, 1, 300}, {7, 13, 301}, {33, 65, 1000}, {64, 64, 1024}};
    static const char *const params[] = {TILES ",SPLITS=1", TILES ",SPLITS=3", TILES ",SPLITS=7", TILES ",SPLITS=256",
                                         TILES ",SPLITS=0"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (size_t p = 0; p < sizeof params / sizeof params[0]; p++) {
            const gemmkit_options o = splitk(params[p]);
            assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 0, sizes[i][0], sizes[i][1], sizes[i][2], 1.0f, 0.0f));
        }
}

/* 20 slices summed by each reduction: reduce-deep over a small C, one row per work-item from 256 x 256 results on,
 * four rows from 512 x 512 (plan_gemm.c's reduce_helper). */
static void test_many_slices_over_each_size_of_c(void **state)
{
    (void)state;
    static const int64_t sizes[][2] = {{100, 90}, {300, 230}, {520, 510}};
    const gemmkit_options o = splitk(TILES ",SPLITS=20"); /* K = 160: slices of 8 */
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 1, sizes[i][0], sizes[i][1], 160, 1.0f, 0.0f));
        assert_case_ok(&o, make(GEMMKIT_ROW_MAJOR, 1, 0, sizes[i][0], sizes[i][1], 160, -0.75f, 1.5f));
    }
}

/* Each operand's slices start kslice columns (plain A, transposed B) or rows further on. */
static void test_all_transposes_layouts_and_leading_dimensions(void **state)
{
    (void)state;
    const gemmkit_options o = splitk(TILES ",SPLITS=5");
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                gk_sgemm_case c = make(layouts[l], a, b, 45, 38, 611, 1.25f, -0.5f);
                assert_case_ok(&o, c);
                c.beta = 0.0f; /* C poisoned with NaN: it must not be read */
                assert_case_ok(&o, c);
                c.lda = 700, c.ldb = 652, c.ldc = l ? 60 : 48; /* multiples of 4: float4 access */
                assert_case_ok(&o, c);
                c.lda = 701, c.ldb = 651, c.ldc = l ? 61 : 49; /* and not */
                assert_case_ok(&o, c);
            }
}

static void test_alpha_beta_and_offsets(void **state)
{
    (void)state;
    static const float values[] = {0.0f, 1.0f, -2.5f};
    const gemmkit_options o = splitk(TILES ",SPLITS=4");
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 1, 37, 29, 333, values[a], values[b]));
    assert_offset_cases(&o, 37, 22, 445);
}

/* One slice is xgemm-direct itself (same tiles, same K order), bit for bit. */
static void test_deterministic_and_one_slice_is_xgemm_direct(void **state)
{
    (void)state;
    assert_deterministic_and_one_slice_is("xgemm-direct-splitk", "xgemm-direct", TILES);
}

/* One ring size (params: TILES and ASYNC_STAGES) per K-slice: slices ending inside a K step and slices of fewer
 * steps than the ring holds, every transpose and layout, float4 (16-byte) and scalar copies, offsets, NaN-poisoned
 * C; deterministic, and one slice is xgemm-direct with the same ring, bit for bit. */
static void ring_cases(const char *params, const gk_config *config, void *data)
{
    (void)config, (void)data;
    char five[160];
    snprintf(five, sizeof five, "%s,SPLITS=5", params);
    const gemmkit_options o = splitk(five);
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                gk_sgemm_case c = make(layouts[l], a, b, 45, 38, 611, 1.25f, -0.5f); /* slices of 128, the last 99 */
                assert_case_ok(&o, c);
                c.beta = 0.0f;
                assert_case_ok(&o, c);
                c.lda = 700, c.ldb = 652, c.ldc = l ? 60 : 48;
                assert_case_ok(&o, c);
                /* slices of 16 (two K steps, fewer than the ring's tiles), the last 6 (under one step) */
                assert_case_ok(&o, make(layouts[l], a, b, 33, 21, 70, 0.5f, 1.0f));
            }
    static const int64_t offsets[][3] = {{3, 11, 7}, {4, 8, 12}};
    for (int f = 0; f < 2; f++)
        for (int a = 0; a < 2; a++) {
            device_case d = {make(GEMMKIT_COL_MAJOR, a, 1 - a, 37, 22, 445, 0.5f, 2.0f), offsets[f][0], offsets[f][1],
                             offsets[f][2]};
            d.c.lda = 448, d.c.ldb = 448, d.c.ldc = 40;
            run_device_case(&o, d, 0);
            d.c.beta = 0.0f;
            run_device_case(&o, d, 0);
        }
    assert_deterministic_and_one_slice_is("xgemm-direct-splitk", "xgemm-direct", params);
}

/* The cp.async ring (every ASYNC_STAGES choice of the row; plain copies on PoCL, in the ring's order). */
static void test_async_stages(void **state)
{
    (void)state;
    const gk_kernel_def *def = gk_kernel_find("xgemm-direct-splitk");
    assert_non_null(def);
    assert_true(test_each_choice_of(def, TILES, "ASYNC_STAGES", ring_cases, NULL) >= 3);
}

/* Up to GK_SUM_IN_KERNEL_SPLITS (4) slices over at most GK_TILE_COUNTS tiles, the tiles' last slices sum the
 * partials: one step; past either, the reduction is a step of its own. Both run and checked at 4 and 5 slices;
 * the tile limit planned only (4096 x 4096 in 32 x 32 tiles is 16384 of them). */
static void test_sum_in_kernel_or_in_a_step(void **state)
{
    (void)state;
    const gk_kernel_def *def = gk_kernel_find("xgemm-direct-splitk"), *packed = gk_kernel_find("xgemm-splitk");
    assert_true(def && packed);
    assert_true(gk_split_sums_in_kernel(def, 2, 1) && gk_split_sums_in_kernel(def, 4, GK_TILE_COUNTS));
    assert_false(gk_split_sums_in_kernel(def, 1, 1) || gk_split_sums_in_kernel(def, 5, 1) ||
                 gk_split_sums_in_kernel(def, 2, GK_TILE_COUNTS + 1) || gk_split_sums_in_kernel(packed, 2, 1));
    static const struct {
        int64_t m, n, k;
        int splits, steps;
    } cases[] = {{70, 40, 4 * 8, 4, 1}, {70, 40, 5 * 8, 5, 2}, {4096, 4096, 16, 2, 1}, {4097, 4096, 16, 2, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char params[160];
        snprintf(params, sizeof params, "%s,SPLITS=%d", TILES, cases[i].splits);
        const gemmkit_options o = splitk(params);
        gk_plan plan;
        plan_of(cases[i].m, cases[i].n, cases[i].k, &o, &plan);
        assert_int_equal(plan.count, cases[i].steps);
        assert_int_equal(plan.steps[0].binding.global[2], cases[i].splits);
        if (cases[i].m < 100) {
            assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 0, cases[i].m, cases[i].n, cases[i].k, 1.0f, 0.0f));
            assert_case_ok(&o, make(GEMMKIT_ROW_MAJOR, 1, 1, cases[i].m, cases[i].n, cases[i].k, -0.5f, 2.0f));
        }
    }
}

/* Each call leaves its tiles' counters at zero: calls of different tile grids and slice counts one after another
 * on one context (C NaN-poisoned: a tile that no slice saw last would stay NaN), the first shape again at the end. */
static void test_counters_are_left_at_zero(void **state)
{
    (void)state;
    static const struct {
        int64_t m, n, k;
        const char *params;
    } calls[] = {{100, 70, 500, TILES ",SPLITS=3"}, {33, 129, 200, TILES ",SPLITS=2"}, {64, 64, 1024, TILES ",SPLITS=4"},
                 {100, 70, 500, TILES ",SPLITS=5"}, {100, 70, 500, TILES ",SPLITS=3"}};
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
            const gemmkit_options o = splitk(calls[i].params);
            assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, round & 1, 0, calls[i].m, calls[i].n, calls[i].k, 1.0f, 0.0f));
        }
}

static void test_bad_parameters_are_refused(void **state)
{
    (void)state;
    static const char *const params[] = {"SPLITS=-1", "SPLITS=257", "SPLITK=0", "TSK=6", "ASYNC_STAGES=1", "ASYNC_STAGES=5"};
    assert_params_refused("xgemm-direct-splitk", params, sizeof params / sizeof params[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odd_sizes_and_slice_counts),
        cmocka_unit_test(test_many_slices_over_each_size_of_c),
        cmocka_unit_test(test_all_transposes_layouts_and_leading_dimensions),
        cmocka_unit_test(test_alpha_beta_and_offsets),
        cmocka_unit_test(test_deterministic_and_one_slice_is_xgemm_direct),
        cmocka_unit_test(test_async_stages),
        cmocka_unit_test(test_sum_in_kernel_or_in_a_step),
        cmocka_unit_test(test_counters_are_left_at_zero),
        cmocka_unit_test(test_bad_parameters_are_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
