/* gemmkit's own CPU SGEMM: a cache-blocked loop over packed panels, for CPU
 * calls in a process that has no CPU BLAS (host_blas.h), split across
 * threads by columns (or rows) of C. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "blas_dropin.h"

/* Register block MR x NR (the micro-kernel's accumulators: 12 four-wide
 * vectors, which measured fastest with plain SSE2), and cache blocks:
 * an MC x KC panel of A stays in L2, a KC x NR sliver of B in L1. */
enum { MR = 16, NR = 3, MC = 128, KC = 256, NC = 2046 };

static int64_t min_i64(int64_t a, int64_t b) { return a < b ? a : b; }

/* op(A)(i, p) and op(B)(p, j) of column-major A and B. */
static float a_at(const float *a, int64_t lda, int trans, int64_t i, int64_t p)
{
    return trans ? a[p + (size_t)i * lda] : a[i + (size_t)p * lda];
}

static float b_at(const float *b, int64_t ldb, int trans, int64_t p, int64_t j)
{
    return trans ? b[j + (size_t)p * ldb] : b[p + (size_t)j * ldb];
}

/* Packs op(A)[i0 : i0+mc, p0 : p0+kc] as ceil(mc / MR) panels of kc x MR,
 * rows past mc zero (their results are discarded). */
static void pack_a(const float *a, int64_t lda, int trans, int64_t i0, int64_t mc, int64_t p0, int64_t kc, float *dst)
{
    for (int64_t ir = 0; ir < mc; ir += MR) {
        int64_t rows = min_i64(MR, mc - ir);
        for (int64_t p = 0; p < kc; p++) {
            for (int64_t i = 0; i < rows; i++) dst[i] = a_at(a, lda, trans, i0 + ir + i, p0 + p);
            for (int64_t i = rows; i < MR; i++) dst[i] = 0.0f;
            dst += MR;
        }
    }
}

/* Packs op(B)[p0 : p0+kc, j0 : j0+nc] as ceil(nc / NR) panels of kc x NR. */
static void pack_b(const float *b, int64_t ldb, int trans, int64_t p0, int64_t kc, int64_t j0, int64_t nc, float *dst)
{
    for (int64_t jr = 0; jr < nc; jr += NR) {
        int64_t cols = min_i64(NR, nc - jr);
        for (int64_t p = 0; p < kc; p++) {
            for (int64_t j = 0; j < cols; j++) dst[j] = b_at(b, ldb, trans, p0 + p, j0 + jr + j);
            for (int64_t j = cols; j < NR; j++) dst[j] = 0.0f;
            dst += NR;
        }
    }
}

/* C[0:rows, 0:cols] += alpha * (packed A panel x packed B panel). The fixed
 * MR x NR accumulator block lets the compiler keep it in vector registers. */
static void micro_kernel(int64_t kc, const float *restrict ap, const float *restrict bp, float alpha, float *c,
                         int64_t ldc, int64_t rows, int64_t cols)
{
    float acc[NR][MR] = {{0.0f}};
    for (int64_t p = 0; p < kc; p++) {
        for (int j = 0; j < NR; j++) {
            float bv = bp[j];
            for (int i = 0; i < MR; i++) acc[j][i] += ap[i] * bv;
        }
        ap += MR;
        bp += NR;
    }
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++) c[i + (size_t)j * ldc] += alpha * acc[j][i];
}

/* C := beta * C, writing zeros without reading C when beta == 0 (so NaN or
 * garbage in C does not survive, as in the reference). */
static void scale_c(int64_t m, int64_t n, float beta, float *c, int64_t ldc)
{
    if (beta == 1.0f) return;
    for (int64_t j = 0; j < n; j++) {
        float *col = c + (size_t)j * ldc;
        if (beta == 0.0f)
            for (int64_t i = 0; i < m; i++) col[i] = 0.0f;
        else
            for (int64_t i = 0; i < m; i++) col[i] *= beta;
    }
}

/* The straightforward loop: for when the packing buffers cannot be had. */
static void unpacked(int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                     const float *b, int64_t ldb, float *c, int64_t ldc)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            float acc = 0.0f;
            for (int64_t p = 0; p < k; p++) acc += a_at(a, lda, ta, i, p) * b_at(b, ldb, tb, p, j);
            c[i + (size_t)j * ldc] += alpha * acc;
        }
}

/* One thread's share: the whole product on its block of C. */
static void serial(int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                   const float *b, int64_t ldb, float beta, float *c, int64_t ldc)
{
    scale_c(m, n, beta, c, ldc);
    if (alpha == 0.0f || k == 0) return;
    /* Buffers sized to the problem, so tiny calls allocate little. */
    int64_t mc_max = min_i64(MC, m), kc_max = min_i64(KC, k), nc_max = min_i64(NC, n);
    size_t a_floats = (size_t)((mc_max + MR - 1) / MR * MR) * (size_t)kc_max;
    size_t b_floats = (size_t)((nc_max + NR - 1) / NR * NR) * (size_t)kc_max;
    float *apack = malloc(a_floats * sizeof *apack), *bpack = malloc(b_floats * sizeof *bpack);
    if (!apack || !bpack) {
        free(apack);
        free(bpack);
        unpacked(ta, tb, m, n, k, alpha, a, lda, b, ldb, c, ldc);
        return;
    }
    for (int64_t j0 = 0; j0 < n; j0 += NC) {
        int64_t nc = min_i64(NC, n - j0);
        for (int64_t p0 = 0; p0 < k; p0 += KC) {
            int64_t kc = min_i64(KC, k - p0);
            pack_b(b, ldb, tb, p0, kc, j0, nc, bpack);
            for (int64_t i0 = 0; i0 < m; i0 += MC) {
                int64_t mc = min_i64(MC, m - i0);
                pack_a(a, lda, ta, i0, mc, p0, kc, apack);
                for (int64_t jr = 0; jr < nc; jr += NR) {
                    const float *bp = bpack + (size_t)(jr / NR) * kc * NR;
                    for (int64_t ir = 0; ir < mc; ir += MR) {
                        const float *ap = apack + (size_t)(ir / MR) * kc * MR;
                        float *cij = c + (size_t)(i0 + ir) + (size_t)(j0 + jr) * ldc;
                        micro_kernel(kc, ap, bp, alpha, cij, ldc, min_i64(MR, mc - ir), min_i64(NR, nc - jr));
                    }
                }
            }
        }
    }
    free(apack);
    free(bpack);
}

/* A block of C for one thread: rows [i0, i0 + m) and columns [j0, j0 + n). */
typedef struct share {
    int ta, tb;
    int64_t i0, j0, m, n, k;
    float alpha, beta;
    const float *a, *b;
    float *c;
    int64_t lda, ldb, ldc;
} share;

static void *run_share(void *arg)
{
    const share *s = arg;
    /* op(A)'s rows from i0 and op(B)'s columns from j0, as stored. */
    const float *a = s->a + (s->ta ? s->i0 * s->lda : s->i0);
    const float *b = s->b + (s->tb ? s->j0 : s->j0 * s->ldb);
    serial(s->ta, s->tb, s->m, s->n, s->k, s->alpha, a, s->lda, b, s->ldb, s->beta, s->c + s->i0 + s->j0 * s->ldc,
           s->ldc);
    return NULL;
}

/* Threads worth starting: one per 2^18 multiply-adds (a thread's start costs
 * about as much), at most one per CPU or `threads`. */
enum { MAX_THREADS = 64, MACS_PER_THREAD = 1 << 18 };

void gk_blas_cpu_sgemm(int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                       const float *b, int64_t ldb, float beta, float *c, int64_t ldc, int threads)
{
    if (m == 0 || n == 0 || ((alpha == 0.0f || k == 0) && beta == 1.0f)) return;
    if (threads <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (int)cpus : 1;
    }
    const double worth = (double)m * (double)n * (double)(k > 0 ? k : 1) / MACS_PER_THREAD;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if (threads > worth) threads = worth > 1.0 ? (int)worth : 1;
    /* Split the longer side of C, in whole register blocks. */
    const int by_columns = n >= m;
    const int64_t side = by_columns ? n : m, unit = by_columns ? NR : MR;
    const int64_t units = (side + unit - 1) / unit;
    if (threads > units) threads = (int)units;
    share shares[MAX_THREADS];
    pthread_t ids[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    int64_t from = 0;
    for (int t = 0; t < threads; t++) {
        int64_t to = t == threads - 1 ? side : min_i64(side, (units * (t + 1) / threads) * unit);
        shares[t] = (share){ta, tb, by_columns ? 0 : from, by_columns ? from : 0, by_columns ? m : to - from,
                            by_columns ? to - from : n, k, alpha, beta, a, b, c, lda, ldb, ldc};
        from = to;
    }
    for (int t = 1; t < threads; t++) started[t] = pthread_create(&ids[t], NULL, run_share, &shares[t]) == 0;
    run_share(&shares[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t]) pthread_join(ids[t], NULL);
        else run_share(&shares[t]); /* no thread to be had: done here */
    }
}
