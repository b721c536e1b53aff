/* --candidates: per shape, every candidate of the cost model (gk_sgemm_candidates_for, src/core/sgemm.h)
 * timed as the benchmark times gemmkit (the same warm-up, repetitions, input sets and checks), each named
 * by kernel and parameters, beside the call that names none: how close the library's choice comes to the
 * fastest way it knows of, and how the model's predictions compare with the clock. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "sgemm.h"

/* The record of runner `name` at the inputs' case, the last one made (NULL: none). */
static const gk_bench_record *runner_record(const gk_bench_report *report, const char *name, const gk_bench_record *like)
{
    for (size_t i = report->count; i-- > 0;) {
        const gk_bench_record *r = &report->records[i];
        if (strcmp(r->kind, "gemmkit") == 0 && strcmp(r->name, name) == 0 && strcmp(r->op, like->op) == 0 &&
            r->size.m == like->size.m && r->size.n == like->size.n && r->size.k == like->size.k &&
            strcmp(r->layout, like->layout) == 0 && strcmp(r->trans, like->trans) == 0)
            return r;
    }
    return NULL;
}

static double median_of(const gk_bench_record *r, const double *samples)
{
    return r->status == GK_BENCH_OK ? gk_bench_stats_of(samples, r->count).median : NAN;
}

/* The shape's entry with the default's (no kernel named) times from its record. */
static gk_bench_candidate_shape *begin_shape(gk_bench_session *s, gk_bench_candidates *c, const gk_bench_record *probe,
                                             const gk_runner *best, const gk_bench_inputs *in)
{
    gk_bench_candidate_shape *shape = gk_bench_candidates_add_shape(c);
    if (!shape) return NULL;
    const gk_sgemm_case *g = &in->kase.gemm;
    shape->size = (gk_bench_size){.m = g->m, .n = g->n, .k = g->k, .trans_a = g->trans_a, .trans_b = g->trans_b,
                                  .layout = g->layout};
    const gk_bench_record *def = runner_record(&s->report, best->name, probe);
    if (def) {
        snprintf(shape->default_kernel, sizeof shape->default_kernel, "%s", def->resolved);
        shape->default_ms = median_of(def, def->total_ms);
        shape->default_wall_ms = median_of(def, def->host_ms);
        if (def->status != GK_BENCH_OK)
            snprintf(shape->note, sizeof shape->note, "the default: %s: %.200s", gk_bench_status_name(def->status),
                     def->message);
    } else {
        snprintf(shape->note, sizeof shape->note, "the default was not measured");
    }
    return shape;
}

/* The model does not choose here: one row, the default as measured, with no prediction. */
static void default_alone(gk_bench_candidates *c, gk_bench_candidate_shape *shape, const gk_bench_record *def,
                          const char *why)
{
    gk_bench_candidate_row *row = gk_bench_candidates_add_row(c, shape);
    if (!row) return;
    snprintf(row->kernel, sizeof row->kernel, "%s", shape->default_kernel[0] ? shape->default_kernel : "-");
    snprintf(row->line, sizeof row->line, "-");
    row->splits = 0;
    row->measured_ms = shape->default_ms;
    row->wall_ms = shape->default_wall_ms;
    row->status = def ? def->status : GK_BENCH_ERROR;
    snprintf(row->message, sizeof row->message, "%s", why);
}

/* What the model says of a candidate, into its row. */
static void describe(const gk_sgemm_candidate *cand, int rank, gk_bench_candidate_row *row)
{
    row->rank = rank;
    snprintf(row->kernel, sizeof row->kernel, "%s", cand->choice.def ? cand->choice.def->name : "?");
    snprintf(row->line, sizeof row->line, "%s", cand->line[0] ? cand->line : row->kernel);
    snprintf(row->params, sizeof row->params, "%s", cand->params);
    row->splits = cand->splits > 0 ? cand->splits : 1;
    row->predicted_ms = cand->predicted_ms > 0.0 ? cand->predicted_ms : NAN;
}

/* One candidate timed on the uploaded inputs: its row. */
static void time_candidate(gk_bench_session *s, gk_runner *r, gk_bench_inputs *in, const gk_sgemm_candidate *cand,
                           int rank, gk_bench_candidate_row *row)
{
    describe(cand, rank, row);
    if (!cand->choice.def) {
        row->status = GK_BENCH_ERROR;
        snprintf(row->message, sizeof row->message, "the model gave no kernel");
        return;
    }
    /* Empty parameters: the kernel's own line, as the library resolves a named kernel. */
    gk_runner_gemmkit_set(r, row->kernel, row->params[0] ? row->params : NULL);
    gk_bench_record rec;
    gk_bench_record_fill(s, r, in, &rec);
    snprintf(rec.name, sizeof rec.name, "candidate");
    snprintf(rec.resolved, sizeof rec.resolved, "%.40s/s%d", row->line, row->splits);
    char err[GK_BENCH_ERR] = "";
    /* The last candidate's results must not pass for this one's. */
    if (gk_bench_poison_outputs(r, in, err)) {
        rec.status = gk_runner_unsupported_here(r) ? GK_BENCH_SKIPPED : GK_BENCH_ERROR;
        snprintf(rec.message, sizeof rec.message, "%s", err);
    } else {
        gk_bench_measure_uploaded(s, r, in, &rec);
    }
    /* Refused by this device or backend: it did not run, which is a failure of the candidate, not a choice. */
    row->status = rec.status == GK_BENCH_SKIPPED ? GK_BENCH_ERROR : rec.status;
    snprintf(row->message, sizeof row->message, "%s", rec.status == GK_BENCH_OK ? rec.note : rec.message);
    row->measured_ms = median_of(&rec, rec.total_ms);
    row->wall_ms = median_of(&rec, rec.host_ms);
    gk_bench_progress_record(s, &rec);
    free(rec.kernel_ms);
    free(rec.total_ms);
    free(rec.host_ms);
}

void gk_bench_candidates_measure(gk_bench_session *s, gk_bench_candidates *c, gk_bench_inputs *in,
                                 const gk_runner *best)
{
    gk_bench_record probe;
    gk_bench_record_fill(s, best, in, &probe);
    gk_bench_candidate_shape *shape = begin_shape(s, c, &probe, best, in);
    if (!shape) return;
    const gk_bench_record *def = runner_record(&s->report, best->name, &probe);
    /* Where --max-time's prediction skipped the default, the candidates would take as long: skipped too. */
    if (def && def->status == GK_BENCH_SKIPPED) {
        shape->skipped = 1;
        default_alone(c, shape, def, def->message);
        return;
    }
    gk_sgemm_problem p;
    if (!gk_bench_case_problem(s->ctx, &in->kase.gemm, &p)) {
        default_alone(c, shape, def, "the case does not prepare");
        return;
    }
    gk_sgemm_candidate *cands = malloc(GK_SGEMM_MAX_CANDIDATES * sizeof *cands);
    const int n = cands ? gk_sgemm_candidates_for(s->ctx, &p, cands, GK_SGEMM_MAX_CANDIDATES) : -1;
    if (n <= 0) {
        default_alone(c, shape, def, n < 0 ? "out of host memory for the candidates"
                                           : "the model does not choose for this call: the default alone");
        free(cands);
        return;
    }
    shape->chooses = 1;
    gk_bench_progress(s, "%d candidate%s of the cost model", n, n == 1 ? "" : "s");
    gk_runner *r = gk_runner_gemmkit(s->ctx, NULL, NULL);
    char err[GK_BENCH_ERR] = "";
    const int uploaded = r && gk_bench_upload(r, in, err) == 0;
    for (int i = 0; i < n; i++) {
        gk_bench_candidate_row *row = gk_bench_candidates_add_row(c, shape);
        if (!row) break;
        if (uploaded) {
            time_candidate(s, r, in, &cands[i], i, row);
        } else {
            describe(&cands[i], i, row);
            row->status = GK_BENCH_ERROR;
            snprintf(row->message, sizeof row->message, "inputs not uploaded: %.200s", r ? err : "out of host memory");
        }
    }
    if (r) r->destroy(r);
    free(cands);
}

void gk_bench_candidates_skip(gk_bench_candidates *c, const gk_bench_size *size, const char *why)
{
    gk_bench_candidate_shape *shape = gk_bench_candidates_add_shape(c);
    if (!shape) return;
    shape->size = *size;
    shape->skipped = 1;
    snprintf(shape->note, sizeof shape->note, "%s", why);
    gk_bench_candidate_row *row = gk_bench_candidates_add_row(c, shape);
    if (!row) return;
    snprintf(row->kernel, sizeof row->kernel, "-");
    snprintf(row->line, sizeof row->line, "-");
    row->status = GK_BENCH_SKIPPED;
    snprintf(row->message, sizeof row->message, "%s", why);
}
