/* Random SGEMM cases for the reliability tests (threads, soak, failures), and
 * a checked run through the device-buffer API. Thread-safe: all state is in
 * the caller's gk_rng; nothing here uses cmocka, so worker threads may call it. */
#ifndef GK_TEST_RANDOM_H
#define GK_TEST_RANDOM_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gemmkit.h"
#include "registry.h"

/* An integer in [0, n). */
static inline int rnd_below(gk_rng *rng, int n)
{
    int v = (int)((gk_rng_uniform(rng) * 0.5f + 0.5f) * (float)n);
    return v < n ? v : n - 1;
}

/* Mostly 1..max_size; now and then 0 (an empty problem must be a no-op). */
static inline int64_t rnd_dim(gk_rng *rng, int max_size)
{
    return rnd_below(rng, 50) == 0 ? 0 : 1 + rnd_below(rng, max_size);
}

/* alpha/beta: the special values 0 and 1 (short cuts in the library) and
 * ordinary ones. */
static inline float rnd_scalar(gk_rng *rng)
{
    switch (rnd_below(rng, 5)) {
    case 0: return 0.0f;
    case 1: return 1.0f;
    case 2: return -1.0f;
    default: return 2.0f * gk_rng_uniform(rng);
    }
}

static inline gemmkit_transpose rnd_trans(gk_rng *rng)
{
    static const gemmkit_transpose all[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, GEMMKIT_TRANS,
                                            GEMMKIT_CONJ_TRANS};
    return all[rnd_below(rng, 5)];
}

/* A random case; half of the time the leading dimensions exceed the minimum. */
static inline gk_sgemm_case random_case(gk_rng *rng, int max_size)
{
    gk_sgemm_case c;
    memset(&c, 0, sizeof c);
    c.layout = rnd_below(rng, 2) ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR;
    c.trans_a = rnd_trans(rng);
    c.trans_b = rnd_trans(rng);
    c.m = rnd_dim(rng, max_size);
    c.n = rnd_dim(rng, max_size);
    c.k = rnd_dim(rng, max_size);
    c.alpha = rnd_scalar(rng);
    c.beta = rnd_scalar(rng);
    gk_case_complete(&c);
    if (rnd_below(rng, 2)) {
        c.lda += rnd_below(rng, 8);
        c.ldb += rnd_below(rng, 8);
        c.ldc += rnd_below(rng, 8);
    }
    return c;
}

static inline void describe_case(const gk_sgemm_case *c, char *out, size_t size)
{
    snprintf(out, size, "%s-major %c%c m=%lld n=%lld k=%lld alpha=%g beta=%g lda=%lld ldb=%lld ldc=%lld",
             c->layout == GEMMKIT_ROW_MAJOR ? "row" : "col", c->trans_a == GEMMKIT_NO_TRANS ? 'N' : 'T',
             c->trans_b == GEMMKIT_NO_TRANS ? 'N' : 'T', (long long)c->m, (long long)c->n, (long long)c->k,
             c->alpha, c->beta, (long long)c->lda, (long long)c->ldb, (long long)c->ldc);
}

/* Creates a buffer of `count` floats holding `data` at `offset` (the rest random). */
static inline gemmkit_status upload(gemmkit_context *ctx, gk_rng *rng, const float *data, size_t count, size_t offset,
                             gemmkit_buffer **out)
{
    size_t total = offset + count + 1;
    float *tmp = malloc(total * sizeof *tmp);
    if (!tmp) return GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    gk_fill_random(rng, tmp, total);
    if (count) memcpy(tmp + offset, data, count * sizeof *tmp);
    gemmkit_status status = gemmkit_buffer_create(ctx, total, out);
    if (status == GEMMKIT_SUCCESS) status = gemmkit_buffer_write(ctx, *out, 0, total, tmp);
    free(tmp);
    return status;
}

/* Like gk_check_run, through gemmkit_sgemm_buffers with random offsets:
 * buffers are created, used and destroyed in the call. */
static inline gemmkit_status check_run_buffers(gemmkit_context *ctx, const gemmkit_options *options, gk_sgemm_case c,
                                        gk_rng *rng, gk_check_result *out)
{
    memset(out, 0, sizeof *out);
    gk_case_complete(&c);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    size_t oa = (size_t)rnd_below(rng, 5), ob = (size_t)rnd_below(rng, 5), oc = (size_t)rnd_below(rng, 5);
    float *a = malloc((ea + 1) * sizeof *a), *b = malloc((eb + 1) * sizeof *b);
    float *c0 = malloc((ec + 1) * sizeof *c0), *res = malloc((ec + 1) * sizeof *res);
    gemmkit_buffer *ba = NULL, *bb = NULL, *bc = NULL;
    gemmkit_status status = GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    if (a && b && c0 && res) {
        gk_case_fill_inputs(&c, rng, a, b, c0);
        status = upload(ctx, rng, a, ea, oa, &ba);
        if (status == GEMMKIT_SUCCESS) status = upload(ctx, rng, b, eb, ob, &bb);
        if (status == GEMMKIT_SUCCESS) status = upload(ctx, rng, c0, ec, oc, &bc);
        if (status == GEMMKIT_SUCCESS)
            status = gemmkit_sgemm_buffers(ctx, options, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, ba,
                                           oa, c.lda, bb, ob, c.ldb, c.beta, bc, oc, c.ldc);
        if (status == GEMMKIT_SUCCESS) status = gemmkit_buffer_read(ctx, bc, oc, ec, res);
        if (status == GEMMKIT_SUCCESS)
            gk_check_sgemm(&c, a, b, c0, res, out);
        else
            snprintf(out->message, sizeof out->message, "%s: %s", gemmkit_strerror(status),
                     gemmkit_last_error_message());
    }
    gemmkit_buffer_destroy(ba);
    gemmkit_buffer_destroy(bb);
    gemmkit_buffer_destroy(bc);
    free(a);
    free(b);
    free(c0);
    free(res);
    return status;
}

/* The first registered SGEMM kernel that needs the padded/packed path
 * (not direct) and runs on this context, or NULL: it exercises the scratch
 * buffers and helper kernels that the direct kernel does not. */
static inline const char *packed_kernel_for(gemmkit_context *ctx, gk_rng *rng)
{
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (gk_kernel_op(def) != GK_OP_SGEMM || def->contract == GK_CONTRACT_GEMM_DIRECT ||
            !gk_kernel_runs_on(def, GK_BACKEND_BIT_OPENCL))
            continue;
        gemmkit_options options = {.kernel = def->name};
        gk_sgemm_case probe = {GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 5, 7, 3, 0.5f, 2.0f, 0, 0, 9};
        gk_check_result result;
        if (gk_check_run(ctx, &options, probe, rng, 1e9, &result) == GEMMKIT_SUCCESS && result.passed)
            return def->name;
    }
    return NULL;
}

#endif
