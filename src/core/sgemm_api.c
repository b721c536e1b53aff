/* The public SGEMM entry points: on host arrays (copied through reusable
 * device staging buffers) and on device buffers. */
#include <stdlib.h>

#include "sgemm.h"
#include "status.h"

enum { STAGE_A = 0, STAGE_B, STAGE_C, STAGE_COUNT };

/* Host staging lives in its own scratch slots so the padding slots stay free. */
static gemmkit_status stage(gemmkit_context *ctx, int slot, size_t count, gk_mem **mem)
{
    static const int slots[STAGE_COUNT] = {GK_SCRATCH_HOST_A, GK_SCRATCH_HOST_B, GK_SCRATCH_HOST_C};
    return gk_context_scratch(ctx, slots[slot], count * sizeof(float), mem);
}

gemmkit_status gk_check_pointer(const void *ptr, const char *name)
{
    return ptr ? GEMMKIT_SUCCESS : gk_fail(GEMMKIT_ERROR_NULL_POINTER, "%s is NULL", name);
}

static int64_t a_extent(const gk_sgemm_problem *p)
{
    return gk_extent(gk_stored_rows(p->trans_a, p->m, p->k), p->trans_a ? p->m : p->k, p->a.ld);
}

static int64_t b_extent(const gk_sgemm_problem *p)
{
    return gk_extent(gk_stored_rows(p->trans_b, p->k, p->n), p->trans_b ? p->k : p->n, p->b.ld);
}

/* Row-major A/B were swapped by gk_sgemm_prepare: map the caller's pointers too. */
static void caller_operands(gemmkit_layout layout, const void *a, const void *b, const void **pa,
                            const void **pb)
{
    *pa = layout == GEMMKIT_ROW_MAJOR ? b : a;
    *pb = layout == GEMMKIT_ROW_MAJOR ? a : b;
}

static gemmkit_status host_sgemm_locked(gemmkit_context *ctx, const gemmkit_options *options,
                                        gk_sgemm_problem *p, const float *a, const float *b, float *c)
{
    const gk_backend_ops *ops = ctx->ops;
    size_t ec = (size_t)gk_extent(p->m, p->n, p->c.ld);
    GK_TRY(stage(ctx, STAGE_C, ec, &p->c.mem));
    /* Upload C when it is read, and also when its leading dimension leaves
     * gaps: the read-back below must return those gaps unchanged. */
    if (p->beta != 0.0f || p->c.ld != p->m)
        GK_TRY(ops->write(ctx->device, p->c.mem, 0, ec * sizeof(float), c));
    if (gk_sgemm_reads_ab(p)) {
        size_t ea = (size_t)a_extent(p), eb = (size_t)b_extent(p);
        GK_TRY(stage(ctx, STAGE_A, ea, &p->a.mem));
        GK_TRY(stage(ctx, STAGE_B, eb, &p->b.mem));
        GK_TRY(ops->write(ctx->device, p->a.mem, 0, ea * sizeof(float), a));
        GK_TRY(ops->write(ctx->device, p->b.mem, 0, eb * sizeof(float), b));
    }
    GK_TRY(gk_sgemm_run(ctx, options, p));
    /* Read into a temporary first: C must stay untouched if anything fails. */
    float *result = malloc(ec * sizeof(float));
    if (!result) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating %zu floats", ec);
    gemmkit_status status = ops->read(ctx->device, p->c.mem, 0, ec * sizeof(float), result);
    if (status == GEMMKIT_SUCCESS)
        for (size_t i = 0; i < ec; i++) c[i] = result[i];
    free(result);
    return status;
}

gemmkit_status gemmkit_sgemm_ex(gemmkit_context *ctx, const gemmkit_options *options, gemmkit_layout layout,
                                gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m, int64_t n,
                                int64_t k, float alpha, const float *a, int64_t lda, const float *b,
                                int64_t ldb, float beta, float *c, int64_t ldc)
{
    GK_TRY(gk_check_pointer(ctx, "ctx"));
    gk_sgemm_problem p = {0};
    GK_TRY(gk_sgemm_prepare(layout, trans_a, trans_b, m, n, k, alpha, lda, ldb, beta, ldc, &p));
    if (!gk_sgemm_writes_c(&p)) return GEMMKIT_SUCCESS;
    GK_TRY(gk_check_pointer(c, "C"));
    if (gk_sgemm_reads_ab(&p)) {
        GK_TRY(gk_check_pointer(a, "A"));
        GK_TRY(gk_check_pointer(b, "B"));
    }
    const void *pa, *pb;
    caller_operands(layout, a, b, &pa, &pb);
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = host_sgemm_locked(ctx, options, &p, pa, pb, c);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}

gemmkit_status gemmkit_sgemm(gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans_a,
                             gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                             const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                             int64_t ldc)
{
    return gemmkit_sgemm_ex(ctx, NULL, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c,
                            ldc);
}

gemmkit_status gk_check_buffer(gemmkit_context *ctx, const gemmkit_buffer *buf, const char *name,
                               size_t offset, int64_t extent)
{
    GK_TRY(gk_check_pointer(buf, name));
    if (buf->ctx != ctx)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "buffer %s belongs to another context", name);
    if (extent > 0 && (offset > buf->count || (size_t)extent > buf->count - offset))
        return gk_fail(GEMMKIT_ERROR_BUFFER_TOO_SMALL,
                       "buffer %s holds %zu floats; offset %zu + extent %lld does not fit", name, buf->count,
                       offset, (long long)extent);
    if (offset + (size_t)extent > (size_t)INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "buffer %s: offset %zu + extent exceeds 2^31-1", name,
                       offset);
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_sgemm_buffers(gemmkit_context *ctx, const gemmkit_options *options,
                                     gemmkit_layout layout, gemmkit_transpose trans_a,
                                     gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                                     const gemmkit_buffer *a, size_t offset_a, int64_t lda,
                                     const gemmkit_buffer *b, size_t offset_b, int64_t ldb, float beta,
                                     gemmkit_buffer *c, size_t offset_c, int64_t ldc)
{
    GK_TRY(gk_check_pointer(ctx, "ctx"));
    gk_sgemm_problem p = {0};
    GK_TRY(gk_sgemm_prepare(layout, trans_a, trans_b, m, n, k, alpha, lda, ldb, beta, ldc, &p));
    if (!gk_sgemm_writes_c(&p)) return GEMMKIT_SUCCESS;
    GK_TRY(gk_check_buffer(ctx, c, "C", offset_c, gk_extent(p.m, p.n, p.c.ld)));
    p.c.mem = c->mem;
    p.c.offset = offset_c;
    if (gk_sgemm_reads_ab(&p)) {
        const void *pa, *pb;
        caller_operands(layout, a, b, &pa, &pb);
        size_t oa = layout == GEMMKIT_ROW_MAJOR ? offset_b : offset_a;
        size_t ob = layout == GEMMKIT_ROW_MAJOR ? offset_a : offset_b;
        const gemmkit_buffer *ba = pa, *bb = pb;
        GK_TRY(gk_check_buffer(ctx, ba, layout == GEMMKIT_ROW_MAJOR ? "B" : "A", oa, a_extent(&p)));
        GK_TRY(gk_check_buffer(ctx, bb, layout == GEMMKIT_ROW_MAJOR ? "A" : "B", ob, b_extent(&p)));
        p.a.mem = ba->mem;
        p.a.offset = oa;
        p.b.mem = bb->mem;
        p.b.offset = ob;
    }
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = gk_sgemm_run(ctx, options, &p);
    if (status == GEMMKIT_SUCCESS) status = ctx->ops->finish(ctx->device);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}
