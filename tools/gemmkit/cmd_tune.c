/* `gemmkit tune`: searches a kernel's parameter space (the registry's
 * `choices`, filtered by its constraints and the device's limits), times
 * every candidate with device events, verifies the winner, and stores it in
 * the per-device tuning database that the library reads at context creation.
 * By default it tunes the SGEMM kernel the library runs on the device.
 * What is timed and checked (from the routine's descriptor): tune_target.h; the
 * options and the progress display: tune.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "check.h"
#include "cli.h"
#include "context.h"
#include "kernel_config.h"
#include "sgemm.h"
#include "tune.h"
#include "tune_target.h"
#include "tuning.h"

#define MAX_CHOICES 16
#define MAX_CANDIDATES 4096

typedef struct space {
    int params;
    int counts[GK_MAX_PARAMS];
    int values[GK_MAX_PARAMS][MAX_CHOICES];
} space;

static void parse_space(const gk_kernel_def *def, space *s)
{
    s->params = 0;
    for (int p = 0; p < GK_MAX_PARAMS && def->params[p].name; p++) {
        s->counts[p] = 0;
        for (const char *c = def->params[p].choices; c && *c && s->counts[p] < MAX_CHOICES;) {
            s->values[p][s->counts[p]++] = (int)strtol(c, (char **)&c, 10);
            while (*c == ',' || *c == ' ') c++;
        }
        if (s->counts[p] == 0) s->values[p][s->counts[p]++] = def->params[p].default_value;
        s->params++;
    }
}

/* The i-th point of the cartesian product as "A=1,B=2". */
static void candidate(const gk_kernel_def *def, const space *s, long index, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int p = 0; p < s->params; p++) {
        int v = s->values[p][index % s->counts[p]];
        index /= s->counts[p];
        used += (size_t)snprintf(out + used, size - used, "%s%s=%d", p ? "," : "", def->params[p].name, v);
    }
}

/* The candidates this device can run, in a shuffled order (so that a
 * capped search still spreads over the space), at most `max` of them;
 * returns how many fit in all, or -1 when out of memory. */
static long fitting_candidates(const gk_kernel_def *def, const space *s, long total, const gemmkit_device_info *info,
                               const int64_t size[3], long max, long **out, long *count)
{
    long *order = malloc((size_t)total * sizeof *order);
    if (!order) return -1;
    gk_rng shuffle;
    gk_rng_seed(&shuffle, 12345);
    for (long i = 0; i < total; i++) order[i] = i;
    for (long i = total - 1; i > 0; i--) {
        long j = (long)((gk_rng_uniform(&shuffle) * 0.5f + 0.5f) * (float)(i + 1)) % (i + 1);
        long t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    long fit = 0;
    *count = 0;
    for (long i = 0; i < total; i++) {
        char params[256];
        candidate(def, s, order[i], params, sizeof params);
        gk_config config;
        gk_geometry g;
        if (gk_config_resolve(def, params, &config) != GEMMKIT_SUCCESS ||
            gk_config_geometry(&config, size[0], size[1], size[2], &g) != GEMMKIT_SUCCESS ||
            gk_config_check_device(&config, &g, info) != GEMMKIT_SUCCESS)
            continue;
        fit++;
        if (*count < max) order[(*count)++] = order[i];
    }
    *out = order;
    return fit;
}

typedef struct search_result {
    char best[256];
    double best_ms;
    long timed;
    double seconds;
} search_result;

/* Times and verifies each candidate, keeping the fastest correct one. */
static void search(gk_tune_target *t, const gk_kernel_def *def, const space *s, const long *candidates, long count,
                   int verbose, search_result *r)
{
    gk_tune_progress progress;
    gk_tune_progress_start(&progress, stderr, count);
    *r = (search_result){.best = ""};
    for (long i = 0; i < count; i++) {
        char params[256];
        candidate(def, s, candidates[i], params, sizeof params);
        double ms = gk_tune_target_time(t, params);
        r->timed++;
        char check[256] = "", problem[300] = "";
        if (!(ms > 0.0)) snprintf(problem, sizeof problem, "failed: %s", gemmkit_last_error_message());
        else if (!gk_tune_target_verify(t, params, check, sizeof check))
            snprintf(problem, sizeof problem, "WRONG RESULT: %s", check);
        else if (r->best_ms == 0.0 || ms < r->best_ms) {
            r->best_ms = ms;
            snprintf(r->best, sizeof r->best, "%s", params);
        }
        if (problem[0] || verbose) {
            gk_tune_progress_clear(&progress);
            if (problem[0]) fprintf(stderr, "  %-48s %s\n", params, problem);
            else fprintf(stderr, "  %-48s %9.3f ms %9.1f %s\n", params, ms, t->work / (ms * 1e6), t->routine->unit);
        }
        gk_tune_progress_update(&progress, r->timed, r->best_ms > 0.0 ? t->work / (r->best_ms * 1e6) : 0.0, t->routine->unit,
                                r->best);
    }
    gk_tune_progress_clear(&progress);
    r->seconds = gk_tune_progress_seconds(&progress);
}

/* Searches, reports and saves; the arguments are checked. */
static int tune(gemmkit_context *ctx, const gk_kernel_def *def, const gk_tune_args *args, const char *path)
{
    gemmkit_device_info info;
    gemmkit_context_device_info(ctx, &info);
    const gk_routine *routine = gk_routine_of(gk_kernel_op(def));
    const int64_t n = args->size ? args->size : routine->tune_size(info.is_gpu, args->small);
    gk_tune_target target;
    gemmkit_status status = gk_tune_target_open(&target, ctx, def, n, args->repeat);
    if (status != GEMMKIT_SUCCESS) {
        gk_cli_report("allocating the tuning buffers", status);
        return GK_EXIT_FAILED;
    }
    gk_case_label timed; /* the first timed case: the device must fit its geometry */
    routine->label(&target.cases[0], &timed);

    space s;
    parse_space(def, &s);
    long total = 1;
    for (int p = 0; p < s.params; p++) total *= s.counts[p];
    if (total > MAX_CANDIDATES * 16L) total = MAX_CANDIDATES * 16L;
    long *candidates = NULL, count = 0;
    long fit = fitting_candidates(def, &s, total, &info, timed.size, args->max_configs, &candidates, &count);
    if (fit < 0) {
        gk_tune_target_release(&target);
        fprintf(stderr, "gemmkit tune: out of memory\n");
        return GK_EXIT_FAILED;
    }
    printf("tuning %s on %s | %s at %s: %ld points in the space, %ld fit the device, timing %ld\n", def->name,
           info.platform, info.name, target.shapes, total, fit, count);
    fflush(stdout);
    search_result r;
    search(&target, def, &s, candidates, count, args->verbose, &r);
    free(candidates);
    gk_tune_target_release(&target);
    printf("%ld timed in %.1f s\n", r.timed, r.seconds);
    if (r.best_ms == 0.0) {
        fprintf(stderr, "gemmkit tune: no configuration ran correctly\n");
        return GK_EXIT_FAILED;
    }
    const double score = target.work / (r.best_ms * 1e6);
    if (strcmp(routine->unit, "GFLOPS") == 0) /* comparable with the device's peak */
        printf("best: %s  %.3f ms  %.1f GFLOPS (%.1f%% of peak)\n", r.best, r.best_ms, score,
               100.0 * score / info.peak_gflops);
    else
        printf("best: %s  %.3f ms  %.1f GB/s\n", r.best, r.best_ms, score);
    if (!args->save) return GK_EXIT_OK;
    status = gk_tune_save(path, &info, def, args->small, r.best, score);
    if (status != GEMMKIT_SUCCESS) {
        gk_cli_report("saving the result", status);
        return GK_EXIT_FAILED;
    }
    gk_tune_print_saved(path, ctx, def, n, args->small);
    return GK_EXIT_OK;
}

int gk_cmd_tune(const gk_cli *cli)
{
    gk_tune_args args;
    int parsed = gk_tune_parse_args(cli->argc, cli->argv, &args);
    if (parsed) return parsed < 0 ? GK_EXIT_OK : parsed;
    const gk_kernel_def *def = args.kernel ? gk_kernel_find(args.kernel) : NULL;
    if (args.kernel && (!def || gk_kernel_is_helper(def)))
        return gk_cli_usage_error("tune", "no SGEMM or transpose kernel named \"%s\" (gemmkit list)", args.kernel);
    if (def && gk_kernel_op(def) != GK_OP_SGEMM && args.small)
        return gk_cli_usage_error("tune", "--small is for SGEMM kernels");
    if (def && gk_kernel_op(def) != GK_OP_SGEMM && args.size == 1)
        return gk_cli_usage_error("tune", "transposes need --size 2 or more");
    char path_buffer[1024];
    const char *path = args.db ? args.db : gk_tuning_path(path_buffer, sizeof path_buffer);
    if (args.save && !path)
        return gk_cli_usage_error("tune", "no HOME or XDG_CACHE_HOME for the default database: give --db FILE or "
                                          "--no-save");
    if (args.save && !gk_tune_database_usable(path)) return GK_EXIT_FAILED;
    gemmkit_context *ctx = gk_cli_open(cli);
    if (!ctx) return GK_EXIT_FAILED;
    if (!def) { /* what the library runs at the size tuned */
        const int64_t n = args.size ? args.size : gk_routine_of(GK_OP_SGEMM)->tune_size(ctx->info.is_gpu, args.small);
        def = gk_sgemm_fast_kernel(ctx, n);
    }
    int exit_code;
    if (!gk_kernel_runs_on(def, ctx->ops->bit))
        exit_code = gk_cli_usage_error("tune", "kernel %s needs the CUDA backend (gemmkit --backend cuda tune ...)",
                                       def->name);
    else
        exit_code = tune(ctx, def, &args, path);
    gemmkit_context_destroy(ctx);
    return exit_code;
}
