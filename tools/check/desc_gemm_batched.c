/* The strided batched SGEMM descriptor (routine_desc.h): every matrix checked
 * in float64 with float32 bounds (check_batched.c); work = 2 m n k per matrix;
 * bytes moved = A and B read once, C written once (broadcast operands once). */
#include <stdio.h>

#include "routine_desc.h"

static void case_of(const int64_t size[3], gemmkit_layout layout, gemmkit_transpose trans_a,
                    gemmkit_transpose trans_b, gk_case *out)
{
    const gk_sgemm_case one = {layout, trans_a, trans_b, size[0], size[1], size[2], 1.0f, 0.0f, 0, 0, 0};
    out->batched = gk_batched_tight(one, 1);
}

static void complete(gk_case *c) { gk_case_complete(&c->batched.one); }

static void extents(const gk_case *c, size_t extent[GK_ROUTINE_MAX_OPERANDS])
{
    gk_batched_extents(&c->batched, &extent[0], &extent[1], &extent[2]);
}

static void fill(const gk_case *c, gk_rng *rng, float *const *ops) { gk_batched_fill(&c->batched, rng, ops[0], ops[1], ops[2]); }

static void check(const gk_case *c, float *const *ops, const float *result, double full_limit, int samples,
                  gk_rng *rng, gk_check_result *out)
{
    (void)samples;
    gk_check_batched_call(&c->batched, GEMMKIT_MATH_FP32, ops[0], ops[1], ops[2], result, full_limit, rng, out);
}

static double work(const gk_case *c)
{
    const gk_sgemm_case *g = &c->batched.one;
    return 2.0 * (double)g->m * (double)g->n * (double)g->k * (double)c->batched.batch;
}

/* Bytes a batched call must move at least: each distinct A and B read once, C written once (beta = 0). */
static double bytes(const gk_batched_case *b)
{
    const gk_sgemm_case *g = &b->one;
    const double count = (double)b->batch;
    return 4.0 * ((b->stride_a ? count : 1.0) * (double)g->m * (double)g->k +
                  (b->stride_b ? count : 1.0) * (double)g->k * (double)g->n + count * (double)g->m * (double)g->n);
}

static void label(const gk_case *c, gk_case_label *out)
{
    const gk_sgemm_case *g = &c->batched.one;
    *out = (gk_case_label){.op = "sgemm_batched", .size = {g->m, g->n, g->k}, .batch = c->batched.batch,
                           .bytes = bytes(&c->batched)};
    snprintf(out->layout, sizeof out->layout, "%s", g->layout == GEMMKIT_ROW_MAJOR ? "row" : "col");
    snprintf(out->trans, sizeof out->trans, "%c%c", g->trans_a == GEMMKIT_NO_TRANS ? 'N' : 'T',
             g->trans_b == GEMMKIT_NO_TRANS ? 'N' : 'T');
}

static void describe(const gk_case *c, char *text, size_t size) { gk_batched_describe(&c->batched, text, size); }

static gemmkit_status run(gemmkit_context *ctx, const gemmkit_options *options, const gk_case *c,
                          gemmkit_buffer *const *buffers)
{
    const gk_batched_case *b = &c->batched;
    const gk_sgemm_case *g = &b->one;
    return gemmkit_sgemm_strided_batched_buffers(ctx, options, g->layout, g->trans_a, g->trans_b, g->m, g->n, g->k,
                                                 g->alpha, buffers[0], 0, g->lda, b->stride_a, buffers[1], 0, g->ldb,
                                                 b->stride_b, g->beta, buffers[2], 0, g->ldc, b->stride_c, b->batch);
}

static gemmkit_status check_run(gemmkit_context *ctx, const gemmkit_options *options, const gk_case *c, gk_rng *rng,
                                gk_check_result *out)
{
    return gk_check_batched_run(ctx, options, c->batched, rng, 1e8, out);
}

/* Tiny tight matrices, many of them; and an odd row-major shape with alpha/beta, A^T, gaps between matrices. */
static int verify_cases(const gk_kernel_shape *k, gk_case *cases, const char **what)
{
    (void)k;
    cases[0].batched = gk_batched_tight(
        (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 8, 8, 8, 1.0f, 0.0f, 0, 0, 0}, 1000);
    cases[1].batched = gk_batched_tight(
        (gk_sgemm_case){GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 37, 29, 33, 0.75f, -1.5f, 41, 30, 31}, 5);
    cases[1].batched.stride_a += 3, cases[1].batched.stride_c += 7;
    what[0] = "tight, 1000 matrices";
    what[1] = "odd, row-major, A^T, alpha/beta, gaps";
    return 2;
}

static int64_t tune_size(int is_gpu, int small) { return small ? 16 : is_gpu ? 64 : 16; }

/* About 2^30 multiply-adds per call: n^3 matrices, at most 100000 of them. */
static int64_t tune_batch(int64_t n)
{
    const int64_t count = ((int64_t)1 << 30) / (n * n * n);
    return count < 1 ? 1 : count > 100000 ? 100000 : count;
}

static int tune_cases(const gk_kernel_shape *k, int64_t n, gk_case *cases)
{
    (void)k;
    cases[0].batched = gk_batched_tight(
        (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f, 0.0f, 0, 0, 0},
        tune_batch(n));
    return 1;
}

static void tune_shapes(int64_t n, char *text, size_t size)
{
    snprintf(text, size, "n=%lld x%lld", (long long)n, (long long)tune_batch(n));
}

static int tune_check_cases(const gk_kernel_shape *k, gk_case *cases)
{
    (void)k;
    (void)cases;
    return 0;
}

const gk_routine gk_routine_gemm_batched = {
    .name = "sgemm_batched", .unit = "GFLOPS", .ops = {GK_OP_SGEMM_BATCHED, GK_OP_HELPER}, .dims = 3, .operands = 3,
    .case_of = case_of, .complete = complete, .extents = extents, .fill = fill, .check = check, .work = work,
    .label = label, .describe = describe, .run = run, .check_run = check_run, .verify_cases = verify_cases,
    .tune_size = tune_size, .tune_cases = tune_cases, .tune_shapes = tune_shapes, .tune_samples = 256,
    .tune_check_cases = tune_check_cases,
};
