/* `gemmkit bench --transpose`: B = A^T and B = A (copy) for every transpose
 * and copy variant and each peer's omatcopy (cuBLAS geam, CLBlast omatcopy):
 * which runners time each size; the measurement is bench_measure.c's, as for
 * SGEMM (shared input sets rotated, a warm-up, the median of repeats), in GB/s
 * (bytes read + written), every result exact. */
#include <string.h>

#include "bench.h"
#include "registry.h"
#include "transpose.h"
#include "tuning.h"

#define REFERENCE_COPY "copy-fast" /* timed beside a single named transpose: %copy needs a copy */
enum { MAX_KERNELS = 64 };

/* The kernel gemmkit_somatcopy runs for the case (the policy's omatcopy rows) as the record's resolved name, and
 * its parameters (the tuning line, else the registry's defaults) in its note, so that a run says which line ran. */
static const char *omatcopy_choice(const gk_bench_session *s, const gk_omatcopy_case *c, char *params, size_t len)
{
    const int rm = c->layout == GEMMKIT_ROW_MAJOR;
    const gk_transpose_problem p = {c->trans != GEMMKIT_NO_TRANS, rm ? c->cols : c->rows, rm ? c->rows : c->cols,
                                    c->alpha, {NULL, c->offset_a, c->lda}, {NULL, c->offset_b, c->ldb}};
    const gk_kernel_def *def = gk_omatcopy_choose(gk_policy_builtin(), &s->ctx->info, &p);
    const gk_tuned *tuned = gk_tuning_find(&s->ctx->tuned, def->name);
    snprintf(params, len, "line: %.200s", tuned && tuned->level != GK_TUNING_NO_MATCH ? tuned->line.params
                                                                                    : "registry defaults");
    return def->name;
}

/* The inputs serve a transpose and a copy alike (A and a poisoned B of as
 * many elements, tight): the case only says which one runs. */
static void measure(gk_bench_inputs *in, gk_bench_session *s, gk_runner *r, const gk_case *c)
{
    in->kase = *c;
    char params[GK_BENCH_ERR] = "";
    const int best = strcmp(r->kind, "gemmkit") == 0 && strcmp(r->name, "best") == 0;
    gk_bench_measure(s, r, in, best ? omatcopy_choice(s, &c->omatcopy, params, sizeof params) : NULL);
    gk_bench_record *rec = s->report.count ? &s->report.records[s->report.count - 1] : NULL;
    if (!best || !rec) return;
    const size_t used = strlen(rec->note);
    snprintf(rec->note + used, sizeof rec->note - used, "%s%s", used ? "; " : "", params);
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
        gk_case kase[2]; /* copy, transpose: the same A */
        for (int t = 0; t < 2; t++)
            gk_routine_omatcopy.case_of((const int64_t[3]){size->m, size->n, 0}, s->args->layout,
                                        t ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, &kase[t]);
        gk_bench_inputs in;
        if (gk_bench_inputs_make(s, &gk_routine_omatcopy, &kase[1], &in)) continue;
        for (int k = 0; k < nk; k++) measure(&in, s, kernels[k], &kase[transposes[k]]);
        /* Each peer's transpose and copy. Runners that round their inputs are SGEMM
         * precision modes (cublas-tf32): a transpose has none, so they would repeat. */
        for (int p = 0; p < s->peer_count; p++) {
            gk_runner *r = s->peers[p];
            if (!gk_runner_runs(r, &gk_routine_omatcopy) || r->input_rounding > 0.0) continue;
            measure(&in, s, r, &kase[1]);
            measure(&in, s, r, &kase[0]);
        }
        gk_bench_inputs_free(&in);
    }
    for (int k = 0; k < nk; k++) kernels[k]->destroy(kernels[k]);
    return GK_EXIT_OK;
}
