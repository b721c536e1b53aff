/* The kernels for a small edge of C (skinny-m, skinny-n) and for a short K
 * (small-k), by name, against the float64 reference with fresh random inputs
 * and C poisoned with NaN when beta == 0: the small dimension at 1, 2, 3, 7,
 * 15, 16, 17 (one row block, a full one, one past it) with non-multiples
 * elsewhere, every transpose and layout (each storage order of the large
 * operand is its own access pattern), offsets inside buffers, leading
 * dimensions larger than needed, alpha/beta, K = 1, and K longer than one
 * staged chunk (the long operand loaded a chunk ahead too, PF=1). The policy's
 * choice of these kernels is in test_policy.c. */
#include "test_device_case.h"

static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};
static const int64_t small_sizes[] = {1, 2, 3, 7, 15, 16, 17};
#define SMALL_COUNT (sizeof small_sizes / sizeof small_sizes[0])

/* Defaults, and small blocks that make the test sizes span several work-groups, chunks and row blocks (NB up to 8,
 * the most the registry allows; MR 3 and 5: a last float4 of staged rows partly past the block). */
static const char *const skinny_params[] = {NULL, "MR=4,LC=8,LK=4,NB=2,KU=4,PF=1", "MR=8,LC=4,LK=8,NB=8,KU=2",
                                            "MR=5,LC=8,LK=4,NB=2,KU=4", "MR=3,LC=4,LK=8,NB=1,KU=2,PF=1"};
static const char *const small_k_params[] = {NULL, "LX=16,LY=4,WM=2,WN=4,KCH=4", "LX=8,LY=8,WM=3,WN=8,KCH=16"};
#define PARAM_COUNT 3
/* Row blocks of MR not a multiple of 4 (the staged rows are read back four at a time): skinny.cl's alone. */
#define SKINNY_PARAM_COUNT 5

static gemmkit_options named(const char *kernel, const char *params)
{
    return (gemmkit_options){.kernel = kernel, .params = params};
}

static gk_sgemm_case make(gemmkit_layout layout, gemmkit_transpose ta, gemmkit_transpose tb, int64_t m, int64_t n,
                          int64_t k, float alpha, float beta)
{
    return (gk_sgemm_case){layout, ta, tb, m, n, k, alpha, beta, 0, 0, 0};
}

/* Every transpose and layout of one shape, with beta = 0 (NaN in C) and beta != 0 and padded leading dimensions. */
static void all_orders(const gemmkit_options *o, int64_t m, int64_t n, int64_t k)
{
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                gk_sgemm_case c = make(layouts[l], transposes[a], transposes[b], m, n, k, 1.0f, 0.0f);
                assert_case_ok(o, c);
                c.alpha = -1.25f, c.beta = 0.5f;
                c.lda = (l ? (a ? m : k) : (a ? k : m)) + 5; /* each operand's stored rows plus a gap */
                c.ldb = (l ? (b ? k : n) : (b ? n : k)) + 3;
                c.ldc = (l ? n : m) + 7; /* gaps in C must come back unchanged */
                assert_case_ok(o, c);
            }
}

static void test_skinny_m_small_rows(void **state)
{
    (void)state;
    for (int p = 0; p < SKINNY_PARAM_COUNT; p++) {
        const gemmkit_options o = named("skinny-m", skinny_params[p]);
        for (size_t s = 0; s < SMALL_COUNT; s++) all_orders(&o, small_sizes[s], 301, 259);
    }
}

static void test_skinny_n_small_columns(void **state)
{
    (void)state;
    for (int p = 0; p < SKINNY_PARAM_COUNT; p++) {
        const gemmkit_options o = named("skinny-n", skinny_params[p]);
        for (size_t s = 0; s < SMALL_COUNT; s++) all_orders(&o, 301, small_sizes[s], 259);
    }
}

static void test_small_k_short_k(void **state)
{
    (void)state;
    static const int64_t ks[] = {1, 2, 3, 7, 15, 16, 17, 33, 63, 64}; /* up to its candidate row's K <= 64 */
    for (int p = 0; p < PARAM_COUNT; p++) {
        const gemmkit_options o = named("small-k", small_k_params[p]);
        for (size_t s = 0; s < sizeof ks / sizeof ks[0]; s++) all_orders(&o, 133, 71, ks[s]);
    }
}

/* Each kernel outside its intended regime is still a whole SGEMM: large small-edges, long K, tiny everything. */
static void test_any_shape(void **state)
{
    (void)state;
    static const char *const kernels[] = {"skinny-m", "skinny-n", "small-k"};
    static const int64_t shapes[][3] = {{1, 1, 1}, {2, 3, 5}, {1, 1, 300}, {45, 38, 211}, {67, 1, 1}, {1, 67, 1},
                                        {129, 130, 3}, {17, 17, 600}};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        for (int p = 0; p < PARAM_COUNT; p++) {
            const gemmkit_options o = named(kernels[i], i < 2 ? skinny_params[p] : small_k_params[p]);
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, shapes[s][0],
                                        shapes[s][1], shapes[s][2], 0.75f, 0.0f));
        }
}

static void test_alpha_beta(void **state)
{
    (void)state;
    static const float values[] = {0.0f, 1.0f, -2.5f, 0.5f};
    static const char *const kernels[] = {"skinny-m", "skinny-n", "small-k"};
    static const int64_t shapes[][3] = {{3, 200, 150}, {200, 3, 150}, {90, 70, 5}};
    for (size_t i = 0; i < 3; i++) {
        const gemmkit_options o = named(kernels[i], NULL);
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++)
                assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, shapes[i][0],
                                        shapes[i][1], shapes[i][2], values[a], values[b]));
    }
}

/* Operands at odd offsets inside larger device buffers (nothing else in them may change), with padded ldc. */
static void test_offsets_in_buffers(void **state)
{
    (void)state;
    static const char *const kernels[] = {"skinny-m", "skinny-n", "small-k"};
    static const int64_t shapes[][3] = {{5, 150, 90}, {150, 5, 90}, {70, 45, 3}};
    for (size_t i = 0; i < 3; i++)
        for (int p = 0; p < 2; p++) {
            const gemmkit_options o = named(kernels[i], i < 2 ? skinny_params[p] : small_k_params[p]);
            for (int l = 0; l < 2; l++)
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++) {
                        device_case d = {{layouts[l], transposes[a], transposes[b], shapes[i][0], shapes[i][1],
                                          shapes[i][2], 0.5f, 2.0f, 0, 0, 0},
                                         3, 11, 7};
                        run_device_case(&o, d, 0);
                        d.c.beta = 0.0f;
                        d.c.ldc = (l ? shapes[i][1] : shapes[i][0]) + 9;
                        run_device_case(&o, d, 0);
                    }
        }
}

static void test_bad_parameters_are_refused(void **state)
{
    (void)state;
    float x[4] = {0};
    static const struct {
        const char *kernel, *params;
    } bad[] = {{"skinny-m", "SKINNY_N=1"}, {"skinny-n", "SKINNY_N=0"}, {"skinny-m", "MR=16,NB=8"},
               {"skinny-n", "LC=64,LK=32"}, {"small-k", "WN=6"},      {"small-k", "LX=64,LY=32"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const gemmkit_options o = named(bad[i].kernel, bad[i].params);
        assert_int_equal(gemmkit_sgemm_ex(test_ctx, &o, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2, 1,
                                          1.0f, x, 2, x, 1, 0.0f, x, 2),
                         GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skinny_m_small_rows),
        cmocka_unit_test(test_skinny_n_small_columns),
        cmocka_unit_test(test_small_k_short_k),
        cmocka_unit_test(test_any_shape),
        cmocka_unit_test(test_alpha_beta),
        cmocka_unit_test(test_offsets_in_buffers),
        cmocka_unit_test(test_bad_parameters_are_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
