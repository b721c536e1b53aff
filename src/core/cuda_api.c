/* gemmkit_cuda.h: calls on a CUDA program's device pointers and stream. Each
 * is the _buffers routine's own preparation (gk_sgemm_buffers_problem, ...)
 * on the pointers wrapped as buffers, then its plans run with the launches
 * redirected to the caller's stream (backend call_stream) and the scratch
 * cut from the caller's workspace when one is set (workspace.c). */
#include <stdint.h>
#include <stdio.h>

#include "gemmkit_cuda.h"

#include "batched.h"
#include "context.h"
#include "cuda_interop.h"
#include "sgemm.h"
#include "status.h"
#include "transpose.h"

static gemmkit_status require_cuda(gemmkit_context *ctx)
{
    if (!ctx) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx is NULL");
    if (ctx->ops->bit != GK_BACKEND_BIT_CUDA || !ctx->ops->wrap_address || !ctx->ops->call_stream)
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "the context runs on %s, not CUDA", ctx->ops->name);
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_context_create_cuda(CUcontext cu_ctx, gemmkit_context **ctx)
{
    if (!ctx) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx is NULL");
    *ctx = NULL;
    const gk_backend_ops *ops = gk_backend_cuda();
    if (!ops) return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "gemmkit was built without the CUDA backend");
    int index = 0;
    gk_device *device = NULL;
    GK_TRY(gk_cuda_open_on_context(cu_ctx, &index, &device));
    return gk_context_open_device(ops, index, device, ctx);
}

/* A caller's pointer as a gemmkit buffer: the record at the 256-byte boundary below it and the rest as an
 * element offset, since the kernels' vector loads take a buffer's start as aligned. Its extent is unknown
 * (count SIZE_MAX: the 2^31-1 limit of offset + span still applies). 0: no buffer (NULL to the checks). */
typedef struct operand {
    gemmkit_buffer buffer;
    size_t offset;
} operand;

static gemmkit_status wrap(gemmkit_context *ctx, CUdeviceptr ptr, const char *name, operand *o)
{
    o->buffer = (gemmkit_buffer){ctx, NULL, SIZE_MAX};
    o->offset = 0;
    if (!ptr) return GEMMKIT_SUCCESS;
    if (ptr % sizeof(float))
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "%s = 0x%llx is not aligned to a float (4 bytes)", name, ptr);
    const CUdeviceptr base = ptr / GK_WORKSPACE_ALIGN * GK_WORKSPACE_ALIGN;
    GK_TRY(ctx->ops->wrap_address(ctx->device, base, &o->buffer.mem));
    o->offset = (size_t)(ptr - base) / sizeof(float);
    return GEMMKIT_SUCCESS;
}

static const gemmkit_buffer *buffer_of(const operand *o) { return o->buffer.mem ? &o->buffer : NULL; }

/* The records only: the memory is the caller's. */
static void release(gemmkit_context *ctx, operand *ops, int count)
{
    for (int i = 0; i < count; i++) ctx->ops->release(ops[i].buffer.mem);
}

static gemmkit_status wrap_all(gemmkit_context *ctx, const CUdeviceptr *ptrs, const char *const *names, operand *ops,
                               int count)
{
    for (int i = 0; i < count; i++) ops[i].buffer.mem = NULL;
    gemmkit_status status = GEMMKIT_SUCCESS;
    for (int i = 0; i < count && status == GEMMKIT_SUCCESS; i++) status = wrap(ctx, ptrs[i], names[i], &ops[i]);
    if (status != GEMMKIT_SUCCESS) release(ctx, ops, count);
    return status;
}

/* A prepared call's plans, run (the context locked). */
typedef gemmkit_status (*run_fn)(gemmkit_context *ctx, const void *problem);

static gemmkit_status run_sgemm(gemmkit_context *ctx, const void *p) { return gk_sgemm_run(ctx, NULL, p); }
static gemmkit_status run_batched(gemmkit_context *ctx, const void *p) { return gk_batched_run(ctx, NULL, p); }
static gemmkit_status run_omatcopy(gemmkit_context *ctx, const void *p) { return gk_omatcopy_run(ctx, NULL, p); }

/* Plans the call without launching, counting its scratch (the context locked). */
static gemmkit_status dry_run(gemmkit_context *ctx, run_fn run, const void *problem, size_t *bytes)
{
    gk_workspace_begin(ctx, 1);
    ctx->on_caller_queue = 1;
    const gemmkit_status status = run(ctx, problem);
    ctx->on_caller_queue = 0;
    *bytes = ctx->workspace.peak;
    gk_workspace_end(ctx);
    return status;
}

/* Runs a prepared call on the caller's stream. With a workspace, a dry run first, so that a call it cannot hold
 * fails before any of its plans is enqueued (a batch or a wide C runs several). */
static gemmkit_status run_on_stream(gemmkit_context *ctx, CUstream stream, run_fn run, const void *problem)
{
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = GEMMKIT_SUCCESS;
    if (ctx->workspace.address) {
        size_t needed = 0;
        status = dry_run(ctx, run, problem, &needed);
        if (status == GEMMKIT_SUCCESS && needed > ctx->workspace.bytes)
            status = gk_fail(GEMMKIT_ERROR_BUFFER_TOO_SMALL,
                             "the workspace holds %zu bytes; this call needs %zu (gemmkit_cuda_workspace_size): "
                             "nothing was enqueued", ctx->workspace.bytes, needed);
    }
    if (status == GEMMKIT_SUCCESS) {
        ctx->ops->call_stream(ctx->device, 1, stream);
        gk_workspace_begin(ctx, 0);
        ctx->on_caller_queue = 1;
        status = run(ctx, problem);
        ctx->on_caller_queue = 0;
        gk_workspace_end(ctx);
        ctx->ops->call_stream(ctx->device, 0, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return status;
}

/* The size query: a dry run under the lock. */
static gemmkit_status measure(gemmkit_context *ctx, run_fn run, const void *problem, size_t *bytes)
{
    pthread_mutex_lock(&ctx->lock);
    const gemmkit_status status = dry_run(ctx, run, problem, bytes);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}

/* A 0 pointer in a size query: an address aligned as cuMemAlloc's. */
static CUdeviceptr or_aligned(CUdeviceptr ptr) { return ptr ? ptr : GK_WORKSPACE_ALIGN; }

static const char *const gemm_names[] = {"A", "B", "C"};

/* An SGEMM's operands wrapped and its problem prepared (*writes_c 0: nothing to run). */
static gemmkit_status sgemm_problem(gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans_a,
                                    gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                                    const CUdeviceptr ptrs[3], int64_t lda, int64_t ldb, float beta, int64_t ldc,
                                    operand w[3], gk_sgemm_problem *p, int *writes_c)
{
    GK_TRY(wrap_all(ctx, ptrs, gemm_names, w, 3));
    const gk_gemm_call call = {layout, trans_a, trans_b, m, n, k, alpha, beta, buffer_of(&w[0]), buffer_of(&w[1]),
                               (void *)buffer_of(&w[2]), w[0].offset, w[1].offset, w[2].offset, lda, ldb, ldc};
    const gemmkit_status status = gk_sgemm_buffers_problem(ctx, NULL, &call, p, writes_c);
    if (status != GEMMKIT_SUCCESS) release(ctx, w, 3);
    return status;
}

gemmkit_status gemmkit_sgemm_cuda_enqueue(gemmkit_context *ctx, CUstream stream, gemmkit_layout layout,
                                          gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m, int64_t n,
                                          int64_t k, float alpha, CUdeviceptr a, int64_t lda, CUdeviceptr b,
                                          int64_t ldb, float beta, CUdeviceptr c, int64_t ldc)
{
    GK_TRY(require_cuda(ctx));
    GK_TRY(gk_cuda_check_stream(ctx->device, stream));
    const CUdeviceptr ptrs[3] = {a, b, c};
    operand w[3];
    gk_sgemm_problem p;
    int writes_c = 0;
    GK_TRY(sgemm_problem(ctx, layout, trans_a, trans_b, m, n, k, alpha, ptrs, lda, ldb, beta, ldc, w, &p, &writes_c));
    const gemmkit_status status = writes_c ? run_on_stream(ctx, stream, run_sgemm, &p) : GEMMKIT_SUCCESS;
    release(ctx, w, 3);
    return status;
}

gemmkit_status gemmkit_cuda_workspace_size(gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans_a,
                                           gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                                           CUdeviceptr a, int64_t lda, CUdeviceptr b, int64_t ldb, float beta,
                                           CUdeviceptr c, int64_t ldc, size_t *bytes)
{
    GK_TRY(require_cuda(ctx));
    if (!bytes) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "bytes is NULL");
    *bytes = 0;
    const CUdeviceptr ptrs[3] = {or_aligned(a), or_aligned(b), or_aligned(c)};
    operand w[3];
    gk_sgemm_problem p;
    int writes_c = 0;
    GK_TRY(sgemm_problem(ctx, layout, trans_a, trans_b, m, n, k, alpha, ptrs, lda, ldb, beta, ldc, w, &p, &writes_c));
    const gemmkit_status status = writes_c ? measure(ctx, run_sgemm, &p, bytes) : GEMMKIT_SUCCESS;
    release(ctx, w, 3);
    return status;
}

/* Matrix i's problem of a pointer-array batch (wrapped; released by the caller where it succeeds), its error
 * naming the matrix. */
static gemmkit_status batch_entry(gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans_a,
                                  gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                                  const CUdeviceptr *a_array, int64_t lda, const CUdeviceptr *b_array, int64_t ldb,
                                  float beta, const CUdeviceptr *c_array, int64_t ldc, int64_t i, operand w[3],
                                  gk_sgemm_problem *p, int *writes_c)
{
    const CUdeviceptr ptrs[3] = {a_array[i], b_array[i], c_array[i]};
    const gemmkit_status status =
        sgemm_problem(ctx, layout, trans_a, trans_b, m, n, k, alpha, ptrs, lda, ldb, beta, ldc, w, p, writes_c);
    if (status == GEMMKIT_SUCCESS) return status;
    char why[512];
    snprintf(why, sizeof why, "%s", gemmkit_last_error_message());
    return gk_fail(status, "matrix %lld of the batch: %s", (long long)i, why);
}

gemmkit_status gemmkit_sgemm_batched_cuda_enqueue(
    gemmkit_context *ctx, CUstream stream, gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b,
    int64_t m, int64_t n, int64_t k, float alpha, const CUdeviceptr *a_array, int64_t lda, const CUdeviceptr *b_array,
    int64_t ldb, float beta, const CUdeviceptr *c_array, int64_t ldc, int64_t batch_count)
{
    GK_TRY(require_cuda(ctx));
    GK_TRY(gk_cuda_check_stream(ctx->device, stream));
    if (batch_count < 0)
        return gk_fail(GEMMKIT_ERROR_INVALID_SIZE, "batch_count %lld is negative", (long long)batch_count);
    if (batch_count == 0) return GEMMKIT_SUCCESS;
    if (!a_array || !b_array || !c_array)
        return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "%s is NULL",
                       !a_array ? "a_array" : !b_array ? "b_array" : "c_array");
    operand w[3];
    gk_sgemm_problem p;
    int writes_c = 0;
    /* Every matrix checked before the first is enqueued, so that an argument error leaves every C untouched. */
    for (int64_t i = 0; i < batch_count; i++) {
        GK_TRY(batch_entry(ctx, layout, trans_a, trans_b, m, n, k, alpha, a_array, lda, b_array, ldb, beta, c_array,
                           ldc, i, w, &p, &writes_c));
        release(ctx, w, 3);
    }
    for (int64_t i = 0; i < batch_count; i++) {
        GK_TRY(batch_entry(ctx, layout, trans_a, trans_b, m, n, k, alpha, a_array, lda, b_array, ldb, beta, c_array,
                           ldc, i, w, &p, &writes_c));
        const gemmkit_status status = writes_c ? run_on_stream(ctx, stream, run_sgemm, &p) : GEMMKIT_SUCCESS;
        release(ctx, w, 3);
        if (status != GEMMKIT_SUCCESS) return status;
    }
    return GEMMKIT_SUCCESS;
}

static gemmkit_status batched_problem(gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans_a,
                                      gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                                      const CUdeviceptr ptrs[3], int64_t lda, int64_t stride_a, int64_t ldb,
                                      int64_t stride_b, float beta, int64_t ldc, int64_t stride_c,
                                      int64_t batch_count, operand w[3], gk_batched_problem *bp, int *writes_c)
{
    GK_TRY(wrap_all(ctx, ptrs, gemm_names, w, 3));
    const gk_gemm_call call = {layout, trans_a, trans_b, m, n, k, alpha, beta, buffer_of(&w[0]), buffer_of(&w[1]),
                               (void *)buffer_of(&w[2]), w[0].offset, w[1].offset, w[2].offset, lda, ldb, ldc};
    const gemmkit_status status =
        gk_batched_buffers_problem(ctx, NULL, &call, stride_a, stride_b, stride_c, batch_count, bp, writes_c);
    if (status != GEMMKIT_SUCCESS) release(ctx, w, 3);
    return status;
}

gemmkit_status gemmkit_sgemm_strided_batched_cuda_enqueue(
    gemmkit_context *ctx, CUstream stream, gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b,
    int64_t m, int64_t n, int64_t k, float alpha, CUdeviceptr a, int64_t lda, int64_t stride_a, CUdeviceptr b,
    int64_t ldb, int64_t stride_b, float beta, CUdeviceptr c, int64_t ldc, int64_t stride_c, int64_t batch_count)
{
    GK_TRY(require_cuda(ctx));
    GK_TRY(gk_cuda_check_stream(ctx->device, stream));
    const CUdeviceptr ptrs[3] = {a, b, c};
    operand w[3];
    gk_batched_problem bp;
    int writes_c = 0;
    GK_TRY(batched_problem(ctx, layout, trans_a, trans_b, m, n, k, alpha, ptrs, lda, stride_a, ldb, stride_b, beta,
                           ldc, stride_c, batch_count, w, &bp, &writes_c));
    const gemmkit_status status = writes_c ? run_on_stream(ctx, stream, run_batched, &bp) : GEMMKIT_SUCCESS;
    release(ctx, w, 3);
    return status;
}

gemmkit_status gemmkit_cuda_strided_batched_workspace_size(
    gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m,
    int64_t n, int64_t k, float alpha, CUdeviceptr a, int64_t lda, int64_t stride_a, CUdeviceptr b, int64_t ldb,
    int64_t stride_b, float beta, CUdeviceptr c, int64_t ldc, int64_t stride_c, int64_t batch_count, size_t *bytes)
{
    GK_TRY(require_cuda(ctx));
    if (!bytes) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "bytes is NULL");
    *bytes = 0;
    const CUdeviceptr ptrs[3] = {or_aligned(a), or_aligned(b), or_aligned(c)};
    operand w[3];
    gk_batched_problem bp;
    int writes_c = 0;
    GK_TRY(batched_problem(ctx, layout, trans_a, trans_b, m, n, k, alpha, ptrs, lda, stride_a, ldb, stride_b, beta,
                           ldc, stride_c, batch_count, w, &bp, &writes_c));
    const gemmkit_status status = writes_c ? measure(ctx, run_batched, &bp, bytes) : GEMMKIT_SUCCESS;
    release(ctx, w, 3);
    return status;
}

gemmkit_status gemmkit_somatcopy_cuda_enqueue(gemmkit_context *ctx, CUstream stream, gemmkit_layout layout,
                                              gemmkit_transpose trans, int64_t rows, int64_t cols, float alpha,
                                              CUdeviceptr a, int64_t lda, CUdeviceptr b, int64_t ldb)
{
    GK_TRY(require_cuda(ctx));
    GK_TRY(gk_cuda_check_stream(ctx->device, stream));
    static const char *const names[] = {"A", "B"};
    const CUdeviceptr ptrs[2] = {a, b};
    operand w[2];
    GK_TRY(wrap_all(ctx, ptrs, names, w, 2));
    gk_transpose_problem p;
    int writes_b = 0;
    gemmkit_status status = gk_omatcopy_buffers_problem(ctx, layout, trans, rows, cols, alpha, buffer_of(&w[0]),
                                                        w[0].offset, lda, (gemmkit_buffer *)buffer_of(&w[1]),
                                                        w[1].offset, ldb, &p, &writes_b);
    /* Two pointers are two records: whether A and B overlap is told by their addresses. */
    if (status == GEMMKIT_SUCCESS && writes_b && alpha != 0.0f) {
        int64_t extent_a = 0, extent_b = 0;
        gk_omatcopy_problem_extents(&p, &extent_a, &extent_b);
        if (a < b + (CUdeviceptr)extent_b * sizeof(float) && b < a + (CUdeviceptr)extent_a * sizeof(float))
            status = gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT,
                             "A [0x%llx, +%lld floats) and B [0x%llx, +%lld floats) overlap: the operation is "
                             "out-of-place", a, (long long)extent_a, b, (long long)extent_b);
    }
    if (status == GEMMKIT_SUCCESS && writes_b) status = run_on_stream(ctx, stream, run_omatcopy, &p);
    release(ctx, w, 2);
    return status;
}

gemmkit_status gemmkit_cuda_set_workspace(gemmkit_context *ctx, CUdeviceptr workspace, size_t bytes)
{
    GK_TRY(require_cuda(ctx));
    if (!workspace && bytes) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "workspace is 0 with %zu bytes", bytes);
    if (workspace % GK_WORKSPACE_ALIGN)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "workspace 0x%llx is not %d-byte aligned", workspace,
                       GK_WORKSPACE_ALIGN);
    pthread_mutex_lock(&ctx->lock);
    gk_workspace_release(ctx); /* the old pieces' records */
    ctx->workspace.address = workspace;
    ctx->workspace.bytes = workspace ? bytes : 0;
    pthread_mutex_unlock(&ctx->lock);
    return GEMMKIT_SUCCESS;
}
