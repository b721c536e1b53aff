/* SGEMM on device buffers: element offsets, leading dimensions, the cl_mem
 * entry point, and the buffer range checks. */
#include <math.h>
#include <stdlib.h>

#include "gemmkit_cl.h"
#include "test_support.h"

typedef struct device_case {
    gk_sgemm_case c;
    size_t off_a, off_b, off_c;
} device_case;

/* Runs the case with each operand placed at an offset inside a larger buffer. */
static void run_device_case(device_case d, int through_cl_mem)
{
    gk_sgemm_case c = d.c;
    gk_case_complete(&c);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    size_t na = ea + d.off_a + 5, nb = eb + d.off_b + 5, nc = ec + d.off_c + 5;
    float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *c0 = malloc(nc * sizeof *c0);
    float *res = malloc(nc * sizeof *res);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c0);
    assert_non_null(res);
    gk_fill_random(&test_rng, a, na);
    gk_fill_random(&test_rng, b, nb);
    gk_fill_random(&test_rng, c0, nc);
    if (c.beta == 0.0f) gk_fill_value(c0 + d.off_c, ec, NAN);

    gemmkit_buffer *da, *db, *dc;
    assert_int_equal(gemmkit_buffer_create(test_ctx, na, &da), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, nb, &db), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, nc, &dc), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, da, 0, na, a), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, db, 0, nb, b), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, dc, 0, nc, c0), GEMMKIT_SUCCESS);
    gemmkit_status status;
    if (through_cl_mem) {
        /* Build plain cl_mem buffers the way an OpenCL user would. */
        cl_context cl_ctx;
        cl_command_queue queue;
        assert_int_equal(gemmkit_cl_handles(test_ctx, &cl_ctx, &queue), GEMMKIT_SUCCESS);
        cl_int err;
        cl_mem ma = clCreateBuffer(cl_ctx, CL_MEM_COPY_HOST_PTR, na * 4, a, &err);
        cl_mem mb = clCreateBuffer(cl_ctx, CL_MEM_COPY_HOST_PTR, nb * 4, b, &err);
        cl_mem mc = clCreateBuffer(cl_ctx, CL_MEM_COPY_HOST_PTR, nc * 4, c0, &err);
        assert_int_equal(err, CL_SUCCESS);
        status = gemmkit_sgemm_cl(test_ctx, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, ma, d.off_a, c.lda,
                                  mb, d.off_b, c.ldb, c.beta, mc, d.off_c, c.ldc);
        assert_int_equal(clEnqueueReadBuffer(queue, mc, CL_TRUE, 0, nc * 4, res, 0, NULL, NULL), CL_SUCCESS);
        clReleaseMemObject(ma);
        clReleaseMemObject(mb);
        clReleaseMemObject(mc);
    } else {
        status = gemmkit_sgemm_buffers(test_ctx, NULL, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, da,
                                       d.off_a, c.lda, db, d.off_b, c.ldb, c.beta, dc, d.off_c, c.ldc);
        assert_int_equal(gemmkit_buffer_read(test_ctx, dc, 0, nc, res), GEMMKIT_SUCCESS);
    }
    assert_int_equal(status, GEMMKIT_SUCCESS);
    /* Outside the C matrix nothing may change. */
    assert_memory_equal(res, c0, d.off_c * sizeof(float));
    assert_memory_equal(res + d.off_c + ec, c0 + d.off_c + ec, 5 * sizeof(float));
    gk_check_result result;
    gk_check_sgemm(&c, a + d.off_a, b + d.off_b, c0 + d.off_c, res + d.off_c, &result);
    if (!result.passed) print_error("seed %llu: %s\n", (unsigned long long)test_seed, result.message);
    assert_true(result.passed);
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    gemmkit_buffer_destroy(dc);
    free(a);
    free(b);
    free(c0);
    free(res);
}

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
                run_device_case(d, 0);
                d.c.beta = 0.0f;
                d.c.ldc = 50; /* offset and padded leading dimension together */
                run_device_case(d, 0);
            }
}

static void test_cl_mem_entry_point(void **state)
{
    (void)state;
    if (!test_backend_is("opencl")) skip_because("gemmkit_sgemm_cl is OpenCL interop; this context is not OpenCL");
    device_case d = {{GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 64, 48, 33, 1.0f, -1.0f, 40, 40, 70}, 1, 2, 3};
    run_device_case(d, 1);
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
