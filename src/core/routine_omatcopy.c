/* The out-of-place transposition/copy routine, B := alpha * op(A): argument
 * preparation, the kernel choice, the plan (and the zero-padded packing GEMM
 * plans use), and the public entry points on host arrays and buffers. */
#include <string.h>

#include "status.h"
#include "transpose.h"

/* Checks everything but pointers, in BLAS order, and fills a column-major
 * problem: a row-major A (rows x cols) is a column-major cols x rows matrix,
 * and B = op(A) turns into B^T = op(A^T), the same operation on that matrix. */
static gemmkit_status prepare(gemmkit_layout layout, gemmkit_transpose trans, int64_t rows, int64_t cols,
                              float alpha, int64_t lda, int64_t ldb, gk_transpose_problem *p)
{
    GK_TRY(gk_check_layout(layout));
    GK_TRY(gk_check_trans(trans, "trans"));
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

static gemmkit_status choose_kernel(const gemmkit_context *ctx, const char *name, const gk_transpose_problem *p,
                                    const gk_kernel_def **def)
{
    const int trans = p->trans;
    *def = name ? gk_kernel_find(name) : gk_omatcopy_choose(gk_policy_builtin(), &ctx->info, p); /* the policy's */
    if (!*def)
        return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "no kernel named \"%s\" (see `gemmkit list`)",
                       name ? name : "(the policy's fallback)");
    if (gk_kernel_op(*def) != (trans ? GK_OP_TRANSPOSE : GK_OP_COPY))
        return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "kernel \"%s\" is not a %s kernel, which trans = %s needs",
                       (*def)->name, trans ? "transpose" : "copy", trans ? "T" : "N");
    return GEMMKIT_SUCCESS;
}

/* Zeros a rows x cols column-major block at offset of mem (the "scale" helper with beta = 0). */
static gemmkit_status plan_zero(const gemmkit_context *ctx, gk_mem *mem, int64_t offset, int64_t rows, int64_t cols,
                                int64_t ld, int main, gk_plan *plan)
{
    const gk_operands zero = {.m = rows, .n = cols, .beta = 0.0f, .c = {mem, (size_t)offset, ld}};
    return gk_plan_add_helper(ctx, plan, GK_HELPER_SCALE, &zero, main);
}

gemmkit_status gk_omatcopy_plan(const gemmkit_context *ctx, const char *kernel, const char *params,
                                const gk_transpose_problem *p, int main, gk_plan *plan)
{
    const gk_kernel_def *def = NULL;
    GK_TRY(choose_kernel(ctx, kernel, p, &def));
    gk_config config;
    GK_TRY(gk_context_resolve(ctx, def, params, &config));
    if (p->rows == 0 || p->cols == 0) return GEMMKIT_SUCCESS;
    if (p->alpha == 0.0f) /* BLAS convention: A is not read, so B = 0 even where A holds NaN */
        return plan_zero(ctx, p->b.mem, (int64_t)p->b.offset, b_rows(p), b_cols(p), p->b.ld, main, plan);
    const gk_operands o = {.m = p->rows, .n = p->cols, .alpha = p->alpha, .a = p->a, .b = p->b};
    return gk_plan_add(ctx, plan, &config, NULL, &o, main);
}

gemmkit_status gk_omatcopy_plan_pack(const gemmkit_context *ctx, const gk_matrix *x, int trans, int64_t rows,
                                     int64_t cols, int64_t rows_p, int64_t cols_p, unsigned zero, gk_mem *dst,
                                     gk_plan *plan)
{
    /* op(X) = X^T is a transpose of the stored cols x rows matrix. */
    const gk_transpose_problem p = {trans, trans ? cols : rows, trans ? rows : cols, 1.0f, *x, {dst, 0, rows_p}};
    GK_TRY(gk_omatcopy_plan(ctx, NULL, NULL, &p, 0, plan));
    /* The padding: the rows below op(X), then the columns to its right. */
    if (rows_p > rows && (zero & GK_PAD_ROWS)) GK_TRY(plan_zero(ctx, dst, rows, rows_p - rows, cols, rows_p, 0, plan));
    if (cols_p > cols && (zero & GK_PAD_COLS))
        GK_TRY(plan_zero(ctx, dst, cols * rows_p, rows_p, cols_p - cols, rows_p, 0, plan));
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_transpose_pack(gemmkit_context *ctx, const gk_matrix *x, int trans, int64_t rows,
                                 int64_t cols, int64_t rows_p, int64_t cols_p, gk_mem *dst, double *total_ms)
{
    gk_plan plan = {0};
    GK_TRY(gk_omatcopy_plan_pack(ctx, x, trans, rows, cols, rows_p, cols_p, GK_PAD_ALL, dst, &plan));
    return gk_plan_execute(ctx, &plan, NULL, total_ms);
}

/* Plans and executes (the context is locked). */
static gemmkit_status run(gemmkit_context *ctx, const gemmkit_options *options, const gk_transpose_problem *p)
{
    double *kernel_ms = options ? options->kernel_ms : NULL, *total_ms = options ? options->total_ms : NULL;
    gk_plan plan = {0};
    GK_TRY(gk_omatcopy_plan(ctx, options ? options->kernel : NULL, options ? options->params : NULL, p, 1, &plan));
    return gk_plan_execute(ctx, &plan, kernel_ms, total_ms);
}

static gemmkit_status run_host(gemmkit_context *ctx, void *problem) { return run(ctx, NULL, problem); }

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
    gk_host_operand staged[] = {
        {alpha != 0.0f ? a : NULL, NULL, p.rows, p.cols, p.a.ld, GK_SCRATCH_HOST_A, &p.a.mem, 1, 0}, /* alpha == 0 does not read A */
        {NULL, b, b_rows(&p), b_cols(&p), p.b.ld, GK_SCRATCH_HOST_C, &p.b.mem, 1, 0},
    };
    return gk_host_call(ctx, staged, 2, run_host, &p);
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

gemmkit_status gk_omatcopy_buffers_problem(gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans,
                                           int64_t rows, int64_t cols, float alpha, const gemmkit_buffer *a,
                                           size_t offset_a, int64_t lda, gemmkit_buffer *b, size_t offset_b,
                                           int64_t ldb, gk_transpose_problem *p, int *writes_b)
{
    GK_TRY(gk_check_pointer(ctx, "ctx"));
    GK_TRY(prepare(layout, trans, rows, cols, alpha, lda, ldb, p));
    *writes_b = p->rows > 0 && p->cols > 0;
    if (!*writes_b) return GEMMKIT_SUCCESS;
    GK_TRY(gk_check_buffer(ctx, b, "B", offset_b, b_extent(p)));
    p->b.mem = b->mem;
    p->b.offset = offset_b;
    if (alpha != 0.0f) { /* alpha == 0 does not read A */
        GK_TRY(gk_check_buffer(ctx, a, "A", offset_a, a_extent(p)));
        GK_TRY(check_disjoint(a, offset_a, a_extent(p), b, offset_b, b_extent(p)));
        p->a.mem = a->mem;
        p->a.offset = offset_a;
    }
    return GEMMKIT_SUCCESS;
}

void gk_omatcopy_problem_extents(const gk_transpose_problem *p, int64_t *extent_a, int64_t *extent_b)
{
    *extent_a = a_extent(p);
    *extent_b = b_extent(p);
}

gemmkit_status gk_omatcopy_run(gemmkit_context *ctx, const gemmkit_options *options, const gk_transpose_problem *p)
{
    return run(ctx, options, p);
}

gemmkit_status gemmkit_somatcopy_buffers(gemmkit_context *ctx, const gemmkit_options *options,
                                         gemmkit_layout layout, gemmkit_transpose trans, int64_t rows,
                                         int64_t cols, float alpha, const gemmkit_buffer *a, size_t offset_a,
                                         int64_t lda, gemmkit_buffer *b, size_t offset_b, int64_t ldb)
{
    if (options && options->kernel_ms) *options->kernel_ms = 0.0;
    if (options && options->total_ms) *options->total_ms = 0.0;
    gk_transpose_problem p;
    int writes_b = 0;
    GK_TRY(gk_omatcopy_buffers_problem(ctx, layout, trans, rows, cols, alpha, a, offset_a, lda, b, offset_b, ldb, &p,
                                       &writes_b));
    if (!writes_b) return GEMMKIT_SUCCESS;
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = run(ctx, options, &p);
    if (status == GEMMKIT_SUCCESS) status = ctx->ops->finish(ctx->device);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}
