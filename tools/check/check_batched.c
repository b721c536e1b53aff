/* Strided batched SGEMM cases (check_batched.h). */
#include "check_batched.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gk_batched_case gk_batched_tight(gk_sgemm_case one, int64_t batch)
{
    gk_case_complete(&one);
    size_t ea, eb, ec;
    gk_case_extents(&one, &ea, &eb, &ec);
    return (gk_batched_case){one, batch, (int64_t)ea, (int64_t)eb, (int64_t)ec};
}

static size_t span(size_t extent, int64_t stride, int64_t batch)
{
    return batch > 1 && extent ? (size_t)(batch - 1) * (size_t)stride + extent : extent;
}

void gk_batched_extents(const gk_batched_case *c, size_t *ea, size_t *eb, size_t *ec)
{
    gk_sgemm_case one = c->one;
    gk_case_complete(&one);
    gk_case_extents(&one, ea, eb, ec);
    *ea = span(*ea, c->stride_a, c->batch);
    *eb = span(*eb, c->stride_b, c->batch);
    *ec = span(*ec, c->stride_c, c->batch);
}

/* Index of element (i, j) of one C. */
static size_t c_index(const gk_sgemm_case *c, int64_t i, int64_t j)
{
    return (size_t)(c->layout == GEMMKIT_ROW_MAJOR ? i * c->ldc + j : j * c->ldc + i);
}

void gk_batched_fill(const gk_batched_case *c, gk_rng *rng, float *a, float *b, float *c0)
{
    size_t ea, eb, ec;
    gk_batched_extents(c, &ea, &eb, &ec);
    gk_fill_random(rng, a, ea);
    gk_fill_random(rng, b, eb);
    gk_fill_random(rng, c0, ec);
    if (c->one.beta != 0.0f) return;
    for (int64_t z = 0; z < c->batch; z++)
        for (int64_t j = 0; j < c->one.n; j++)
            for (int64_t i = 0; i < c->one.m; i++) c0[(size_t)(z * c->stride_c) + c_index(&c->one, i, j)] = NAN;
}

void gk_check_batched(const gk_batched_case *c, const float *a, const float *b, const float *c0, const float *result,
                      double full_limit, gk_rng *rng, gk_check_result *out)
{
    gk_check_batched_math(c, GEMMKIT_MATH_FP32, a, b, c0, result, full_limit, rng, out);
}

void gk_check_batched_math(const gk_batched_case *c, gemmkit_math math, const float *a, const float *b,
                           const float *c0, const float *result, double full_limit, gk_rng *rng,
                           gk_check_result *out)
{
    memset(out, 0, sizeof *out);
    out->passed = 1;
    gk_sgemm_case one = c->one;
    gk_case_complete(&one);
    size_t ea, eb, ec1, ec;
    gk_case_extents(&one, &ea, &eb, &ec1);
    gk_batched_extents(c, &ea, &eb, &ec);
    const int full = (double)one.m * (double)one.n * (double)one.k <= full_limit;
    for (int64_t z = 0; z < c->batch; z++) {
        gk_check_result r;
        const size_t oa = (size_t)(z * c->stride_a), ob = (size_t)(z * c->stride_b), oc = (size_t)(z * c->stride_c);
        if (full) gk_check_sgemm_math(&one, math, a + oa, b + ob, c0 + oc, result + oc, &r);
        else gk_check_sgemm_sampled_math(&one, math, a + oa, b + ob, c0 + oc, result + oc, 64, rng, &r);
        out->bad_count += r.bad_count;
        if (r.max_rel_error > out->max_rel_error) out->max_rel_error = r.max_rel_error;
        if (r.norm_rel_error > out->norm_rel_error) out->norm_rel_error = r.norm_rel_error;
        if (!r.passed && out->passed) {
            out->passed = 0;
            snprintf(out->message, sizeof out->message, "matrix %lld of %lld: %.200s", (long long)z, (long long)c->batch,
                     r.message);
        }
    }
    /* Between the matrices (stride_c above the extent) nothing may change. */
    for (int64_t z = 0; z + 1 < c->batch && ec1; z++)
        for (size_t i = (size_t)z * (size_t)c->stride_c + ec1; i < (size_t)(z + 1) * (size_t)c->stride_c; i++)
            if (memcmp(&result[i], &c0[i], sizeof(float)) != 0) {
                out->bad_count++;
                if (out->passed)
                    snprintf(out->message, sizeof out->message, "element %zu between C matrices %lld and %lld "
                             "changed", i, (long long)z, (long long)z + 1);
                out->passed = 0;
            }
    if (out->passed)
        snprintf(out->message, sizeof out->message, "%lld matrices within the %s bound (max relative error %.3g)",
                 (long long)c->batch, gemmkit_math_name(math), out->max_rel_error);
}

void gk_check_batched_call(const gk_batched_case *c, gemmkit_math math, const float *a, const float *b,
                           const float *c0, const float *result, double call_full_limit, gk_rng *rng,
                           gk_check_result *out)
{
    const double per = c->batch > 0 ? call_full_limit / (double)c->batch : call_full_limit;
    gk_check_batched_math(c, math, a, b, c0, result, per, rng, out);
}

gemmkit_status gk_check_batched_run(gemmkit_context *ctx, const gemmkit_options *options, gk_batched_case c,
                                    gk_rng *rng, double full_limit, gk_check_result *out)
{
    memset(out, 0, sizeof *out);
    gk_case_complete(&c.one);
    size_t ea, eb, ec;
    gk_batched_extents(&c, &ea, &eb, &ec);
    float *a = malloc((ea ? ea : 1) * sizeof *a), *b = malloc((eb ? eb : 1) * sizeof *b);
    float *c0 = malloc((ec ? ec : 1) * sizeof *c0), *res = malloc((ec ? ec : 1) * sizeof *res);
    gemmkit_status status = GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    if (a && b && c0 && res) {
        gk_batched_fill(&c, rng, a, b, c0);
        memcpy(res, c0, ec * sizeof *res);
        const gk_sgemm_case *g = &c.one;
        status = gemmkit_sgemm_strided_batched(ctx, options, g->layout, g->trans_a, g->trans_b, g->m, g->n, g->k,
                                               g->alpha, a, g->lda, c.stride_a, b, g->ldb, c.stride_b, g->beta, res,
                                               g->ldc, c.stride_c, c.batch);
        if (status == GEMMKIT_SUCCESS) gk_check_batched(&c, a, b, c0, res, full_limit, rng, out);
        else snprintf(out->message, sizeof out->message, "%s: %s", gemmkit_strerror(status),
                      gemmkit_last_error_message());
    }
    free(a);
    free(b);
    free(c0);
    free(res);
    return status;
}

void gk_batched_describe(const gk_batched_case *c, char *text, size_t size)
{
    const gk_sgemm_case *g = &c->one;
    snprintf(text, size, "%s %c%c %lldx%lldx%lld x%lld strides %lld,%lld,%lld alpha=%g beta=%g ld %lld,%lld,%lld",
             g->layout == GEMMKIT_ROW_MAJOR ? "row" : "col", g->trans_a == GEMMKIT_NO_TRANS ? 'N' : 'T',
             g->trans_b == GEMMKIT_NO_TRANS ? 'N' : 'T', (long long)g->m, (long long)g->n, (long long)g->k,
             (long long)c->batch, (long long)c->stride_a, (long long)c->stride_b, (long long)c->stride_c, g->alpha,
             g->beta, (long long)g->lda, (long long)g->ldb, (long long)g->ldc);
}
