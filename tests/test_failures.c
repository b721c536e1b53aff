/* Resource failures: device allocations beyond the device's limits or made
 * to fail by the test hook, byte/index counts that overflow, and a kernel
 * that fails to build. Each must return a clear error, leave outputs
 * untouched and the context usable (a correct call follows every failure).
 * Leaks are caught by LeakSanitizer in the sanitizer build. */
#include <pthread.h>
#include <string.h>

#include "context.h"
#include "test_support.h"
#include "test_random.h"

#define INJECTED_ERROR "gemmkit_injected_build_failure"

/* A correct call on ctx right after a failure: the context must still work. */
static void assert_context_usable(gemmkit_context *ctx)
{
    gk_sgemm_case c = {GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 19, 23, 17, 1.5f, -0.5f, 0, 0, 0};
    gk_check_result result;
    gemmkit_status status = gk_check_run(ctx, NULL, c, &test_rng, 1e9, &result);
    if (status != GEMMKIT_SUCCESS || !result.passed)
        print_error("call after a failure: %s (GEMMKIT_SEED=%llu)\n", result.message, (unsigned long long)test_seed);
    assert_int_equal(status, GEMMKIT_SUCCESS);
    assert_true(result.passed);
    /* And through device buffers, which allocate. */
    status = check_run_buffers(ctx, NULL, c, &test_rng, &result);
    if (status != GEMMKIT_SUCCESS || !result.passed) print_error("buffers call after a failure: %s\n", result.message);
    assert_int_equal(status, GEMMKIT_SUCCESS);
    assert_true(result.passed);
}

static void assert_message_mentions(const char *needle)
{
    const char *message = gemmkit_last_error_message();
    if (!strstr(message, needle)) print_error("message \"%s\" lacks \"%s\"\n", message, needle);
    assert_non_null(strstr(message, needle));
}

static void test_buffer_beyond_device_limits(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    size_t counts[] = {info.max_alloc_bytes / sizeof(float) + 1, info.global_mem_bytes / sizeof(float) + 1};
    for (int i = 0; i < 2; i++) {
        if (counts[i] == 1) continue; /* the backend reports no limit: nothing to exceed */
        gemmkit_buffer *buf = (gemmkit_buffer *)&buf; /* must be reset to NULL */
        assert_int_equal(gemmkit_buffer_create(test_ctx, counts[i], &buf), GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY);
        assert_null(buf);
        assert_message_mentions("bytes");
        assert_context_usable(test_ctx);
    }
}

static void test_buffer_byte_count_overflow(void **state)
{
    (void)state;
    size_t counts[] = {SIZE_MAX / sizeof(float) + 1, SIZE_MAX};
    for (int i = 0; i < 2; i++) {
        gemmkit_buffer *buf = NULL;
        assert_int_equal(gemmkit_buffer_create(test_ctx, counts[i], &buf), GEMMKIT_ERROR_SIZE_OVERFLOW);
        assert_null(buf);
    }
    /* Ranges whose end wraps around size_t. */
    gemmkit_buffer *buf = NULL;
    assert_int_equal(gemmkit_buffer_create(test_ctx, 16, &buf), GEMMKIT_SUCCESS);
    float data[16];
    gk_fill_random(&test_rng, data, 16);
    float copy[16];
    memcpy(copy, data, sizeof data);
    assert_int_equal(gemmkit_buffer_write(test_ctx, buf, 8, SIZE_MAX, data), GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_int_equal(gemmkit_buffer_read(test_ctx, buf, SIZE_MAX, 2, data), GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_memory_equal(data, copy, sizeof data);
    assert_int_equal(gemmkit_sgemm_buffers(test_ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2,
                                           2, 2, 1.0f, buf, SIZE_MAX - 1, 2, buf, 0, 2, 0.0f, buf, 0, 2),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    gemmkit_buffer_destroy(buf);
    assert_context_usable(test_ctx);
}

/* Sizes the kernels' 32-bit indices cannot address, including leading
 * dimensions so large that (cols - 1) * ld overflows int64 (undefined
 * behaviour before the check, caught by UBSan). The tiny arrays passed in
 * must be neither read (ASan would tell) nor written. */
/* Spans beyond 2^31-1 elements: host-array SGEMM tiles them (test_out_of_core),
 * device buffers refuse them before touching a buffer. */
static void test_sgemm_buffers_span_overflow(void **state)
{
    (void)state;
    struct {
        int64_t m, n, k, lda, ldb, ldc;
    } cases[] = {
        {65536, 65536, 1, 65536, 1, 65536},      /* m * n elements of C */
        {4, 4, 4, 4, (int64_t)INT32_MAX / 2, 4}, /* 3 * ldb exceeds 2^31 */
    };
    gemmkit_buffer *buf = NULL;
    assert_int_equal(gemmkit_buffer_create(test_ctx, 16, &buf), GEMMKIT_SUCCESS);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gemmkit_status status =
            gemmkit_sgemm_buffers(test_ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, cases[i].m,
                                  cases[i].n, cases[i].k, 1.0f, buf, 0, cases[i].lda, buf, 0, cases[i].ldb, 0.5f, buf,
                                  0, cases[i].ldc);
        if (status != GEMMKIT_ERROR_SIZE_OVERFLOW) print_error("case %zu: %s\n", i, gemmkit_last_error_message());
        assert_int_equal(status, GEMMKIT_ERROR_SIZE_OVERFLOW);
        assert_message_mentions("2^31");
    }
    gemmkit_buffer_destroy(buf);
}

static void test_sgemm_index_overflow(void **state)
{
    (void)state;
    const int64_t big = (int64_t)INT32_MAX + 1;
    struct {
        int64_t m, n, k, lda, ldb, ldc;
    } cases[] = {
        {big, 1, 1, big, 1, big},                    /* m itself */
        {1, 1, big, 1, big, 1},                      /* k itself */
        {2, 2, 3, INT64_MAX / 2, 3, 2},              /* (k - 1) * lda overflows int64 */
        {2, 3, 2, 2, 2, INT64_MAX - 1},              /* (n - 1) * ldc overflows int64 */
    };
    float a[16], b[16], c[16], c_before[16];
    gk_fill_random(&test_rng, a, 16);
    gk_fill_random(&test_rng, b, 16);
    gk_fill_random(&test_rng, c, 16);
    memcpy(c_before, c, sizeof c);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gemmkit_status status = gemmkit_sgemm(test_ctx, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS,
                                              cases[i].m, cases[i].n, cases[i].k, 1.0f, a, cases[i].lda, b,
                                              cases[i].ldb, 0.5f, c, cases[i].ldc);
        if (status != GEMMKIT_ERROR_SIZE_OVERFLOW) print_error("case %zu: %s\n", i, gemmkit_last_error_message());
        assert_int_equal(status, GEMMKIT_ERROR_SIZE_OVERFLOW);
        assert_message_mentions("2^31");
        assert_memory_equal(c, c_before, sizeof c);
    }
    assert_context_usable(test_ctx);
}

/* Host-array SGEMM with the n-th device allocation failing, for every n
 * until the call needs no more; on a fresh context so nothing is cached. */
static void alloc_failure_sweep(const char *kernel, int use_buffers)
{
    /* device_only: on a CPU device the default choice would run on the CPU BLAS, no device allocation or build. */
    gemmkit_options options = {.kernel = kernel, .device_only = 1};
    int failed_points = 0;
    for (int after = 0; after < 64; after++) {
        gemmkit_context *ctx = NULL;
        assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
        gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 37, 29, 41, 0.75f, 1.25f, 40, 31, 39};
        gk_check_result result;
        gemmkit_status status;
        gemmkit_test_inject_alloc_failure(after);
        if (use_buffers) {
            status = check_run_buffers(ctx, &options, c, &test_rng, &result);
        } else {
            /* gk_check_run compares C with the reference only on success;
             * on failure check here that C came back bit for bit. */
            size_t ea, eb, ec;
            gk_case_extents(&c, &ea, &eb, &ec);
            float *a = malloc(ea * sizeof *a), *b = malloc(eb * sizeof *b);
            float *c0 = malloc(ec * sizeof *c0), *res = malloc(ec * sizeof *res);
            assert_true(a && b && c0 && res);
            gk_fill_random(&test_rng, a, ea);
            gk_fill_random(&test_rng, b, eb);
            gk_fill_random(&test_rng, c0, ec);
            memcpy(res, c0, ec * sizeof *res);
            status = gemmkit_sgemm_ex(ctx, &options, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, a,
                                      c.lda, b, c.ldb, c.beta, res, c.ldc);
            if (status == GEMMKIT_SUCCESS)
                gk_check_sgemm(&c, a, b, c0, res, &result);
            else
                assert_memory_equal(res, c0, ec * sizeof *res);
            free(a);
            free(b);
            free(c0);
            free(res);
        }
        gemmkit_test_inject_alloc_failure(-1);
        if (status == GEMMKIT_SUCCESS) {
            /* The call needed fewer than after + 1 allocations: all covered. */
            if (!result.passed) print_error("%s\n", result.message);
            assert_true(result.passed);
            gemmkit_context_destroy(ctx);
            break;
        }
        if (status != GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY)
            print_error("allocation %d: %s: %s\n", after, gemmkit_strerror(status), gemmkit_last_error_message());
        assert_int_equal(status, GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY);
        assert_message_mentions("injected");
        failed_points++;
        assert_context_usable(ctx);
        gemmkit_context_destroy(ctx);
    }
    printf("%s, kernel %s: %d allocation points failed cleanly\n", use_buffers ? "device buffers" : "host arrays",
           kernel ? kernel : "default", failed_points);
    assert_true(failed_points >= (use_buffers ? 3 : 2)); /* at least the buffers / staging of A, B, C */
}

static void test_alloc_failure_each_point(void **state)
{
    (void)state;
    alloc_failure_sweep(NULL, 0);
    alloc_failure_sweep(NULL, 1);
    const char *packed = packed_kernel_for(test_ctx, &test_rng);
    if (packed) {
        alloc_failure_sweep(packed, 0);
        alloc_failure_sweep(packed, 1);
    } else {
        printf("no packed-path SGEMM kernel registered: scratch allocations of that path not swept\n");
    }
    /* Split-K: the partials' scratch and the reduction step too (K = 41: 3 slices at its defaults). */
    alloc_failure_sweep("xgemm-splitk", 0);
    alloc_failure_sweep("xgemm-splitk", 1);
}

/* A build failure on a fresh context (empty program cache): clear error,
 * the compiler's log kept, C untouched (host arrays and device buffer). */
static void build_failure(const char *kernel)
{
    /* device_only: on a CPU device the default choice would run on the CPU BLAS, no device allocation or build. */
    gemmkit_options options = {.kernel = kernel, .device_only = 1};
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    enum { M = 21, N = 18, K = 11 };
    float a[M * K], b[K * N], c[M * N], c_before[M * N];
    gk_fill_random(&test_rng, a, M * K);
    gk_fill_random(&test_rng, b, K * N);
    gk_fill_random(&test_rng, c, M * N);
    memcpy(c_before, c, sizeof c);

    gemmkit_test_inject_build_error("#error " INJECTED_ERROR);
    gemmkit_status status = gemmkit_sgemm_ex(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M,
                                             N, K, 1.0f, a, M, b, K, 0.5f, c, M);
    int log_has_error = strstr(gemmkit_last_build_log(), INJECTED_ERROR) != NULL;
    char message[1024];
    snprintf(message, sizeof message, "%s", gemmkit_last_error_message());

    /* The same through device buffers: C's buffer must keep its contents. */
    gemmkit_buffer *ba = NULL, *bb = NULL, *bc = NULL;
    assert_int_equal(gemmkit_buffer_create(ctx, M * K, &ba), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(ctx, K * N, &bb), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(ctx, M * N, &bc), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(ctx, ba, 0, M * K, a), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(ctx, bb, 0, K * N, b), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(ctx, bc, 0, M * N, c), GEMMKIT_SUCCESS);
    gemmkit_status buffer_status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                                         GEMMKIT_NO_TRANS, M, N, K, 1.0f, ba, 0, M, bb, 0, K, 0.5f,
                                                         bc, 0, M);
    gemmkit_test_inject_build_error(NULL);
    float c_device[M * N];
    assert_int_equal(gemmkit_buffer_read(ctx, bc, 0, M * N, c_device), GEMMKIT_SUCCESS);
    gemmkit_buffer_destroy(ba);
    gemmkit_buffer_destroy(bb);
    gemmkit_buffer_destroy(bc);

    if (status != GEMMKIT_ERROR_BUILD_FAILED || !log_has_error)
        print_error("status %s, message \"%s\", build log:\n%s\n", gemmkit_strerror(status), message,
                    gemmkit_last_build_log());
    assert_int_equal(status, GEMMKIT_ERROR_BUILD_FAILED);
    assert_non_null(strstr(message, "gemmkit_last_build_log"));
    assert_true(log_has_error);
    assert_memory_equal(c, c_before, sizeof c);
    assert_int_equal(buffer_status, GEMMKIT_ERROR_BUILD_FAILED);
    assert_memory_equal(c_device, c_before, sizeof c);
    printf("kernel %s: build failure reported; log starts: %.120s\n", kernel ? kernel : "default",
           gemmkit_last_build_log());
    assert_context_usable(ctx);
    gemmkit_context_destroy(ctx);
}

static void test_build_failure(void **state)
{
    (void)state;
    build_failure(NULL);
    const char *packed = packed_kernel_for(test_ctx, &test_rng);
    if (packed) build_failure(packed);
    build_failure("xgemm-splitk");
}

/* The build log is per thread and freed when its thread exits: a thread that
 * sees a failed build and ends must not leak it (LeakSanitizer checks) nor
 * change this thread's log. */
static void *failing_build_thread(void *arg)
{
    int *log_seen = arg;
    gemmkit_context *ctx = NULL;
    if (gemmkit_context_create(&ctx, NULL) != GEMMKIT_SUCCESS) return NULL;
    float a[4] = {1, 2, 3, 4}, b[4] = {1, -1, 2, -2}, c[4] = {0};
    const gemmkit_options on_device = {.device_only = 1};
    gemmkit_sgemm_ex(ctx, &on_device, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2, 2, 1.0f, a, 2, b, 2,
                     0.0f, c, 2);
    *log_seen = strstr(gemmkit_last_build_log(), INJECTED_ERROR) != NULL;
    gemmkit_context_destroy(ctx);
    return NULL;
}

static void test_build_log_per_thread(void **state)
{
    (void)state;
    const char *before = gemmkit_last_build_log();
    char saved[256];
    snprintf(saved, sizeof saved, "%s", before);
    gemmkit_test_inject_build_error("#error " INJECTED_ERROR);
    int log_seen[4] = {0};
    pthread_t threads[4];
    for (int t = 0; t < 4; t++) assert_int_equal(pthread_create(&threads[t], NULL, failing_build_thread, &log_seen[t]), 0);
    for (int t = 0; t < 4; t++) assert_int_equal(pthread_join(threads[t], NULL), 0);
    gemmkit_test_inject_build_error(NULL);
    for (int t = 0; t < 4; t++) assert_true(log_seen[t]);
    assert_int_equal(strncmp(gemmkit_last_build_log(), saved, strlen(saved)), 0);
    assert_context_usable(test_ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffer_beyond_device_limits),
        cmocka_unit_test(test_buffer_byte_count_overflow),
        cmocka_unit_test(test_sgemm_index_overflow),
        cmocka_unit_test(test_sgemm_buffers_span_overflow),
        cmocka_unit_test(test_alloc_failure_each_point),
        cmocka_unit_test(test_build_failure),
        cmocka_unit_test(test_build_log_per_thread),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
