/* SGEMM on device buffers: element offsets, leading dimensions, the cl_mem
 * entry point, and the buffer range checks. */
#include "test_device_case.h"

static void test_offsets_all_transposes(void **state)
{
    (void)state;
    const gemmkit_transpose t[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                device_case d = {{l ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR, t[a], t[b], 37, 22, 45, 0.5f, 2.0f, 0, 0,
                                  0},
                                 3, 11, 7};
                run_device_case(NULL, d, 0);
                d.c.beta = 0.0f;
                d.c.ldc = 50; /* offset and padded leading dimension together */
                run_device_case(NULL, d, 0);
            }
}

static void test_cl_mem_entry_point(void **state)
{
    (void)state;
    if (!test_backend_is("opencl")) skip_because("gemmkit_sgemm_cl is OpenCL interop; this context is not OpenCL");
    device_case d = {{GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 64, 48, 33, 1.0f, -1.0f, 40, 40, 70}, 1, 2, 3};
    run_device_case(NULL, d, 1);
}

static void test_buffer_range_checks(void **state)
{
    (void)state;
    gemmkit_buffer *a, *c;
    assert_int_equal(gemmkit_buffer_create(test_ctx, 16, &a), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, 16, &c), GEMMKIT_SUCCESS);
    float host[20] = {0};
    assert_int_equal(gemmkit_buffer_write(test_ctx, a, 10, 7, host), GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_int_equal(gemmkit_buffer_read(test_ctx, a, 17, 0, host), GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_int_equal(gemmkit_buffer_write(test_ctx, a, 0, 4, NULL), GEMMKIT_ERROR_NULL_POINTER);
    /* A 4x4 product fits in 16 floats, but not at offset 1. */
    assert_int_equal(gemmkit_sgemm_buffers(test_ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4,
                                           4, 1.0f, a, 1, 4, a, 0, 4, 0.0f, c, 0, 4),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_int_equal(gemmkit_sgemm_buffers(test_ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4,
                                           4, 1.0f, a, 0, 4, a, 0, 4, 0.0f, c, 0, 5),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_int_equal(gemmkit_sgemm_buffers(test_ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4,
                                           4, 1.0f, NULL, 0, 4, a, 0, 4, 0.0f, c, 0, 4),
                     GEMMKIT_ERROR_NULL_POINTER);
    gemmkit_buffer_destroy(a);
    gemmkit_buffer_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offsets_all_transposes),
        cmocka_unit_test(test_cl_mem_entry_point),
        cmocka_unit_test(test_buffer_range_checks),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
