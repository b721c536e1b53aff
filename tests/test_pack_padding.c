/* Packing zeros an operand's padding along K only (routine_gemm.c): the rest
 * of the padding keeps whatever the scratch buffers held, which may only
 * reach padded rows and columns of the result. Here the scratch buffers are
 * filled with NaN before every call, so that a product of the unzeroed
 * padding reaching C would show; kernels of each packed contract (A and B, A
 * and B^T, the strided split-K build, a kernel padded to a cube) at odd sizes,
 * every transpose and layout, against the float64 reference. */
#include "context.h"
#include "test_device_case.h"

static const char *const packed_kernels[] = {"xgemm", "xgemm-splitk", "lecture-6-one-block-shared",
                                             "slides-5-blocked", "tutorial-10-padded"};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};
static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};

/* Scratch slots A, B and C grown to `floats` and filled with NaN. */
static void poison_scratch(size_t floats)
{
    float *nan = malloc(floats * sizeof *nan);
    assert_non_null(nan);
    gk_fill_value(nan, floats, NAN);
    for (int slot = GK_SCRATCH_A; slot <= GK_SCRATCH_C; slot++) {
        gk_mem *mem = NULL;
        assert_int_equal(gk_context_scratch(test_ctx, slot, floats * sizeof(float), &mem), GEMMKIT_SUCCESS);
        assert_int_equal(test_ctx->ops->write(test_ctx->device, mem, 0, floats * sizeof(float), nan), GEMMKIT_SUCCESS);
    }
    free(nan);
}

static void test_unzeroed_padding_stays_out_of_c(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof packed_kernels / sizeof packed_kernels[0]; i++) {
        const gemmkit_options named = {.kernel = packed_kernels[i]};
        for (int l = 0; l < 2; l++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    /* Sizes no tile divides; the cube kernel pads all three to one size. */
                    gk_sgemm_case c = {layouts[l], transposes[a], transposes[b], 37, 45, 300, 1.25f,
                                       (a + b) % 2 ? 0.5f : 0.0f, 0, 0, 0};
                    poison_scratch(1 << 20);
                    run_device_case(&named, (device_case){c, 1, 2, 3}, 0);
                }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unzeroed_padding_stays_out_of_c),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
