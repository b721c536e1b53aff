/* Transposition and scaled copy inside the library: B = alpha * op(A) on
 * device memory, column-major, through the registry's transpose and copy
 * kernels; and the SGEMM pre-processing (zero-padded packing) built on them. */
#ifndef GK_TRANSPOSE_H
#define GK_TRANSPOSE_H

#include "sgemm.h"

/* A column-major problem: A is rows x cols; B = alpha * A (rows x cols) or,
 * with trans, B = alpha * A^T (cols x rows). */
typedef struct gk_transpose_problem {
    int trans; /* 0 or 1 */
    int64_t rows, cols;
    float alpha;
    gk_matrix a, b;
} gk_transpose_problem;

/* Runs a problem (the context is locked) with the named kernel and parameter
 * overrides, or the library's choice when kernel is NULL. alpha == 0 writes
 * zeros without reading A. Sets *kernel_ms to the main kernel's device time and
 * adds it to *total_ms (either may be NULL). */
gemmkit_status gk_transpose_run(gemmkit_context *ctx, const char *kernel, const char *params,
                                const gk_transpose_problem *problem, double *kernel_ms, double *total_ms);

/* dst (rows_p x cols_p, leading dimension rows_p) = op(X) padded with zeros,
 * where op(X) is rows x cols and x holds X (X^T stored when trans). */
gemmkit_status gk_transpose_pack(gemmkit_context *ctx, const gk_matrix *x, int trans, int64_t rows,
                                 int64_t cols, int64_t rows_p, int64_t cols_p, gk_mem *dst,
                                 double *total_ms);

#endif
