/* A program's own OpenCL context and queues (gemmkit_context_create_cl, gemmkit_sgemm_cl_enqueue, issue 37): writes
 * enqueued before the call and a read after its event, with no clFinish between, give the reference's result on
 * every transpose, layout, offset and alpha/beta, on an in-order queue and on an out-of-order one (where the device
 * has one); a call that changes nothing still gives an event; bad arguments are refused before anything is
 * enqueued, C untouched; the blocking entry points work on the same context. A wrong result also says whether the
 * blocking entry point gets the same case right on the same buffers; int8x too returns before its wait list. Runs on
 * the first OpenCL device gemmkit lists (PoCL in `make test`). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check.h"
#include "gemmkit_cl.h"

typedef struct program_side {
    cl_context context;
    cl_device_id device;
    cl_command_queue in_order, out_of_order; /* out_of_order NULL where the device has none */
    gemmkit_context *ctx;
} program_side;

static program_side side;

static int setup(void **state)
{
    (void)state;
    cl_platform_id platform;
    cl_uint count = 0;
    if (clGetPlatformIDs(1, &platform, &count) != CL_SUCCESS || count == 0) return -1;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &side.device, &count) != CL_SUCCESS) return -1;
    cl_int err = CL_SUCCESS;
    side.context = clCreateContext(NULL, 1, &side.device, NULL, NULL, &err);
    if (err != CL_SUCCESS) return -1;
    side.in_order = clCreateCommandQueue(side.context, side.device, 0, &err);
    if (err != CL_SUCCESS) return -1;
    side.out_of_order = clCreateCommandQueue(side.context, side.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS) side.out_of_order = NULL;
    return gemmkit_context_create_cl(side.context, side.device, &side.ctx) == GEMMKIT_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    gemmkit_context_destroy(side.ctx);
    if (side.out_of_order) clReleaseCommandQueue(side.out_of_order);
    clReleaseCommandQueue(side.in_order);
    clReleaseContext(side.context);
    return 0;
}

static cl_mem buffer_of(size_t floats)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(side.context, CL_MEM_READ_WRITE, (floats ? floats : 1) * sizeof(float), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

/* One case through the program's queue: A, B and C written without blocking (C poisoned when beta is 0), the call
 * after their three events, C read after the call's event; the first wait is the read's. */
static void run_case(cl_command_queue queue, gk_sgemm_case c, size_t off_a, size_t off_b, size_t off_c, gk_rng *rng)
{
    gk_case_complete(&c);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    float *a = malloc((ea + 1) * sizeof *a), *b = malloc((eb + 1) * sizeof *b), *c0 = malloc((ec + 1) * sizeof *c0);
    float *out = malloc((ec + 1) * sizeof *out);
    assert_true(a && b && c0 && out);
    gk_case_fill_inputs(&c, rng, a, b, c0);
    cl_mem ma = buffer_of(off_a + ea), mb = buffer_of(off_b + eb), mc = buffer_of(off_c + ec);
    cl_event written[3], done = NULL, read = NULL;
    assert_int_equal(clEnqueueWriteBuffer(queue, ma, CL_FALSE, off_a * 4, ea * 4, a, 0, NULL, &written[0]), CL_SUCCESS);
    assert_int_equal(clEnqueueWriteBuffer(queue, mb, CL_FALSE, off_b * 4, eb * 4, b, 0, NULL, &written[1]), CL_SUCCESS);
    assert_int_equal(clEnqueueWriteBuffer(queue, mc, CL_FALSE, off_c * 4, ec * 4, c0, 0, NULL, &written[2]), CL_SUCCESS);
    assert_int_equal(gemmkit_sgemm_cl_enqueue(side.ctx, queue, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha,
                                              ma, off_a, c.lda, mb, off_b, c.ldb, c.beta, mc, off_c, c.ldc, 3, written,
                                              &done),
                     GEMMKIT_SUCCESS);
    assert_non_null(done);
    assert_int_equal(clEnqueueReadBuffer(queue, mc, CL_FALSE, off_c * 4, ec * 4, out, 1, &done, &read), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &read), CL_SUCCESS);
    gk_check_result result;
    gk_check_sgemm(&c, a, b, c0, out, &result);
    if (!result.passed) {
        /* Which side is wrong: the same call again through the blocking entry point on the same buffers (C written
         * back first), so that a failure tells the enqueue's ordering from the kernel's arithmetic. */
        gk_check_result blocking = {0};
        const int rerun =
            clEnqueueWriteBuffer(queue, mc, CL_TRUE, off_c * 4, ec * 4, c0, 0, NULL, NULL) == CL_SUCCESS &&
            gemmkit_sgemm_cl(side.ctx, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, ma, off_a, c.lda, mb,
                             off_b, c.ldb, c.beta, mc, off_c, c.ldc) == GEMMKIT_SUCCESS &&
            clEnqueueReadBuffer(queue, mc, CL_TRUE, off_c * 4, ec * 4, out, 0, NULL, NULL) == CL_SUCCESS;
        if (rerun) gk_check_sgemm(&c, a, b, c0, out, &blocking);
        fail_msg("%lldx%lldx%lld %s%s %s alpha %g beta %g: %s (%lld elements wrong); the blocking call on the same "
                 "buffers: %s",
                 (long long)c.m, (long long)c.n, (long long)c.k, c.trans_a == GEMMKIT_TRANS ? "T" : "N",
                 c.trans_b == GEMMKIT_TRANS ? "T" : "N", c.layout == GEMMKIT_ROW_MAJOR ? "row" : "col", c.alpha,
                 c.beta, result.message, (long long)result.bad_count,
                 !rerun ? "could not run" : blocking.passed ? "right" : blocking.message);
    }
    for (int i = 0; i < 3; i++) clReleaseEvent(written[i]);
    clReleaseEvent(done), clReleaseEvent(read);
    clReleaseMemObject(ma), clReleaseMemObject(mb), clReleaseMemObject(mc);
    free(a), free(b), free(c0), free(out);
}

static void every_case_on(cl_command_queue queue)
{
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    const gemmkit_transpose t[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};
    for (int l = 0; l < 2; l++)
        for (int x = 0; x < 2; x++)
            for (int y = 0; y < 2; y++) {
                const gemmkit_layout layout = l ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR;
                run_case(queue, (gk_sgemm_case){layout, t[x], t[y], 37, 22, 45, 0.5f, 2.0f, 0, 0, 0}, 3, 11, 7, &rng);
                run_case(queue, (gk_sgemm_case){layout, t[x], t[y], 64, 48, 333, 1.0f, 0.0f, 0, 0, 70}, 0, 0, 0,
                         &rng);
            }
    /* Only a scaling of C (alpha 0), and a long K over a small C. */
    run_case(queue, (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 13, 9, 5, 0.0f, -1.5f, 0, 0,
                                    0},
             1, 1, 1, &rng);
    run_case(queue, (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 3, 5, 4099, 1.0f, 1.0f, 0, 0,
                                    0},
             0, 0, 0, &rng);
}

static void test_in_order_queue(void **state)
{
    (void)state;
    every_case_on(side.in_order);
}

static void test_out_of_order_queue(void **state)
{
    (void)state;
    if (!side.out_of_order) skip();
    every_case_on(side.out_of_order);
}

/* C = C changes nothing and launches nothing: the event is a marker after the wait list. */
static void test_nothing_to_do_still_answers(void **state)
{
    (void)state;
    cl_mem c = buffer_of(16);
    cl_event user = NULL, done = NULL;
    cl_int err = CL_SUCCESS;
    user = clCreateUserEvent(side.context, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(gemmkit_sgemm_cl_enqueue(side.ctx, side.in_order, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                              GEMMKIT_NO_TRANS, 4, 4, 4, 0.0f, NULL, 0, 4, NULL, 0, 4, 1.0f, c, 0, 4, 1,
                                              &user, &done),
                     GEMMKIT_SUCCESS);
    assert_non_null(done);
    cl_int status = CL_COMPLETE;
    assert_int_equal(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
                     CL_SUCCESS);
    assert_true(status != CL_COMPLETE); /* waits for the user event: nothing blocked on it */
    assert_int_equal(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done), clReleaseEvent(user);
    clReleaseMemObject(c);
}

/* The call returns before its wait list is met: its kernels wait for a user event the test completes afterwards. */
static void call_returns_before_its_wait_list(void)
{
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 33, 17, 65, 1.0f, 0.0f, 0, 0, 0};
    gk_case_complete(&c);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    float *a = malloc(ea * 4), *b = malloc(eb * 4), *c0 = malloc(ec * 4), *out = malloc(ec * 4);
    assert_true(a && b && c0 && out);
    gk_case_fill_inputs(&c, &rng, a, b, c0);
    cl_mem ma = buffer_of(ea), mb = buffer_of(eb), mc = buffer_of(ec);
    assert_int_equal(clEnqueueWriteBuffer(side.in_order, ma, CL_TRUE, 0, ea * 4, a, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueWriteBuffer(side.in_order, mb, CL_TRUE, 0, eb * 4, b, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueWriteBuffer(side.in_order, mc, CL_TRUE, 0, ec * 4, c0, 0, NULL, NULL), CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(side.context, &err), done = NULL;
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(gemmkit_sgemm_cl_enqueue(side.ctx, side.in_order, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k,
                                              c.alpha, ma, 0, c.lda, mb, 0, c.ldb, c.beta, mc, 0, c.ldc, 1, &gate,
                                              &done),
                     GEMMKIT_SUCCESS);
    cl_int status = CL_COMPLETE;
    assert_int_equal(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
                     CL_SUCCESS);
    assert_true(status != CL_COMPLETE);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(side.in_order, mc, CL_TRUE, 0, ec * 4, out, 1, &done, NULL), CL_SUCCESS);
    gk_check_result result;
    gk_check_sgemm(&c, a, b, c0, out, &result);
    assert_true(result.passed);
    clReleaseEvent(gate), clReleaseEvent(done);
    clReleaseMemObject(ma), clReleaseMemObject(mb), clReleaseMemObject(mc);
    free(a), free(b), free(c0), free(out);
}

static void test_call_returns_before_its_wait_list(void **state)
{
    (void)state;
    call_returns_before_its_wait_list();
}

/* The same in math mode int8x, whose blocking calls measure the operands' spread first (a wait for the device):
 * on the caller's queue it takes its default moduli instead, so it still returns before its wait list. */
static void test_int8x_returns_before_its_wait_list(void **state)
{
    (void)state;
    if (gemmkit_context_set_math(side.ctx, GEMMKIT_MATH_INT8X) != GEMMKIT_SUCCESS) {
        print_message("skipped: int8x: %s\n", gemmkit_last_error_message());
        skip();
    }
    unsetenv("GEMMKIT_OZAKI_MODULI");
    call_returns_before_its_wait_list();
    assert_int_equal(gemmkit_context_set_math(side.ctx, GEMMKIT_MATH_FP32), GEMMKIT_SUCCESS);
}

/* Refused before anything is enqueued: C keeps its values. */
static void test_bad_calls_change_nothing(void **state)
{
    (void)state;
    float host[64];
    for (int i = 0; i < 64; i++) host[i] = (float)i;
    cl_mem m = buffer_of(64);
    assert_int_equal(clEnqueueWriteBuffer(side.in_order, m, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL), CL_SUCCESS);
    cl_event ev = NULL;
    /* A queue of another context. */
    cl_int err = CL_SUCCESS;
    cl_context other = clCreateContext(NULL, 1, &side.device, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_queue foreign = clCreateCommandQueue(other, side.device, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
#define CALL(q, m_, ld, n_events, list)                                                                              \
    gemmkit_sgemm_cl_enqueue(side.ctx, q, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, m_, 4, 4, 1.0f, m, 0, \
                             ld, m, 16, 4, 0.0f, m, 32, 4, n_events, list, &ev)
    assert_int_equal(CALL(foreign, 4, 4, 0, NULL), GEMMKIT_ERROR_INVALID_ARGUMENT);
    assert_int_equal(CALL(NULL, 4, 4, 0, NULL), GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(CALL(side.in_order, 4, 4, 2, NULL), GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(CALL(side.in_order, 4, 4, 0, &ev), GEMMKIT_ERROR_INVALID_ARGUMENT);
    assert_int_equal(CALL(side.in_order, -1, 4, 0, NULL), GEMMKIT_ERROR_INVALID_SIZE);
    assert_int_equal(CALL(side.in_order, 4, 3, 0, NULL), GEMMKIT_ERROR_INVALID_LEADING_DIM);
#undef CALL
    /* C of 16 x 4 at offset 32 of 64 floats. */
    assert_int_equal(gemmkit_sgemm_cl_enqueue(side.ctx, side.in_order, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                              GEMMKIT_NO_TRANS, 16, 4, 2, 1.0f, m, 0, 16, m, 0, 2, 0.0f, m, 32, 16, 0,
                                              NULL, &ev),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_null(ev);
    assert_int_equal(clFinish(side.in_order), CL_SUCCESS);
    float back[64];
    assert_int_equal(clEnqueueReadBuffer(side.in_order, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(back, host, sizeof host);
    /* The context itself: a device not of the cl_context, NULLs. */
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create_cl(NULL, side.device, &ctx), GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_context_create_cl(side.context, NULL, &ctx), GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_context_create_cl(side.context, side.device, NULL), GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_context_create_cl(side.context, (cl_device_id)&ctx, &ctx), GEMMKIT_ERROR_INVALID_ARGUMENT);
    assert_null(ctx);
    clReleaseCommandQueue(foreign);
    clReleaseContext(other);
    clReleaseMemObject(m);
}

/* The blocking entry points on the same context: its own queue on the program's cl_context. */
static void test_blocking_calls_share_the_context(void **state)
{
    (void)state;
    cl_context context = NULL;
    assert_int_equal(gemmkit_cl_handles(side.ctx, &context, NULL), GEMMKIT_SUCCESS);
    assert_ptr_equal(context, side.context);
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    gk_sgemm_case c = {GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 29, 31, 17, 1.0f, 0.0f, 0, 0, 0};
    gk_check_result result;
    assert_int_equal(gk_check_run(side.ctx, NULL, c, &rng, 1e12, &result), GEMMKIT_SUCCESS);
    assert_true(result.passed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order_queue),
        cmocka_unit_test(test_out_of_order_queue),
        cmocka_unit_test(test_nothing_to_do_still_answers),
        cmocka_unit_test(test_call_returns_before_its_wait_list),
        cmocka_unit_test(test_int8x_returns_before_its_wait_list),
        cmocka_unit_test(test_bad_calls_change_nothing),
        cmocka_unit_test(test_blocking_calls_share_the_context),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
