/* The strided batched SGEMM routine (routine_gemm_batched.c): one prepared
 * column-major problem (gk_sgemm_prepare's) plus the batch, planned on a
 * batched kernel or as one plain SGEMM plan per matrix. */
#ifndef GK_BATCHED_H
#define GK_BATCHED_H

#include "sgemm.h"

/* The most matrices one launch of a kernel with the batch along the grid's
 * third dimension takes (CUDA's grid limit); larger batches are launched in
 * chunks. */
#define GK_BATCH_Z_MAX 65535
/* Matrices in one launch of any batched kernel (their batch argument and matrix indices are 32-bit). */
#define GK_BATCH_LAUNCH_MAX ((int64_t)1 << 30)

/* A strided batch in column-major terms: matrix z of each operand starts
 * z * stride floats after matrix 0 (`one`'s offsets). Row-major calls swap
 * A and B with their strides, as gk_sgemm_prepare swaps the operands. */
typedef struct gk_batched_problem {
    gk_sgemm_problem one;
    int64_t batch;
    int64_t stride_a, stride_b, stride_c;
} gk_batched_problem;

/* gk_sgemm_prepare's checks, then the strides (negative), the batch count
 * (negative) and C's stride (below C's extent while more than one matrix is
 * written: the C matrices would overlap). Fills the problem. */
gemmkit_status gk_batched_prepare(const gk_gemm_call *call, int64_t stride_a, int64_t stride_b, int64_t stride_c,
                                  int64_t batch, gk_batched_problem *bp);

/* A strided batch on gemmkit buffers checked (ctx, the arguments, the math mode, each buffer holding its batch)
 * and prepared into *bp; *writes_c 0 when there is nothing to run. Nothing is enqueued. */
gemmkit_status gk_batched_buffers_problem(gemmkit_context *ctx, const gemmkit_options *options, const gk_gemm_call *call,
                                          int64_t stride_a, int64_t stride_b, int64_t stride_c, int64_t batch_count,
                                          gk_batched_problem *bp, int *writes_c);

/* Plans and runs the batch on device memory (the context is locked):
 * options->kernel may name a batched kernel or a plain SGEMM kernel (then one
 * plain plan per matrix); fills options' timings (summed over launches). */
gemmkit_status gk_batched_run(gemmkit_context *ctx, const gemmkit_options *options, const gk_batched_problem *bp);

/* The policy's choice for a batch of m x n x k products (policy.tsv,
 * gemm_batched rows, dispatch_batched.c): a batched kernel and its
 * configuration, or def NULL for one plain SGEMM plan per matrix (the
 * "sgemm" choice, or no row holding). */
typedef struct gk_batched_choice {
    const gk_kernel_def *def;
    gk_config config;
} gk_batched_choice;
gk_batched_choice gk_batched_choose(const gk_policy *policy, const gemmkit_device_info *info,
                                    const gk_tuning_set *tuned, int64_t m, int64_t n, int64_t k, int64_t batch);

#endif
