/* The SGEMM benchmark: which runners time each size (the host baseline,
 * gemmkit's kernels, on a CPU device gemmkit on host arrays, the peers) and the header's note on the kernel; the
 * measurement itself is the routine-independent bench_measure.c. */
#include <string.h>

#include "batched.h"
#include "bench.h"
#include "registry.h"
#include "sgemm.h"
#include "tuning.h"

enum { MAX_KERNELS = 256 }; /* gemmkit's runners of one run */

static void baseline(gk_bench_session *s, const gk_bench_inputs *in)
{
    gk_bench_record *rec = gk_bench_report_add(&s->report);
    if (!rec) return;
    gk_bench_size size = GK_BENCH_SIZE(in->kase.gemm.m, in->kase.gemm.n, in->kase.gemm.k);
    /* About a second per size in all, at most a quarter of it per timed slice. */
    double budget = 1.25 / s->args->repeat;
    budget = budget > 0.25 ? 0.25 : budget < 0.05 ? 0.05 : budget;
    gk_bench_host_baseline(&size, s->args->repeat, budget, &s->rng, rec);
    gk_bench_progress_record(s, rec);
}

/* A named kernel's runner per --params line given more than once: KERNEL#1, KERNEL#2, ... on the same inputs. */
static int add_line_runners(gk_bench_session *s, const gk_kernel_def *def, gk_runner **runners,
                            const gk_kernel_def **defs, int count, int max)
{
    for (int i = 0; i < s->args->param_line_count && count < max; i++) {
        const char *line = s->args->param_lines[i];
        gk_runner *r = gk_runner_gemmkit(s->ctx, def->name, line);
        if (!r) break;
        snprintf(r->name, sizeof r->name, "%s#%d", def->name, i + 1);
        snprintf(r->label, sizeof r->label, "gemmkit %s #%d: %s", def->name, i + 1, line);
        runners[count] = r;
        defs[count++] = def;
    }
    return count;
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
        if (gk_kernel_op(def) != (s->args->batch ? GK_OP_SGEMM_BATCHED : GK_OP_SGEMM) || gk_kernel_is_helper(def))
            continue;
        if (strcmp(want, "all") != 0 && strcmp(want, def->name) != 0) continue;
        if (s->args->param_line_count > 1) {
            count = add_line_runners(s, def, runners, defs, count, max);
            continue;
        }
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
    char *note = s->report.kernel_note, why[200], params[640];
    const size_t len = sizeof s->report.kernel_note;
    if (strcmp(want, "all") == 0) {
        snprintf(note, len, "kernels: every %sSGEMM kernel of the registry, in ladder order (--kernel all)",
                 s->args->batch ? "batched " : "");
        return;
    }
    if (s->args->batch && strcmp(want, "best") == 0) {
        snprintf(note, len, "kernel: the library's choice per shape for a batch of %lld (policy.tsv, gemm_batched "
                 "rows; \"sgemm\": one plain SGEMM plan per matrix)", (long long)s->args->batch);
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
            snprintf(why, sizeof why, "the library's choice at 4096^3 on this device; each shape's own choice is in "
                     "the kernel column (on GPUs the cost model's, `bench --candidates` times the others)");
    } else {
        def = gk_kernel_find(want);
        if (!def) return;
        snprintf(why, sizeof why, "named by --kernel");
    }
    const gk_tuned *tuned = gk_tuning_find(&s->ctx->tuned, def->name);
    static const char *const level[] = {[GK_TUNING_VENDOR] = "this vendor's devices",
                                        [GK_TUNING_ARCH] = "this architecture",
                                        [GK_TUNING_DEVICE] = "this device"};
    char db[256];
    if (s->args->param_line_count > 1) {
        size_t used = 0;
        for (int i = 0; i < s->args->param_line_count && used < sizeof params; i++)
            used += (size_t)snprintf(params + used, sizeof params - used, "%s#%d %s", i ? "; " : "", i + 1,
                                     s->args->param_lines[i]);
        if (used < sizeof params) snprintf(params + used, sizeof params - used, " (--params, one runner each)");
    } else if (s->args->params && strcmp(want, "best") != 0)
        snprintf(params, sizeof params, "%s (--params)", s->args->params);
    else if (tuned && tuned->level != GK_TUNING_NO_MATCH && tuned->builtin)
        snprintf(params, sizeof params, "%s, tuned for %s (\"%s\" in the built-in tuning database)",
                 tuned->line.params, level[tuned->level], tuned->line.device);
    else if (tuned && tuned->level != GK_TUNING_NO_MATCH)
        snprintf(params, sizeof params, "%s, tuned for %s (\"%s\" in the tuning database: %s, over the built-in one)",
                 tuned->line.params, level[tuned->level], tuned->line.device, gk_tuning_path(db, sizeof db));
    else
        snprintf(params, sizeof params, "registry defaults (no tuning for this device)");
    snprintf(note, len, "kernel: %s (%s); parameters: %s", def->name, why, params);
}

/* The kernel the batched routine picks for a size, as the record's resolved name, and its parameters (the
 * kernel's or the policy variant's tuning line, else the registry's defaults) into params, for the record's note. */
static const char *batched_choice(const gk_bench_session *s, const gk_bench_size *size, char *params, size_t len)
{
    const int rm = size->layout == GEMMKIT_ROW_MAJOR;
    const gk_batched_choice c = gk_batched_choose(gk_policy_builtin(), &s->ctx->info, &s->ctx->tuned,
                                                  rm ? size->n : size->m, rm ? size->m : size->n, size->k,
                                                  s->args->batch);
    if (c.def) snprintf(params, len, "line: %.200s", c.config.options);
    return c.def ? c.def->name : GK_POLICY_PER_MATRIX;
}

/* Memory-bound sizes are judged in bytes: the last record's GB/s moved, in its note. */
static void note_bandwidth(gk_bench_session *s)
{
    gk_bench_record *rec = s->report.count ? &s->report.records[s->report.count - 1] : NULL;
    if (!rec || rec->bytes <= 0.0 || rec->status != GK_BENCH_OK) return;
    const double ms = gk_bench_stats_of(rec->total_ms, rec->count).median;
    if (!(ms > 0.0)) return;
    const size_t used = strlen(rec->note);
    snprintf(rec->note + used, sizeof rec->note - used, "%s%.1f GB/s moved (A, B read and C written once)",
             used ? "; " : "", rec->bytes / ms * 1e-6);
}

/* Whether --max-time's prediction skips every runner at this case (never on a first size: nothing predicts it). */
static int all_too_slow(gk_bench_session *s, gk_runner *const *runners, int count, const gk_bench_inputs *shell)
{
    gk_bench_record probe;
    for (int i = 0; i < count; i++) {
        memset(&probe, 0, sizeof probe);
        snprintf(probe.name, sizeof probe.name, "%s", runners[i]->name);
        probe.work = shell->routine->work(&shell->kase);
        if (!gk_bench_too_slow(s, &probe)) return 0;
    }
    return count > 0;
}

/* A shape every runner would skip is not worth its inputs (a random shape's take up to 8 GiB): each
 * runner's record says skipped, without them. 1 when it was skipped so. */
static int skip_without_inputs(gk_bench_session *s, gk_runner **kernels, int nk, gk_runner *host_call,
                               const gk_routine *routine, const gk_case *kase)
{
    gk_runner *all[MAX_KERNELS + 1 + GK_BENCH_MAX_RUNNERS];
    int count = 0;
    for (int k = 0; k < nk; k++) all[count++] = kernels[k];
    if (host_call) all[count++] = host_call;
    for (int p = 0; p < s->peer_count; p++)
        if (gk_runner_runs(s->peers[p], routine)) all[count++] = s->peers[p];
    const gk_bench_inputs shell = {.routine = routine, .kase = *kase};
    if (!all_too_slow(s, all, count, &shell)) return 0;
    if (s->args->baseline && !s->args->batch) baseline(s, &shell);
    for (int i = 0; i < count; i++) {
        gk_bench_record *rec = gk_bench_record_add(s, all[i], &shell);
        if (!rec) continue;
        gk_bench_too_slow(s, rec);
        gk_bench_progress_record(s, rec);
    }
    return 1;
}

/* --json and --candidates-out written again after each shape (atomically, as at the end), so that a run cut short
 * keeps the shapes it timed; a failure here is reported by the write at the end. */
static void save_outputs_so_far(const gk_bench_session *s, int candidates)
{
    char err[GK_BENCH_ERR];
    if (s->args->json_path) (void)gk_bench_write_json(&s->report, s->args->json_path, err);
    if (candidates && s->args->candidates_out)
        (void)gk_bench_write_candidates(&s->candidates, s->args->candidates_out, err);
}

void gk_bench_sgemm(gk_bench_session *s)
{
    explain_kernel(s);
    gk_runner *kernels[MAX_KERNELS];
    const gk_kernel_def *defs[MAX_KERNELS];
    int nk = make_kernel_runners(s, kernels, defs, MAX_KERNELS);
    /* On a CPU device, "best" also runs as a program calls it: host arrays, which the library routes to the
     * CPU BLAS (best-host); "best" itself measures the device's kernels on device buffers. */
    gk_runner *host_call = NULL;
    if (strcmp(s->args->kernel, "best") == 0 && !s->args->batch && !s->info.is_gpu)
        host_call = gk_runner_gemmkit_host(s->ctx);
    const int cuda = strcmp(s->info.backend, "cuda") == 0;
    for (int z = 0; z < s->args->size_count; z++) {
        /* This shape's own transposes and layout, else the run's. */
        const gk_bench_size one = gk_bench_size_resolve(s->args, &s->args->sizes[z]), *size = &one;
        gk_case kase;
        const gk_routine *routine = s->args->batch ? &gk_routine_gemm_batched : &gk_routine_gemm;
        routine->case_of((const int64_t[3]){size->m, size->n, size->k}, size->layout, size->trans_a, size->trans_b,
                         &kase);
        if (s->args->batch) kase.batched = gk_batched_tight(kase.batched.one, s->args->batch);
        /* --candidates runs with --kernel best alone: kernels[0] is the library's choice. */
        const int candidates = s->args->candidates && nk > 0 && !defs[0];
        if (skip_without_inputs(s, kernels, nk, host_call, routine, &kase)) {
            if (candidates) gk_bench_candidates_skip(&s->candidates, size, "skipped by --max-time's prediction");
            continue;
        }
        gk_bench_inputs in;
        if (gk_bench_inputs_make(s, routine, &kase, &in)) {
            if (candidates) gk_bench_candidates_skip(&s->candidates, size, "no host memory for the inputs");
            continue;
        }
        if (s->args->baseline && !s->args->batch) baseline(s, &in);
        for (int k = 0; k < nk; k++) {
            if (defs[k] && !gk_kernel_runs_on(defs[k], GK_BACKEND_BIT_OPENCL) && !cuda) {
                gk_bench_record *rec = gk_bench_record_add(s, kernels[k], &in);
                if (!rec) continue;
                rec->status = GK_BENCH_SKIPPED;
                snprintf(rec->message, sizeof rec->message, "needs the CUDA backend (--backend cuda)");
                continue;
            }
            const char *resolved = NULL;
            char line[GK_BENCH_ERR] = "";
            if (!defs[k] && s->args->batch) resolved = batched_choice(s, size, line, sizeof line);
            else if (!defs[k]) /* the kernel the public SGEMM picks for this case, in the context's math mode
                                  (bench --math sets it) */
                resolved = gk_case_default_kernel(s->ctx, &kase.gemm);
            gk_bench_measure(s, kernels[k], &in, resolved);
            if (line[0] && s->report.count) { /* which line ran, before the bandwidth note */
                gk_bench_record *rec = &s->report.records[s->report.count - 1];
                const size_t used = strlen(rec->note);
                snprintf(rec->note + used, sizeof rec->note - used, "%s%s", used ? "; " : "", line);
            }
            note_bandwidth(s);
        }
        if (candidates) gk_bench_candidates_measure(s, &s->candidates, &in, kernels[0]);
        if (host_call) {
            const char *route = gk_host_call_route(s->ctx, &kase.gemm);
            /* Routed, the library reports the CPU BLAS call's wall time as its kernel and call times. */
            host_call->wall_clock = route != NULL;
            gk_bench_measure(s, host_call, &in, route ? route : gk_case_default_kernel(s->ctx, &kase.gemm));
        }
        for (int p = 0; p < s->peer_count; p++)
            if (gk_runner_runs(s->peers[p], routine)) {
                gk_bench_measure(s, s->peers[p], &in, NULL);
                note_bandwidth(s);
            }
        gk_bench_inputs_free(&in);
        save_outputs_so_far(s, candidates);
    }
    for (int k = 0; k < nk; k++) kernels[k]->destroy(kernels[k]);
    if (host_call) host_call->destroy(host_call);
}
