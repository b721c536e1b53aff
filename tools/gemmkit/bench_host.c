/* The ladder's baseline from the OpenCL slides: the sequential C triple
 * loop on the host, one thread. Big sizes time a slice of C and extrapolate
 * to the whole (the record's note says so). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* The slides' loop, row-major, C[i][j] += A[i][l] * B[l][j], over the first
 * `rows` rows and `cols` columns of C (N columns in all). Written as on the
 * slides: no restrict, no blocking, no vector hints. */
static void triple_loop(int64_t n, int64_t k, int64_t rows, int64_t cols, const float *a, const float *b, float *c)
{
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            for (int64_t l = 0; l < k; l++) c[i * n + j] += a[i * k + l] * b[l * n + j];
}

static double time_slice(const gk_bench_size *s, int64_t rows, int64_t cols, const float *a, const float *b, float *c)
{
    memset(c, 0, (size_t)(rows * s->n) * sizeof *c);
    double start = gk_bench_now_ms();
    triple_loop(s->n, s->k, rows, cols, a, b, c);
    return gk_bench_now_ms() - start;
}

void gk_bench_host_baseline(const gk_bench_size *size, int repeat, double budget_s, gk_rng *rng, gk_bench_record *rec)
{
    const int64_t m = size->m, n = size->n, k = size->k;
    snprintf(rec->op, sizeof rec->op, "sgemm");
    snprintf(rec->name, sizeof rec->name, "host-seq");
    snprintf(rec->kind, sizeof rec->kind, "baseline");
    snprintf(rec->resolved, sizeof rec->resolved, "host-seq");
    snprintf(rec->label, sizeof rec->label,
             "sequential C triple loop on the host, one thread (the OpenCL slides' baseline; row-major NN)");
    rec->size = *size;
    rec->wall_clock = 1;
    snprintf(rec->layout, sizeof rec->layout, "row");
    snprintf(rec->trans, sizeof rec->trans, "NN");
    rec->work = 2.0 * (double)m * (double)n * (double)k;
    rec->unit = "GFLOPS";
    rec->sets = 1;
    rec->status = GK_BENCH_ERROR;

    /* The slice needs B whole but only its own rows of A and C. */
    int64_t probe_cols = (int64_t)(4194304 / k);
    probe_cols = probe_cols < 1 ? 1 : probe_cols > n ? n : probe_cols;
    float *b = malloc((size_t)(k * n) * sizeof *b);
    float *a = malloc((size_t)k * sizeof *a), *c = malloc((size_t)n * sizeof *c);
    if (!a || !b || !c || gk_bench_record_samples(rec, repeat)) {
        snprintf(rec->message, sizeof rec->message, "out of host memory");
        goto done;
    }
    gk_fill_random(rng, a, (size_t)k);
    gk_fill_random(rng, b, (size_t)(k * n));
    /* Probe: part of one row gives the time per element of C. */
    double per_element_ms = time_slice(size, 1, probe_cols, a, b, c) / (double)probe_cols;
    if (per_element_ms <= 0.0) per_element_ms = 1e-9;
    double fit = budget_s * 1e3 / per_element_ms; /* elements that fit in the budget */
    int64_t rows, cols;
    if (fit >= (double)m * (double)n) rows = m, cols = n;
    else if (fit >= (double)n) rows = (int64_t)(fit / (double)n), cols = n;
    else rows = 1, cols = (int64_t)fit > 1 ? (int64_t)fit : 1;

    free(a);
    free(c);
    a = malloc((size_t)(rows * k) * sizeof *a);
    c = malloc((size_t)(rows * n) * sizeof *c);
    if (!a || !c) {
        snprintf(rec->message, sizeof rec->message, "out of host memory");
        goto done;
    }
    gk_fill_random(rng, a, (size_t)(rows * k));
    const double scale = (double)m * (double)n / ((double)rows * (double)cols);
    for (int r = 0; r < repeat; r++) {
        double ms = time_slice(size, rows, cols, a, b, c) * scale;
        rec->kernel_ms[r] = rec->total_ms[r] = rec->host_ms[r] = ms;
    }
    if (scale > 1.0) {
        if (cols == n)
            snprintf(rec->note, sizeof rec->note, "timed %lld of %lld rows of C, extrapolated x%.4g", (long long)rows,
                     (long long)m, scale);
        else
            snprintf(rec->note, sizeof rec->note, "timed %lld of %lld elements of C (part of one row), extrapolated x%.4g",
                     (long long)cols, (long long)(m * n), scale);
    }
    /* The slice is itself a row-major product: rows x cols x k with ldb = ldc = n. */
    gk_sgemm_case slice = {GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, rows, cols, k, 1.0f, 0.0f, k, n, n};
    gk_check_result check;
    gk_check_sgemm_sampled(&slice, a, b, c, c, GK_BENCH_SAMPLES, rng, &check);
    snprintf(rec->check, sizeof rec->check, "%s", scale > 1.0 ? "slice" : "sampled");
    rec->max_error = check.max_rel_error;
    rec->status = check.passed ? GK_BENCH_OK : GK_BENCH_WRONG;
    snprintf(rec->message, sizeof rec->message, "%s%.240s", check.passed ? "" : "WRONG: ", check.message);
done:
    free(a);
    free(b);
    free(c);
}
