/* skinny_dot.cl's kernels (skinny-m-dot, skinny-n-dot and their split-K builds), by name, against the float64
 * reference with fresh random inputs and C poisoned with NaN when beta == 0: the small edge at 1-17 (one row block,
 * a full one, one past it), K over several staged chunks with and without a short last one, every transpose and
 * layout (the large operand contiguous along K is the float4 path; the other orientation is correct, only slow),
 * leading dimensions and offsets on and off 16-byte alignment (float4 loads or four floats), slice counts whose
 * slices start on and off a multiple of 4, the split builds' sum in the kernel (up to its cap of slices) and the
 * reduction step past it, alpha/beta, determinism, and bad parameters refused. */
#include "test_splitk_checks.h"
#include "test_skinny_sum.h" /* after test_ctx's header */
#include "sgemm.h"          /* GK_SPLITK_MAX_SPLITS */

static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};
static const char *const kernels[][2] = {{"skinny-m-dot", "skinny-m-dot-splitk"},
                                         {"skinny-n-dot", "skinny-n-dot-splitk"}};

/* The defaults (the GPU's chunk of 512), and small lane counts whose chunks of 32 and 64 put the test sizes over
 * several chunks, columns per work-item and row blocks. */
static const char *const params[] = {NULL, "MR=4,KL=8,CL=2,NB=2,U=1", "MR=8,KL=4,CL=4,NB=4,U=4"};
#define PARAM_COUNT 3
#define SMALL_LANES "MR=4,KL=8,CL=2,NB=2,U=1"

static gemmkit_options named(const char *kernel, const char *p)
{
    return (gemmkit_options){.kernel = kernel, .params = p};
}

static gk_sgemm_case make(gemmkit_layout l, int a, int b, int64_t m, int64_t n, int64_t k, float alpha, float beta)
{
    return (gk_sgemm_case){l, transposes[a], transposes[b], m, n, k, alpha, beta, 0, 0, 0};
}

/* Every transpose and layout of one shape: tight leading dimensions (aligned when the stored rows are a multiple of
 * 4), then padded ones off alignment with alpha/beta. */
static void all_orders(const gemmkit_options *o, int64_t m, int64_t n, int64_t k)
{
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                gk_sgemm_case c = make(layouts[l], a, b, m, n, k, 1.0f, 0.0f);
                assert_case_ok(o, c);
                c.alpha = -1.25f, c.beta = 0.5f;
                c.lda = (l ? (a ? m : k) : (a ? k : m)) + 5;
                c.ldb = (l ? (b ? k : n) : (b ? n : k)) + 3;
                c.ldc = (l ? n : m) + 7; /* gaps in C must come back unchanged */
                assert_case_ok(o, c);
            }
}

static void test_small_edges_and_chunks(void **state)
{
    (void)state;
    static const int64_t smalls[] = {1, 2, 3, 4, 5, 7, 15, 16, 17};
    static const int64_t ks[] = {260, 259, 1100}; /* whole float4s only; a short last float4; past the GPU's chunk */
    for (int w = 0; w < 2; w++)
        for (int p = 0; p < PARAM_COUNT; p++) {
            const gemmkit_options o = named(kernels[w][0], params[p]);
            for (size_t s = 0; s < sizeof smalls / sizeof smalls[0]; s++)
                for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
                    all_orders(&o, w ? 203 : smalls[s], w ? smalls[s] : 203, ks[i]);
        }
}

/* Outside the regime it serves: still a whole SGEMM (tiny everything, large small edges, K = 1). */
static void test_any_shape(void **state)
{
    (void)state;
    static const int64_t shapes[][3] = {{1, 1, 1}, {2, 3, 5}, {1, 1, 300}, {45, 38, 211}, {67, 1, 1}, {1, 67, 1},
                                        {129, 130, 3}, {17, 17, 600}};
    for (int w = 0; w < 2; w++)
        for (int p = 0; p < PARAM_COUNT; p++) {
            const gemmkit_options o = named(kernels[w][0], params[p]);
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (int a = 0; a < 2; a++)
                    assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, a, !a, shapes[s][0], shapes[s][1], shapes[s][2],
                                            0.75f, 0.0f));
        }
}

/* Operands at offsets on and off float4 alignment inside larger device buffers (nothing else in them may change),
 * both kernels and their split builds. */
static void test_offsets_alpha_beta(void **state)
{
    (void)state;
    static const float values[] = {0.0f, 1.0f, -2.5f};
    for (int w = 0; w < 2; w++)
        for (int s = 0; s < 2; s++) {
            const gemmkit_options o = named(kernels[w][s], s ? SMALL_LANES ",SPLITS=5" : SMALL_LANES);
            assert_offset_cases(&o, w ? 37 : 9, w ? 9 : 37, 445);
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 0, w ? 37 : 6, w ? 6 : 37, 1333, values[a],
                                            values[b]));
        }
}

/* Slices of K: counts from 1 to more than K has values; 4 and 8 slices of 1024 start on multiples of 4 (float4
 * loads), 3 and 7 of 1021 do not (four floats); every transpose and layout. */
static void test_split_slices(void **state)
{
    (void)state;
    static const char *const counts[] = {SMALL_LANES ",SPLITS=1", SMALL_LANES ",SPLITS=3", SMALL_LANES ",SPLITS=4",
                                         SMALL_LANES ",SPLITS=8", SMALL_LANES ",SPLITS=40", SMALL_LANES ",SPLITS=97",
                                         SMALL_LANES ",SPLITS=0", "SPLITS=7"};
    static const int64_t ks[] = {1, 300, 1021, 1024};
    for (int w = 0; w < 2; w++)
        for (size_t p = 0; p < sizeof counts / sizeof counts[0]; p++) {
            const gemmkit_options o = named(kernels[w][1], counts[p]);
            for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
                for (int l = 0; l < 2; l++)
                    for (int a = 0; a < 2; a++)
                        for (int b = 0; b < 2; b++)
                            assert_case_ok(&o, make(layouts[l], a, b, w ? 45 : 11, w ? 11 : 45, ks[i], 1.25f,
                                                    p % 2 ? -0.5f : 0.0f));
        }
}

/* Split sums in a fixed order: the same bits twice; one slice is the unsplit kernel, bit for bit. */
static void test_deterministic_and_one_slice_is_whole(void **state)
{
    (void)state;
    for (int w = 0; w < 2; w++) assert_deterministic_and_one_slice_is(kernels[w][1], kernels[w][0], SMALL_LANES);
}

/* 2 slices to the cap summed by the tiles' last slices: 4 x 4 results over 16 work-items, and 8 x 16 over 16 (several
 * each). */
static void test_sums_in_kernel(void **state)
{
    (void)state;
    for (int w = 0; w < 2; w++) {
        assert_sums_many_slices(kernels[w][1], SMALL_LANES, w, 5);
        assert_sums_many_slices(kernels[w][1], params[2], w, 11);
    }
}

/* The cap: more slices than xgemm-direct-splitk sums, at most what gk_sgemm_splits gives; past it, past the
 * context's counters and in a caller's workspace, the reduction step sums the partials the kernel stored. */
static void test_reduction_step_where_not_summed(void **state)
{
    (void)state;
    for (int w = 0; w < 2; w++) {
        const int cap = gk_kernel_find(kernels[w][1])->sum_splits;
        assert_true(cap > GK_SUM_IN_KERNEL_SPLITS && cap <= GK_SPLITK_MAX_SPLITS);
        assert_reduction_step_where_not_summed(kernels[w][1], SMALL_LANES, "MR=1,KL=1,CL=1,NB=1,U=1", w);
    }
}

static void test_bad_parameters_are_refused(void **state)
{
    (void)state;
    static const char *const m_params[] = {"SKINNY_N=1", "MR=17", "KL=64,CL=32", "U=16", "NB=8,U=8", "MR=16,NB=8"};
    assert_params_refused("skinny-m-dot", m_params, sizeof m_params / sizeof m_params[0]);
    static const char *const n_params[] = {"SKINNY_N=0", "MR=0", "U=0"};
    assert_params_refused("skinny-n-dot", n_params, sizeof n_params / sizeof n_params[0]);
    static const char *const split_params[] = {"SPLITS=-1", "SPLITS=1025", "SPLITK=0"};
    assert_params_refused("skinny-m-dot-splitk", split_params, sizeof split_params / sizeof split_params[0]);
    assert_params_refused("skinny-n-dot-splitk", split_params, sizeof split_params / sizeof split_params[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_edges_and_chunks),
        cmocka_unit_test(test_any_shape),
        cmocka_unit_test(test_offsets_alpha_beta),
        cmocka_unit_test(test_split_slices),
        cmocka_unit_test(test_deterministic_and_one_slice_is_whole),
        cmocka_unit_test(test_sums_in_kernel),
        cmocka_unit_test(test_reduction_step_where_not_summed),
        cmocka_unit_test(test_bad_parameters_are_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
