/* Result checks for the benchmark: every timed result is compared with the
 * host reference (full for small sizes, computed once per input set and
 * shared by all runners; sampled elements beyond), with tools/check's float32
 * bound. A failed check turns the record into an error: no speed. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static int is_trans(gemmkit_transpose t) { return t != GEMMKIT_NO_TRANS; }

/* Element (i, j) of op(A) and op(B) in either layout. */
static float op_a(const gk_sgemm_case *c, const float *a, int64_t i, int64_t l)
{
    int64_t r = is_trans(c->trans_a) ? l : i, col = is_trans(c->trans_a) ? i : l;
    return a[c->layout == GEMMKIT_ROW_MAJOR ? r * c->lda + col : col * c->lda + r];
}

static float op_b(const gk_sgemm_case *c, const float *b, int64_t l, int64_t j)
{
    int64_t r = is_trans(c->trans_b) ? j : l, col = is_trans(c->trans_b) ? l : j;
    return b[c->layout == GEMMKIT_ROW_MAJOR ? r * c->ldb + col : col * c->ldb + r];
}

static size_t c_index(const gk_sgemm_case *c, int64_t i, int64_t j)
{
    return (size_t)(c->layout == GEMMKIT_ROW_MAJOR ? i * c->ldc + j : j * c->ldc + i);
}

void gk_bench_reference_free(gk_bench_reference *ref)
{
    free(ref->ref);
    free(ref->mag);
    memset(ref, 0, sizeof *ref);
}

static float *absolute(const float *x, size_t count)
{
    float *y = malloc((count ? count : 1) * sizeof *y);
    if (y)
        for (size_t i = 0; i < count; i++) y[i] = fabsf(x[i]);
    return y;
}

/* The full reference and the magnitudes sum |a||b| (C is not read: beta = 0 in the benchmark). */
static int make_full_reference(const gk_sgemm_case *c, const float *a, const float *b, gk_bench_reference *ref)
{
    size_t ea, eb, ec;
    gk_case_extents(c, &ea, &eb, &ec);
    ref->ref = calloc(ec ? ec : 1, sizeof(float));
    ref->mag = calloc(ec ? ec : 1, sizeof(float));
    float *abs_a = absolute(a, ea), *abs_b = absolute(b, eb);
    int ok = ref->ref && ref->mag && abs_a && abs_b &&
             gemmkit_sgemm_reference(c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k, c->alpha, a, c->lda, b,
                                     c->ldb, 0.0f, ref->ref, c->ldc) == GEMMKIT_SUCCESS &&
             gemmkit_sgemm_reference(c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k, fabsf(c->alpha), abs_a,
                                     c->lda, abs_b, c->ldb, 0.0f, ref->mag, c->ldc) == GEMMKIT_SUCCESS;
    free(abs_a);
    free(abs_b);
    if (!ok) gk_bench_reference_free(ref);
    return ok ? 0 : -1;
}

static double element(const gk_sgemm_case *c, const float *a, const float *b, int64_t i, int64_t j, double *mag)
{
    double acc = 0.0, m = 0.0;
    for (int64_t l = 0; l < c->k; l++) {
        double p = (double)op_a(c, a, i, l) * (double)op_b(c, b, l, j);
        acc += p;
        m += fabs(p);
    }
    *mag = fabs((double)c->alpha) * m;
    return (double)c->alpha * acc;
}

typedef struct verdict {
    int64_t bad;
    double max_error;
    char first[160];
} verdict;

static void compare(verdict *v, double bound, int64_t i, int64_t j, double value, double reference, double mag)
{
    double scale = mag > FLT_MIN ? mag : FLT_MIN;
    double err = fabs(value - reference);
    int bad = !isfinite(value) || err > bound * scale;
    if (isfinite(value) && err / scale > v->max_error) v->max_error = err / scale;
    if (bad && v->bad++ == 0)
        snprintf(v->first, sizeof v->first, "C(%lld,%lld) = %g, reference %g", (long long)i, (long long)j, value,
                 reference);
}

int gk_bench_check_sgemm(const gk_sgemm_case *c, const float *a, const float *b, gk_bench_reference *ref,
                         const float *result, double input_rounding, gk_rng *rng, gk_bench_record *rec)
{
    verdict v = {0, 0.0, ""};
    const double bound = 2.0 * (double)(c->k + 2) * FLT_EPSILON + 2.0 * input_rounding;
    /* Every element must be finite: C was poisoned with NaN and inputs are in [-1, 1). */
    int64_t nonfinite = 0;
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = 0; i < c->m; i++)
            if (!isfinite(result[c_index(c, i, j)]) && nonfinite++ == 0)
                snprintf(v.first, sizeof v.first, "C(%lld,%lld) = %g (never written or overflowed)", (long long)i,
                         (long long)j, result[c_index(c, i, j)]);
    v.bad = nonfinite;
    const int full = (double)c->m * (double)c->n * (double)c->k <= GK_BENCH_FULL_CHECK;
    if (full && !ref->ready) {
        if (make_full_reference(c, a, b, ref)) {
            snprintf(rec->message, sizeof rec->message, "out of host memory for the reference");
            snprintf(rec->check, sizeof rec->check, "none");
            return 0;
        }
        ref->ready = 1;
    }
    if (full) {
        for (int64_t j = 0; j < c->n; j++)
            for (int64_t i = 0; i < c->m; i++) {
                size_t idx = c_index(c, i, j);
                if (isfinite(result[idx])) compare(&v, bound, i, j, result[idx], ref->ref[idx], ref->mag[idx]);
            }
        snprintf(rec->check, sizeof rec->check, "full");
    } else {
        /* The four corners (where padding and edge bugs show), then random elements. */
        for (int s = 0; s < GK_BENCH_SAMPLES; s++) {
            int64_t i, j;
            if (s < 4) {
                i = (s & 1) ? c->m - 1 : 0;
                j = (s & 2) ? c->n - 1 : 0;
            } else {
                i = (int64_t)((gk_rng_uniform(rng) * 0.5f + 0.5f) * (float)c->m);
                j = (int64_t)((gk_rng_uniform(rng) * 0.5f + 0.5f) * (float)c->n);
                i = i < c->m ? i : c->m - 1;
                j = j < c->n ? j : c->n - 1;
            }
            double mag, r = element(c, a, b, i, j, &mag);
            double value = result[c_index(c, i, j)];
            if (isfinite(value)) compare(&v, bound, i, j, value, r, mag);
        }
        snprintf(rec->check, sizeof rec->check, "sampled");
    }
    rec->max_error = v.max_error;
    if (v.bad) {
        snprintf(rec->message, sizeof rec->message, "WRONG: %lld element(s) off, first %s (bound %.2g x magnitude)",
                 (long long)v.bad, v.first, bound);
        return 0;
    }
    if (full)
        snprintf(rec->message, sizeof rec->message, "all %lld elements within bound (max %.2g of it)",
                 (long long)(c->m * c->n), v.max_error / bound);
    else
        snprintf(rec->message, sizeof rec->message, "%d sampled elements within bound (max %.2g of it), all finite",
                 GK_BENCH_SAMPLES, v.max_error / bound);
    return 1;
}

int gk_bench_check_omatcopy(const gk_omatcopy_case *o, const float *a, const float *b, gk_bench_record *rec)
{
    const int t = is_trans(o->trans), rm = o->layout == GEMMKIT_ROW_MAJOR;
    int64_t bad = 0;
    for (int64_t i = 0; i < o->rows; i++)
        for (int64_t j = 0; j < o->cols; j++) {
            float x = a[rm ? i * o->lda + j : j * o->lda + i];
            /* B is op(A): cols x rows when transposed. */
            int64_t bi = t ? j : i, bj = t ? i : j;
            float y = b[rm ? bi * o->ldb + bj : bj * o->ldb + bi];
            float want = o->alpha * x;
            if (memcmp(&y, &want, sizeof y) != 0 && bad++ == 0)
                snprintf(rec->message, sizeof rec->message, "WRONG: B(%lld,%lld) = %g, want %g", (long long)bi,
                         (long long)bj, y, want);
        }
    snprintf(rec->check, sizeof rec->check, "exact");
    if (bad) return 0;
    snprintf(rec->message, sizeof rec->message, "all %lld elements exact", (long long)(o->rows * o->cols));
    return 1;
}

/* A routine without a check of its own here: its descriptor's, in the record's terms. */
static int descriptor_check(const gk_routine *routine, const gk_case *c, float *const *ops, const float *result,
                            gk_rng *rng, gk_bench_record *rec)
{
    gk_check_result r;
    routine->check(c, ops, result, GK_BENCH_FULL_CHECK, GK_BENCH_SAMPLES, rng, &r);
    snprintf(rec->check, sizeof rec->check, "reference"); /* full or sampled: the message says */
    rec->max_error = r.max_rel_error;
    snprintf(rec->message, sizeof rec->message, "%s%.240s", r.passed ? "" : "WRONG: ", r.message);
    return r.passed;
}

int gk_bench_check(const gk_routine *routine, const gk_case *c, float *const *ops, gk_bench_reference *ref,
                   const float *result, double input_rounding, gk_rng *rng, gk_bench_record *rec)
{
    if (routine == &gk_routine_gemm)
        return gk_bench_check_sgemm(&c->gemm, ops[0], ops[1], ref, result, input_rounding, rng, rec);
    if (routine == &gk_routine_omatcopy) return gk_bench_check_omatcopy(&c->omatcopy, ops[0], result, rec);
    return descriptor_check(routine, c, ops, result, rng, rec);
}
