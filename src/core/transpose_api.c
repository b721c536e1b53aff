/* The public out-of-place transposition/copy entry points, B := alpha * op(A):
 * argument checks, then host arrays (staged through device scratch buffers)
 * or device buffers. */
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "transpose.h"

/* Checks everything but pointers, in BLAS order, and fills a column-major
 * problem: a row-major A (rows x cols) is a column-major cols x rows matrix,
 * and B = op(A) turns into B^T = op(A^T), the same operation on that matrix. */
static gemmkit_status prepare(gemmkit_layout layout, gemmkit_transpose trans, int64_t rows, int64_t cols,
                              float alpha, int64_t lda, int64_t ldb, gk_transpose_problem *p)
{
    if (layout != GEMMKIT_ROW_MAJOR && layout != GEMMKIT_COL_MAJOR)
        return gk_fail(GEMMKIT_ERROR_INVALID_LAYOUT, "layout = %d is neither row- (101) nor column-major (102)",
                       (int)layout);
    if (trans != GEMMKIT_NO_TRANS && trans != GEMMKIT_TRANS && trans != GEMMKIT_CONJ_TRANS)
        return gk_fail(GEMMKIT_ERROR_INVALID_TRANSPOSE, "trans = %d is not 111, 112 or 113", (int)trans);
    if (rows < 0) return gk_fail(GEMMKIT_ERROR_INVALID_SIZE, "rows = %lld is negative", (long long)rows);
    if (cols < 0) return gk_fail(GEMMKIT_ERROR_INVALID_SIZE, "cols = %lld is negative", (long long)cols);
    const int row_major = layout == GEMMKIT_ROW_MAJOR, t = trans != GEMMKIT_NO_TRANS;
    /* A stored matrix's leading dimension covers its rows (column-major) or its row length. */
    GK_TRY(gk_check_ld("lda", lda, row_major ? cols : rows));
    GK_TRY(gk_check_ld("ldb", ldb, row_major ? (t ? rows : cols) : (t ? cols : rows)));

    memset(p, 0, sizeof *p);
    p->trans = t;
    p->rows = row_major ? cols : rows;
    p->cols = row_major ? rows : cols;
    p->alpha = alpha;
    p->a.ld = lda;
    p->b.ld = ldb;
    /* Kernels index with 32-bit integers. */
    const int64_t limit = INT32_MAX;
    if (rows > limit || cols > limit || lda > limit || ldb > limit)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "sizes and leading dimensions above 2^31-1 are not supported");
    if (gk_extent(p->rows, p->cols, lda) > limit ||
        gk_extent(t ? p->cols : p->rows, t ? p->rows : p->cols, ldb) > limit)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW,
                       "matrices spanning more than 2^31-1 elements (rows=%lld cols=%lld) are not supported",
                       (long long)rows, (long long)cols);
    return GEMMKIT_SUCCESS;
}

static int64_t b_rows(const gk_transpose_problem *p) { return p->trans ? p->cols : p->rows; }
static int64_t b_cols(const gk_transpose_problem *p) { return p->trans ? p->rows : p->cols; }
static int64_t a_extent(const gk_transpose_problem *p) { return gk_extent(p->rows, p->cols, p->a.ld); }
static int64_t b_extent(const gk_transpose_problem *p) { return gk_extent(b_rows(p), b_cols(p), p->b.ld); }

static gemmkit_status host_locked(gemmkit_context *ctx, gk_transpose_problem *p, const float *a, float *b)
{
    const gk_backend_ops *ops = ctx->ops;
    const size_t ea = (size_t)a_extent(p), eb = (size_t)b_extent(p);
    if (p->alpha != 0.0f) { /* alpha == 0 does not read A */
        GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_HOST_A, ea * sizeof(float), &p->a.mem));
        GK_TRY(ops->write(ctx->device, p->a.mem, 0, ea * sizeof(float), a));
    }
    GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_HOST_C, eb * sizeof(float), &p->b.mem));
    GK_TRY(gk_transpose_run(ctx, NULL, NULL, p, NULL, NULL));
    /* Read into a temporary first: B must stay untouched if anything fails. */
    float *result = malloc(eb * sizeof(float));
    if (!result) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating %zu floats", eb);
    gemmkit_status status = ops->read(ctx->device, p->b.mem, 0, eb * sizeof(float), result);
    /* Column by column, so the gaps a larger ldb leaves keep the caller's values. */
    if (status == GEMMKIT_SUCCESS)
        for (int64_t j = 0; j < b_cols(p); j++)
            memcpy(b + j * p->b.ld, result + j * p->b.ld, (size_t)b_rows(p) * sizeof(float));
    free(result);
    return status;
}

gemmkit_status gemmkit_somatcopy(gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans,
                                 int64_t rows, int64_t cols, float alpha, const float *a, int64_t lda, float *b,
                                 int64_t ldb)
{
    GK_TRY(gk_check_pointer(ctx, "ctx"));
    gk_transpose_problem p;
    GK_TRY(prepare(layout, trans, rows, cols, alpha, lda, ldb, &p));
    if (p.rows == 0 || p.cols == 0) return GEMMKIT_SUCCESS;
    GK_TRY(gk_check_pointer(b, "B"));
    if (alpha != 0.0f) GK_TRY(gk_check_pointer(a, "A"));
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = host_locked(ctx, &p, a, b);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}

/* Kernels read A while they write B: the two ranges of one buffer must not overlap. */
static gemmkit_status check_disjoint(const gemmkit_buffer *a, size_t offset_a, int64_t extent_a,
                                     const gemmkit_buffer *b, size_t offset_b, int64_t extent_b)
{
    if (a->mem != b->mem) return GEMMKIT_SUCCESS;
    if (offset_a + (size_t)extent_a <= offset_b || offset_b + (size_t)extent_b <= offset_a)
        return GEMMKIT_SUCCESS;
    return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT,
                   "A [%zu, +%lld) and B [%zu, +%lld) overlap in one buffer: the operation is out-of-place",
                   offset_a, (long long)extent_a, offset_b, (long long)extent_b);
}

gemmkit_status gemmkit_somatcopy_buffers(gemmkit_context *ctx, const gemmkit_options *options,
                                         gemmkit_layout layout, gemmkit_transpose trans, int64_t rows,
                                         int64_t cols, float alpha, const gemmkit_buffer *a, size_t offset_a,
                                         int64_t lda, gemmkit_buffer *b, size_t offset_b, int64_t ldb)
{
    double *kernel_ms = options ? options->kernel_ms : NULL, *total_ms = options ? options->total_ms : NULL;
    if (kernel_ms) *kernel_ms = 0.0;
    if (total_ms) *total_ms = 0.0;
    GK_TRY(gk_check_pointer(ctx, "ctx"));
    gk_transpose_problem p;
    GK_TRY(prepare(layout, trans, rows, cols, alpha, lda, ldb, &p));
    if (p.rows == 0 || p.cols == 0) return GEMMKIT_SUCCESS;
    GK_TRY(gk_check_buffer(ctx, b, "B", offset_b, b_extent(&p)));
    p.b.mem = b->mem;
    p.b.offset = offset_b;
    if (alpha != 0.0f) { /* alpha == 0 does not read A */
        GK_TRY(gk_check_buffer(ctx, a, "A", offset_a, a_extent(&p)));
        GK_TRY(check_disjoint(a, offset_a, a_extent(&p), b, offset_b, b_extent(&p)));
        p.a.mem = a->mem;
        p.a.offset = offset_a;
    }
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = gk_transpose_run(ctx, options ? options->kernel : NULL,
                                             options ? options->params : NULL, &p, kernel_ms, total_ms);
    if (status == GEMMKIT_SUCCESS) status = ctx->ops->finish(ctx->device);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}
