/* SGEMM cases on device buffers, each operand at an element offset inside a
 * larger buffer whose other elements must not change: shared by the tests of
 * the buffer entry points and of kernels reached by name (test_splitk.c). */
#ifndef GK_TEST_DEVICE_CASE_H
#define GK_TEST_DEVICE_CASE_H

#include <math.h>
#include <stdlib.h>

#include "gemmkit_cl.h"
#include "test_support.h"

typedef struct device_case {
    gk_sgemm_case c;
    size_t off_a, off_b, off_c;
} device_case;

/* Runs the case (kernel and parameters from options, NULL: the default) with each operand placed at an
 * offset inside a larger buffer, through gemmkit_sgemm_buffers or (through_cl_mem) gemmkit_sgemm_cl. */
static void run_device_case(const gemmkit_options *options, device_case d, int through_cl_mem)
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
        assert_null(options); /* the cl_mem entry point takes none */
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
        status = gemmkit_sgemm_buffers(test_ctx, options, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, da,
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

#endif
