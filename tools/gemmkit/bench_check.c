/* Result checks for the benchmark: every timed result is compared with the
 * host reference (bench_reference.c: full for small sizes, a grid of sampled
 * elements beyond; computed once per input set and shared by all runners),
 * with tools/check's float32 bound, and its errors added to the record's
 * max and RMS. A failed check turns the record into an error: no speed. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static int is_trans(gemmkit_transpose t) { return t != GEMMKIT_NO_TRANS; }

static size_t c_index(const gk_sgemm_case *c, int64_t i, int64_t j)
{
    return (size_t)(c->layout == GEMMKIT_ROW_MAJOR ? i * c->ldc + j : j * c->ldc + i);
}

typedef struct verdict {
    int64_t bad, count;
    double max_error, sum_sq;
    char first[160];
} verdict;

static void compare(verdict *v, double bound, int64_t i, int64_t j, double value, double reference, double mag)
{
    double scale = mag > FLT_MIN ? mag : FLT_MIN;
    double err = fabs(value - reference) / scale;
    int bad = !isfinite(value) || err > bound;
    if (isfinite(value)) {
        v->max_error = err > v->max_error ? err : v->max_error;
        v->sum_sq += err * err;
        v->count++;
    }
    if (bad && v->bad++ == 0)
        snprintf(v->first, sizeof v->first, "C(%lld,%lld) = %g, reference %g", (long long)i, (long long)j, value,
                 reference);
}

/* The set's errors joined to the record's (every set of a measurement adds to one max and one RMS). */
static void add_errors(gk_bench_record *rec, const verdict *v)
{
    if (v->count == 0) return;
    const double total = (double)rec->error_count + (double)v->count;
    const double sum_sq = rec->rms_error * rec->rms_error * (double)rec->error_count + v->sum_sq;
    rec->rms_error = sqrt(sum_sq / total);
    rec->error_count += v->count;
    rec->max_error = v->max_error > rec->max_error ? v->max_error : rec->max_error;
}

int gk_bench_check_sgemm(const gk_sgemm_case *c, const float *a, const float *b, gk_bench_reference *ref,
                         const float *result, double input_rounding, gk_rng *rng, gk_bench_record *rec)
{
    verdict v = {0, 0, 0.0, 0.0, ""};
    const double bound = 2.0 * (double)(c->k + 2) * FLT_EPSILON + 2.0 * input_rounding;
    /* Every element must be finite: C was poisoned with NaN, and the inputs cannot overflow. Read in storage
     * order: a walk across a row-major C of gigabytes jumps a whole row per element. */
    int64_t lines, along;
    const int row_major = gk_case_c_lines(c, &lines, &along);
    int64_t nonfinite = 0;
    for (int64_t l = 0; l < lines; l++) {
        const float *line = result + (size_t)l * (size_t)c->ldc;
        for (int64_t e = 0; e < along; e++)
            if (!isfinite(line[e]) && nonfinite++ == 0)
                snprintf(v.first, sizeof v.first, "C(%lld,%lld) = %g (never written or overflowed)",
                         (long long)(row_major ? l : e), (long long)(row_major ? e : l), line[e]);
    }
    v.bad = nonfinite;
    if (!ref->ready && gk_bench_reference_make(c, a, b, rng, ref)) {
        snprintf(rec->message, sizeof rec->message, "out of host memory for the reference");
        snprintf(rec->check, sizeof rec->check, "none");
        return 0;
    }
    for (int64_t r = 0; r < ref->row_count; r++)
        for (int64_t q = 0; q < ref->col_count; q++) {
            const int64_t i = ref->rows[r], j = ref->cols[q];
            const size_t at = (size_t)(r * ref->col_count + q);
            const double value = result[c_index(c, i, j)];
            if (isfinite(value)) compare(&v, bound, i, j, value, ref->ref[at], ref->mag[at]);
        }
    snprintf(rec->check, sizeof rec->check, "%s", ref->full ? "full" : "sampled");
    add_errors(rec, &v);
    if (v.bad) {
        snprintf(rec->message, sizeof rec->message, "WRONG: %lld element(s) off, first %s (bound %.2g x magnitude)",
                 (long long)v.bad, v.first, bound);
        return 0;
    }
    if (ref->full)
        snprintf(rec->message, sizeof rec->message, "all %lld elements within bound (max %.2g of it)",
                 (long long)(c->m * c->n), v.max_error / bound);
    else
        snprintf(rec->message, sizeof rec->message,
                 "%lld sampled elements (%lld rows x %lld columns) within bound (max %.2g of it), all finite",
                 (long long)v.count, (long long)ref->row_count, (long long)ref->col_count, v.max_error / bound);
    return 1;
}

int gk_bench_check_omatcopy(const gk_omatcopy_case *o, const float *a, const float *b, gk_bench_record *rec)
{
    const int t = is_trans(o->trans), rm = o->layout == GEMMKIT_ROW_MAJOR;
    int64_t bad = 0;
    /* A in storage order (B too where not transposed): rows of a row-major A, columns of a column-major one. */
    const int64_t lines = rm ? o->rows : o->cols, along = rm ? o->cols : o->rows;
    for (int64_t l = 0; l < lines; l++)
        for (int64_t e = 0; e < along; e++) {
            const int64_t i = rm ? l : e, j = rm ? e : l;
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

/* A tools/check verdict in the record's terms. */
static int record_verdict(const gk_check_result *r, gk_bench_record *rec)
{
    snprintf(rec->check, sizeof rec->check, "reference"); /* full or sampled: the message says */
    rec->max_error = r->max_rel_error > rec->max_error ? r->max_rel_error : rec->max_error; /* no RMS here */
    snprintf(rec->message, sizeof rec->message, "%s%.240s", r->passed ? "" : "WRONG: ", r->message);
    return r->passed;
}

/* A routine without a check of its own here: its descriptor's. */
static int descriptor_check(const gk_routine *routine, const gk_case *c, float *const *ops, const float *result,
                            gk_rng *rng, gk_bench_record *rec)
{
    gk_check_result r;
    routine->check(c, ops, result, GK_BENCH_FULL_CHECK, GK_BENCH_SAMPLES, rng, &r);
    return record_verdict(&r, rec);
}

/* Strided batches in the runner's own mode (a TF32 peer against TF32's bound, as single calls are). */
static int batched_check(const gk_case *c, float *const *ops, const float *result, gemmkit_math math, gk_rng *rng,
                         gk_bench_record *rec)
{
    gk_check_result r;
    gk_check_batched_call(&c->batched, math, ops[0], ops[1], ops[2], result, GK_BENCH_FULL_CHECK, rng, &r);
    return record_verdict(&r, rec);
}

int gk_bench_check(const gk_routine *routine, const gk_case *c, float *const *ops, gk_bench_reference *ref,
                   const float *result, const gk_runner *runner, gk_rng *rng, gk_bench_record *rec)
{
    if (routine == &gk_routine_gemm)
        return gk_bench_check_sgemm(&c->gemm, ops[0], ops[1], ref, result, runner->input_rounding, rng, rec);
    if (routine == &gk_routine_omatcopy) return gk_bench_check_omatcopy(&c->omatcopy, ops[0], result, rec);
    if (routine == &gk_routine_gemm_batched) return batched_check(c, ops, result, runner->math, rng, rec);
    return descriptor_check(routine, c, ops, result, rng, rec);
}
