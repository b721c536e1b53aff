/* The float64 reference of one SGEMM input set for the benchmark's check
 * (bench.h): which elements of C are compared (all of them for small
 * problems, else a grid of sampled rows x sampled columns), and each one's
 * value and magnitude sum |a||b| in double. It is computed once per input
 * set and shared by every runner, on every core: blocks of the grid are
 * handed out to threads, each packing its rows of op(A) and columns of op(B)
 * in panels of K, so sampled rows far apart in memory cost one pass. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

enum {
    BLOCK = 32,     /* rows (and columns) of C per work item */
    PANEL = 2048,   /* K per packed panel: 2 x 32 x 2048 floats = 512 KiB per thread */
    MAX_THREADS = 64
};

static int is_trans(gemmkit_transpose t) { return t != GEMMKIT_NO_TRANS; }

/* Element (i, l) of op(A), (l, j) of op(B), in either layout. */
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

void gk_bench_reference_free(gk_bench_reference *ref)
{
    free(ref->rows);
    free(ref->cols);
    free(ref->ref);
    free(ref->mag);
    memset(ref, 0, sizeof *ref);
}

/* `want` of the indices 0..n-1, ascending: all when n <= want; else the
 * first, the last (edges and corners are where tiling bugs show) and one
 * random index in each of want - 2 equal strata of the rest, so the picks are
 * distinct and spread over the whole matrix. */
static int64_t *pick(int64_t n, int64_t want, gk_rng *rng, int64_t *count)
{
    *count = n <= want ? n : want;
    int64_t *idx = malloc((size_t)(*count > 0 ? *count : 1) * sizeof *idx);
    if (!idx) return NULL;
    if (n <= want) {
        for (int64_t i = 0; i < n; i++) idx[i] = i;
        return idx;
    }
    const int64_t strata = want - 2, inner = n - 2;
    idx[0] = 0;
    for (int64_t s = 0; s < strata; s++) {
        const int64_t lo = 1 + s * inner / strata, hi = 1 + (s + 1) * inner / strata;
        int64_t i = lo + (int64_t)((gk_rng_uniform(rng) * 0.5 + 0.5) * (double)(hi - lo));
        idx[s + 1] = i < hi ? i : hi - 1;
    }
    idx[want - 1] = n - 1;
    return idx;
}

/* Rows and columns sampled per side: as many as GK_BENCH_GRID_WORK multiply-adds allow, within the grid's range. */
static int64_t grid_side(int64_t k)
{
    double side = floor(sqrt(GK_BENCH_GRID_WORK / (double)(k > 0 ? k : 1)));
    return side < GK_BENCH_GRID_MIN ? GK_BENCH_GRID_MIN : side > GK_BENCH_GRID_MAX ? GK_BENCH_GRID_MAX : (int64_t)side;
}

typedef struct job {
    const gk_sgemm_case *c;
    const float *a, *b;
    gk_bench_reference *ref;
    int64_t row_blocks, items;
    atomic_long next, done;
} job;

/* One BLOCK x BLOCK block of the grid: panels of K packed, then every dot product in double. */
static void block(job *j, int64_t item, float *pa, float *pb, double *acc, double *mag)
{
    const gk_sgemm_case *c = j->c;
    const gk_bench_reference *ref = j->ref;
    const int64_t r0 = item % j->row_blocks * BLOCK, q0 = item / j->row_blocks * BLOCK;
    const int64_t nr = ref->row_count - r0 < BLOCK ? ref->row_count - r0 : BLOCK;
    const int64_t nq = ref->col_count - q0 < BLOCK ? ref->col_count - q0 : BLOCK;
    memset(acc, 0, sizeof(double) * BLOCK * BLOCK);
    memset(mag, 0, sizeof(double) * BLOCK * BLOCK);
    for (int64_t l0 = 0; l0 < c->k; l0 += PANEL) {
        const int64_t kc = c->k - l0 < PANEL ? c->k - l0 : PANEL;
        for (int64_t l = 0; l < kc; l++) {
            for (int64_t r = 0; r < nr; r++) pa[r * PANEL + l] = op_a(c, j->a, ref->rows[r0 + r], l0 + l);
            for (int64_t q = 0; q < nq; q++) pb[q * PANEL + l] = op_b(c, j->b, l0 + l, ref->cols[q0 + q]);
        }
        for (int64_t r = 0; r < nr; r++)
            for (int64_t q = 0; q < nq; q++) {
                const float *x = pa + r * PANEL, *y = pb + q * PANEL;
                /* Two independent sums each: the reference needs no more accuracy than double's. */
                double s0 = 0.0, s1 = 0.0, m0 = 0.0, m1 = 0.0;
                int64_t l = 0;
                for (; l + 1 < kc; l += 2) {
                    const double p0 = (double)x[l] * (double)y[l], p1 = (double)x[l + 1] * (double)y[l + 1];
                    s0 += p0;
                    s1 += p1;
                    m0 += fabs(p0);
                    m1 += fabs(p1);
                }
                if (l < kc) {
                    const double p = (double)x[l] * (double)y[l];
                    s0 += p;
                    m0 += fabs(p);
                }
                acc[r * BLOCK + q] += s0 + s1;
                mag[r * BLOCK + q] += m0 + m1;
            }
    }
    const double alpha = (double)c->alpha;
    for (int64_t r = 0; r < nr; r++)
        for (int64_t q = 0; q < nq; q++) {
            const size_t at = (size_t)((r0 + r) * ref->col_count + q0 + q);
            ref->ref[at] = alpha * acc[r * BLOCK + q];
            ref->mag[at] = fabs(alpha) * mag[r * BLOCK + q];
        }
}

/* Takes blocks until none is left; a thread without memory for its panels takes none. */
static void *worker(void *arg)
{
    job *j = arg;
    float *pa = malloc(sizeof(float) * BLOCK * PANEL), *pb = malloc(sizeof(float) * BLOCK * PANEL);
    double *acc = malloc(sizeof(double) * BLOCK * BLOCK), *mag = malloc(sizeof(double) * BLOCK * BLOCK);
    if (pa && pb && acc && mag)
        for (int64_t item; (item = atomic_fetch_add(&j->next, 1)) < j->items;) {
            block(j, item, pa, pb, acc, mag);
            atomic_fetch_add(&j->done, 1);
        }
    free(pa);
    free(pb);
    free(acc);
    free(mag);
    return NULL;
}

/* Every block, on as many threads as there are cores (the calling thread is one of them). Returns
 * the blocks left undone (only when memory ran out). */
static int64_t compute(job *j)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t threads = cores > 0 ? cores : 1;
    threads = threads > MAX_THREADS ? MAX_THREADS : threads;
    threads = threads > j->items ? j->items : threads;
    pthread_t tid[MAX_THREADS];
    int started = 0;
    /* A thread that cannot start leaves its share to the others. */
    for (int64_t t = 1; t < threads; t++)
        if (pthread_create(&tid[started], NULL, worker, j) == 0) started++;
    worker(j);
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    return j->items - atomic_load(&j->done);
}

int gk_bench_reference_make(const gk_sgemm_case *c, const float *a, const float *b, gk_rng *rng,
                            gk_bench_reference *ref)
{
    memset(ref, 0, sizeof *ref);
    ref->full = (double)c->m * (double)c->n * (double)c->k <= GK_BENCH_FULL_CHECK &&
                (double)c->m * (double)c->n <= GK_BENCH_FULL_ELEMENTS;
    const int64_t side = ref->full ? INT64_MAX : grid_side(c->k);
    ref->rows = pick(c->m, side, rng, &ref->row_count);
    ref->cols = pick(c->n, side, rng, &ref->col_count);
    const size_t count = (size_t)(ref->row_count * ref->col_count);
    ref->ref = malloc((count ? count : 1) * sizeof *ref->ref);
    ref->mag = malloc((count ? count : 1) * sizeof *ref->mag);
    if (!ref->rows || !ref->cols || !ref->ref || !ref->mag) {
        gk_bench_reference_free(ref);
        return -1;
    }
    const int64_t row_blocks = (ref->row_count + BLOCK - 1) / BLOCK, col_blocks = (ref->col_count + BLOCK - 1) / BLOCK;
    job j = {c, a, b, ref, row_blocks, row_blocks * col_blocks, 0, 0};
    if (compute(&j)) {
        gk_bench_reference_free(ref);
        return -1;
    }
    ref->ready = 1;
    return 0;
}
