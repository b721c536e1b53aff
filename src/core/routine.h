/* What every routine (routine_gemm.c, routine_omatcopy.c) shares: argument
 * checks that name the argument as the caller passed it, extents, and the one
 * host-staging path of the host-array entry points. */
#ifndef GK_ROUTINE_H
#define GK_ROUTINE_H

#include "plan.h"

/* Elements spanned by a column-major matrix: (cols - 1) * ld + rows, or 0. */
int64_t gk_extent(int64_t rows, int64_t cols, int64_t ld);
/* The rows of a stored column-major matrix holding op(X) of size rows x cols. */
int64_t gk_stored_rows(int trans, int64_t rows, int64_t cols);

gemmkit_status gk_check_pointer(const void *ptr, const char *name);
/* layout is row- or column-major; trans is N, T or C (named `name`). */
gemmkit_status gk_check_layout(gemmkit_layout layout);
gemmkit_status gk_check_trans(gemmkit_transpose trans, const char *name);
/* ld >= max(1, min_rows). */
gemmkit_status gk_check_ld(const char *name, int64_t ld, int64_t min_rows);
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
