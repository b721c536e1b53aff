/* xgemm-direct (xgemm's tiles reading the operands as stored, edge tiles
 * bounds-checked, alpha/beta in the kernel) by name, against the float64
 * reference with fresh random inputs, C poisoned with NaN when beta == 0:
 * sizes that end inside a tile and inside a K step, every transpose and
 * layout, leading dimensions and offsets that allow float4 access (VEC_*)
 * and ones that do not, alpha/beta, and each tile shape the H200's tuning
 * lines use. The policy's choice of it is in test_policy.c. */
#include "test_device_case.h"

static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};

/* Small tiles keep PoCL fast; the others are the tuned shapes (128x128, narrow, small). */
#define SMALL "TSM=32,TSN=32,TSK=8,WPTM=4,WPTN=4"
static const char *const tile_shapes[] = {
    SMALL,
    "TSM=64,TSN=64,TSK=4,WPTM=8,WPTN=8",
    "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8",
    "TSM=128,TSN=32,TSK=32,WPTM=8,WPTN=4",
    "TSM=32,TSN=128,TSK=32,WPTM=4,WPTN=8",
    "TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16",
};
#define SHAPES (sizeof tile_shapes / sizeof tile_shapes[0])

static gemmkit_options direct(const char *params) { return (gemmkit_options){.kernel = "xgemm-direct", .params = params}; }

static gk_sgemm_case make(gemmkit_layout l, int a, int b, int64_t m, int64_t n, int64_t k, float alpha, float beta)
{
    return (gk_sgemm_case){l, transposes[a], transposes[b], m, n, k, alpha, beta, 0, 0, 0};
}

static void test_sizes_ending_inside_tiles(void **state)
{
    (void)state;
    /* 1 and 2 (less than a float4), primes, one past a tile, exact tiles, K shorter than a K step. */
    static const int64_t sizes[][3] = {{1, 1, 1},     {2, 3, 5},      {7, 13, 17},   {33, 65, 9},  {64, 32, 64},
                                       {129, 33, 31}, {97, 130, 103}, {3, 200, 250}, {200, 3, 250}, {150, 140, 2}};
    for (size_t s = 0; s < SHAPES; s++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            const gemmkit_options o = direct(tile_shapes[s]);
            assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 0, sizes[i][0], sizes[i][1], sizes[i][2], 1.0f, 0.0f));
        }
}

/* Each transpose reads its operand in the other order (K-contiguous tiles are
 * written transposed into local memory); leading dimensions multiples of 4
 * (float4 loads) and not. */
static void test_all_transposes_layouts_and_leading_dimensions(void **state)
{
    (void)state;
    /* 32x32, 64x64 with TSK 16 and the main 128x128 (each build takes PoCL seconds); every shape runs the sizes above. */
    static const size_t shapes[] = {0, 2, SHAPES - 1};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const size_t s = shapes[i];
        const gemmkit_options o = direct(tile_shapes[s]);
        for (int l = 0; l < 2; l++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    gk_sgemm_case c = make(layouts[l], a, b, 67, 45, 83, 1.25f, -0.5f);
                    assert_case_ok(&o, c);
                    c.beta = 0.0f; /* C poisoned with NaN: it must not be read */
                    assert_case_ok(&o, c);
                    c.lda = 100, c.ldb = 96, c.ldc = 72; /* multiples of 4, with gaps that must stay unchanged */
                    assert_case_ok(&o, c);
                    c.lda = 101, c.ldb = 97, c.ldc = l ? 47 : 70; /* not multiples of 4 */
                    c.beta = 2.0f;
                    assert_case_ok(&o, c);
                    assert_case_ok(&o, make(layouts[l], a, b, 128, 64, 96, 1.0f, 0.0f)); /* whole tiles */
                }
    }
}

static void test_alpha_beta(void **state)
{
    (void)state;
    static const float values[] = {0.0f, 1.0f, -2.5f, 0.5f};
    const gemmkit_options o = direct(SMALL);
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 1, 37, 29, 33, values[a], values[b]));
            assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 1, 0, 64, 64, 16, values[a], values[b]));
        }
    assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 0, 20, 30, 0, 1.0f, 0.5f)); /* K == 0: C = beta * C */
}

/* Offsets inside buffers: unaligned (3, 11, 7) and multiples of 4 (float4 access). */
static void test_offsets_in_buffers(void **state)
{
    (void)state;
    static const int64_t offsets[][3] = {{3, 11, 7}, {4, 8, 12}};
    for (size_t s = 0; s < SHAPES; s += SHAPES - 1)
        for (int f = 0; f < 2; f++)
            for (int l = 0; l < 2; l++)
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++) {
                        const gemmkit_options o = direct(tile_shapes[s]);
                        device_case d = {make(layouts[l], a, b, 37, 22, 45, 0.5f, 2.0f), offsets[f][0], offsets[f][1],
                                         offsets[f][2]};
                        d.c.lda = 48, d.c.ldb = 48, d.c.ldc = 40;
                        run_device_case(&o, d, 0);
                        d.c.beta = 0.0f;
                        d.c.ldc = 52;
                        run_device_case(&o, d, 0);
                    }
}

/* Larger than a few tiles each way with a partial last row and column of tiles. */
static void test_many_tiles(void **state)
{
    (void)state;
    const gemmkit_options o = direct(SMALL);
    assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 0, 301, 257, 123, 1.0f, 0.0f));
    assert_case_ok(&o, make(GEMMKIT_ROW_MAJOR, 1, 1, 257, 301, 77, -1.0f, 1.0f));
}

static void test_bad_parameters_are_refused(void **state)
{
    (void)state;
    float x[4] = {0};
    static const char *const params[] = {"TSK=6", "WPTM=6", "TSM=128,WPTM=16,TSN=32,WPTN=4,TSK=4"};
    for (size_t p = 0; p < sizeof params / sizeof params[0]; p++) {
        const gemmkit_options o = direct(params[p]);
        assert_int_equal(gemmkit_sgemm_ex(test_ctx, &o, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2, 1,
                                          1.0f, x, 2, x, 1, 0.0f, x, 2),
                         GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_ending_inside_tiles),
        cmocka_unit_test(test_all_transposes_layouts_and_leading_dimensions),
        cmocka_unit_test(test_alpha_beta),
        cmocka_unit_test(test_offsets_in_buffers),
        cmocka_unit_test(test_many_tiles),
        cmocka_unit_test(test_bad_parameters_are_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
