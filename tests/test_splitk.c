/* Split-K SGEMM (xgemm-splitk by name: K-slices into partials, then the
 * reduction) against the float64 reference with fresh random inputs, C
 * poisoned with NaN when beta == 0: odd and tiny sizes, every transpose and
 * layout, leading dimensions, offsets inside buffers, alpha/beta, slice
 * counts from 1 to more than K has K steps; the sum is deterministic, and one
 * slice computes exactly what xgemm computes. The policy's choice of split-K
 * on GPUs is in test_policy.c. */
#include "test_splitk_checks.h"

static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};

/* Small tiles (TSK = 8) keep PoCL fast and K long against them. */
#define TILES "TSM=32,TSN=32,TSK=8,WPTM=4,WPTN=4"

static gemmkit_options splitk(const char *params) { return (gemmkit_options){.kernel = "xgemm-splitk", .params = params}; }

static gk_sgemm_case col(int64_t m, int64_t n, int64_t k, float alpha, float beta)
{
    return (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, m, n, k, alpha, beta, 0, 0, 0};
}

static void test_odd_and_tiny_sizes(void **state)
{
    (void)state;
    /* K not a multiple of SPLITS * TSK, dimensions of 1 and 2, primes. */
    static const int64_t sizes[][3] = {{1, 1, 1}, {2, 3, 5}, {1, 1, 300}, {7, 13, 301}, {33, 65, 1000},
                                       {97, 31, 517}, {64, 64, 1024}, {1, 70, 129}, {70, 1, 129}};
    /* The last two: xgemm's cp.async ring (plain copies here) and its work-group order, per slice. */
    static const char *const params[] = {TILES ",SPLITS=2", TILES ",SPLITS=3", TILES ",SPLITS=7", "SPLITS=4",
                                         TILES ",SPLITS=3,ASYNC_STAGES=3,SWIZZLE=2", "SPLITS=2,ASYNC_STAGES=4"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (size_t p = 0; p < sizeof params / sizeof params[0]; p++) {
            const gemmkit_options o = splitk(params[p]);
            assert_case_ok(&o, col(sizes[i][0], sizes[i][1], sizes[i][2], 1.0f, 0.0f));
        }
}

static void test_all_transposes_both_layouts(void **state)
{
    (void)state;
    const gemmkit_options o = splitk(TILES ",SPLITS=5");
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                gk_sgemm_case c = {layouts[l], transposes[a], transposes[b], 45, 38, 611, 1.25f, -0.5f, 0, 0, 0};
                assert_case_ok(&o, c);
                c.beta = 0.0f; /* C poisoned with NaN: it must not be read */
                assert_case_ok(&o, c);
                c.lda = 700, c.ldb = 650, c.ldc = l ? 60 : 50; /* gaps in C must come back unchanged */
                assert_case_ok(&o, c);
            }
}

static void test_alpha_beta(void **state)
{
    (void)state;
    static const float values[] = {0.0f, 1.0f, -2.5f, 0.5f};
    const gemmkit_options o = splitk(TILES ",SPLITS=4");
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) assert_case_ok(&o, col(37, 29, 333, values[a], values[b]));
    /* K == 0: C = beta * C alone. */
    assert_case_ok(&o, col(20, 30, 0, 1.0f, 0.5f));
    assert_case_ok(&o, col(20, 30, 0, 1.0f, 0.0f));
}

/* SPLITS = 1, exactly K / TSK slices, more slices than K steps (clamped to
 * the slices that hold part of K), and 0: as many as fill the compute units. */
static void test_slice_counts(void **state)
{
    (void)state;
    static const char *const params[] = {TILES ",SPLITS=1",  TILES ",SPLITS=8",  TILES ",SPLITS=16",
                                         TILES ",SPLITS=64", TILES ",SPLITS=256", TILES ",SPLITS=0", "SPLITS=0"};
    for (size_t p = 0; p < sizeof params / sizeof params[0]; p++) {
        const gemmkit_options o = splitk(params[p]);
        assert_case_ok(&o, col(40, 24, 64, 1.0f, 0.0f)); /* 8 K steps */
        assert_case_ok(&o, col(40, 24, 20, 0.5f, 1.0f)); /* 3 K steps, the last partly padding */
        assert_case_ok(&o, col(3, 5, 1, 1.0f, -1.0f));   /* one K step */
        assert_case_ok(&o, col(128, 96, 2048, 1.0f, 0.0f));
    }
}

static void test_offsets_in_buffers(void **state)
{
    (void)state;
    const gemmkit_options o = splitk(TILES ",SPLITS=6");
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                device_case d = {{layouts[l], transposes[a], transposes[b], 37, 22, 445, 0.5f, 2.0f, 0, 0, 0}, 3, 11, 7};
                run_device_case(&o, d, 0);
                d.c.beta = 0.0f;
                d.c.ldc = 50; /* offset and padded leading dimension together */
                run_device_case(&o, d, 0);
            }
}

/* One slice is xgemm itself (same tiles, same K order), bit for bit. */
static void test_deterministic_and_one_slice_is_xgemm(void **state)
{
    (void)state;
    assert_deterministic_and_one_slice_is("xgemm-splitk", "xgemm", TILES);
}

static void test_bad_parameters_are_refused(void **state)
{
    (void)state;
    static const char *const params[] = {"SPLITS=-1", "SPLITS=257", "STRIDED=0"};
    assert_params_refused("xgemm-splitk", params, sizeof params / sizeof params[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odd_and_tiny_sizes),
        cmocka_unit_test(test_all_transposes_both_layouts),
        cmocka_unit_test(test_alpha_beta),
        cmocka_unit_test(test_slice_counts),
        cmocka_unit_test(test_offsets_in_buffers),
        cmocka_unit_test(test_deterministic_and_one_slice_is_xgemm),
        cmocka_unit_test(test_bad_parameters_are_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
