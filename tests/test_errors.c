/* Bad input: each gets its own status code and message, and C is left
 * exactly as it was. */
#include <math.h>
#include <stdlib.h>

#include "context.h"
#include "test_support.h"

#define N 8
static float a[N * N], b[N * N], c[N * N], before[N * N];

static void fresh_inputs(void)
{
    gk_fill_random(&test_rng, a, N * N);
    gk_fill_random(&test_rng, b, N * N);
    gk_fill_random(&test_rng, c, N * N);
    memcpy(before, c, sizeof c);
}

typedef struct bad_call {
    const char *what;
    gemmkit_layout layout;
    gemmkit_transpose ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    int null_a, null_b, null_c;
    gemmkit_status expected;
} bad_call;

static void test_invalid_arguments(void **state)
{
    (void)state;
    const gemmkit_layout COL = GEMMKIT_COL_MAJOR, ROW = GEMMKIT_ROW_MAJOR;
    const gemmkit_transpose NT = GEMMKIT_NO_TRANS, T = GEMMKIT_TRANS;
    const bad_call calls[] = {
        {"layout", (gemmkit_layout)100, NT, NT, 4, 4, 4, 8, 8, 8, 0, 0, 0, GEMMKIT_ERROR_INVALID_LAYOUT},
        {"trans_a", COL, (gemmkit_transpose)0, NT, 4, 4, 4, 8, 8, 8, 0, 0, 0, GEMMKIT_ERROR_INVALID_TRANSPOSE},
        {"trans_b", COL, NT, (gemmkit_transpose)'N', 4, 4, 4, 8, 8, 8, 0, 0, 0, GEMMKIT_ERROR_INVALID_TRANSPOSE},
        {"m < 0", COL, NT, NT, -1, 4, 4, 8, 8, 8, 0, 0, 0, GEMMKIT_ERROR_INVALID_SIZE},
        {"n < 0", COL, NT, NT, 4, -1, 4, 8, 8, 8, 0, 0, 0, GEMMKIT_ERROR_INVALID_SIZE},
        {"k < 0", COL, NT, NT, 4, 4, -3, 8, 8, 8, 0, 0, 0, GEMMKIT_ERROR_INVALID_SIZE},
        {"lda < m", COL, NT, NT, 8, 4, 4, 7, 8, 8, 0, 0, 0, GEMMKIT_ERROR_INVALID_LEADING_DIM},
        {"lda < k (A^T)", COL, T, NT, 4, 4, 8, 7, 8, 8, 0, 0, 0, GEMMKIT_ERROR_INVALID_LEADING_DIM},
        {"lda < k (row-major)", ROW, NT, NT, 4, 4, 8, 7, 8, 8, 0, 0, 0, GEMMKIT_ERROR_INVALID_LEADING_DIM},
        {"ldb < k", COL, NT, NT, 4, 4, 8, 8, 7, 8, 0, 0, 0, GEMMKIT_ERROR_INVALID_LEADING_DIM},
        {"ldb < n (row-major)", ROW, NT, NT, 4, 8, 4, 8, 7, 8, 0, 0, 0, GEMMKIT_ERROR_INVALID_LEADING_DIM},
        {"ldc < m", COL, NT, NT, 8, 4, 4, 8, 8, 7, 0, 0, 0, GEMMKIT_ERROR_INVALID_LEADING_DIM},
        {"ldc = 0 for m = 0", COL, NT, NT, 0, 4, 4, 8, 8, 0, 0, 0, 0, GEMMKIT_ERROR_INVALID_LEADING_DIM},
        {"A NULL", COL, NT, NT, 4, 4, 4, 8, 8, 8, 1, 0, 0, GEMMKIT_ERROR_NULL_POINTER},
        {"B NULL", COL, NT, NT, 4, 4, 4, 8, 8, 8, 0, 1, 0, GEMMKIT_ERROR_NULL_POINTER},
        {"C NULL", COL, NT, NT, 4, 4, 4, 8, 8, 8, 0, 0, 1, GEMMKIT_ERROR_NULL_POINTER},
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        const bad_call *t = &calls[i];
        fresh_inputs();
        gemmkit_status s = gemmkit_sgemm(test_ctx, t->layout, t->ta, t->tb, t->m, t->n, t->k, 1.0f,
                                         t->null_a ? NULL : a, t->lda, t->null_b ? NULL : b, t->ldb, 0.5f,
                                         t->null_c ? NULL : c, t->ldc);
        if (s != t->expected) print_error("%s: got %d (%s), expected %d\n", t->what, s, gemmkit_last_error_message(), t->expected);
        assert_int_equal(s, t->expected);
        assert_true(strlen(gemmkit_last_error_message()) > 0);
        assert_memory_equal(c, before, sizeof c);
    }
}

static void test_null_context(void **state)
{
    (void)state;
    fresh_inputs();
    assert_int_equal(gemmkit_sgemm(NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4, 4, 1.0f, a, 8, b,
                                   8, 0.0f, c, 8),
                     GEMMKIT_ERROR_NULL_POINTER);
    assert_memory_equal(c, before, sizeof c);
    assert_int_equal(gemmkit_context_create(NULL, NULL), GEMMKIT_ERROR_NULL_POINTER);
}

static void test_size_overflow(void **state)
{
    (void)state;
    fresh_inputs();
    /* 2^31 rows cannot be indexed by the kernels: refused before any allocation. */
    assert_int_equal(gemmkit_sgemm(test_ctx, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, (int64_t)1 << 31, 1,
                                   1, 1.0f, a, (int64_t)1 << 31, b, 1, 0.0f, c, (int64_t)1 << 31),
                     GEMMKIT_ERROR_SIZE_OVERFLOW);
    assert_int_equal(gemmkit_sgemm(test_ctx, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4, 4, 1.0f, a,
                                   INT64_MAX / 2, b, 8, 0.0f, c, 8),
                     GEMMKIT_ERROR_SIZE_OVERFLOW);
    assert_memory_equal(c, before, sizeof c);
}

static void test_unknown_kernel_and_bad_params(void **state)
{
    (void)state;
    fresh_inputs();
    gemmkit_options options = {.kernel = "no-such-kernel"};
    assert_int_equal(gemmkit_sgemm_ex(test_ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4,
                                      4, 1.0f, a, 8, b, 8, 0.0f, c, 8),
                     GEMMKIT_ERROR_UNKNOWN_KERNEL);
    options = (gemmkit_options){.kernel = "direct", .params = "WPT=9"}; /* violates WPT <= 8 */
    assert_int_equal(gemmkit_sgemm_ex(test_ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4,
                                      4, 1.0f, a, 8, b, 8, 0.0f, c, 8),
                     GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
    options.params = "NOPE=3";
    assert_int_equal(gemmkit_sgemm_ex(test_ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4,
                                      4, 1.0f, a, 8, b, 8, 0.0f, c, 8),
                     GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
    options.params = "TS=abc";
    assert_int_equal(gemmkit_sgemm_ex(test_ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4,
                                      4, 1.0f, a, 8, b, 8, 0.0f, c, 8),
                     GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
    options.kernel = "pack"; /* a helper, not an SGEMM kernel */
    options.params = NULL;
    assert_int_equal(gemmkit_sgemm_ex(test_ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4,
                                      4, 1.0f, a, 8, b, 8, 0.0f, c, 8),
                     GEMMKIT_ERROR_UNKNOWN_KERNEL);
    assert_memory_equal(c, before, sizeof c);
}

static void test_device_limits_checked_before_launch(void **state)
{
    (void)state;
    fresh_inputs();
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    /* TS=32, WPT=8 needs 2*32*257*4 bytes = 65.8 KB of local memory and fits PoCL;
     * a work-group beyond the device's maximum must be refused instead. */
    char params[64];
    int ts = 1;
    while ((size_t)(ts * ts) <= info.max_work_group_size) ts *= 2;
    snprintf(params, sizeof params, "TS=%d,WPT=1", ts);
    gemmkit_options options = {.kernel = "direct", .params = params};
    gemmkit_status s = gemmkit_sgemm_ex(test_ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4,
                                        4, 4, 1.0f, a, 8, b, 8, 0.0f, c, 8);
    /* The registry's own constraint (TS*TS <= 1024) may refuse it first. */
    assert_true(s == GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE || s == GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
    assert_memory_equal(c, before, sizeof c);
}

static void test_out_of_device_memory(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    gemmkit_buffer *huge = NULL;
    size_t floats = info.global_mem_bytes / sizeof(float) * 2;
    assert_int_equal(gemmkit_buffer_create(test_ctx, floats, &huge), GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY);
    assert_null(huge);
    assert_int_equal(gemmkit_buffer_create(test_ctx, SIZE_MAX / 2, &huge), GEMMKIT_ERROR_SIZE_OVERFLOW);
}

static void test_build_failure_keeps_log(void **state)
{
    (void)state;
    fresh_inputs();
    gemmkit_test_inject_build_error("this is not OpenCL C;");
    /* Unusual parameters, so no cached program hides the failure. */
    gemmkit_options options = {.kernel = "direct", .params = "TS=4,WPT=3"};
    gemmkit_status s = gemmkit_sgemm_ex(test_ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4,
                                        4, 1.0f, a, 8, b, 8, 0.0f, c, 8);
    gemmkit_test_inject_build_error(NULL);
    assert_int_equal(s, GEMMKIT_ERROR_BUILD_FAILED);
    assert_true(strlen(gemmkit_last_build_log()) > 0);
    assert_memory_equal(c, before, sizeof c);
    /* The context still works afterwards. */
    assert_case_ok(&options, (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 9, 9, 9, 1.0f,
                                             0.0f, 0, 0, 0});
}

static void test_strerror_names_every_code(void **state)
{
    (void)state;
    for (int code = 0; code >= GEMMKIT_ERROR_INVALID_ARGUMENT; code--)
        assert_string_not_equal(gemmkit_strerror((gemmkit_status)code), "unknown status code");
    assert_string_equal(gemmkit_strerror((gemmkit_status)-999), "unknown status code");
}

static void test_device_selection(void **state)
{
    (void)state;
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, "no device has this name"), GEMMKIT_ERROR_NO_DEVICE);
    assert_null(ctx);
    assert_int_equal(gemmkit_context_create(&ctx, "999"), GEMMKIT_ERROR_NO_DEVICE);
    assert_int_equal(gemmkit_context_create(&ctx, "0"), GEMMKIT_SUCCESS);
    gemmkit_context_destroy(ctx);
    /* The platform vendor is part of the name a selector matches ("pocl"). */
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    if (strstr(info.platform, "pocl")) {
        assert_int_equal(gemmkit_context_create(&ctx, "POCL"), GEMMKIT_SUCCESS);
        gemmkit_context_destroy(ctx);
    }
}

/* GEMMKIT_BACKEND in any case; anything else is refused with a message
 * naming the variable. GEMMKIT_DEVICE is named when it matches nothing. */
static void test_backend_and_device_environment(void **state)
{
    (void)state;
    const char *saved_backend = getenv("GEMMKIT_BACKEND"), *saved_device = getenv("GEMMKIT_DEVICE");
    char backend_copy[64] = "", device_copy[256] = "";
    if (saved_backend) snprintf(backend_copy, sizeof backend_copy, "%s", saved_backend);
    if (saved_device) snprintf(device_copy, sizeof device_copy, "%s", saved_device);
    int count = 0;
    static const char *const opencl_names[] = {"opencl", "OpenCL", "OPENCL"};
    for (size_t i = 0; i < sizeof opencl_names / sizeof opencl_names[0]; i++) {
        setenv("GEMMKIT_BACKEND", opencl_names[i], 1);
        gemmkit_backend parsed = GEMMKIT_BACKEND_DEFAULT;
        assert_true(gk_backend_parse(opencl_names[i], &parsed));
        assert_int_equal(parsed, GEMMKIT_BACKEND_OPENCL);
        assert_int_equal(gemmkit_device_count(GEMMKIT_BACKEND_DEFAULT, &count), GEMMKIT_SUCCESS);
    }
    /* CUDA may be absent here; what matters is that the name was understood. */
    setenv("GEMMKIT_BACKEND", "CUDA", 1);
    if (gemmkit_device_count(GEMMKIT_BACKEND_DEFAULT, &count) != GEMMKIT_SUCCESS)
        assert_null(strstr(gemmkit_last_error_message(), "GEMMKIT_BACKEND"));
    setenv("GEMMKIT_BACKEND", "cudaa", 1);
    assert_int_equal(gemmkit_device_count(GEMMKIT_BACKEND_DEFAULT, &count), GEMMKIT_ERROR_UNSUPPORTED_BACKEND);
    assert_non_null(strstr(gemmkit_last_error_message(), "GEMMKIT_BACKEND=\"cudaa\""));
    unsetenv("GEMMKIT_BACKEND");
    gemmkit_context *ctx = NULL;
    setenv("GEMMKIT_DEVICE", "no device has this name", 1);
    assert_int_equal(gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_OPENCL, NULL), GEMMKIT_ERROR_NO_DEVICE);
    assert_non_null(strstr(gemmkit_last_error_message(), "GEMMKIT_DEVICE=\"no device has this name\" matches no"));
    /* A selector passed in code is not the environment's. */
    assert_int_equal(gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_OPENCL, "nor this"), GEMMKIT_ERROR_NO_DEVICE);
    assert_null(strstr(gemmkit_last_error_message(), "GEMMKIT_DEVICE"));
    if (saved_backend) setenv("GEMMKIT_BACKEND", backend_copy, 1);
    if (saved_device) setenv("GEMMKIT_DEVICE", device_copy, 1);
    else unsetenv("GEMMKIT_DEVICE");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invalid_arguments),
        cmocka_unit_test(test_null_context),
        cmocka_unit_test(test_size_overflow),
        cmocka_unit_test(test_unknown_kernel_and_bad_params),
        cmocka_unit_test(test_device_limits_checked_before_launch),
        cmocka_unit_test(test_out_of_device_memory),
        cmocka_unit_test(test_build_failure_keeps_log),
        cmocka_unit_test(test_strerror_names_every_code),
        cmocka_unit_test(test_device_selection),
        cmocka_unit_test(test_backend_and_device_environment),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
