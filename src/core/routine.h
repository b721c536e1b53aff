/* What every routine (routine_gemm.c, routine_omatcopy.c) shares: argument
 * checks that name the argument as the caller passed it, extents, and the one
 * host-staging path of the host-array entry points. */
#ifndef GK_ROUTINE_H
#define GK_ROUTINE_H

#include "plan.h"

/* Elements spanned by a column-major matrix: (cols - 1) * ld + rows, or 0.
 * ld is only checked from below: INT64_MAX instead of overflowing int64 (the
 * caller rejects anything beyond the 32-bit index range anyway). Inline, with
 * the checks below: every call runs them, small ones included. */
static inline int64_t gk_extent(int64_t rows, int64_t cols, int64_t ld)
{
    int64_t extent = 0;
    if (rows <= 0 || cols <= 0) return 0;
    if (__builtin_mul_overflow(cols - 1, ld, &extent) || __builtin_add_overflow(extent, rows, &extent))
        return INT64_MAX;
    return extent;
}
/* The rows of a stored column-major matrix holding op(X) of size rows x cols. */
static inline int64_t gk_stored_rows(int trans, int64_t rows, int64_t cols) { return trans ? cols : rows; }

/* The checks' failures (the message and status; routine_args.c). */
gemmkit_status gk_null_pointer(const char *name);
gemmkit_status gk_bad_layout(gemmkit_layout layout);
gemmkit_status gk_bad_trans(gemmkit_transpose trans, const char *name);
gemmkit_status gk_bad_ld(const char *name, int64_t ld, int64_t min_rows);

static inline gemmkit_status gk_check_pointer(const void *ptr, const char *name)
{
    return ptr ? GEMMKIT_SUCCESS : gk_null_pointer(name);
}
/* layout is row- or column-major; trans is N, T or C (named `name`). */
static inline gemmkit_status gk_check_layout(gemmkit_layout layout)
{
    return layout == GEMMKIT_ROW_MAJOR || layout == GEMMKIT_COL_MAJOR ? GEMMKIT_SUCCESS : gk_bad_layout(layout);
}
static inline gemmkit_status gk_check_trans(gemmkit_transpose trans, const char *name)
{
    return trans == GEMMKIT_NO_TRANS || trans == GEMMKIT_TRANS || trans == GEMMKIT_CONJ_TRANS
               ? GEMMKIT_SUCCESS
               : gk_bad_trans(trans, name);
}
/* ld >= max(1, min_rows). */
static inline gemmkit_status gk_check_ld(const char *name, int64_t ld, int64_t min_rows)
{
    return ld >= (min_rows > 1 ? min_rows : 1) ? GEMMKIT_SUCCESS : gk_bad_ld(name, ld, min_rows);
}
/* buf belongs to ctx and holds offset + extent floats, within 32-bit indexing. */
gemmkit_status gk_check_buffer(gemmkit_context *ctx, const gemmkit_buffer *buf, const char *name,
                               size_t offset, int64_t extent);

/* One operand of a host-array call, staged through a scratch slot: uploaded
 * from `in` when non-NULL, read back into `out` when non-NULL (column by
 * column: the gaps a larger ld leaves keep the caller's values), skipped when
 * both are NULL. A batched operand holds `batch` matrices `stride` floats
 * apart (gaps between them kept likewise); batch 0 counts as 1. */
typedef struct gk_host_operand {
    const float *in;
    float *out;
    int64_t rows, cols, ld;
    int slot;     /* GK_SCRATCH_HOST_* */
    gk_mem **mem; /* receives the staging buffer */
    int64_t batch, stride;
} gk_host_operand;

/* Floats spanned by `batch` matrices of `extent` floats, `stride` apart (batch
 * 0 or 1: extent); INT64_MAX when that overflows. */
int64_t gk_batch_span(int64_t extent, int64_t stride, int64_t batch);

/* Runs a routine on the device for host arrays: locks the context, stages the
 * operands in order, calls run(ctx, problem), then reads the results into a
 * temporary first and copies them out only when everything succeeded, so the
 * caller's arrays are untouched on failure. */
gemmkit_status gk_host_call(gemmkit_context *ctx, gk_host_operand *operands, int count,
                            gemmkit_status (*run)(gemmkit_context *ctx, void *problem), void *problem);

#endif
