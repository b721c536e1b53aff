/* A CUDA program's own context, device pointers and stream (gemmkit_cuda.h, issue 37) against the stand-in
 * libcuda (mock_libcuda.c): every launch goes to the caller's stream, nothing waits in the call path (no stream,
 * event or context synchronisation), a workspace given means no allocation in the call path and a clear refusal
 * when too small, argument errors come before any launch, and the thread's current context is the same after a
 * call. Kernels do not run on the mock: results are checked on a GPU by gemmkit_cuda_stream_check. Without the
 * CUDA backend the entry points answer GEMMKIT_ERROR_UNSUPPORTED_BACKEND. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backend.h"
#include "cuda_internal.h"
#ifdef GK_MOCK_LIBCUDA
#include "cuda_driver.h" /* cuda.h first: gemmkit_cuda.h then declares nothing again */
#endif
#include "gemmkit_cuda.h"
#include "mock_libcuda.h"

static mock_cuda_state_t *mock;

#ifdef GK_MOCK_LIBCUDA
static const gk_cu_api *cu;
static CUcontext user; /* the program's own context */

static void require_mock(void)
{
    if (!mock || gk_cuda_nvrtc_load() != GEMMKIT_SUCCESS || gk_cu_load(&cu) != GEMMKIT_SUCCESS) {
        print_message("skipping: no mock libcuda or no NVRTC\n");
        skip();
    }
    user = (CUcontext)&mock->user_context;
}

static CUcontext current(void)
{
    CUcontext c = NULL;
    cu->cuCtxGetCurrent(&c);
    return c;
}

static CUdeviceptr alloc_floats(size_t count)
{
    CUdeviceptr p = 0;
    assert_int_equal(cu->cuMemAlloc(&p, count * sizeof(float)), CUDA_SUCCESS);
    memset((void *)(uintptr_t)p, 0, count * sizeof(float));
    return p;
}

/* The waits and launches so far, to compare after a call. */
typedef struct counts {
    int launches, stream_syncs, event_syncs, context_syncs, allocs;
} counts;

static counts now(void)
{
    return (counts){mock->launches, mock->stream_syncs, mock->event_syncs, mock->context_syncs, mock->allocs_made};
}

/* Launched `launches` or more (0: none at all), each of them on `stream`, and nothing waited for. */
static void assert_enqueued_only(counts before, CUstream stream, int at_least)
{
    const counts after = now();
    if (at_least) assert_true(after.launches >= before.launches + at_least);
    else assert_int_equal(after.launches, before.launches);
    for (int i = before.launches; i < after.launches && i < before.launches + MOCK_RECENT; i++)
        assert_true(mock->recent[i % MOCK_RECENT].stream == (uint64_t)(uintptr_t)stream);
    assert_int_equal(after.stream_syncs, before.stream_syncs);
    assert_int_equal(after.event_syncs, before.event_syncs);
    assert_int_equal(after.context_syncs, before.context_syncs);
}

/* The program's context current, a gemmkit context on it (NULL: the current one), a stream of its own. */
static gemmkit_context *open_on_user(CUstream *stream)
{
    assert_int_equal(cu->cuCtxPushCurrent(user), CUDA_SUCCESS);
    gemmkit_context *ctx = NULL;
    const gemmkit_status status = gemmkit_context_create_cuda(NULL, &ctx);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_true(current() == user);
    assert_int_equal(cu->cuStreamCreate(stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    return ctx;
}

static void close_on_user(gemmkit_context *ctx, CUstream stream)
{
    const int refs = mock->context_refs, syncs = mock->context_syncs;
    gemmkit_context_destroy(ctx);
    assert_int_equal(mock->context_refs, refs); /* the program's context is not gemmkit's to release */
    assert_true(ctx == NULL || mock->context_syncs >= syncs);
    cu->cuStreamDestroy(stream);
    assert_true(current() == user);
    CUcontext popped = NULL;
    cu->cuCtxPopCurrent(&popped);
    assert_true(popped == user);
}

/* SGEMM, strided batched and omatcopy launch on the caller's stream and wait for nothing; the current context is
 * the program's after each call, also when the call names another stream of the same context. */
static void test_calls_go_to_the_stream(void **state)
{
    (void)state;
    require_mock();
    CUstream stream = NULL;
    gemmkit_context *ctx = open_on_user(&stream);
    enum { M = 64, N = 48, K = 40, BATCH = 3 };
    const CUdeviceptr a = alloc_floats(BATCH * M * K), b = alloc_floats(BATCH * K * N), c = alloc_floats(BATCH * M * N);
    counts before = now();
    gemmkit_status status = gemmkit_sgemm_cuda_enqueue(ctx, stream, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                                       GEMMKIT_NO_TRANS, M, N, K, 1.0f, a, M, b, K, 0.5f, c, M);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_enqueued_only(before, stream, 1);
    assert_true(current() == user);

    before = now();
    status = gemmkit_sgemm_cuda_enqueue(ctx, stream, GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_TRANS, M, N, K, 2.0f,
                                        a + 4, M, b, K, 0.0f, c, N);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_enqueued_only(before, stream, 1);

    before = now();
    status = gemmkit_sgemm_strided_batched_cuda_enqueue(ctx, stream, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                                        GEMMKIT_TRANS, M, N, K, 1.0f, a, M, M * K, b, N, K * N, 1.0f,
                                                        c, M, M * N, BATCH);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_enqueued_only(before, stream, 1);

    before = now();
    status = gemmkit_somatcopy_cuda_enqueue(ctx, stream, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, M, K, 1.0f, a, M, b, K);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_enqueued_only(before, stream, 1);

    /* C = beta * C alone (alpha 0): A and B may be 0; the default stream (0) of the context is taken too. */
    before = now();
    status = gemmkit_sgemm_cuda_enqueue(ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N, K,
                                        0.0f, 0, M, 0, K, 0.5f, c, M);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_enqueued_only(before, NULL, 1);
    /* Nothing to do (alpha 0, beta 1): nothing launched. */
    before = now();
    assert_int_equal(gemmkit_sgemm_cuda_enqueue(ctx, stream, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M,
                                                N, K, 0.0f, 0, M, 0, K, 1.0f, c, M),
                     GEMMKIT_SUCCESS);
    assert_enqueued_only(before, stream, 0);

    /* Another context current on this thread (the primary one): it stays current; launches still go to the
     * stream given. */
    CUcontext primary = NULL;
    assert_int_equal(cu->cuDevicePrimaryCtxRetain(&primary, 0), CUDA_SUCCESS);
    assert_int_equal(cu->cuCtxPushCurrent(primary), CUDA_SUCCESS);
    before = now();
    status = gemmkit_sgemm_cuda_enqueue(ctx, stream, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N, K,
                                        1.0f, a, M, b, K, 0.0f, c, M);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_enqueued_only(before, stream, 1);
    assert_true(current() == primary);
    CUcontext popped = NULL;
    cu->cuCtxPopCurrent(&popped);
    cu->cuDevicePrimaryCtxRelease(0);

    cu->cuMemFree(a), cu->cuMemFree(b), cu->cuMemFree(c);
    close_on_user(ctx, stream);
}

/* A shape whose plan needs scratch (K-slices' partials, copies): the size query says how much; without a
 * workspace the first call allocates; with one, no call allocates, a too small one is refused before any
 * launch, and 0 goes back to the cache. */
static void test_workspace(void **state)
{
    (void)state;
    require_mock();
    CUstream stream = NULL;
    gemmkit_context *ctx = open_on_user(&stream);
    enum { M = 64, N = 64, K = 100000 };
    const CUdeviceptr a = alloc_floats((size_t)M * K), b = alloc_floats((size_t)K * N), c = alloc_floats(M * N);
    size_t bytes = 0;
    gemmkit_status status = gemmkit_cuda_workspace_size(ctx, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, M, N,
                                                        K, 1.0f, a, K, b, K, 0.0f, c, M, &bytes);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_true(bytes > 0);
    assert_int_equal(bytes % 256, 0);
    size_t zeros = 0; /* 0 pointers: taken as aligned, the same answer */
    assert_int_equal(gemmkit_cuda_workspace_size(ctx, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, M, N, K,
                                                 1.0f, 0, K, 0, K, 0.0f, 0, M, &zeros),
                     GEMMKIT_SUCCESS);
    assert_int_equal(zeros, bytes);

    /* The cache: the first call allocates. */
    counts before = now();
    status = gemmkit_sgemm_cuda_enqueue(ctx, stream, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, M, N, K, 1.0f,
                                        a, K, b, K, 0.0f, c, M);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_enqueued_only(before, stream, 2);
    assert_true(mock->allocs_made > before.allocs);

    /* A workspace: no allocation in any call. */
    const CUdeviceptr workspace = alloc_floats(bytes / sizeof(float));
    assert_int_equal(gemmkit_cuda_set_workspace(ctx, workspace, bytes), GEMMKIT_SUCCESS);
    gemmkit_context *fresh = NULL; /* one with no cache at all */
    assert_int_equal(gemmkit_context_create_cuda(user, &fresh), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_cuda_set_workspace(fresh, workspace, bytes), GEMMKIT_SUCCESS);
    for (int i = 0; i < 3; i++) {
        before = now();
        status = gemmkit_sgemm_cuda_enqueue(i == 2 ? fresh : ctx, stream, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS,
                                            GEMMKIT_NO_TRANS, M, N, K, 1.0f, a, K, b, K, 0.0f, c, M);
        if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
        assert_enqueued_only(before, stream, 2);
        assert_int_equal(mock->allocs_made, before.allocs);
    }
    /* Too small: refused, nothing launched. */
    assert_int_equal(gemmkit_cuda_set_workspace(fresh, workspace, bytes - 256), GEMMKIT_SUCCESS);
    before = now();
    assert_int_equal(gemmkit_sgemm_cuda_enqueue(fresh, stream, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, M,
                                                N, K, 1.0f, a, K, b, K, 0.0f, c, M),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_non_null(strstr(gemmkit_last_error_message(), "gemmkit_cuda_workspace_size"));
    assert_enqueued_only(before, stream, 0);
    assert_int_equal(mock->allocs_made, before.allocs);
    /* Bad workspaces. */
    assert_int_equal(gemmkit_cuda_set_workspace(fresh, 0, 1024), GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_cuda_set_workspace(fresh, workspace + 4, 1024), GEMMKIT_ERROR_INVALID_ARGUMENT);
    /* Unset: the cache again (this context's first scratch: allocated). */
    assert_int_equal(gemmkit_cuda_set_workspace(fresh, 0, 0), GEMMKIT_SUCCESS);
    before = now();
    assert_int_equal(gemmkit_sgemm_cuda_enqueue(fresh, stream, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, M,
                                                N, K, 1.0f, a, K, b, K, 0.0f, c, M),
                     GEMMKIT_SUCCESS);
    assert_true(mock->allocs_made > before.allocs);
    gemmkit_context_destroy(fresh);
    cu->cuMemFree(workspace);
    cu->cuMemFree(a), cu->cuMemFree(b), cu->cuMemFree(c);
    close_on_user(ctx, stream);
}

/* Math mode int8x, whose blocking calls measure the operands' spread first (a read-back): an enqueued call cannot
 * wait, so it launches no spread pass and takes the default moduli, and the size query (a dry run) counts what
 * the call then takes: a workspace of that size serves it without an allocation. */
static void test_int8x_waits_for_nothing(void **state)
{
    (void)state;
    require_mock();
    CUstream stream = NULL;
    gemmkit_context *ctx = open_on_user(&stream);
    assert_int_equal(gemmkit_context_set_math(ctx, GEMMKIT_MATH_INT8X), GEMMKIT_SUCCESS);
    setenv("GEMMKIT_OZAKI_MODULI", "auto", 1); /* the scheme (unset, this short K is served by 3xTF32) */
    enum { M = 300, N = 200, K = 100 };
    const CUdeviceptr a = alloc_floats(M * K), b = alloc_floats(K * N), c = alloc_floats(M * N);
    size_t bytes = 0;
    gemmkit_status status = gemmkit_cuda_workspace_size(ctx, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M,
                                                        N, K, 1.0f, a, M, b, K, 0.0f, c, M, &bytes);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_true(bytes > 0);
    const CUdeviceptr workspace = alloc_floats(bytes / sizeof(float));
    for (int with_workspace = 0; with_workspace < 2; with_workspace++) {
        if (with_workspace) assert_int_equal(gemmkit_cuda_set_workspace(ctx, workspace, bytes), GEMMKIT_SUCCESS);
        const counts before = now();
        status = gemmkit_sgemm_cuda_enqueue(ctx, stream, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N,
                                            K, 1.0f, a, M, b, K, 0.0f, c, M);
        if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
        assert_enqueued_only(before, stream, 6); /* each operand's norms and residues, the products, the CRT */
        assert_int_equal(mock->launches, before.launches + 6);
        for (int i = before.launches; i < mock->launches; i++)
            assert_string_not_equal(mock->recent[i % MOCK_RECENT].function, "gk_ozaki_spread");
        if (with_workspace) assert_int_equal(mock->allocs_made, before.allocs);
    }
    assert_int_equal(gemmkit_cuda_set_workspace(ctx, 0, 0), GEMMKIT_SUCCESS);
    cu->cuMemFree(workspace);
    cu->cuMemFree(a), cu->cuMemFree(b), cu->cuMemFree(c);
    unsetenv("GEMMKIT_OZAKI_MODULI");
    close_on_user(ctx, stream);
}

/* Argument errors: returned before any launch, C untouched, the current context unchanged. */
static void test_errors_before_launch(void **state)
{
    (void)state;
    require_mock();
    CUstream stream = NULL;
    gemmkit_context *ctx = open_on_user(&stream);
    enum { M = 32, N = 32, K = 32 };
    const CUdeviceptr a = alloc_floats(M * K), b = alloc_floats(K * N), c = alloc_floats(M * N);
    float *host_c = (float *)(uintptr_t)c; /* mock device memory is host memory */
    for (int i = 0; i < M * N; i++) host_c[i] = (float)i;
    CUcontext primary = NULL;
    CUstream foreign = NULL; /* a stream of another context */
    assert_int_equal(cu->cuDevicePrimaryCtxRetain(&primary, 0), CUDA_SUCCESS);
    assert_int_equal(cu->cuCtxPushCurrent(primary), CUDA_SUCCESS);
    assert_int_equal(cu->cuStreamCreate(&foreign, 0), CUDA_SUCCESS);
    CUcontext popped = NULL;
    cu->cuCtxPopCurrent(&popped);
    const gemmkit_layout col = GEMMKIT_COL_MAJOR;
    const gemmkit_transpose n = GEMMKIT_NO_TRANS;
    const struct {
        gemmkit_status expected;
        gemmkit_status got;
    } cases[] = {
        {GEMMKIT_ERROR_NULL_POINTER, gemmkit_sgemm_cuda_enqueue(NULL, stream, col, n, n, M, N, K, 1, a, M, b, K, 0, c, M)},
        {GEMMKIT_ERROR_NULL_POINTER, gemmkit_sgemm_cuda_enqueue(ctx, stream, col, n, n, M, N, K, 1, 0, M, b, K, 0, c, M)},
        {GEMMKIT_ERROR_NULL_POINTER, gemmkit_sgemm_cuda_enqueue(ctx, stream, col, n, n, M, N, K, 1, a, M, 0, K, 0, c, M)},
        {GEMMKIT_ERROR_NULL_POINTER, gemmkit_sgemm_cuda_enqueue(ctx, stream, col, n, n, M, N, K, 1, a, M, b, K, 0, 0, M)},
        {GEMMKIT_ERROR_INVALID_SIZE, gemmkit_sgemm_cuda_enqueue(ctx, stream, col, n, n, -1, N, K, 1, a, M, b, K, 0, c, M)},
        {GEMMKIT_ERROR_INVALID_LEADING_DIM,
         gemmkit_sgemm_cuda_enqueue(ctx, stream, col, n, n, M, N, K, 1, a, M - 1, b, K, 0, c, M)},
        {GEMMKIT_ERROR_INVALID_LEADING_DIM,
         gemmkit_sgemm_cuda_enqueue(ctx, stream, col, n, n, M, N, K, 1, a, M, b, K, 0, c, M - 1)},
        {GEMMKIT_ERROR_INVALID_LAYOUT,
         gemmkit_sgemm_cuda_enqueue(ctx, stream, (gemmkit_layout)7, n, n, M, N, K, 1, a, M, b, K, 0, c, M)},
        {GEMMKIT_ERROR_INVALID_ARGUMENT, gemmkit_sgemm_cuda_enqueue(ctx, stream, col, n, n, M, N, K, 1, a + 2, M, b, K,
                                                                    0, c, M)},
        {GEMMKIT_ERROR_INVALID_ARGUMENT, gemmkit_sgemm_cuda_enqueue(ctx, foreign, col, n, n, M, N, K, 1, a, M, b, K, 0,
                                                                    c, M)},
        {GEMMKIT_ERROR_INVALID_ARGUMENT,
         gemmkit_sgemm_strided_batched_cuda_enqueue(ctx, stream, col, n, n, M, N, K, 1, a, M, 0, b, K, 0, 0, c, M, 1, 2)},
        {GEMMKIT_ERROR_INVALID_ARGUMENT, gemmkit_somatcopy_cuda_enqueue(ctx, stream, col, n, M, K, 1, a, M, a + 4, M)},
        {GEMMKIT_ERROR_NULL_POINTER, gemmkit_cuda_workspace_size(ctx, col, n, n, M, N, K, 1, a, M, b, K, 0, c, M, NULL)},
    };
    assert_int_equal(mock->launches, mock->launches); /* the calls above ran before this line */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (cases[i].got != cases[i].expected)
            fail_msg("case %zu: %s, expected %s", i, gemmkit_strerror(cases[i].got), gemmkit_strerror(cases[i].expected));
    for (int i = 0; i < M * N; i++) assert_true(host_c[i] == (float)i);
    assert_true(current() == user);
    /* None of them launched: a valid call now is the first launch since the context opened. */
    const counts before = now();
    assert_int_equal(gemmkit_sgemm_cuda_enqueue(ctx, stream, col, n, n, M, N, K, 1, a, M, b, K, 0, c, M), GEMMKIT_SUCCESS);
    assert_enqueued_only(before, stream, 1);
    cu->cuCtxPushCurrent(primary);
    cu->cuStreamDestroy(foreign);
    cu->cuCtxPopCurrent(&popped);
    cu->cuDevicePrimaryCtxRelease(0);
    cu->cuMemFree(a), cu->cuMemFree(b), cu->cuMemFree(c);
    close_on_user(ctx, stream);
}

/* Pointer arrays (cublasSgemmBatched's form): each matrix's plan on the stream, in order, nothing waited for; an
 * argument error in any matrix is found before the first launch, its message naming the matrix. */
static void test_pointer_arrays(void **state)
{
    (void)state;
    require_mock();
    CUstream stream = NULL;
    gemmkit_context *ctx = open_on_user(&stream);
    enum { M = 64, N = 48, K = 40, BATCH = 3 };
    CUdeviceptr a[BATCH], b[BATCH], c[BATCH];
    for (int i = 0; i < BATCH; i++) a[i] = alloc_floats(M * K), b[i] = alloc_floats(K * N), c[i] = alloc_floats(M * N);
    const gemmkit_layout col = GEMMKIT_COL_MAJOR;
    const gemmkit_transpose t = GEMMKIT_NO_TRANS;
    counts before = now();
    gemmkit_status status =
        gemmkit_sgemm_batched_cuda_enqueue(ctx, stream, col, t, t, M, N, K, 1.0f, a, M, b, K, 0.5f, c, M, BATCH);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_enqueued_only(before, stream, BATCH);
    assert_true(current() == user);
    /* One plan a matrix: the same kernel three times. */
    const int first = mock->launches - BATCH;
    for (int i = 0; i < BATCH; i++) assert_string_equal(mock->recent[(first + i) % MOCK_RECENT].function,
                                                        mock->recent[first % MOCK_RECENT].function);
    before = now();
    assert_int_equal(gemmkit_sgemm_batched_cuda_enqueue(ctx, stream, col, t, t, M, N, K, 1, a, M, b, K, 0, c, M, 0),
                     GEMMKIT_SUCCESS);
    assert_enqueued_only(before, stream, 0);

    /* Errors: nothing launched, whichever matrix holds them. */
    float *host_c = (float *)(uintptr_t)c[0];
    for (int i = 0; i < M * N; i++) host_c[i] = (float)i;
    CUdeviceptr holed[BATCH] = {b[0], 0, b[2]};
    before = now();
    assert_int_equal(gemmkit_sgemm_batched_cuda_enqueue(ctx, stream, col, t, t, M, N, K, 1, a, M, holed, K, 0, c, M,
                                                        BATCH),
                     GEMMKIT_ERROR_NULL_POINTER);
    assert_non_null(strstr(gemmkit_last_error_message(), "matrix 1 of the batch"));
    assert_int_equal(gemmkit_sgemm_batched_cuda_enqueue(ctx, stream, col, t, t, M, N, K, 1, a, M - 1, b, K, 0, c, M,
                                                        BATCH),
                     GEMMKIT_ERROR_INVALID_LEADING_DIM);
    assert_int_equal(gemmkit_sgemm_batched_cuda_enqueue(ctx, stream, col, t, t, M, N, K, 1, NULL, M, b, K, 0, c, M,
                                                        BATCH),
                     GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_sgemm_batched_cuda_enqueue(ctx, stream, col, t, t, M, N, K, 1, a, M, b, K, 0, c, M, -1),
                     GEMMKIT_ERROR_INVALID_SIZE);
    assert_enqueued_only(before, stream, 0);
    for (int i = 0; i < M * N; i++) assert_true(host_c[i] == (float)i);
    for (int i = 0; i < BATCH; i++) cu->cuMemFree(a[i]), cu->cuMemFree(b[i]), cu->cuMemFree(c[i]);
    close_on_user(ctx, stream);
}

/* No context current and none given: a clear refusal. */
static void test_no_current_context(void **state)
{
    (void)state;
    require_mock();
    assert_null(current());
    gemmkit_context *ctx = (gemmkit_context *)1;
    assert_int_equal(gemmkit_context_create_cuda(NULL, &ctx), GEMMKIT_ERROR_INVALID_ARGUMENT);
    assert_null(ctx);
    assert_non_null(strstr(gemmkit_last_error_message(), "current"));
}
#endif

/* A context of another backend, or none: refused. */
static void test_other_backends_refused(void **state)
{
    (void)state;
    gemmkit_context *ctx = NULL;
    if (!gk_backend_cuda()) { /* built without CUDA: the entry points link and refuse */
        assert_int_equal(gemmkit_context_create_cuda(NULL, &ctx), GEMMKIT_ERROR_UNSUPPORTED_BACKEND);
        assert_null(ctx);
    }
    assert_int_equal(gemmkit_context_create_cuda(NULL, NULL), GEMMKIT_ERROR_NULL_POINTER);
    if (gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_OPENCL, NULL) != GEMMKIT_SUCCESS) {
        print_message("no OpenCL device: the OpenCL context's refusal is not checked\n");
        return;
    }
    assert_int_equal(gemmkit_sgemm_cuda_enqueue(ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4,
                                                4, 1, 256, 4, 256, 4, 0, 256, 4),
                     GEMMKIT_ERROR_UNSUPPORTED_BACKEND);
    assert_int_equal(gemmkit_cuda_set_workspace(ctx, 256, 256), GEMMKIT_ERROR_UNSUPPORTED_BACKEND);
    size_t bytes = 0;
    assert_int_equal(gemmkit_cuda_workspace_size(ctx, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 4, 4, 4,
                                                 1, 0, 4, 0, 4, 0, 0, 4, &bytes),
                     GEMMKIT_ERROR_UNSUPPORTED_BACKEND);
    assert_int_equal(gemmkit_somatcopy_cuda_enqueue(ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, 4, 4, 1, 256, 4,
                                                    4096, 4),
                     GEMMKIT_ERROR_UNSUPPORTED_BACKEND);
    gemmkit_context_destroy(ctx);
}

int main(void)
{
#ifdef GK_MOCK_LIBCUDA
    mock = mock_cuda_load(GK_MOCK_LIBCUDA);
#endif
    const struct CMUnitTest tests[] = {
#ifdef GK_MOCK_LIBCUDA
        cmocka_unit_test(test_no_current_context),
        cmocka_unit_test(test_calls_go_to_the_stream),
        cmocka_unit_test(test_workspace),
        cmocka_unit_test(test_int8x_waits_for_nothing),
        cmocka_unit_test(test_errors_before_launch),
        cmocka_unit_test(test_pointer_arrays),
#endif
        cmocka_unit_test(test_other_backends_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
