/* The omatcopy descriptor (routine_desc.h): B := alpha op(A), transposes and
 * copies, checked exactly (check_transpose.c). */
#include <stdio.h>

#include "routine_desc.h"

static gemmkit_transpose trans_of(const gk_kernel_shape *k)
{
    return k->op == GK_OP_TRANSPOSE ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS;
}

static void case_of(const int64_t size[3], gemmkit_layout layout, gemmkit_transpose trans_a,
                    gemmkit_transpose trans_b, gk_case *out)
{
    (void)trans_b;
    out->omatcopy = (gk_omatcopy_case){layout, trans_a, size[0], size[1], 1.0f, 0, 0, 0, 0};
    gk_omatcopy_complete(&out->omatcopy);
}

static void complete(gk_case *c) { gk_omatcopy_complete(&c->omatcopy); }

static void extents(const gk_case *c, size_t extent[GK_ROUTINE_MAX_OPERANDS])
{
    gk_omatcopy_extents(&c->omatcopy, &extent[0], &extent[1]);
    extent[0] += c->omatcopy.offset_a;
    extent[1] += c->omatcopy.offset_b;
}

static void fill(const gk_case *c, gk_rng *rng, float *const *ops)
{
    size_t extent[GK_ROUTINE_MAX_OPERANDS];
    extents(c, extent);
    gk_fill_random(rng, ops[0], extent[0]);
    gk_omatcopy_fill_b(&c->omatcopy, rng, ops[1], extent[1]);
}

static void check(const gk_case *c, float *const *ops, const float *result, double full_limit, int samples,
                  gk_rng *rng, gk_check_result *out)
{
    (void)full_limit, (void)samples, (void)rng; /* always whole and exact */
    const gk_omatcopy_case *o = &c->omatcopy;
    gk_check_omatcopy(o, ops[0] + o->offset_a, ops[1] + o->offset_b, result + o->offset_b, out);
}

/* Every element read once and written once. */
static double work(const gk_case *c) { return 2.0 * 4.0 * (double)c->omatcopy.rows * (double)c->omatcopy.cols; }

static void label(const gk_case *c, gk_case_label *out)
{
    const gk_omatcopy_case *o = &c->omatcopy;
    const int t = o->trans != GEMMKIT_NO_TRANS;
    *out = (gk_case_label){.size = {o->rows, o->cols, 0}};
    snprintf(out->op, sizeof out->op, "%s", t ? "transpose" : "copy");
    snprintf(out->layout, sizeof out->layout, "%s", o->layout == GEMMKIT_ROW_MAJOR ? "row" : "col");
    snprintf(out->trans, sizeof out->trans, "%s", t ? "T" : "N");
}

static void describe(const gk_case *c, char *text, size_t size) { gk_omatcopy_describe(&c->omatcopy, text, size); }

static gemmkit_status run(gemmkit_context *ctx, const gemmkit_options *options, const gk_case *c,
                          gemmkit_buffer *const *buffers)
{
    const gk_omatcopy_case *o = &c->omatcopy;
    return gemmkit_somatcopy_buffers(ctx, options, o->layout, o->trans, o->rows, o->cols, o->alpha, buffers[0],
                                     o->offset_a, o->lda, buffers[1], o->offset_b, o->ldb);
}

/* Device buffers, so that the case's offsets and the options apply. */
static gemmkit_status check_run(gemmkit_context *ctx, const gemmkit_options *options, const gk_case *c,
                                gk_rng *rng, gk_check_result *out)
{
    return gk_check_omatcopy_run(ctx, options, c->omatcopy, 1, rng, out);
}

/* A tile multiple, and an odd shape with gaps, offsets, row-major and alpha. */
static int verify_cases(const gk_kernel_shape *k, gk_case *cases, const char **what)
{
    const gemmkit_transpose t = trans_of(k);
    cases[0].omatcopy = (gk_omatcopy_case){GEMMKIT_COL_MAJOR, t, 256, 192, 1.0f, 0, 0, 0, 0};
    cases[1].omatcopy = (gk_omatcopy_case){GEMMKIT_ROW_MAJOR, t, 203, 131, -2.5f, 134, 211, 5, 2};
    what[0] = "tile multiple";
    what[1] = "odd, row-major, gaps, offsets, alpha";
    return 2;
}

static int64_t tune_size(int is_gpu, int small)
{
    (void)small; /* SGEMM only (cmd_tune.c refuses it here) */
    return is_gpu ? 8192 : 1024;
}

/* n x n and (n - 1) x (n - 1), tight: the winner must be fast whether or not
 * columns start on 16 bytes. */
static int tune_cases(const gk_kernel_shape *k, int64_t n, gk_case *cases)
{
    for (int i = 0; i < 2; i++)
        cases[i].omatcopy = (gk_omatcopy_case){GEMMKIT_COL_MAJOR, trans_of(k), n - i, n - i, 1.0f, n - i, n - i, 0, 0};
    return 2;
}

static void tune_shapes(int64_t n, char *text, size_t size)
{
    snprintf(text, size, "%lldx%lld and %lldx%lld", (long long)n, (long long)n, (long long)(n - 1),
             (long long)(n - 1));
}

/* Odd shapes with offsets and gaps, where edge handling fails if it is wrong. */
static int tune_check_cases(const gk_kernel_shape *k, gk_case *cases)
{
    const gk_omatcopy_case odd[] = {
        {GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, 203, 131, 0.75f, 207, 133, 1, 3},
        {GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, 130, 67, 1.0f, 0, 0, 0, 2},
        {GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, 256, 192, 1.0f, 0, 0, 0, 0},
    };
    const int count = (int)(sizeof odd / sizeof odd[0]);
    for (int i = 0; i < count; i++) {
        cases[i].omatcopy = odd[i];
        cases[i].omatcopy.trans = trans_of(k);
        if (k->op == GK_OP_COPY) cases[i].omatcopy.ldb = odd[i].lda; /* B has A's shape: reuse A's gap */
    }
    return count;
}

const gk_routine gk_routine_omatcopy = {
    .name = "omatcopy", .unit = "GB/s", .ops = {GK_OP_TRANSPOSE, GK_OP_COPY, GK_OP_HELPER}, .dims = 2,
    .operands = 2, .case_of = case_of, .complete = complete, .extents = extents, .fill = fill, .check = check,
    .work = work, .label = label, .describe = describe, .run = run, .check_run = check_run,
    .verify_cases = verify_cases, .tune_size = tune_size, .tune_cases = tune_cases, .tune_shapes = tune_shapes,
    .tune_samples = 0, .tune_check_cases = tune_check_cases,
};
