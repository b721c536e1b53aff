/* Strided batched SGEMM cases for the tests and the tool: extents of whole
 * batches, fresh inputs with poisoned outputs, and the float64 check of every
 * matrix (check.c's bound) plus the gaps between the C matrices, which must
 * not change. */
#ifndef GK_CHECK_BATCHED_H
#define GK_CHECK_BATCHED_H

#include "check.h"

/* `one` is every matrix's case; matrix z of X starts z * stride_x floats
 * after matrix 0 (0 broadcasts A or B). */
typedef struct gk_batched_case {
    gk_sgemm_case one;
    int64_t batch;
    int64_t stride_a, stride_b, stride_c;
} gk_batched_case;

/* A batch of `batch` tight matrices: tight leading dimensions (where 0) and
 * strides of one matrix's extent. */
gk_batched_case gk_batched_tight(gk_sgemm_case one, int64_t batch);
/* Floats each operand's batch spans ((batch - 1) * stride + extent; one
 * matrix's extent for batch 0 so that buffers are never empty). */
void gk_batched_extents(const gk_batched_case *c, size_t *ea, size_t *eb, size_t *ec);
/* Random A, B and C over their whole spans (gaps included); with beta == 0
 * every C matrix's m x n elements are NaN. */
void gk_batched_fill(const gk_batched_case *c, gk_rng *rng, float *a, float *b, float *c0);
/* Every matrix against the reference (gk_check_sgemm, or sampled above
 * full_limit multiply-adds per matrix), and every element of C's span that no
 * matrix covers equal to c0. */
void gk_check_batched(const gk_batched_case *c, const float *a, const float *b, const float *c0, const float *result,
                      double full_limit, gk_rng *rng, gk_check_result *out);
/* The same with the bound of `math` (gk_sgemm_bound) for every matrix. */
void gk_check_batched_math(const gk_batched_case *c, gemmkit_math math, const float *a, const float *b,
                           const float *c0, const float *result, double full_limit, gk_rng *rng,
                           gk_check_result *out);
/* The same for a whole call: call_full_limit multiply-adds checked in full are shared by the batch's
 * matrices (a matrix past its share is sampled). */
void gk_check_batched_call(const gk_batched_case *c, gemmkit_math math, const float *a, const float *b,
                           const float *c0, const float *result, double call_full_limit, gk_rng *rng,
                           gk_check_result *out);
/* Fresh inputs, one gemmkit_sgemm_strided_batched call on host arrays, the
 * check. Returns the library's status. */
gemmkit_status gk_check_batched_run(gemmkit_context *ctx, const gemmkit_options *options, gk_batched_case c,
                                    gk_rng *rng, double full_limit, gk_check_result *out);
/* "row NT 8x8x8 x1000 strides 64,0,70 alpha=1 beta=0 ld 8,8,8" */
void gk_batched_describe(const gk_batched_case *c, char *text, size_t size);

#endif
