/* Batched SGEMM (issue 16): the strided batch on host arrays and on buffers,
 * and the batch with an offset, alpha and beta per matrix on buffers.
 *
 * The strided batch is prepared once (gk_sgemm_prepare: row-major becomes
 * column-major by swapping A and B, with their strides) and runs one of:
 * - a batched kernel (GK_OP_SGEMM_BATCHED: batched-small, several tiny
 *   matrices per work-group; xgemm-direct-batched, one matrix per grid z, in
 *   launches of at most GK_BATCH_Z_MAX matrices);
 * - one plain SGEMM plan per matrix (policy choice "sgemm", an SGEMM kernel
 *   named in options, a math mode other than fp32, or A and B not read:
 *   alpha == 0 or k == 0).
 * The per-matrix variant always runs one plain plan per matrix, in one lock
 * and one wait: CLBlast's semantics, and no slower than its pointer arrays
 * for the few large matrices it serves; many tiny matrices belong in the
 * strided form. */
#include <stdlib.h>

#include "batched.h"
#include "math_mode.h"
#include "status.h"

static int64_t extent_a(const gk_sgemm_problem *p)
{
    return gk_extent(gk_stored_rows(p->trans_a, p->m, p->k), p->trans_a ? p->m : p->k, p->a.ld);
}

static int64_t extent_b(const gk_sgemm_problem *p)
{
    return gk_extent(gk_stored_rows(p->trans_b, p->k, p->n), p->trans_b ? p->k : p->n, p->b.ld);
}

static int64_t extent_c(const gk_sgemm_problem *p) { return gk_extent(p->m, p->n, p->c.ld); }

static gemmkit_status check_stride(const char *name, int64_t stride)
{
    if (stride >= 0) return GEMMKIT_SUCCESS;
    return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "%s = %lld is negative", name, (long long)stride);
}

static gemmkit_status check_batch(int64_t batch)
{
    if (batch >= 0) return GEMMKIT_SUCCESS;
    return gk_fail(GEMMKIT_ERROR_INVALID_SIZE, "batch_count = %lld is negative", (long long)batch);
}

gemmkit_status gk_batched_prepare(const gk_gemm_call *call, int64_t stride_a, int64_t stride_b, int64_t stride_c,
                                  int64_t batch, gk_batched_problem *bp)
{
    GK_TRY(gk_sgemm_prepare(call, &bp->one));
    GK_TRY(check_stride("stride_a", stride_a));
    GK_TRY(check_stride("stride_b", stride_b));
    GK_TRY(check_stride("stride_c", stride_c));
    GK_TRY(check_batch(batch));
    const int swapped = call->layout == GEMMKIT_ROW_MAJOR; /* a and b are the caller's B and A */
    bp->batch = batch;
    bp->stride_a = swapped ? stride_b : stride_a;
    bp->stride_b = swapped ? stride_a : stride_b;
    bp->stride_c = stride_c;
    const int64_t c_extent = extent_c(&bp->one);
    if (batch > 1 && gk_sgemm_writes_c(&bp->one) && stride_c < c_extent)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT,
                       "stride_c = %lld is below C's extent %lld: the C matrices would overlap", (long long)stride_c,
                       (long long)c_extent);
    return GEMMKIT_SUCCESS;
}

/* A buffer holds the batch: matrix 0 as gk_check_buffer checks it, and all of them. */
static gemmkit_status check_batch_buffer(gemmkit_context *ctx, const gemmkit_buffer *buf, const char *name,
                                         size_t offset, int64_t extent, int64_t stride, int64_t batch)
{
    GK_TRY(gk_check_buffer(ctx, buf, name, offset, extent));
    const int64_t span = gk_batch_span(extent, stride, batch);
    if (span == INT64_MAX || (uint64_t)span > buf->count - offset)
        return gk_fail(GEMMKIT_ERROR_BUFFER_TOO_SMALL,
                       "buffer %s holds %zu floats; %lld matrices from offset %zu, %lld apart, do not fit", name,
                       buf->count, (long long)batch, offset, (long long)stride);
    return GEMMKIT_SUCCESS;
}

/* The kernel: options->kernel (a batched kernel, or an SGEMM kernel: def
 * NULL, per matrix), else the policy's. */
static gemmkit_status choose(const gemmkit_context *ctx, const gemmkit_options *options,
                             const gk_batched_problem *bp, gk_batched_choice *choice)
{
    *choice = (gk_batched_choice){NULL, {0}};
    if (options && options->kernel) {
        const gk_kernel_def *def = gk_kernel_find(options->kernel);
        if (!def) return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "no kernel named \"%s\" (see `gemmkit list`)",
                                 options->kernel);
        if (gk_kernel_op(def) == GK_OP_SGEMM) return GEMMKIT_SUCCESS; /* gk_sgemm_plan checks it */
        if (gk_kernel_op(def) != GK_OP_SGEMM_BATCHED)
            return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "kernel \"%s\" is neither a batched nor an SGEMM kernel",
                           def->name);
        GK_TRY(gk_plan_check_backend(ctx, def));
        choice->def = def;
        return gk_context_resolve(ctx, def, options->params, &choice->config);
    }
    const gk_sgemm_problem *p = &bp->one;
    /* The batched kernels compute in fp32: another mode runs one plan of its own kernels per matrix. */
    if (p->math != GK_MATH_FP32) return GEMMKIT_SUCCESS;
    *choice = gk_batched_choose(gk_policy_builtin(), &ctx->info, &ctx->tuned, p->m, p->n, p->k, bp->batch);
    if (choice->def && options && options->params)
        return gk_context_resolve(ctx, choice->def, options->params, &choice->config);
    return GEMMKIT_SUCCESS;
}

/* Matrix z of the batch as a plain problem. */
static gk_sgemm_problem matrix_at(const gk_batched_problem *bp, int64_t z)
{
    gk_sgemm_problem p = bp->one;
    p.a.offset += (size_t)(z * bp->stride_a);
    p.b.offset += (size_t)(z * bp->stride_b);
    p.c.offset += (size_t)(z * bp->stride_c);
    return p;
}

/* Kernels take 32-bit offsets: the first matrix of every launch must lie below 2^31 floats, C's whole
 * extent too (the per-matrix helpers add C's rows to its offset in 32 bits), `per` matrices per launch. */
static gemmkit_status check_launch_offsets(const gk_batched_problem *bp, int64_t per)
{
    const int64_t last = (bp->batch - 1) / per * per;
    const gk_sgemm_problem p = matrix_at(bp, last);
    const int reads = gk_sgemm_reads_ab(&p);
    const int64_t ends[] = {reads ? (int64_t)p.a.offset + extent_a(&p) : 0,
                            reads ? (int64_t)p.b.offset + extent_b(&p) : 0,
                            (int64_t)p.c.offset + extent_c(&p)};
    for (int i = 0; i < 3; i++)
        if (ends[i] > INT32_MAX)
            return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW,
                           "batch of %lld: matrix %lld ends beyond 2^31-1 floats in its buffer (kernels take "
                           "32-bit offsets)", (long long)bp->batch, (long long)last);
    return GEMMKIT_SUCCESS;
}

/* One plain plan per matrix (the SGEMM policy's kernel unless `named` is the caller's SGEMM kernel); the
 * timings add up. */
static gemmkit_status run_per_matrix(gemmkit_context *ctx, const gemmkit_options *options, int named,
                                     const gk_batched_problem *bp, double *kernel_ms, double *total_ms)
{
    GK_TRY(check_launch_offsets(bp, 1));
    double kernel = 0.0, total = 0.0;
    gemmkit_options plain = options ? *options : (gemmkit_options){0};
    if (!named) plain.kernel = NULL, plain.params = NULL;
    plain.kernel_ms = &kernel;
    plain.total_ms = &total;
    for (int64_t z = 0; z < bp->batch; z++) {
        const gk_sgemm_problem p = matrix_at(bp, z);
        GK_TRY(gk_sgemm_run(ctx, &plain, &p));
        if (kernel_ms) *kernel_ms += kernel;
        if (total_ms) *total_ms += total;
    }
    return GEMMKIT_SUCCESS;
}

static gemmkit_status run_batched_kernel(gemmkit_context *ctx, const gk_config *config, const gk_batched_problem *bp,
                                         double *kernel_ms, double *total_ms)
{
    const gk_sgemm_problem *p = &bp->one;
    gk_geometry g;
    GK_TRY(gk_config_geometry(config, p->m, p->n, p->k, &g));
    GK_TRY(gk_config_check_device(config, &g, &ctx->info));
    int64_t per = config->def->contract == GK_CONTRACT_GEMM_DIRECT_STRIDED ? GK_BATCH_Z_MAX : bp->batch;
    if (per > GK_BATCH_LAUNCH_MAX) per = GK_BATCH_LAUNCH_MAX; /* the kernels count matrices in 32 bits */
    GK_TRY(check_launch_offsets(bp, per));
    for (int64_t z = 0; z < bp->batch; z += per) {
        const gk_sgemm_problem first = matrix_at(bp, z);
        const gk_operands o = {.m = p->m, .n = p->n, .k = p->k, .batch = bp->batch - z < per ? bp->batch - z : per,
                               .stride_a = bp->stride_a, .stride_b = bp->stride_b, .stride_c = bp->stride_c,
                               .trans_a = p->trans_a, .trans_b = p->trans_b, .alpha = p->alpha, .beta = p->beta,
                               .a = first.a, .b = first.b, .c = first.c};
        gk_plan plan = {0};
        GK_TRY(gk_plan_add(ctx, &plan, config, &g, &o, 1));
        GK_TRY(gk_plan_execute(ctx, &plan, kernel_ms, total_ms));
    }
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_batched_run(gemmkit_context *ctx, const gemmkit_options *options, const gk_batched_problem *bp)
{
    double *kernel_ms = options ? options->kernel_ms : NULL, *total_ms = options ? options->total_ms : NULL;
    if (kernel_ms) *kernel_ms = 0.0;
    if (total_ms) *total_ms = 0.0;
    gk_batched_choice choice;
    GK_TRY(choose(ctx, options, bp, &choice));
    if (bp->batch == 0 || !gk_sgemm_writes_c(&bp->one)) return GEMMKIT_SUCCESS;
    /* Without A and B (alpha == 0 or k == 0) every matrix is C = beta * C: the plain plan's scale step. */
    if (!choice.def || !gk_sgemm_reads_ab(&bp->one)) {
        const int named_sgemm = options && options->kernel && !choice.def;
        return run_per_matrix(ctx, options, named_sgemm, bp, kernel_ms, total_ms);
    }
    return run_batched_kernel(ctx, &choice.config, bp, kernel_ms, total_ms);
}

typedef struct host_batch {
    const gemmkit_options *options;
    gk_batched_problem *problem;
} host_batch;

static gemmkit_status run_host(gemmkit_context *ctx, void *data)
{
    const host_batch *h = data;
    return gk_batched_run(ctx, h->options, h->problem);
}

gemmkit_status gemmkit_sgemm_strided_batched(gemmkit_context *ctx, const gemmkit_options *options,
                                             gemmkit_layout layout, gemmkit_transpose trans_a,
                                             gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                                             const float *a, int64_t lda, int64_t stride_a, const float *b,
                                             int64_t ldb, int64_t stride_b, float beta, float *c, int64_t ldc,
                                             int64_t stride_c, int64_t batch_count)
{
    GK_TRY(gk_check_pointer(ctx, "ctx"));
    const gk_gemm_call call = {layout, trans_a, trans_b, m, n, k, alpha, beta, a, b, c, 0, 0, 0, lda, ldb, ldc};
    gk_batched_problem bp;
    GK_TRY(gk_batched_prepare(&call, stride_a, stride_b, stride_c, batch_count, &bp));
    GK_TRY(gk_sgemm_math(ctx, options, &bp.one.math));
    gk_sgemm_problem *p = &bp.one;
    if (batch_count == 0 || !gk_sgemm_writes_c(p)) return GEMMKIT_SUCCESS;
    GK_TRY(gk_check_pointer(c, "C"));
    const int reads = gk_sgemm_reads_ab(p);
    if (reads) {
        GK_TRY(gk_check_pointer(a, "A"));
        GK_TRY(gk_check_pointer(b, "B"));
    }
    /* Each operand's whole batch is staged once; C is uploaded when it is read (beta != 0). */
    gk_host_operand staged[] = {
        {p->beta != 0.0f ? c : NULL, c, p->m, p->n, p->c.ld, GK_SCRATCH_HOST_C, &p->c.mem, batch_count, bp.stride_c},
        {reads ? p->source_a : NULL, NULL, gk_stored_rows(p->trans_a, p->m, p->k), p->trans_a ? p->m : p->k,
         p->a.ld, GK_SCRATCH_HOST_A, &p->a.mem, batch_count, bp.stride_a},
        {reads ? p->source_b : NULL, NULL, gk_stored_rows(p->trans_b, p->k, p->n), p->trans_b ? p->k : p->n,
         p->b.ld, GK_SCRATCH_HOST_B, &p->b.mem, batch_count, bp.stride_b},
    };
    for (int i = 0; i < 3; i++) {
        const int64_t span = gk_batch_span(gk_extent(staged[i].rows, staged[i].cols, staged[i].ld),
                                           staged[i].stride, batch_count);
        if (span > (int64_t)(SIZE_MAX / 2 / sizeof(float)))
            return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "the batch spans more floats than memory can address");
    }
    host_batch h = {options, &bp};
    return gk_host_call(ctx, staged, 3, run_host, &h);
}

gemmkit_status gk_batched_buffers_problem(gemmkit_context *ctx, const gemmkit_options *options, const gk_gemm_call *call,
                                          int64_t stride_a, int64_t stride_b, int64_t stride_c, int64_t batch_count,
                                          gk_batched_problem *bp, int *writes_c)
{
    GK_TRY(gk_check_pointer(ctx, "ctx"));
    GK_TRY(gk_batched_prepare(call, stride_a, stride_b, stride_c, batch_count, bp));
    GK_TRY(gk_sgemm_math(ctx, options, &bp->one.math));
    gk_sgemm_problem *p = &bp->one;
    *writes_c = batch_count > 0 && gk_sgemm_writes_c(p);
    if (!*writes_c) return GEMMKIT_SUCCESS;
    const gemmkit_buffer *c = call->c;
    GK_TRY(check_batch_buffer(ctx, c, "C", call->offset_c, extent_c(p), bp->stride_c, batch_count));
    p->c.mem = c->mem;
    if (gk_sgemm_reads_ab(p)) {
        const gemmkit_buffer *ba = p->source_a, *bb = p->source_b;
        GK_TRY(check_batch_buffer(ctx, ba, p->name_a, p->a.offset, extent_a(p), bp->stride_a, batch_count));
        GK_TRY(check_batch_buffer(ctx, bb, p->name_b, p->b.offset, extent_b(p), bp->stride_b, batch_count));
        p->a.mem = ba->mem;
        p->b.mem = bb->mem;
    }
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_sgemm_strided_batched_buffers(
    gemmkit_context *ctx, const gemmkit_options *options, gemmkit_layout layout, gemmkit_transpose trans_a,
    gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha, const gemmkit_buffer *a,
    size_t offset_a, int64_t lda, int64_t stride_a, const gemmkit_buffer *b, size_t offset_b, int64_t ldb,
    int64_t stride_b, float beta, gemmkit_buffer *c, size_t offset_c, int64_t ldc, int64_t stride_c,
    int64_t batch_count)
{
    const gk_gemm_call call = {layout, trans_a, trans_b, m, n, k, alpha, beta, a, b, c,
                               offset_a, offset_b, offset_c, lda, ldb, ldc};
    gk_batched_problem bp;
    int writes_c = 0;
    GK_TRY(gk_batched_buffers_problem(ctx, options, &call, stride_a, stride_b, stride_c, batch_count, &bp, &writes_c));
    if (!writes_c) return GEMMKIT_SUCCESS;
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = gk_batched_run(ctx, options, &bp);
    if (status == GEMMKIT_SUCCESS) status = ctx->ops->finish(ctx->device);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}

/* C's matrices, as [start, end) intervals, sorted by start. */
typedef struct interval {
    size_t start, end;
} interval;

static int by_start(const void *x, const void *y)
{
    const interval *a = x, *b = y;
    return (a->start > b->start) - (a->start < b->start);
}

/* Matrices whose C spans (offset to offset + extent) overlap. */
static gemmkit_status check_c_apart(const size_t *offsets_c, int64_t extent, int64_t batch)
{
    if (batch < 2 || extent == 0) return GEMMKIT_SUCCESS;
    interval *spans = malloc((size_t)batch * sizeof *spans);
    if (!spans) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating %lld intervals", (long long)batch);
    for (int64_t z = 0; z < batch; z++) spans[z] = (interval){offsets_c[z], offsets_c[z] + (size_t)extent};
    qsort(spans, (size_t)batch, sizeof *spans, by_start);
    gemmkit_status status = GEMMKIT_SUCCESS;
    for (int64_t z = 1; z < batch && status == GEMMKIT_SUCCESS; z++)
        if (spans[z].start < spans[z - 1].end)
            status = gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT,
                             "offsets_c: the C matrices at %zu and %zu overlap (each spans %lld floats)",
                             spans[z - 1].start, spans[z].start, (long long)extent);
    free(spans);
    return status;
}

gemmkit_status gemmkit_sgemm_batched_buffers(gemmkit_context *ctx, const gemmkit_options *options,
                                             gemmkit_layout layout, gemmkit_transpose trans_a,
                                             gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k,
                                             const float *alphas, const gemmkit_buffer *a, const size_t *offsets_a,
                                             int64_t lda, const gemmkit_buffer *b, const size_t *offsets_b,
                                             int64_t ldb, const float *betas, gemmkit_buffer *c,
                                             const size_t *offsets_c, int64_t ldc, int64_t batch_count)
{
    GK_TRY(gk_check_pointer(ctx, "ctx"));
    gk_gemm_call call = {layout, trans_a, trans_b, m, n, k, 1.0f, 0.0f, a, b, c, 0, 0, 0, lda, ldb, ldc};
    gk_sgemm_problem p;
    GK_TRY(gk_sgemm_prepare(&call, &p));
    GK_TRY(gk_sgemm_math(ctx, options, &p.math));
    GK_TRY(check_batch(batch_count));
    if (batch_count == 0) return GEMMKIT_SUCCESS;
    GK_TRY(gk_check_pointer(alphas, "alphas"));
    GK_TRY(gk_check_pointer(offsets_a, "offsets_a"));
    GK_TRY(gk_check_pointer(offsets_b, "offsets_b"));
    GK_TRY(gk_check_pointer(betas, "betas"));
    GK_TRY(gk_check_pointer(offsets_c, "offsets_c"));
    gk_sgemm_problem *all = malloc((size_t)batch_count * sizeof *all);
    size_t *written = malloc((size_t)batch_count * sizeof *written);
    if (!all || !written) {
        free(all);
        free(written);
        return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating %lld problems", (long long)batch_count);
    }
    /* Every matrix is checked before anything runs. */
    gemmkit_status status = GEMMKIT_SUCCESS;
    int64_t count = 0;
    for (int64_t z = 0; z < batch_count && status == GEMMKIT_SUCCESS; z++) {
        call.alpha = alphas[z], call.beta = betas[z];
        call.offset_a = offsets_a[z], call.offset_b = offsets_b[z], call.offset_c = offsets_c[z];
        gk_sgemm_problem *q = &all[count];
        status = gk_sgemm_prepare(&call, q);
        q->math = p.math;
        if (status != GEMMKIT_SUCCESS || !gk_sgemm_writes_c(q)) continue;
        status = gk_check_buffer(ctx, c, "C", q->c.offset, extent_c(q));
        q->c.mem = status == GEMMKIT_SUCCESS ? c->mem : NULL;
        if (status == GEMMKIT_SUCCESS && gk_sgemm_reads_ab(q)) {
            const gemmkit_buffer *ba = q->source_a, *bb = q->source_b;
            status = gk_check_buffer(ctx, ba, q->name_a, q->a.offset, extent_a(q));
            if (status == GEMMKIT_SUCCESS) status = gk_check_buffer(ctx, bb, q->name_b, q->b.offset, extent_b(q));
            if (status == GEMMKIT_SUCCESS) q->a.mem = ba->mem, q->b.mem = bb->mem;
        }
        written[count++] = q->c.offset;
    }
    if (status == GEMMKIT_SUCCESS) status = check_c_apart(written, extent_c(&p), count);
    if (status == GEMMKIT_SUCCESS) {
        double kernel = 0.0, total = 0.0, *kernel_ms = options ? options->kernel_ms : NULL,
               *total_ms = options ? options->total_ms : NULL;
        gemmkit_options plain = options ? *options : (gemmkit_options){0};
        plain.kernel_ms = &kernel;
        plain.total_ms = &total;
        if (kernel_ms) *kernel_ms = 0.0;
        if (total_ms) *total_ms = 0.0;
        pthread_mutex_lock(&ctx->lock);
        for (int64_t z = 0; z < count && status == GEMMKIT_SUCCESS; z++) {
            status = gk_sgemm_run(ctx, &plain, &all[z]);
            if (kernel_ms) *kernel_ms += kernel;
            if (total_ms) *total_ms += total;
        }
        if (status == GEMMKIT_SUCCESS) status = ctx->ops->finish(ctx->device);
        pthread_mutex_unlock(&ctx->lock);
    }
    free(all);
    free(written);
    return status;
}
