/* The SGEMM descriptor (routine_desc.h): C = alpha op(A) op(B) + beta C,
 * checked in float64 with float32 bounds (check.c). */
#include <stdio.h>

#include "routine_desc.h"

static void case_of(const int64_t size[3], gemmkit_layout layout, gemmkit_transpose trans_a,
                    gemmkit_transpose trans_b, gk_case *out)
{
    out->gemm = (gk_sgemm_case){layout, trans_a, trans_b, size[0], size[1], size[2], 1.0f, 0.0f, 0, 0, 0};
    gk_case_complete(&out->gemm);
}

static void complete(gk_case *c) { gk_case_complete(&c->gemm); }

static void extents(const gk_case *c, size_t extent[GK_ROUTINE_MAX_OPERANDS])
{
    gk_case_extents(&c->gemm, &extent[0], &extent[1], &extent[2]);
}

static void fill(const gk_case *c, gk_rng *rng, float *const *ops) { gk_case_fill_inputs(&c->gemm, rng, ops[0], ops[1], ops[2]); }

static void check(const gk_case *c, float *const *ops, const float *result, double full_limit, int samples,
                  gk_rng *rng, gk_check_result *out)
{
    const gk_sgemm_case *g = &c->gemm;
    if ((double)g->m * (double)g->n * (double)g->k <= full_limit)
        gk_check_sgemm(g, ops[0], ops[1], ops[2], result, out);
    else
        gk_check_sgemm_sampled(g, ops[0], ops[1], ops[2], result, samples, rng, out);
}

static double work(const gk_case *c) { return 2.0 * (double)c->gemm.m * (double)c->gemm.n * (double)c->gemm.k; }

static void label(const gk_case *c, gk_case_label *out)
{
    const gk_sgemm_case *g = &c->gemm;
    *out = (gk_case_label){.op = "sgemm", .size = {g->m, g->n, g->k}};
    snprintf(out->layout, sizeof out->layout, "%s", g->layout == GEMMKIT_ROW_MAJOR ? "row" : "col");
    snprintf(out->trans, sizeof out->trans, "%c%c", g->trans_a == GEMMKIT_NO_TRANS ? 'N' : 'T',
             g->trans_b == GEMMKIT_NO_TRANS ? 'N' : 'T');
}

static void describe(const gk_case *c, char *text, size_t size)
{
    const gk_sgemm_case *g = &c->gemm;
    snprintf(text, size, "%s %c%c m=%lld n=%lld k=%lld alpha=%g beta=%g lda=%lld ldb=%lld ldc=%lld",
             g->layout == GEMMKIT_ROW_MAJOR ? "row" : "col", g->trans_a == GEMMKIT_NO_TRANS ? 'N' : 'T',
             g->trans_b == GEMMKIT_NO_TRANS ? 'N' : 'T', (long long)g->m, (long long)g->n, (long long)g->k,
             g->alpha, g->beta, (long long)g->lda, (long long)g->ldb, (long long)g->ldc);
}

static gemmkit_status run(gemmkit_context *ctx, const gemmkit_options *options, const gk_case *c,
                          gemmkit_buffer *const *buffers)
{
    const gk_sgemm_case *g = &c->gemm;
    return gemmkit_sgemm_buffers(ctx, options, g->layout, g->trans_a, g->trans_b, g->m, g->n, g->k, g->alpha,
                                 buffers[0], 0, g->lda, buffers[1], 0, g->ldb, g->beta, buffers[2], 0, g->ldc);
}

/* Host arrays through gemmkit_sgemm_ex; the full check up to 1e9 multiply-adds. */
static gemmkit_status check_run(gemmkit_context *ctx, const gemmkit_options *options, const gk_case *c,
                                gk_rng *rng, gk_check_result *out)
{
    return gk_check_run(ctx, options, c->gemm, rng, 1e9, out);
}

static int64_t at_least(int64_t x, int64_t minimum) { return x > minimum ? x : minimum; }
static int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

/* A native tile-multiple size, and an odd one with transposes and alpha/beta. */
static int verify_cases(const gk_kernel_shape *k, gk_case *cases, const char **what)
{
    int64_t m = round_up(at_least(2 * k->tile_m, 64), k->tile_m);
    int64_t n = round_up(at_least(2 * k->tile_n, 64), k->tile_n);
    int64_t s = round_up(at_least(4 * k->k_multiple, 64), k->k_multiple);
    s = s > m ? s : m; /* square, so square-only kernels run natively too */
    s = s > n ? s : n;
    cases[0].gemm = (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, s, s, s, 1.0f, 0.0f, 0, 0, 0};
    cases[1].gemm = (gk_sgemm_case){GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 37, 53, 29, 0.75f, -1.5f,
                                    41, 60, 57};
    what[0] = "native";
    what[1] = "odd, row-major, A^T, alpha/beta";
    return 2;
}

static int64_t tune_size(int is_gpu, int small) { return small ? (is_gpu ? 1024 : 128) : (is_gpu ? 4096 : 512); }

/* C = A * B on n x n x n, column-major NN. */
static int tune_cases(const gk_kernel_shape *k, int64_t n, gk_case *cases)
{
    (void)k;
    cases[0].gemm = (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f, 0.0f, n, n, n};
    return 1;
}

static void tune_shapes(int64_t n, char *text, size_t size) { snprintf(text, size, "n=%lld", (long long)n); }

/* The timed result is checked (sampled) at the tuned size: no extra cases. */
static int tune_check_cases(const gk_kernel_shape *k, gk_case *cases)
{
    (void)k;
    (void)cases;
    return 0;
}

const gk_routine gk_routine_gemm = {
    .name = "sgemm", .unit = "GFLOPS", .ops = {GK_OP_SGEMM, GK_OP_HELPER}, .dims = 3, .operands = 3,
    .case_of = case_of, .complete = complete, .extents = extents, .fill = fill, .check = check, .work = work,
    .label = label, .describe = describe, .run = run, .check_run = check_run, .verify_cases = verify_cases,
    .tune_size = tune_size, .tune_cases = tune_cases, .tune_shapes = tune_shapes, .tune_samples = 256,
    .tune_check_cases = tune_check_cases,
};
