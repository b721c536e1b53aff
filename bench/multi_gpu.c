/* Issue 18's benchmark: SGEMM C = A*B (column-major NN, n x n x n, beta = 0)
 * on HOST arrays over one GPU and several, gemmkit beside cuBLASXt, pinned
 * and pageable host memory, and one device's device-resident rate for the
 * "host-array rate / device-resident rate" ratio. Each runner: a warm-up
 * call, then the median of --repeat wall-clock timed calls (C poisoned with
 * NaN before each); the last result is checked on sampled elements against
 * float64 dot products (bound 2 (K + 2) eps of sum |a||b|), WRONG instead of
 * a speed when off. The arrays are allocated once per memory kind, filled on
 * every core, and reused by every runner. Built as build/multi_gpu; CUDA
 * libraries are loaded at run time (bench/multi_gpu/cuda.c), so it builds
 * and checks its arguments anywhere. docs/SCALE.md has the commands and
 * what each number means; `multi_gpu --help` the options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "multi_gpu.h"
#include "output_file.h"
#include "median.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}


/* Everything a run shares. */
typedef struct bench {
    mg_options o;
    mg_cuda *cu;
    char cuda_why[MG_ERR];
    int entry_devices[MG_MAX_ENTRIES]; /* 0: not countable (the context's creation then says why) */
    int resident_done;
    double start;
    double best_rate; /* flop/s per device seen so far: the budget's estimate of a runner's time */
    float *wa, *wb, *wc; /* the small warm-up's arrays (NULL: none) */
    mg_row rows[MG_MAX_ROWS];
    int row_count;
} bench;

static double elapsed(const bench *b) { return now_s() - b->start; }

static mg_row *new_row(bench *b, const mg_runner *r, const char *memory)
{
    static mg_row overflow; /* more rows than MG_MAX_ROWS: measured, printed, not kept */
    mg_row *row = b->row_count < MG_MAX_ROWS ? &b->rows[b->row_count++] : &overflow;
    memset(row, 0, sizeof *row);
    row->n = b->o.n;
    snprintf(row->runner, sizeof row->runner, "%s", r->name);
    snprintf(row->target, sizeof row->target, "%s", r->target);
    snprintf(row->backend, sizeof row->backend, "%s", r->backend);
    snprintf(row->memory, sizeof row->memory, "%s", memory);
    row->devices = r->devices;
    return row;
}

static void emit(bench *b, mg_row *row)
{
    int index = (int)(row - b->rows);
    if (index < 0 || index >= b->row_count) { /* the overflow row */
        mg_print_row(stdout, row, 1, 0);
        return;
    }
    mg_print_row(stdout, b->rows, b->row_count, index);
    char err[MG_ERR];
    if (b->o.tsv && mg_write_tsv(b->o.tsv, b->rows, b->row_count, err, sizeof err))
        fprintf(stderr, "multi_gpu: --tsv %s: %s\n", b->o.tsv, err);
}

static void skip(bench *b, const mg_runner *r, const char *memory, const char *why)
{
    mg_row *row = new_row(b, r, memory);
    row->status = MG_SKIPPED;
    snprintf(row->detail, sizeof row->detail, "%s", why);
    emit(b, row);
}

/* Whether the budget lets runner r start; why says otherwise. */
static int budget_allows(const bench *b, const mg_runner *r, char *why)
{
    const double budget = b->o.budget_s, left = budget - elapsed(b);
    if (budget <= 0) return 1;
    if (left <= 0) {
        snprintf(why, MG_ERR, "the time budget (%.0f s) is spent", budget);
        return 0;
    }
    if (b->best_rate <= 0) return 1; /* nothing measured yet to estimate from */
    const double flops = 2.0 * (double)b->o.n * (double)b->o.n * (double)b->o.n;
    const int full_warmup = b->o.warmup == b->o.n || (b->o.warmup > 0 && !r->small_warmup);
    /* A timed call, a full-size warm-up where there is one, and as much again for setup, copies and the check
     * (without it a runner on more devices started in the last call's worth of the budget on a fast GPU). */
    const double need = 2 * (1 + full_warmup) * flops / (b->best_rate * (r->devices > 0 ? r->devices : 1));
    if (need <= left) return 1;
    snprintf(why, MG_ERR, "would need about %.0f s at the best rate seen, %.0f s of the budget left", need, left);
    return 0;
}

/* Sets up, warms up, times and checks one runner on arrays a, b, c. */
static void measure(bench *b, mg_runner *r, const char *memory, const float *a, const float *bm, float *c)
{
    const mg_options *o = &b->o;
    const size_t count = (size_t)o->n * (size_t)o->n;
    char err[MG_ERR] = "";
    if (!budget_allows(b, r, err)) {
        skip(b, r, memory, err);
        r->teardown(r);
        return;
    }
    mg_fill_nan(c, count, o->threads);
    mg_row *row = new_row(b, r, memory);
    double times[1000];
    int rc = r->setup(r, o->n, a, bm, c, err);
    snprintf(row->backend, sizeof row->backend, "%s", r->backend); /* setup knows it */
    if (r->about[0]) printf("# %s %s: %s\n", r->name, r->target, r->about);
    if (rc == 0 && o->warmup > 0) {
        if (o->warmup == o->n || !r->small_warmup || !b->wa) rc = r->call(r, o->n, a, bm, c, err);
        else rc = r->call(r, o->warmup, b->wa, b->wb, b->wc, err);
        if (rc) snprintf(row->detail, sizeof row->detail, "warm-up: %.490s", err), rc = -2;
    }
    for (int i = 0; rc == 0 && i < o->repeat; i++) {
        if (r->host_arrays) mg_fill_nan(c, count, o->threads);
        const double t0 = now_s();
        rc = r->call(r, o->n, a, bm, c, err);
        times[i] = now_s() - t0;
        if (rc == 0) row->timed++;
        if (rc == 0 && i + 1 < o->repeat && o->budget_s > 0 && elapsed(b) + times[i] > o->budget_s) {
            printf("# %s %s %s: %d of %d repeats, the time budget is spent\n", r->name, r->target, memory, i + 1,
                   o->repeat);
            break;
        }
    }
    if (rc == 0) rc = r->finish(r, o->n, c, err);
    if (rc == 1) {
        row->status = MG_SKIPPED;
        snprintf(row->detail, sizeof row->detail, "%s", err);
    } else if (rc) {
        row->status = MG_FAILED;
        if (rc != -2) snprintf(row->detail, sizeof row->detail, "%s", err);
    } else {
        row->seconds = gk_median(times, row->timed);
        gk_sgemm_case kase = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, o->n, o->n, o->n, 1.0f, 0.0f,
                              o->n, o->n, o->n};
        gk_rng rng;
        gk_rng_seed(&rng, o->seed ^ 0x5DEECE66Dull ^ (uint64_t)b->row_count);
        gk_check_result check;
        /* beta = 0: C0 is not used; the result stands in for it. */
        gk_check_sgemm_sampled(&kase, a, bm, c, c, o->samples, &rng, &check);
        row->max_error = check.max_rel_error;
        row->status = check.passed ? MG_OK : MG_WRONG;
        if (!check.passed)
            snprintf(row->detail, sizeof row->detail, "%lld of %d sampled elements off: %s", (long long)check.bad_count,
                     o->samples, check.message);
        const double flops = 2.0 * (double)o->n * (double)o->n * (double)o->n;
        const double rate = flops / row->seconds / (r->devices > 0 ? r->devices : 1);
        if (check.passed && rate > b->best_rate) b->best_rate = rate;
    }
    r->teardown(r);
    emit(b, row);
}

/* Host arrays of one memory kind: NULL with why when they cannot be had. */
static float *host_array(bench *b, int kind, size_t bytes, char *why)
{
    if (kind == MG_MEM_PAGEABLE) {
        float *p = malloc(bytes);
        if (!p) snprintf(why, MG_ERR, "malloc of %.1f GB failed", bytes / 1e9);
        return p;
    }
    if (!b->cu) {
        snprintf(why, MG_ERR, "pinned memory needs the CUDA runtime: %.400s", b->cuda_why);
        return NULL;
    }
    return mg_cuda_host_alloc(b->cu, bytes, why, MG_ERR);
}

static void host_free(bench *b, int kind, float *p)
{
    if (kind == MG_MEM_PAGEABLE) free(p);
    else if (p) mg_cuda_host_free(b->cu, p);
}

/* The runners of one pass, in order: the resident ones (when asked),
 * then each selector's gemmkit followed by the cuBLASXt sets of its device
 * count not yet run, then the cuBLASXt sets no selector matched. */
typedef void (*visit_fn)(bench *b, mg_runner *r, void *user);

static void each_runner(bench *b, int with_resident, visit_fn visit, void *user)
{
    const mg_options *o = &b->o;
    mg_runner r;
    if (with_resident && o->resident) {
        int backends_done[3] = {0};
        for (int i = 0; i < o->entry_count; i++) {
            const mg_entry *e = &o->entries[i];
            if (b->entry_devices[i] != 1 || backends_done[e->backend]++) continue;
            mg_runner_gemmkit_resident(&r, e);
            visit(b, &r, user);
        }
        if (b->cu) {
            mg_runner_cublas_resident(&r, b->cu, o->xt_count ? o->xt[0].ids[0] : 0);
            visit(b, &r, user);
        }
    }
    int xt_done[MG_MAX_ENTRIES] = {0};
    for (int i = 0; i <= o->entry_count; i++) {
        if (i < o->entry_count) {
            mg_runner_gemmkit(&r, &o->entries[i], b->entry_devices[i]);
            visit(b, &r, user);
        }
        for (int j = 0; j < o->xt_count && o->cublasxt && b->cu; j++) {
            if (xt_done[j] || (i < o->entry_count && o->xt[j].count != b->entry_devices[i])) continue;
            xt_done[j] = 1;
            mg_runner_cublasxt(&r, b->cu, &o->xt[j], o->block);
            visit(b, &r, user);
        }
    }
}

typedef struct pass {
    const char *memory;
    const float *a, *b;
    float *c;
    const char *why; /* non-NULL: every runner skipped for this */
} pass;

static void run_one(bench *b, mg_runner *r, void *user)
{
    const pass *p = user;
    const char *memory = r->host_arrays ? p->memory : "device";
    if (p->why || !r->state) {
        skip(b, r, memory, p->why ? p->why : "out of host memory");
        r->teardown(r);
    } else {
        measure(b, r, memory, p->a, p->b, p->c);
    }
}

static void run_pass(bench *b, int kind)
{
    const mg_options *o = &b->o;
    const size_t count = (size_t)o->n * (size_t)o->n, bytes = count * sizeof(float);
    const char *memory = kind == MG_MEM_PINNED ? "pinned" : "pageable";
    char why[MG_ERR] = "";
    double t0 = now_s();
    float *a = host_array(b, kind, bytes, why), *bm = a ? host_array(b, kind, bytes, why) : NULL;
    float *c = bm ? host_array(b, kind, bytes, why) : NULL;
    pass p = {memory, a, bm, c, c ? NULL : why};
    if (c) {
        printf("# %s: A, B and C allocated (%.1f GB) in %.1f s", memory, 3 * bytes / 1e9, now_s() - t0);
        t0 = now_s();
        mg_fill_inputs(a, count, o->seed, 0, o->threads);
        mg_fill_inputs(bm, count, o->seed, 1, o->threads);
        printf(", A and B filled in %.1f s on %d threads\n", now_s() - t0, o->threads);
    } else {
        printf("# %s: every runner skipped: %s\n", memory, why);
    }
    fflush(stdout);
    /* The resident runners once, in the first pass that has arrays to upload. */
    const int with_resident = c && !b->resident_done;
    b->resident_done |= with_resident;
    each_runner(b, with_resident, run_one, &p);
    host_free(b, kind, a);
    host_free(b, kind, bm);
    host_free(b, kind, c);
}

/* Small arrays for a warm-up of another size (it builds kernels and handles). */
static int warmup_arrays(bench *b)
{
    const mg_options *o = &b->o;
    if (o->warmup <= 0 || o->warmup == o->n) return 0;
    const size_t count = (size_t)o->warmup * (size_t)o->warmup;
    b->wa = malloc(count * sizeof(float));
    b->wb = malloc(count * sizeof(float));
    b->wc = malloc(count * sizeof(float));
    if (!b->wa || !b->wb || !b->wc) return -1;
    mg_fill_inputs(b->wa, count, o->seed, 2, o->threads);
    mg_fill_inputs(b->wb, count, o->seed, 3, o->threads);
    return 0;
}

static void count_devices(bench *b)
{
    mg_options *o = &b->o;
    for (int i = 0; i < o->entry_count; i++) {
        char why[MG_ERR] = "";
        b->entry_devices[i] = mg_selector_devices(&o->entries[i], why, sizeof why);
        if (!b->entry_devices[i]) printf("# %s: devices not counted: %s\n", o->entries[i].text, why);
    }
    /* cuBLASXt's default sets (no --xt): devices 0..k-1 for each device count k of the selectors. */
    const int given = o->xt_count > 0;
    for (int i = 0; i < o->entry_count && !given; i++) {
        const int k = b->entry_devices[i];
        int seen = k <= 0 || k > MG_MAX_IDS;
        for (int j = 0; j < o->xt_count; j++) seen |= o->xt[j].count == k;
        if (seen || o->xt_count == MG_MAX_ENTRIES) continue;
        o->xt[o->xt_count].count = k;
        for (int d = 0; d < k; d++) o->xt[o->xt_count].ids[d] = d;
        o->xt_count++;
    }
}

int main(int argc, char **argv)
{
    static bench b; /* rows: too large for the stack */
    char err[MG_ERR];
    int rc = mg_parse_args(argc, argv, &b.o, err, sizeof err);
    if (rc == 1) return 0;
    if (rc) {
        fprintf(stderr, "multi_gpu: %s\n(see multi_gpu --help)\n", err);
        return 2;
    }
    mg_options *o = &b.o;
    if (!o->threads) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        o->threads = cores > 0 ? (int)cores : 1;
    }
    if (o->tsv && gk_output_check(o->tsv, err, sizeof err)) {
        fprintf(stderr, "multi_gpu: --tsv %s: %s\n", o->tsv, err);
        return 2;
    }
    b.start = now_s();
    const size_t bytes = (size_t)o->n * (size_t)o->n * sizeof(float);
    printf("# multi_gpu: n = %lld (%.2f GB per matrix, %.1f TFLOP per call), seed %llu, %d repeat(s), warm-up %lld,"
           " %d samples checked\n",
           (long long)o->n, bytes / 1e9, 2.0 * o->n * (double)o->n * o->n / 1e12, (unsigned long long)o->seed,
           o->repeat, (long long)o->warmup, o->samples);
    const size_t available = mg_host_available();
    if (available && 3 * bytes > available) {
        fprintf(stderr, "multi_gpu: A, B and C need %.1f GB of host memory; %.1f GB are available\n", 3 * bytes / 1e9,
                available / 1e9);
        return 1;
    }
    if (available && 4 * bytes > available)
        printf("# note: %.1f GB available, under 4 matrices: a library that copies C on the host may run short\n",
               available / 1e9);
    b.cu = mg_cuda_open(b.cuda_why, sizeof b.cuda_why);
    if (b.cu) printf("# %s; NVIDIA_TF32_OVERRIDE=0 (cuBLASXt in fp32)\n", mg_cuda_version(b.cu));
    else printf("# CUDA: absent (%s): pinned memory, cuBLASXt and cuBLAS skipped\n", b.cuda_why);
    if (b.cu && mg_cuda_cublas_why(b.cu)[0]) printf("# cuBLAS and cuBLASXt: skipped: %s\n", mg_cuda_cublas_why(b.cu));
    count_devices(&b);
    if (warmup_arrays(&b)) {
        fprintf(stderr, "multi_gpu: out of host memory for the warm-up's arrays\n");
        return 1;
    }
    fflush(stdout);
    if (o->memory & MG_MEM_PINNED) run_pass(&b, MG_MEM_PINNED);
    if (o->memory & MG_MEM_PAGEABLE) run_pass(&b, MG_MEM_PAGEABLE);
    mg_print_summary(stdout, b.rows, b.row_count);
    if (o->tsv) {
        if (mg_write_tsv(o->tsv, b.rows, b.row_count, err, sizeof err))
            fprintf(stderr, "multi_gpu: --tsv %s: %s\n", o->tsv, err);
        else printf("rows written to %s\n", o->tsv);
    }
    printf("done in %.0f s\n", elapsed(&b));
    free(b.wa), free(b.wb), free(b.wc);
    for (int i = 0; i < b.row_count; i++)
        if (b.rows[i].status == MG_WRONG || b.rows[i].status == MG_FAILED) return 1;
    return 0;
}
