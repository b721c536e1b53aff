/* The SGEMM benchmark: for each size, fresh random input sets shared by
 * every runner (the host baseline, gemmkit's kernels, the peers), each runner
 * timed on its own device copies and its results checked. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "registry.h"
#include "sgemm.h"
#include "tuning.h"

/* Host side of one size: input sets and their references. */
typedef struct inputs {
    gk_sgemm_case kase;
    int sets;
    size_t ea, eb, ec;
    float *a[GK_BENCH_MAX_SETS], *b[GK_BENCH_MAX_SETS];
    gk_bench_reference ref[GK_BENCH_MAX_SETS];
    float *c; /* NaN poison before the runs, then each set's result read back */
} inputs;

static void inputs_free(inputs *in)
{
    for (int s = 0; s < GK_BENCH_MAX_SETS; s++) {
        free(in->a[s]);
        free(in->b[s]);
        gk_bench_reference_free(&in->ref[s]);
    }
    free(in->c);
    memset(in, 0, sizeof *in);
}

static int inputs_make(gk_bench_session *s, const gk_bench_size *size, inputs *in)
{
    memset(in, 0, sizeof *in);
    in->kase = (gk_sgemm_case){s->args->layout, s->args->trans_a, s->args->trans_b, size->m, size->n, size->k,
                               1.0f, 0.0f, 0, 0, 0};
    gk_case_complete(&in->kase);
    gk_case_extents(&in->kase, &in->ea, &in->eb, &in->ec);
    double bytes = 4.0 * (double)(in->ea + in->eb + in->ec);
    in->sets = gk_bench_input_sets(s->args, bytes);
    for (int k = 0; k < in->sets; k++) {
        in->a[k] = malloc(in->ea * sizeof(float));
        in->b[k] = malloc(in->eb * sizeof(float));
        if (!in->a[k] || !in->b[k]) return -1;
        gk_fill_random(&s->rng, in->a[k], in->ea);
        gk_fill_random(&s->rng, in->b[k], in->eb);
    }
    in->c = malloc(in->ec * sizeof(float));
    return in->c ? 0 : -1;
}

static void fill_record(const gk_bench_session *s, const gk_runner *r, const inputs *in, gk_bench_record *rec)
{
    snprintf(rec->op, sizeof rec->op, "sgemm");
    snprintf(rec->name, sizeof rec->name, "%s", r->name);
    snprintf(rec->kind, sizeof rec->kind, "%s", r->kind);
    snprintf(rec->label, sizeof rec->label, "%s", r->label);
    snprintf(rec->resolved, sizeof rec->resolved, "%s", r->name);
    rec->size = (gk_bench_size){in->kase.m, in->kase.n, in->kase.k};
    snprintf(rec->layout, sizeof rec->layout, "%s", s->args->layout == GEMMKIT_ROW_MAJOR ? "row" : "col");
    snprintf(rec->trans, sizeof rec->trans, "%c%c", s->args->trans_a == GEMMKIT_NO_TRANS ? 'N' : 'T',
             s->args->trans_b == GEMMKIT_NO_TRANS ? 'N' : 'T');
    rec->work = 2.0 * (double)in->kase.m * (double)in->kase.n * (double)in->kase.k;
    rec->unit = "GFLOPS";
    rec->sets = in->sets;
}

typedef struct job {
    gk_runner *r;
    inputs *in;
} job;

enum { SLOTS_PER_SET = 3 };

static int job_call(void *user, int set, gk_bench_timing *t, char *err)
{
    job *j = user;
    int base = SLOTS_PER_SET * set;
    return j->r->sgemm(j->r, &j->in->kase, base, base + 1, base + 2, t, err);
}

/* After the warm-up: poison set 0's C again, so the timed runs must write it. */
static int job_prepare(void *user, char *err)
{
    job *j = user;
    return j->r->write(j->r, 2, j->in->c, j->in->ec, err);
}

static int upload(gk_runner *r, const inputs *in, char *err)
{
    for (int s = 0; s < in->sets; s++) {
        int base = SLOTS_PER_SET * s;
        if (r->alloc(r, base, in->ea, err) || r->alloc(r, base + 1, in->eb, err) || r->alloc(r, base + 2, in->ec, err) ||
            r->write(r, base, in->a[s], in->ea, err) || r->write(r, base + 1, in->b[s], in->eb, err) ||
            r->write(r, base + 2, in->c, in->ec, err))
            return -1;
    }
    return 0;
}

/* Times one runner at one size and checks every input set's result. */
static void measure(gk_bench_session *s, gk_runner *r, inputs *in, const char *resolved)
{
    gk_bench_record *rec = gk_bench_report_add(&s->report);
    if (!rec) return;
    fill_record(s, r, in, rec);
    if (resolved) snprintf(rec->resolved, sizeof rec->resolved, "%s", resolved);
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
    gk_fill_value(in->c, in->ec, NAN);
    job j = {r, in};
    rec->status = GK_BENCH_ERROR;
    if (upload(r, in, err)) {
        snprintf(rec->message, sizeof rec->message, "%s", err);
    } else if (gk_bench_time(job_call, &j, job_prepare, in->sets, s->args->max_seconds, rec) == 0) {
        rec->status = GK_BENCH_OK;
        for (int set = 0; set < rec->sets && rec->status == GK_BENCH_OK; set++) {
            if (r->read(r, SLOTS_PER_SET * set + 2, in->c, in->ec, err)) {
                rec->status = GK_BENCH_ERROR;
                snprintf(rec->message, sizeof rec->message, "reading the result: %.220s", err);
            } else if (!gk_bench_check_sgemm(&in->kase, in->a[set], in->b[set], &in->ref[set], in->c,
                                             r->input_rounding, &s->rng, rec)) {
                rec->status = GK_BENCH_WRONG;
                char first[GK_BENCH_ERR];
                snprintf(first, sizeof first, "%s", rec->message);
                snprintf(rec->message, sizeof rec->message, "input set %d: %.230s", set + 1, first);
            }
        }
    }
    if (rec->status == GK_BENCH_ERROR && gk_runner_unsupported_here(r)) rec->status = GK_BENCH_SKIPPED;
    snprintf(rec->label, sizeof rec->label, "%s", r->label); /* a runner may add how it timed */
    r->release(r);
    if (rec->status == GK_BENCH_OK) gk_bench_pace(s, rec);
    gk_bench_progress_record(s, rec);
}

static void baseline(gk_bench_session *s, const inputs *in)
{
    gk_bench_record *rec = gk_bench_report_add(&s->report);
    if (!rec) return;
    gk_bench_size size = {in->kase.m, in->kase.n, in->kase.k};
    /* About a second per size in all, at most a quarter of it per timed slice. */
    double budget = 1.25 / s->args->repeat;
    budget = budget > 0.25 ? 0.25 : budget < 0.05 ? 0.05 : budget;
    gk_bench_host_baseline(&size, s->args->repeat, budget, &s->rng, rec);
    gk_bench_progress_record(s, rec);
}

/* gemmkit's runners: one per kernel of the selection, in registry order. */
static int make_kernel_runners(gk_bench_session *s, gk_runner **runners, const gk_kernel_def **defs, int max)
{
    const char *want = s->args->kernel;
    if (strcmp(want, "best") == 0) {
        runners[0] = gk_runner_gemmkit(s->ctx, NULL, NULL);
        defs[0] = NULL;
        return runners[0] ? 1 : 0;
    }
    int count = 0;
    for (size_t i = 0; i < gk_kernel_count() && count < max; i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (gk_kernel_op(def) != GK_OP_SGEMM || gk_kernel_is_helper(def)) continue;
        if (strcmp(want, "all") != 0 && strcmp(want, def->name) != 0) continue;
        gk_runner *r = gk_runner_gemmkit(s->ctx, def->name, s->args->params);
        if (!r) break;
        snprintf(r->label, sizeof r->label, "gemmkit %s: %s", def->name, def->summary);
        runners[count] = r;
        defs[count++] = def;
    }
    return count;
}

/* The header's line on the kernel: which one runs and why (for "best", the
 * dispatch of src/core/dispatch.c), and where its parameters come from (as
 * gk_context_resolve takes them). */
static void explain_kernel(gk_bench_session *s)
{
    const char *want = s->args->kernel;
    char *note = s->report.kernel_note, why[200], params[400];
    const size_t len = sizeof s->report.kernel_note;
    if (strcmp(want, "all") == 0) {
        snprintf(note, len, "kernels: every SGEMM kernel of the registry, in ladder order (--kernel all)");
        return;
    }
    const gk_kernel_def *def;
    if (strcmp(want, "best") == 0) {
        /* What the dispatch gives a large square: the device class's fast kernel. */
        def = gk_sgemm_default_kernel(s->ctx, 4096, 4096, 4096).def;
        if (!def) return;
        if (strcmp(def->name, "direct") == 0)
            snprintf(why, sizeof why, "the library's choice here for every shape (no faster kernel fits this device)");
        else
            snprintf(why, sizeof why, "the library's choice for %s devices; small or skinny shapes run direct, "
                     "shown as best:direct", s->info.is_gpu ? "GPU" : "CPU");
    } else {
        def = gk_kernel_find(want);
        if (!def) return;
        snprintf(why, sizeof why, "named by --kernel");
    }
    const char *tuned = gk_tuning_params(&s->ctx->tuned, def->name);
    char db[256];
    if (s->args->params && strcmp(want, "best") != 0)
        snprintf(params, sizeof params, "%s (--params)", s->args->params);
    else if (tuned)
        snprintf(params, sizeof params, "%s, tuned for this device (tuning database: %s, over the built-in one)",
                 tuned, gk_tuning_path(db, sizeof db));
    else
        snprintf(params, sizeof params, "registry defaults (no tuning for this device)");
    snprintf(note, len, "kernel: %s (%s); parameters: %s", def->name, why, params);
}

void gk_bench_sgemm(gk_bench_session *s)
{
    explain_kernel(s);
    enum { MAX_KERNELS = 256 };
    gk_runner *kernels[MAX_KERNELS];
    const gk_kernel_def *defs[MAX_KERNELS];
    int nk = make_kernel_runners(s, kernels, defs, MAX_KERNELS);
    const int cuda = strcmp(s->info.backend, "cuda") == 0;
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
        if (s->args->baseline) baseline(s, &in);
        for (int k = 0; k < nk; k++) {
            if (defs[k] && !gk_kernel_runs_on(defs[k], GK_BACKEND_BIT_OPENCL) && !cuda) {
                gk_bench_record *rec = gk_bench_report_add(&s->report);
                if (!rec) continue;
                fill_record(s, kernels[k], &in, rec);
                rec->status = GK_BENCH_SKIPPED;
                snprintf(rec->message, sizeof rec->message, "needs the CUDA backend (--backend cuda)");
                continue;
            }
            const char *resolved = NULL;
            if (!defs[k]) {
                /* Name the kernel the public SGEMM picks for this shape (column-major terms). */
                int rm = s->args->layout == GEMMKIT_ROW_MAJOR;
                gk_sgemm_choice d = gk_sgemm_default_kernel(s->ctx, rm ? size->n : size->m,
                                                            rm ? size->m : size->n, size->k);
                resolved = d.def ? d.def->name : NULL;
            }
            measure(s, kernels[k], &in, resolved);
        }
        for (int p = 0; p < s->peer_count; p++)
            if (s->peers[p]->sgemm) measure(s, s->peers[p], &in, NULL);
        inputs_free(&in);
    }
    for (int k = 0; k < nk; k++) kernels[k]->destroy(kernels[k]);
}
