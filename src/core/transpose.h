/* The out-of-place transposition/copy routine (routine_omatcopy.c):
 * B = alpha * op(A) on device memory, column-major, through the registry's
 * transpose and copy kernels; and the zero-padded packing that GEMM plans
 * build from it. */
#ifndef GK_TRANSPOSE_H
#define GK_TRANSPOSE_H

#include "policy.h"
#include "routine.h"

/* A column-major problem: A is rows x cols; B = alpha * A (rows x cols) or,
 * with trans, B = alpha * A^T (cols x rows). */
typedef struct gk_transpose_problem {
    int trans; /* 0 or 1 */
    int64_t rows, cols;
    float alpha;
    gk_matrix a, b;
} gk_transpose_problem;

/* The kernel the policy gives the problem on a device like info (its omatcopy
 * rows); never NULL. */
const gk_kernel_def *gk_omatcopy_choose(const gk_policy *policy, const gemmkit_device_info *info,
                                        const gk_transpose_problem *problem);

/* Appends the problem's step to a plan: the named kernel with parameter
 * overrides, or the library's choice when kernel is NULL; alpha == 0 writes
 * zeros without reading A. `main`: the step's time is the call's kernel time. */
gemmkit_status gk_omatcopy_plan(const gemmkit_context *ctx, const char *kernel, const char *params,
                                const gk_transpose_problem *problem, int main, gk_plan *plan);

/* A call on gemmkit buffers checked (ctx, the arguments in BLAS order, each buffer's extent, A and B apart where
 * they share a buffer) and prepared into *p; *writes_b 0 when B is empty. Nothing is enqueued. */
gemmkit_status gk_omatcopy_buffers_problem(gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans,
                                           int64_t rows, int64_t cols, float alpha, const gemmkit_buffer *a,
                                           size_t offset_a, int64_t lda, gemmkit_buffer *b, size_t offset_b,
                                           int64_t ldb, gk_transpose_problem *p, int *writes_b);
/* The floats A and B span from their offsets. */
void gk_omatcopy_problem_extents(const gk_transpose_problem *p, int64_t *extent_a, int64_t *extent_b);
/* Plans and executes a prepared problem (the context locked); fills options' timings. */
gemmkit_status gk_omatcopy_run(gemmkit_context *ctx, const gemmkit_options *options, const gk_transpose_problem *p);

/* Which padding a pack zeros: the rows below op(X), the columns to its right. */
enum { GK_PAD_ROWS = 1, GK_PAD_COLS = 2, GK_PAD_ALL = GK_PAD_ROWS | GK_PAD_COLS };

/* Appends dst (rows_p x cols_p, leading dimension rows_p) = op(X) padded,
 * where op(X) is rows x cols and x holds X (X^T stored when trans): with
 * zeros where `zero` says, the rest of the padding left as the buffer held
 * it. A GEMM operand needs zeros only along K: what its other padding meets
 * lands in padded rows or columns of the result, which no step reads. */
gemmkit_status gk_omatcopy_plan_pack(const gemmkit_context *ctx, const gk_matrix *x, int trans, int64_t rows,
                                     int64_t cols, int64_t rows_p, int64_t cols_p, unsigned zero, gk_mem *dst,
                                     gk_plan *plan);

/* The packing alone, planned and executed (the tests' entry). */
gemmkit_status gk_transpose_pack(gemmkit_context *ctx, const gk_matrix *x, int trans, int64_t rows,
                                 int64_t cols, int64_t rows_p, int64_t cols_p, gk_mem *dst,
                                 double *total_ms);

#endif
