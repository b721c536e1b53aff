/* Random data and result checking for tests and `gemmkit verify`. */
#include "check.h"

#include "registry.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void gk_rng_seed(gk_rng *rng, uint64_t seed) { rng->state = seed ? seed : 0x9E3779B97F4A7C15ull; }

uint64_t gk_rng_fresh_seed(void)
{
    const char *env = getenv("GEMMKIT_SEED");
    if (env && *env) return strtoull(env, NULL, 10);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20);
}

static uint64_t next(gk_rng *rng)
{
    /* xorshift64* */
    rng->state ^= rng->state >> 12;
    rng->state ^= rng->state << 25;
    rng->state ^= rng->state >> 27;
    return rng->state * 0x2545F4914F6CDD1Dull;
}

float gk_rng_uniform(gk_rng *rng) { return (float)((next(rng) >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f; }

void gk_fill_random(gk_rng *rng, float *x, size_t count)
{
    for (size_t i = 0; i < count; i++) x[i] = gk_rng_uniform(rng);
}

void gk_fill_value(float *x, size_t count, float value)
{
    for (size_t i = 0; i < count; i++) x[i] = value;
}

static int wide_exponent(gk_rng *rng) { return (int)floorf((gk_rng_uniform(rng) + 1.0f) * 20.5f) - 20; }

int gk_scale_wide(gk_rng *rng, float *x, gemmkit_layout layout, int64_t rows, int64_t cols, int64_t ld)
{
    if (rows <= 0 || cols <= 0) return 0;
    int *e = malloc((size_t)(rows + cols) * sizeof *e);
    if (!e) return -1;
    for (int64_t i = 0; i < rows + cols; i++) e[i] = wide_exponent(rng);
    /* A multiplication by 2^(e + f), |e + f| <= 40, is exact (no result is subnormal): a table of them. */
    float pow2[81];
    for (int i = 0; i < 81; i++) pow2[i] = ldexpf(1.0f, i - 40);
    const int *er = e, *ec = e + rows;
    if (layout == GEMMKIT_ROW_MAJOR)
        for (int64_t r = 0; r < rows; r++)
            for (int64_t c = 0; c < cols; c++) x[r * ld + c] *= pow2[er[r] + ec[c] + 40];
    else
        for (int64_t c = 0; c < cols; c++)
            for (int64_t r = 0; r < rows; r++) x[c * ld + r] *= pow2[er[r] + ec[c] + 40];
    free(e);
    return 0;
}

size_t gk_matrix_extent(gemmkit_layout layout, int64_t rows, int64_t cols, int64_t ld)
{
    int64_t outer = layout == GEMMKIT_ROW_MAJOR ? rows : cols;
    int64_t inner = layout == GEMMKIT_ROW_MAJOR ? cols : rows;
    if (outer <= 0 || inner <= 0) return 0;
    return (size_t)((outer - 1) * ld + inner);
}

static int is_trans(gemmkit_transpose t) { return t != GEMMKIT_NO_TRANS; }

/* Stored shape of each operand (rows x cols as stored, before op()). */
static void stored_shapes(const gk_sgemm_case *c, int64_t shape[3][2])
{
    shape[0][0] = is_trans(c->trans_a) ? c->k : c->m;
    shape[0][1] = is_trans(c->trans_a) ? c->m : c->k;
    shape[1][0] = is_trans(c->trans_b) ? c->n : c->k;
    shape[1][1] = is_trans(c->trans_b) ? c->k : c->n;
    shape[2][0] = c->m;
    shape[2][1] = c->n;
}

void gk_case_complete(gk_sgemm_case *c)
{
    int64_t s[3][2];
    stored_shapes(c, s);
    int64_t *ld[3] = {&c->lda, &c->ldb, &c->ldc};
    for (int i = 0; i < 3; i++) {
        int64_t tight = c->layout == GEMMKIT_ROW_MAJOR ? s[i][1] : s[i][0];
        if (*ld[i] == 0) *ld[i] = tight > 1 ? tight : 1;
    }
}

void gk_case_extents(const gk_sgemm_case *c, size_t *ea, size_t *eb, size_t *ec)
{
    int64_t s[3][2];
    stored_shapes(c, s);
    *ea = gk_matrix_extent(c->layout, s[0][0], s[0][1], c->lda);
    *eb = gk_matrix_extent(c->layout, s[1][0], s[1][1], c->ldb);
    *ec = gk_matrix_extent(c->layout, s[2][0], s[2][1], c->ldc);
}

int gk_case_c_lines(const gk_sgemm_case *c, int64_t *lines, int64_t *along)
{
    const int row_major = c->layout == GEMMKIT_ROW_MAJOR;
    *lines = row_major ? c->m : c->n;
    *along = row_major ? c->n : c->m;
    return row_major;
}

static float *absolute_copy(const float *x, size_t count)
{
    float *y = malloc((count ? count : 1) * sizeof *y);
    if (y)
        for (size_t i = 0; i < count; i++) y[i] = fabsf(x[i]);
    return y;
}

/* Index of element (i, j) of C in its storage. */
static size_t c_index(const gk_sgemm_case *c, int64_t i, int64_t j)
{
    return (size_t)(c->layout == GEMMKIT_ROW_MAJOR ? i * c->ldc + j : j * c->ldc + i);
}

static void check_full(const gk_sgemm_case *c, gemmkit_math math, const float *a, const float *b, const float *c0,
                       const float *result, gk_check_result *out)
{
    memset(out, 0, sizeof *out);
    size_t ea, eb, ec;
    gk_case_extents(c, &ea, &eb, &ec);
    float *ref = malloc((ec ? ec : 1) * sizeof *ref);
    float *mag = absolute_copy(c0, ec);
    float *abs_a = absolute_copy(a, ea), *abs_b = absolute_copy(b, eb);
    if (!ref || !mag || !abs_a || !abs_b) {
        snprintf(out->message, sizeof out->message, "out of host memory while checking");
        goto done;
    }
    memcpy(ref, c0, ec * sizeof *ref);
    gemmkit_sgemm_reference(c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k, c->alpha, a, c->lda, b,
                            c->ldb, c->beta, ref, c->ldc);
    /* The magnitude of each sum bounds its rounding error. */
    gemmkit_sgemm_reference(c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k, fabsf(c->alpha), abs_a,
                            c->lda, abs_b, c->ldb, fabsf(c->beta), mag, c->ldc);
    const double bound = gk_sgemm_bound(c, math);
    double diff2 = 0.0, ref2 = 0.0;
    char *inside = calloc(ec ? ec : 1, 1);
    if (!inside) {
        snprintf(out->message, sizeof out->message, "out of host memory while checking");
        goto done;
    }
    for (int64_t j = 0; j < c->n; j++) {
        for (int64_t i = 0; i < c->m; i++) {
            size_t idx = c_index(c, i, j);
            inside[idx] = 1;
            double r = ref[idx], v = result[idx];
            int bad;
            double rel = 0.0;
            if (isnan(r) || isinf(r)) {
                bad = !(isnan(r) ? isnan(v) : v == r);
            } else if (isnan(v) || isinf(v)) {
                bad = 1;
            } else {
                double err = fabs(v - r);
                double scale = mag[idx] > FLT_MIN ? mag[idx] : FLT_MIN;
                rel = err / scale;
                bad = err > bound * scale;
                diff2 += err * err;
                ref2 += r * r;
            }
            if (rel > out->max_rel_error) out->max_rel_error = rel;
            if (bad && out->bad_count++ == 0)
                snprintf(out->message, sizeof out->message, "C(%lld,%lld) = %g, reference %g",
                         (long long)i, (long long)j, v, r);
        }
    }
    for (size_t idx = 0; idx < ec; idx++) {
        if (inside[idx]) continue;
        int same = memcmp(&result[idx], &c0[idx], sizeof(float)) == 0;
        if (!same && out->bad_count++ == 0)
            snprintf(out->message, sizeof out->message, "element %zu outside C (a leading-dimension gap) changed",
                     idx);
    }
    free(inside);
    out->norm_rel_error = ref2 > 0 ? sqrt(diff2 / ref2) : sqrt(diff2);
    out->passed = out->bad_count == 0;
    if (out->passed)
        snprintf(out->message, sizeof out->message, "max error %.2e of the bound's scale", out->max_rel_error);
done:
    free(ref);
    free(mag);
    free(abs_a);
    free(abs_b);
}

static double element_reference(const gk_sgemm_case *c, const float *a, const float *b, const float *c0,
                                 int64_t i, int64_t j, double *magnitude)
{
    int rm = c->layout == GEMMKIT_ROW_MAJOR;
    double acc = 0.0, mag = 0.0;
    for (int64_t l = 0; l < c->k && c->alpha != 0.0f; l++) {
        /* op(A)(i, l) and op(B)(l, j) in either layout. */
        int64_t ar = is_trans(c->trans_a) ? l : i, ac = is_trans(c->trans_a) ? i : l;
        int64_t br = is_trans(c->trans_b) ? j : l, bc = is_trans(c->trans_b) ? l : j;
        double av = a[rm ? ar * c->lda + ac : ac * c->lda + ar];
        double bv = b[rm ? br * c->ldb + bc : bc * c->ldb + br];
        acc += av * bv;
        mag += fabs(av * bv);
    }
    double cv = c0[c_index(c, i, j)];
    double r = (double)c->alpha * acc + (c->beta != 0.0f ? (double)c->beta * cv : 0.0);
    *magnitude = fabs((double)c->alpha) * mag + (c->beta != 0.0f ? fabs((double)c->beta * cv) : 0.0);
    return r;
}

static void check_sampled(const gk_sgemm_case *c, gemmkit_math math, const float *a, const float *b,
                          const float *c0, const float *result, int samples, gk_rng *rng, gk_check_result *out)
{
    memset(out, 0, sizeof *out);
    const double bound = gk_sgemm_bound(c, math);
    double diff2 = 0.0, ref2 = 0.0;
    for (int s = 0; s < samples && c->m > 0 && c->n > 0; s++) {
        int64_t i = (int64_t)((gk_rng_uniform(rng) * 0.5f + 0.5f) * (float)c->m);
        int64_t j = (int64_t)((gk_rng_uniform(rng) * 0.5f + 0.5f) * (float)c->n);
        i = i < c->m ? i : c->m - 1;
        j = j < c->n ? j : c->n - 1;
        double mag = 0.0;
        double r = element_reference(c, a, b, c0, i, j, &mag);
        double v = result[c_index(c, i, j)];
        double err = fabs(v - r);
        double scale = mag > FLT_MIN ? mag : FLT_MIN;
        int bad = isnan(v) || err > bound * scale;
        if (!isnan(v)) {
            diff2 += err * err;
            ref2 += r * r;
            if (err / scale > out->max_rel_error) out->max_rel_error = err / scale;
        }
        if (bad && out->bad_count++ == 0)
            snprintf(out->message, sizeof out->message, "C(%lld,%lld) = %g, reference %g", (long long)i,
                     (long long)j, v, r);
    }
    out->norm_rel_error = ref2 > 0 ? sqrt(diff2 / ref2) : sqrt(diff2);
    out->passed = out->bad_count == 0;
    if (out->passed)
        snprintf(out->message, sizeof out->message, "%d sampled elements, max error %.2e of the bound's scale",
                 samples, out->max_rel_error);
}

void gk_case_fill_inputs(const gk_sgemm_case *c, gk_rng *rng, float *a, float *b, float *c0)
{
    size_t ea, eb, ec;
    gk_case_extents(c, &ea, &eb, &ec);
    gk_fill_random(rng, a, ea);
    gk_fill_random(rng, b, eb);
    gk_fill_random(rng, c0, ec);
    if (c->beta == 0.0f) { /* poison: C must be written, never read; in storage order (rows of a row-major C) */
        int64_t lines, along;
        gk_case_c_lines(c, &lines, &along);
        for (int64_t l = 0; l < lines; l++) gk_fill_value(c0 + (size_t)l * (size_t)c->ldc, (size_t)along, NAN);
    }
}

void gk_check_sgemm(const gk_sgemm_case *c, const float *a, const float *b, const float *c0,
                    const float *result, gk_check_result *out)
{
    check_full(c, GEMMKIT_MATH_FP32, a, b, c0, result, out);
}

void gk_check_sgemm_math(const gk_sgemm_case *c, gemmkit_math math, const float *a, const float *b, const float *c0,
                         const float *result, gk_check_result *out)
{
    check_full(c, math, a, b, c0, result, out);
}

void gk_check_sgemm_sampled(const gk_sgemm_case *c, const float *a, const float *b, const float *c0,
                            const float *result, int samples, gk_rng *rng, gk_check_result *out)
{
    check_sampled(c, GEMMKIT_MATH_FP32, a, b, c0, result, samples, rng, out);
}

void gk_check_sgemm_sampled_math(const gk_sgemm_case *c, gemmkit_math math, const float *a, const float *b,
                                 const float *c0, const float *result, int samples, gk_rng *rng,
                                 gk_check_result *out)
{
    check_sampled(c, math, a, b, c0, result, samples, rng, out);
}

double gk_sgemm_bound(const gk_sgemm_case *c, gemmkit_math math)
{
    const double fp32 = 2.0 * (double)(c->k + 2) * FLT_EPSILON, three = 2.0 * fp32 + 16.0 * FLT_EPSILON;
    switch (math) {
    case GEMMKIT_MATH_3XTF32: return three;
    /* each operand rounded to TF32 (2^-11) or truncated (2^-10: the wgmma kernel's B, and A where it reads A by
     * descriptor unrounded, A_DESC=2) */
    case GEMMKIT_MATH_TF32: return ldexp(4.0, -11) + three;
    /* the default moduli measure at or below fp32's error (tests/test_ozaki.c); 3xtf32's bound as margin */
    case GEMMKIT_MATH_INT8X: return three;
    default: return fp32;
    }
}

/* The mode a call with these options computes in (gk_sgemm_math's rule). */
static gemmkit_math run_math(gemmkit_context *ctx, const gemmkit_options *options)
{
    const gk_kernel_def *def = options && options->kernel ? gk_kernel_find(options->kernel) : NULL;
    if (def) return (gemmkit_math)(GEMMKIT_MATH_FP32 + (int)def->math); /* gk_math's order (registry.h) */
    if (options && options->math != GEMMKIT_MATH_DEFAULT) return options->math;
    gemmkit_math math = GEMMKIT_MATH_FP32;
    gemmkit_context_get_math(ctx, &math);
    return math;
}

gemmkit_status gk_check_run(gemmkit_context *ctx, const gemmkit_options *options, gk_sgemm_case c, gk_rng *rng,
                            double full_limit, gk_check_result *out)
{
    memset(out, 0, sizeof *out);
    gk_case_complete(&c);
    const gemmkit_math math = run_math(ctx, options);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    float *a = malloc((ea ? ea : 1) * sizeof *a), *b = malloc((eb ? eb : 1) * sizeof *b);
    float *c0 = malloc((ec ? ec : 1) * sizeof *c0), *res = malloc((ec ? ec : 1) * sizeof *res);
    gemmkit_status status = GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    if (a && b && c0 && res) {
        gk_case_fill_inputs(&c, rng, a, b, c0);
        memcpy(res, c0, ec * sizeof *res);
        status = gemmkit_sgemm_ex(ctx, options, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, a, c.lda, b,
                                  c.ldb, c.beta, res, c.ldc);
        if (status == GEMMKIT_SUCCESS) {
            if ((double)c.m * (double)c.n * (double)c.k <= full_limit)
                check_full(&c, math, a, b, c0, res, out);
            else
                check_sampled(&c, math, a, b, c0, res, 512, rng, out);
        } else {
            snprintf(out->message, sizeof out->message, "%s: %s", gemmkit_strerror(status),
                     gemmkit_last_error_message());
        }
    }
    free(a);
    free(b);
    free(c0);
    free(res);
    return status;
}
