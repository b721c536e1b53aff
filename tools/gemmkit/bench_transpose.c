/* `gemmkit bench --transpose`: B = A^T and B = A (copy) for every transpose
 * and copy variant and each peer's omatcopy (cuBLAS geam, CLBlast omatcopy),
 * on the session like SGEMM: shared input sets rotated, a warm-up, the
 * median of repeats, GB/s (bytes read + written), every result exact. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "registry.h"

#define REFERENCE_COPY "copy-fast" /* timed beside a single named transpose: %copy needs a copy */
enum { MAX_KERNELS = 64, SLOTS_PER_SET = 2 /* A, B */ };

/* Host side of one size: the input sets and a buffer for B (NaN poison, then read back). */
typedef struct inputs {
    int64_t rows, cols;
    size_t count;
    int sets;
    float *a[GK_BENCH_MAX_SETS];
    float *b;
} inputs;

static void inputs_free(inputs *in)
{
    for (int s = 0; s < GK_BENCH_MAX_SETS; s++) free(in->a[s]);
    free(in->b);
    memset(in, 0, sizeof *in);
}

static int inputs_make(gk_bench_session *s, const gk_bench_size *size, inputs *in)
{
    memset(in, 0, sizeof *in);
    in->rows = size->m;
    in->cols = size->n;
    in->count = (size_t)size->m * (size_t)size->n;
    double bytes = 2.0 * 4.0 * (double)in->count; /* A and B */
    in->sets = gk_bench_input_sets(s->args, bytes);
    for (int k = 0; k < in->sets; k++) {
        if (!(in->a[k] = malloc(in->count * sizeof(float)))) return -1;
        gk_fill_random(&s->rng, in->a[k], in->count);
    }
    in->b = malloc(in->count * sizeof(float));
    return in->b ? 0 : -1;
}

/* B := op(A), A rows x cols in the benchmark's layout, both packed. */
static gk_bench_omat omat_of(gemmkit_layout layout, int trans, const inputs *in)
{
    const int rm = layout == GEMMKIT_ROW_MAJOR;
    const int64_t b_rows = trans ? in->cols : in->rows, b_cols = trans ? in->rows : in->cols;
    return (gk_bench_omat){layout, trans ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, in->rows, in->cols, 1.0f,
                           rm ? in->cols : in->rows, rm ? b_cols : b_rows};
}

typedef struct job {
    gk_runner *r;
    const gk_bench_omat *o;
    const inputs *in;
} job;

static int job_call(void *user, int set, gk_bench_timing *t, char *err)
{
    job *j = user;
    return j->r->omatcopy(j->r, j->o, SLOTS_PER_SET * set, SLOTS_PER_SET * set + 1, t, err);
}

/* After the warm-up: poison set 0's B again, so the timed runs must write it. */
static int job_prepare(void *user, char *err)
{
    job *j = user;
    return j->r->write(j->r, 1, j->in->b, j->in->count, err);
}

static int upload(gk_runner *r, const inputs *in, char *err)
{
    for (int s = 0; s < in->sets; s++) {
        int base = SLOTS_PER_SET * s;
        if (r->alloc(r, base, in->count, err) || r->alloc(r, base + 1, in->count, err) ||
            r->write(r, base, in->a[s], in->count, err) || r->write(r, base + 1, in->b, in->count, err))
            return -1;
    }
    return 0;
}

/* Times one runner's transpose (or copy) at one size and checks every input set's B. */
static void measure(gk_bench_session *s, gk_runner *r, inputs *in, int trans)
{
    gk_bench_record *rec = gk_bench_report_add(&s->report);
    if (!rec) return;
    const gk_bench_omat o = omat_of(s->args->layout, trans, in);
    snprintf(rec->op, sizeof rec->op, "%s", trans ? "transpose" : "copy");
    snprintf(rec->name, sizeof rec->name, "%s", r->name);
    snprintf(rec->kind, sizeof rec->kind, "%s", r->kind);
    snprintf(rec->resolved, sizeof rec->resolved, "%s", r->name);
    rec->size = (gk_bench_size){in->rows, in->cols, 0};
    snprintf(rec->layout, sizeof rec->layout, "%s", o.layout == GEMMKIT_ROW_MAJOR ? "row" : "col");
    snprintf(rec->trans, sizeof rec->trans, "%s", trans ? "T" : "N");
    rec->work = 2.0 * 4.0 * (double)in->count; /* every element read once and written once */
    rec->unit = "GB/s";
    rec->sets = in->sets;
    if (gk_bench_too_slow(s, rec)) {
        gk_bench_progress_record(s, rec);
        return;
    }
    if (gk_bench_record_samples(rec, s->args->repeat)) {
        rec->status = GK_BENCH_ERROR;
        snprintf(rec->message, sizeof rec->message, "out of host memory");
        return;
    }
    char err[GK_BENCH_ERR] = "";
    gk_fill_value(in->b, in->count, NAN);
    job j = {r, &o, in};
    rec->status = GK_BENCH_ERROR;
    if (upload(r, in, err)) {
        snprintf(rec->message, sizeof rec->message, "%s", err);
    } else if (gk_bench_time(job_call, &j, job_prepare, in->sets, s->args->max_seconds, rec) == 0) {
        rec->status = GK_BENCH_OK;
        for (int set = 0; set < rec->sets && rec->status == GK_BENCH_OK; set++) {
            if (r->read(r, SLOTS_PER_SET * set + 1, in->b, in->count, err)) {
                rec->status = GK_BENCH_ERROR;
                snprintf(rec->message, sizeof rec->message, "reading the result: %.220s", err);
            } else if (!gk_bench_check_omatcopy(&o, in->a[set], in->b, rec)) {
                rec->status = GK_BENCH_WRONG;
                char first[GK_BENCH_ERR];
                snprintf(first, sizeof first, "%s", rec->message);
                snprintf(rec->message, sizeof rec->message, "input set %d: %.230s", set + 1, first);
            }
        }
    }
    if (rec->status == GK_BENCH_ERROR && gk_runner_unsupported_here(r)) rec->status = GK_BENCH_SKIPPED;
    /* A runner may add how it timed; a peer's label names its SGEMM, so say what ran here. */
    snprintf(rec->label, sizeof rec->label, strcmp(r->kind, "peer") == 0 ? "%.200s; here its omatcopy" : "%s",
             r->label);
    r->release(r);
    if (rec->status == GK_BENCH_OK) gk_bench_pace(s, rec);
    gk_bench_progress_record(s, rec);
}

static int is_variant(const gk_kernel_def *def)
{
    return (gk_kernel_op(def) == GK_OP_TRANSPOSE || gk_kernel_op(def) == GK_OP_COPY) && !gk_kernel_is_helper(def);
}

/* gemmkit's runners, with whether each transposes: the library's own choice
 * per shape ("best", what gemmkit_somatcopy runs) then every variant in
 * registry order (all), "best" beside REFERENCE_COPY (best), or the named
 * kernel (with its --params), beside REFERENCE_COPY when it is a transpose. */
static int make_kernel_runners(gk_bench_session *s, gk_runner **runners, int *transposes, int max)
{
    const char *want = s->args->kernel;
    const int all = strcmp(want, "all") == 0, best = strcmp(want, "best") == 0;
    const gk_kernel_def *named = all || best ? NULL : gk_kernel_find(want);
    int count = 0;
    if ((best || all) && max > 0) {
        gk_runner *r = gk_runner_gemmkit(s->ctx, NULL, NULL);
        if (!r) return 0;
        snprintf(r->label, sizeof r->label, "gemmkit best: the library's choice for each shape (gemmkit_somatcopy)");
        runners[count] = r;
        transposes[count++] = 1;
    }
    for (size_t i = 0; i < gk_kernel_count() && count < max; i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (!is_variant(def)) continue;
        const int reference = strcmp(def->name, REFERENCE_COPY) == 0;
        if (best && !reference) continue;
        if (named && def != named && (gk_kernel_op(named) == GK_OP_COPY || !reference)) continue;
        gk_runner *r = gk_runner_gemmkit(s->ctx, def->name, def == named ? s->args->params : NULL);
        if (!r) break;
        snprintf(r->label, sizeof r->label, "gemmkit %s: %s", def->name, def->summary);
        runners[count] = r;
        transposes[count++] = gk_kernel_op(def) == GK_OP_TRANSPOSE;
    }
    return count;
}

int gk_bench_transpose(gk_bench_session *s)
{
    snprintf(s->report.title, sizeof s->report.title,
             "gemmkit bench: transpose B = A^T and copy B = A, %s-major, alpha = 1; 1 warm-up + %d timed runs each; "
             "seed %llu",
             s->args->layout == GEMMKIT_ROW_MAJOR ? "row" : "column", s->args->repeat,
             (unsigned long long)s->report.seed);
    gk_runner *kernels[MAX_KERNELS];
    int transposes[MAX_KERNELS];
    int nk = make_kernel_runners(s, kernels, transposes, MAX_KERNELS);
    for (int z = 0; z < s->args->size_count; z++) {
        const gk_bench_size *size = &s->args->sizes[z];
        char text[48];
        gk_bench_size_text(size, text, sizeof text);
        inputs in;
        if (inputs_make(s, size, &in)) {
            gk_bench_progress(s, "size %s: out of host memory for the inputs; skipped", text);
            s->sizes_without_memory++;
            inputs_free(&in);
            continue;
        }
        gk_bench_progress(s, "size %s: %d input set%s of random values in [-1, 1)", text, in.sets,
                          in.sets == 1 ? "" : "s");
        for (int k = 0; k < nk; k++) measure(s, kernels[k], &in, transposes[k]);
        /* Each peer's transpose and copy. Runners that round their inputs are SGEMM
         * precision modes (cublas-tf32): a transpose has none, so they would repeat. */
        for (int p = 0; p < s->peer_count; p++) {
            gk_runner *r = s->peers[p];
            if (!r->omatcopy || r->input_rounding > 0.0) continue;
            measure(s, r, &in, 1);
            measure(s, r, &in, 0);
        }
        inputs_free(&in);
    }
    for (int k = 0; k < nk; k++) kernels[k]->destroy(kernels[k]);
    return GK_EXIT_OK;
}
