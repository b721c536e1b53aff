/* Runs transposes and scaled copies on device memory: the kernel choice, the
 * alpha == 0 case, and the zero-padded packing used before tiled SGEMM kernels. */
#include "transpose.h"

#include "launch.h"
#include "status.h"

/* The library's default per operation, device and alignment (its parameters
 * come from the tuning database, see gk_context_resolve). On GPUs a transpose
 * whose columns of A and B all start on 128-byte lines runs the plain tiled
 * kernel; any other runs the one that cuts B's columns into aligned chunks,
 * which the plain one trails by up to 40% there (H200: docs/PERFORMANCE.md,
 * "Transposition"). On CPUs (PoCL) the naive transpose, whose scattered writes
 * the caches absorb, measured about twice as fast as the tiled ones. */
static const char *default_kernel(const gemmkit_context *ctx, const gk_transpose_problem *p)
{
    if (!p->trans) return "copy-fast";
    if (!ctx->info.is_gpu) return "lecture-transpose-naive";
    const int64_t line = 32; /* floats in 128 bytes */
    const int64_t starts = (int64_t)p->a.offset | p->a.ld | (int64_t)p->b.offset | p->b.ld;
    return starts % line == 0 ? "transpose-fast" : "transpose-aligned";
}

static gemmkit_status choose_kernel(const gemmkit_context *ctx, const char *name, const gk_transpose_problem *p,
                                    const gk_kernel_def **def)
{
    const int trans = p->trans;
    const gk_operation want = trans ? GK_OP_TRANSPOSE : GK_OP_COPY;
    if (!name) name = default_kernel(ctx, p);
    *def = gk_kernel_find(name);
    if (!*def) return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "no kernel named \"%s\" (see `gemmkit list`)", name);
    if ((*def)->op != want || ((*def)->flags & GK_FLAG_HELPER))
        return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "kernel \"%s\" is not a %s kernel, which trans = %s needs",
                       (*def)->name, trans ? "transpose" : "copy", trans ? "T" : "N");
    return GEMMKIT_SUCCESS;
}

/* Zeros a rows x cols column-major block at offset of mem (the SGEMM "scale" helper with beta = 0). */
static gemmkit_status zero_block(gemmkit_context *ctx, gk_mem *mem, int64_t offset, int64_t rows, int64_t cols,
                                 int64_t ld, double *elapsed_ms)
{
    gk_arg args[] = {GK_INT((int)rows), GK_INT((int)cols), GK_FLOAT(0.0f),
                     GK_MEM(mem),       GK_INT((int)offset), GK_INT((int)ld)};
    return gk_launch_named(ctx, "scale", NULL, rows, cols, args, 6, elapsed_ms);
}

gemmkit_status gk_transpose_run(gemmkit_context *ctx, const char *kernel, const char *params,
                                const gk_transpose_problem *p, double *kernel_ms, double *total_ms)
{
    const gk_kernel_def *def = NULL;
    GK_TRY(choose_kernel(ctx, kernel, p, &def));
    gk_config config;
    GK_TRY(gk_context_resolve(ctx, def, params, &config));
    if (p->rows == 0 || p->cols == 0) return GEMMKIT_SUCCESS;

    double ms = 0.0, *timing = kernel_ms || total_ms ? &ms : NULL; /* timing waits for the kernel */
    if (p->alpha == 0.0f) { /* BLAS convention: A is not read, so B = 0 even where A holds NaN */
        GK_TRY(zero_block(ctx, p->b.mem, (int64_t)p->b.offset, p->trans ? p->cols : p->rows,
                          p->trans ? p->rows : p->cols, p->b.ld, timing));
    } else {
        gk_arg args[] = {GK_INT((int)p->rows),     GK_INT((int)p->cols),     GK_FLOAT(p->alpha),
                         GK_MEM(p->a.mem),         GK_INT((int)p->a.offset), GK_INT((int)p->a.ld),
                         GK_MEM(p->b.mem),         GK_INT((int)p->b.offset), GK_INT((int)p->b.ld)};
        GK_TRY(gk_launch_grid(ctx, &config, p->rows, p->cols, args, 9, timing));
    }
    if (kernel_ms) *kernel_ms = ms;
    if (total_ms) *total_ms += ms;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_transpose_pack(gemmkit_context *ctx, const gk_matrix *x, int trans, int64_t rows,
                                 int64_t cols, int64_t rows_p, int64_t cols_p, gk_mem *dst, double *total_ms)
{
    /* op(X) = X^T is a transpose of the stored cols x rows matrix. */
    const gk_transpose_problem p = {trans, trans ? cols : rows, trans ? rows : cols, 1.0f, *x, {dst, 0, rows_p}};
    GK_TRY(gk_transpose_run(ctx, NULL, NULL, &p, NULL, total_ms));
    /* The padding: the rows below op(X), then the columns to its right. */
    if (rows_p > rows) GK_TRY(zero_block(ctx, dst, rows, rows_p - rows, cols, rows_p, total_ms));
    if (cols_p > cols) GK_TRY(zero_block(ctx, dst, cols * rows_p, rows_p, cols_p - cols, rows_p, total_ms));
    return GEMMKIT_SUCCESS;
}
