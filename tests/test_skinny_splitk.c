/* skinny.cl's split-K builds (skinny-m-splitk, skinny-n-splitk by name: K-slices read in place into partials,
 * which each tile's last slice sums in the same launch up to its cap of slices, else the reduction, reduce-deep
 * from 16 slices on) against the float64 reference with fresh random inputs, C poisoned with NaN when beta == 0:
 * odd sizes, slice counts from 1 to more than K has values, every transpose and layout, leading dimensions,
 * offsets, alpha/beta; the sum is deterministic (in the kernel and through either reduction), and one slice
 * computes exactly what the unsplit kernel computes. The model's choice of them is in test_cost_model.c. */
#include "test_choices.h"
#include "test_splitk_checks.h"
#include "test_skinny_sum.h" /* after test_ctx's header */
#include "sgemm.h"          /* GK_SPLITK_MAX_SPLITS */

static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};
static const char *const kernels[][2] = {{"skinny-m-splitk", "skinny-m"}, {"skinny-n-splitk", "skinny-n"}};

/* Small work-groups (MR rows, LC x LK lanes), so that PoCL runs them quickly and the edges are crossed. */
#define LANES "MR=4,LC=8,LK=4,NB=2,KU=4"

static gemmkit_options splitk(int which, const char *params)
{
    return (gemmkit_options){.kernel = kernels[which][0], .params = params};
}

static gk_sgemm_case make(gemmkit_layout l, int a, int b, int64_t m, int64_t n, int64_t k, float alpha, float beta)
{
    return (gk_sgemm_case){l, transposes[a], transposes[b], m, n, k, alpha, beta, 0, 0, 0};
}

static void test_odd_sizes_and_slice_counts(void **state)
{
    (void)state;
    static const int64_t sizes[][3] = {{1, 1, 1}, {2, 3, 5}, {1, 1, 300}, {5, 13, 301}, {9, 33, 1000}, {3, 7, 4099}};
    static const char *const params[] = {LANES ",SPLITS=1", LANES ",SPLITS=3", LANES ",SPLITS=16",
                                         LANES ",SPLITS=97", LANES ",SPLITS=0", "SPLITS=32", LANES ",SPLITS=3,PF=1"};
    for (int w = 0; w < 2; w++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (size_t p = 0; p < sizeof params / sizeof params[0]; p++) {
                const gemmkit_options o = splitk(w, params[p]);
                const int64_t small = sizes[i][0], large = sizes[i][1];
                assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 0, w ? large : small, w ? small : large, sizes[i][2],
                                        1.0f, 0.0f));
            }
}

/* Each operand's slices start kslice columns (plain A, transposed B) or rows further on; both reductions. */
static void test_all_transposes_layouts_and_leading_dimensions(void **state)
{
    (void)state;
    static const char *const params[] = {LANES ",SPLITS=5", LANES ",SPLITS=40"};
    for (int w = 0; w < 2; w++)
        for (size_t p = 0; p < 2; p++) {
            const gemmkit_options o = splitk(w, params[p]);
            for (int l = 0; l < 2; l++)
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++) {
                        gk_sgemm_case c = make(layouts[l], a, b, w ? 45 : 11, w ? 11 : 45, 611, 1.25f, -0.5f);
                        assert_case_ok(&o, c);
                        c.beta = 0.0f; /* C poisoned with NaN: it must not be read */
                        assert_case_ok(&o, c);
                        c.lda = 701, c.ldb = 651, c.ldc = 67;
                        assert_case_ok(&o, c);
                    }
        }
}

static void test_alpha_beta_and_offsets(void **state)
{
    (void)state;
    static const float values[] = {0.0f, 1.0f, -2.5f};
    for (int w = 0; w < 2; w++) {
        const gemmkit_options o = splitk(w, LANES ",SPLITS=20");
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 1, w ? 37 : 6, w ? 6 : 37, 5333, values[a], values[b]));
        assert_offset_cases(&o, w ? 37 : 9, w ? 9 : 37, 445);
    }
}

/* One slice is the unsplit kernel itself (same lanes, same K order), bit for bit; 9 and 64 slices (the two
 * reductions) give the same bits twice. */
static void test_deterministic_and_one_slice_is_skinny(void **state)
{
    (void)state;
    for (int w = 0; w < 2; w++) {
        assert_deterministic_and_one_slice_is(kernels[w][0], kernels[w][1], LANES);
        const int64_t m = w ? 67 : 5, n = w ? 5 : 67, k = 20000;
        float *a = malloc((size_t)(m * k) * sizeof *a), *b = malloc((size_t)(k * n) * sizeof *b);
        float *c1 = malloc((size_t)(m * n) * sizeof *c1), *c2 = malloc((size_t)(m * n) * sizeof *c2);
        assert_true(a && b && c1 && c2);
        gk_fill_random(&test_rng, a, (size_t)(m * k));
        gk_fill_random(&test_rng, b, (size_t)(k * n));
        const gemmkit_options deep = splitk(w, LANES ",SPLITS=64");
        splitk_run(&deep, m, n, k, a, b, c1);
        splitk_run(&deep, m, n, k, a, b, c2);
        assert_memory_equal(c1, c2, (size_t)(m * n) * sizeof *c1);
        free(a), free(b), free(c1), free(c2);
    }
}

/* 2 slices to the cap summed by the tiles' last slices, with lanes that leave work-items idle in the sum (4 x 16
 * results, 32 work-items) and with more results than work-items (16 x 16, 8 work-items: several each). */
static void test_sums_in_kernel(void **state)
{
    (void)state;
    for (int w = 0; w < 2; w++) {
        assert_sums_many_slices(kernels[w][0], LANES, w, 5);
        assert_sums_many_slices(kernels[w][0], "MR=16,LC=4,LK=2,NB=4,KU=4", w, 13);
    }
}

/* The cap: more slices than xgemm-direct-splitk sums, at most what gk_sgemm_splits gives; past it, past the
 * context's counters and in a caller's workspace, the reduction step sums the partials the kernel stored. */
static void test_reduction_step_where_not_summed(void **state)
{
    (void)state;
    for (int w = 0; w < 2; w++) {
        const int cap = gk_kernel_find(kernels[w][0])->sum_splits;
        assert_true(cap > GK_SUM_IN_KERNEL_SPLITS && cap <= GK_SPLITK_MAX_SPLITS);
        assert_reduction_step_where_not_summed(kernels[w][0], LANES, "MR=1,LC=1,LK=1,NB=1,KU=1", w);
    }
}

static void test_bad_parameters_are_refused(void **state)
{
    (void)state;
    static const char *const params[] = {"SPLITS=-1", "SPLITS=1025", "SPLITK=0", "SKINNY_N=1", "MR=33"};
    assert_params_refused("skinny-m-splitk", params, sizeof params / sizeof params[0]);
    static const char *const n_params[] = {"SPLITS=2000", "SKINNY_N=0"};
    assert_params_refused("skinny-n-splitk", n_params, sizeof n_params / sizeof n_params[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odd_sizes_and_slice_counts),
        cmocka_unit_test(test_all_transposes_layouts_and_leading_dimensions),
        cmocka_unit_test(test_alpha_beta_and_offsets),
        cmocka_unit_test(test_deterministic_and_one_slice_is_skinny),
        cmocka_unit_test(test_sums_in_kernel),
        cmocka_unit_test(test_reduction_step_where_not_summed),
        cmocka_unit_test(test_bad_parameters_are_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
