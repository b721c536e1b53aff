/* The float64 reference of one SGEMM input set for the benchmark's check
 * (bench.h): which elements of C are compared (all of them for small
 * problems, else a grid of sampled rows x sampled columns), and each one's
 * value and magnitude sum |a||b| in double. It is computed once per input
 * set and shared by every runner, on every core, per panel of K: first the
 * checked rows of op(A) and columns of op(B) are packed contiguous (read once
 * each: sampled rows of a column-major A are one cache line per element),
 * then blocks of the grid's dot products are handed out to threads. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

enum {
    BLOCK = 32,            /* rows (and columns) of C per work item of the dot products */
    CHUNK = 16,            /* rows of op(A) (columns of op(B)) per work item of the packing */
    PANEL_FLOATS = 1 << 24, /* the packed rows and columns of one panel of K: 64 MiB at most */
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

/* One panel of K (l0 .. l0 + kc): the checked rows of op(A) and columns of op(B) packed, each contiguous. */
typedef struct job {
    const gk_sgemm_case *c;
    const float *a, *b;
    gk_bench_reference *ref;
    int64_t l0, kc;
    float *pa, *pb; /* row r of op(A) at pa + r * kc; column q of op(B) at pb + q * kc */
    int64_t row_blocks;
    void (*item)(struct job *j, int64_t item);
    int64_t items;
    atomic_long next;
} job;

/* Packing: CHUNK rows of op(A), then CHUNK columns of op(B); across the chunk at each l, so that
 * neighbouring rows (the full check) share cache lines. */
static void pack(job *j, int64_t item)
{
    const gk_sgemm_case *c = j->c;
    const gk_bench_reference *ref = j->ref;
    const int64_t row_chunks = (ref->row_count + CHUNK - 1) / CHUNK;
    const int is_a = item < row_chunks;
    const int64_t first = (is_a ? item : item - row_chunks) * CHUNK, count = is_a ? ref->row_count : ref->col_count;
    const int64_t end = first + CHUNK < count ? first + CHUNK : count;
    for (int64_t l = 0; l < j->kc; l++)
        for (int64_t r = first; r < end; r++) {
            if (is_a) j->pa[r * j->kc + l] = op_a(c, j->a, ref->rows[r], j->l0 + l);
            else j->pb[r * j->kc + l] = op_b(c, j->b, j->l0 + l, ref->cols[r]);
        }
}

/* The dot products of one BLOCK x BLOCK block over the panel, added to the reference in double. */
static void dots(job *j, int64_t item)
{
    gk_bench_reference *ref = j->ref;
    const int64_t r0 = item % j->row_blocks * BLOCK, q0 = item / j->row_blocks * BLOCK, kc = j->kc;
    const int64_t r1 = r0 + BLOCK < ref->row_count ? r0 + BLOCK : ref->row_count;
    const int64_t q1 = q0 + BLOCK < ref->col_count ? q0 + BLOCK : ref->col_count;
    for (int64_t r = r0; r < r1; r++)
        for (int64_t q = q0; q < q1; q++) {
            const float *x = j->pa + r * kc, *y = j->pb + q * kc;
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
            const size_t at = (size_t)(r * ref->col_count + q);
            ref->ref[at] += s0 + s1;
            ref->mag[at] += m0 + m1;
        }
}

static void *worker(void *arg)
{
    job *j = arg;
    for (int64_t item; (item = atomic_fetch_add(&j->next, 1)) < j->items;) j->item(j, item);
    return NULL;
}

/* Every item of the job, on as many threads as there are cores (the calling thread one of them;
 * a thread that cannot start leaves its share to the others). */
static void run_items(job *j, void (*item)(job *, int64_t), int64_t items)
{
    j->item = item;
    j->items = items;
    atomic_store(&j->next, 0);
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t threads = cores > 0 ? cores : 1;
    threads = threads > MAX_THREADS ? MAX_THREADS : threads > items ? items : threads;
    pthread_t tid[MAX_THREADS];
    int started = 0;
    for (int64_t t = 1; t < threads; t++)
        if (pthread_create(&tid[started], NULL, worker, j) == 0) started++;
    worker(j);
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
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
    /* Panels of K as long as PANEL_FLOATS allow (one panel in the benchmark's usual cases). */
    const int64_t lines = ref->row_count + ref->col_count;
    int64_t panel = PANEL_FLOATS / (lines > 0 ? lines : 1);
    panel = panel < 1 ? 1 : panel > c->k ? c->k : panel;
    float *pa = malloc(sizeof(float) * (size_t)(panel * ref->row_count + 1));
    float *pb = malloc(sizeof(float) * (size_t)(panel * ref->col_count + 1));
    if (!pa || !pb) {
        free(pa);
        free(pb);
        gk_bench_reference_free(ref);
        return -1;
    }
    memset(ref->ref, 0, count * sizeof *ref->ref);
    memset(ref->mag, 0, count * sizeof *ref->mag);
    job j = {.c = c, .a = a, .b = b, .ref = ref, .pa = pa, .pb = pb,
             .row_blocks = (ref->row_count + BLOCK - 1) / BLOCK};
    const int64_t chunks = (ref->row_count + CHUNK - 1) / CHUNK + (ref->col_count + CHUNK - 1) / CHUNK;
    const int64_t blocks = j.row_blocks * ((ref->col_count + BLOCK - 1) / BLOCK);
    for (int64_t l0 = 0; l0 < c->k; l0 += panel) {
        j.l0 = l0;
        j.kc = c->k - l0 < panel ? c->k - l0 : panel;
        run_items(&j, pack, chunks);
        run_items(&j, dots, blocks);
    }
    free(pa);
    free(pb);
    const double alpha = (double)c->alpha;
    for (size_t i = 0; i < count; i++) {
        ref->ref[i] *= alpha;
        ref->mag[i] *= fabs(alpha);
    }
    ref->ready = 1;
    return 0;
}
