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

/* How many of a variant's shapes the dispatch would run a candidate at (gk_tune_job_uses); NULL for the main line. */
typedef struct usage {
    const gk_tune_job *job;
    const gemmkit_device_info *info;
    gk_tuning_set *tuned; /* a working copy of the context's lines */
} usage;

/* The candidates this device can run, in a shuffled order (so that a
 * capped search still spreads over the space), at most `max` of them;
 * returns how many fit in all, or -1 when out of memory. For a variant
 * (u not NULL) only those that the dispatch would run at the most shapes
 * (the fallback rows leave out tiles that pad the shapes too much), counted
 * in *runs. */
static long fitting_candidates(const gk_kernel_def *def, const space *s, long total, const gemmkit_device_info *info,
                               const int64_t size[3], long max, usage *u, long **out, long *count, long *runs)
{
    long *order = malloc((size_t)total * sizeof *order);
    int *used = malloc((size_t)total * sizeof *used);
    if (!order || !used) {
        free(order);
        free(used);
        return -1;
    }
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
    int most = 0;
    for (long i = 0; i < total; i++) {
        char params[256];
        candidate(def, s, order[i], params, sizeof params);
        gk_config config;
        gk_geometry g;
        used[i] = -1;
        if (gk_config_resolve(def, params, &config) != GEMMKIT_SUCCESS ||
            gk_config_geometry(&config, size[0], size[1], size[2], &g) != GEMMKIT_SUCCESS ||
            gk_config_check_device(&config, &g, info) != GEMMKIT_SUCCESS)
            continue;
        fit++;
        used[i] = u ? gk_tune_job_uses(u->job, u->info, u->tuned, params) : 0;
        if (used[i] > most) most = used[i];
    }
    *count = *runs = 0;
    for (long i = 0; i < total; i++) {
        if (used[i] != most) continue;
        (*runs)++;
        if (*count < max) order[(*count)++] = order[i];
    }
    free(used);
    *out = order;
    return fit;
}

#define FINALISTS 3

typedef struct search_result {
    char best[FINALISTS][256]; /* the fastest correct candidates, best first */
    double best_score[FINALISTS], best_ms[FINALISTS];
    long timed;
    double seconds;
    int out_of_time;
} search_result;

/* Keeps the FINALISTS best scores. */
static void rank(search_result *r, const char *params, double score, double ms)
{
    int at = FINALISTS;
    while (at > 0 && score > r->best_score[at - 1]) at--;
    if (at == FINALISTS) return;
    for (int i = FINALISTS - 1; i > at; i--) {
        memcpy(r->best[i], r->best[i - 1], sizeof r->best[i]);
        r->best_score[i] = r->best_score[i - 1];
        r->best_ms[i] = r->best_ms[i - 1];
    }
    snprintf(r->best[at], sizeof r->best[at], "%s", params);
    r->best_score[at] = score;
    r->best_ms[at] = ms;
}

/* Times and verifies each candidate, keeping the fastest correct ones, until
 * the next one would, by the average so far, end past deadline_ms (0: none);
 * at least one is timed. */
static void search(gk_tune_target *t, const gk_kernel_def *def, const space *s, const long *candidates, long count,
                   int verbose, double deadline_ms, search_result *r)
{
    gk_tune_progress progress;
    gk_tune_progress_start(&progress, stderr, count);
    *r = (search_result){.timed = 0};
    for (long i = 0; i < count; i++) {
        /* Stop before a candidate that would end past the deadline, as the average one so far. */
        const double now = gk_bench_now_ms();
        if (i > 0 && deadline_ms > 0.0 && now + (now - progress.start_ms) / (double)i > deadline_ms) {
            r->out_of_time = 1;
            break;
        }
        char params[256];
        candidate(def, s, candidates[i], params, sizeof params);
        double ms = gk_tune_target_time(t, params);
        r->timed++;
        char check[256] = "", problem[300] = "";
        if (!(ms > 0.0)) snprintf(problem, sizeof problem, "failed: %s", gemmkit_last_error_message());
        else if (!gk_tune_target_verify(t, params, check, sizeof check))
            snprintf(problem, sizeof problem, "WRONG RESULT: %s", check);
        else
            rank(r, params, gk_tune_target_score(t, ms), ms);
        if (problem[0] || verbose) {
            gk_tune_progress_clear(&progress);
            if (problem[0]) fprintf(stderr, "  %-48s %s\n", params, problem);
            else fprintf(stderr, "  %-48s %9.3f ms %9.1f %s\n", params, ms, gk_tune_target_score(t, ms),
                         t->routine->unit);
        }
        gk_tune_progress_update(&progress, r->timed, r->best_score[0], t->routine->unit, r->best[0]);
    }
    gk_tune_progress_clear(&progress);
    r->seconds = gk_tune_progress_seconds(&progress);
}

/* The index of the best finalist, or -1 when none passed. A variant's
 * finalists run again on fresh inputs with NaN-poisoned outputs (an element
 * left unwritten shows), best first: the first to pass wins. */
static int final_winner(gk_tune_target *t, const search_result *r)
{
    for (int i = 0; i < FINALISTS && r->best_score[i] > 0.0; i++) {
        char check[256];
        if (!t->per_shape || gk_tune_target_final_check(t, r->best[i], check, sizeof check)) return i;
        fprintf(stderr, "  %-48s WRONG RESULT on fresh inputs: %s\n", r->best[i], check);
    }
    return -1;
}

/* What one job ended with, for the summary. */
typedef struct job_result {
    char line[160];   /* "xgemm-direct/narrow-n" */
    char params[256]; /* "" when nothing was saved */
    double score;
    char why[160];    /* when nothing was saved */
    const char *unit;
} job_result;

/* Searches one job, reports and saves; the arguments are checked. */
static int tune(const gk_cli *cli, gemmkit_context *ctx, const gk_tune_job *job, const gk_tune_args *args,
                const char *path, double deadline_ms, job_result *out)
{
    const gk_kernel_def *def = job->def;
    gemmkit_device_info info;
    gemmkit_context_device_info(ctx, &info);
    const gk_routine *routine = gk_routine_of(gk_kernel_op(def));
    gk_tune_target target;
    gemmkit_status status = job->variant
                                ? gk_tune_target_open_shapes(&target, ctx, def, (const int64_t(*)[3])job->shapes,
                                                             job->count, args->repeat)
                                : gk_tune_target_open(&target, ctx, def, job->n, args->repeat);
    if (status != GEMMKIT_SUCCESS) {
        gk_cli_report("allocating the tuning buffers", status);
        snprintf(out->why, sizeof out->why, "allocating the tuning buffers failed");
        return GK_EXIT_FAILED;
    }
    gk_case_label timed; /* the first timed case: the device must fit its geometry */
    routine->label(&target.cases[0], &timed);

    space s;
    parse_space(def, &s);
    long total = 1;
    for (int p = 0; p < s.params; p++) total *= s.counts[p];
    if (total > MAX_CANDIDATES * 16L) total = MAX_CANDIDATES * 16L;
    long *candidates = NULL, count = 0, runs = 0;
    gk_tuning_set *working = job->variant ? malloc(sizeof *working) : NULL;
    if (working) *working = ctx->tuned;
    usage u = {job, &info, working};
    long fit = job->variant && !working ? -1
                                        : fitting_candidates(def, &s, total, &info, timed.size, args->max_configs,
                                                             working ? &u : NULL, &candidates, &count, &runs);
    free(working);
    if (fit < 0) {
        gk_tune_target_release(&target);
        fprintf(stderr, "gemmkit tune: out of memory\n");
        snprintf(out->why, sizeof out->why, "out of memory");
        return GK_EXIT_FAILED;
    }
    printf("tuning %s on %s | %s at %s%s: %ld points in the space, %ld fit the device", out->line, info.platform,
           info.name, target.shapes, target.per_shape ? " (geometric mean)" : "", total, fit);
    if (job->variant && runs < fit) printf(", %ld of them run at the most shapes", runs);
    printf(", timing %ld\n", count);
    if (job->note[0]) printf("note: %s\n", job->note);
    fflush(stdout);
    search_result r;
    search(&target, def, &s, candidates, count, args->verbose, deadline_ms, &r);
    free(candidates);
    printf("%ld timed in %.1f s%s\n", r.timed, r.seconds, r.out_of_time ? " (stopped: its share of --max-time)" : "");
    const int winner = final_winner(&target, &r);
    gk_tune_target_release(&target);
    if (winner < 0) {
        fprintf(stderr, "gemmkit tune: no configuration ran correctly\n");
        snprintf(out->why, sizeof out->why, "no configuration ran correctly");
        return GK_EXIT_FAILED;
    }
    const double score = r.best_score[winner];
    const char *best = r.best[winner];
    if (target.per_shape)
        printf("best: %s  %.3f ms over the shapes  %.1f %s (geometric mean, %.1f%% of peak)\n", best,
               r.best_ms[winner], score, routine->unit, 100.0 * score / info.peak_gflops);
    else if (strcmp(routine->unit, "GFLOPS") == 0) /* comparable with the device's peak */
        printf("best: %s  %.3f ms  %.1f GFLOPS (%.1f%% of peak)\n", best, r.best_ms[winner], score,
               100.0 * score / info.peak_gflops);
    else
        printf("best: %s  %.3f ms  %.1f GB/s\n", best, r.best_ms[winner], score);
    snprintf(out->params, sizeof out->params, "%s", best);
    out->score = score;
    out->unit = target.per_shape ? "GFLOPS (geometric mean)" : routine->unit;
    if (!args->save) return GK_EXIT_OK;
    status = gk_tune_save(path, &info, def, job->variant, best, score);
    if (status != GEMMKIT_SUCCESS) {
        gk_cli_report("saving the result", status);
        snprintf(out->why, sizeof out->why, "saving failed: %s", gemmkit_last_error_message());
        out->params[0] = '\0';
        return GK_EXIT_FAILED;
    }
    gk_tuning_entry saved = {0};
    snprintf(saved.backend, sizeof saved.backend, "%s", info.backend);
    snprintf(saved.device, sizeof saved.device, "%s", info.name);
    snprintf(saved.kernel, sizeof saved.kernel, "%s", out->line);
    snprintf(saved.params, sizeof saved.params, "%s", best);
    gk_tune_remember(&ctx->tuned, &info, &saved);
    if (job->variant)
        gk_tune_print_variant_use(path, cli, def, job->variant, (const int64_t(*)[3])job->shapes, job->count);
    else
        gk_tune_print_saved(path, ctx, def, job->n);
    return GK_EXIT_OK;
}

/* One line per job of an --all-variants run. */
static void print_summary(const job_result *results, int count, const char *path, int saved)
{
    printf("\nsummary: %s%s\n", saved ? "lines saved to " : "best found (--no-save)", saved ? path : "");
    for (int i = 0; i < count; i++) {
        const job_result *r = &results[i];
        if (r->params[0]) printf("  %-40s %-44s %10.1f %s\n", r->line, r->params, r->score, r->unit);
        else printf("  %-40s not %s: %s\n", r->line, saved ? "saved" : "found", r->why);
    }
}

int gk_cmd_tune(const gk_cli *cli)
{
    gk_tune_args args;
    int parsed = gk_tune_parse_args(cli->argc, cli->argv, &args);
    if (parsed) return parsed < 0 ? GK_EXIT_OK : parsed;
    const double start_ms = gk_bench_now_ms();
    const gk_kernel_def *named = args.kernel ? gk_kernel_find(args.kernel) : NULL;
    if (args.kernel && (!named || gk_kernel_is_helper(named)))
        return gk_cli_usage_error("tune", "no SGEMM or transpose kernel named \"%s\" (gemmkit list)", args.kernel);
    if (named && gk_kernel_op(named) != GK_OP_SGEMM && args.size == 1)
        return gk_cli_usage_error("tune", "transposes need --size 2 or more");
    char path_buffer[1024];
    const char *path = args.db ? args.db : gk_tuning_path(path_buffer, sizeof path_buffer);
    if (args.calibrate && args.show) return gk_tune_calibrate(cli, &args, path); /* reads path, writes nothing */
    if (args.save && !path)
        return gk_cli_usage_error("tune", "no HOME or XDG_CACHE_HOME for the default database: give --db FILE or "
                                          "--no-save");
    if (args.save && !gk_tune_database_usable(path)) return GK_EXIT_FAILED;
    if (args.blas_threshold) return gk_tune_blas_threshold(cli, &args, args.save ? path : NULL);
    if (args.calibrate) return gk_tune_calibrate(cli, &args, args.save ? path : NULL);
    gemmkit_context *ctx = gk_cli_open(cli);
    if (!ctx) return GK_EXIT_FAILED;
    gk_tune_job jobs[GK_TUNE_MAX_JOBS];
    job_result results[GK_TUNE_MAX_JOBS];
    memset(results, 0, sizeof results);
    int count = 0, exit_code = gk_tune_plan(&args, &ctx->info, named, jobs, &count);
    if (!exit_code && named && !gk_kernel_runs_on(named, ctx->ops->bit))
        exit_code = gk_cli_usage_error("tune", "kernel %s needs the CUDA backend (gemmkit --backend cuda tune ...)",
                                       named->name);
    if (exit_code) count = 0;
    for (int i = 0; i < count; i++) {
        gk_tune_job *job = &jobs[i];
        const double now = gk_bench_now_ms();
        /* This job's share of what is left of --max-time. */
        const double deadline = args.max_seconds > 0.0
                                    ? now + (start_ms + args.max_seconds * 1000.0 - now) / (count - i) : 0.0;
        job_result *r = &results[i];
        const int resolved = gk_tune_job_resolve(job, &ctx->info, &ctx->tuned, named);
        snprintf(r->line, sizeof r->line, "%s%s%s", job->def ? job->def->name : "(none)", job->variant ? "/" : "",
                 job->variant ? job->variant : "");
        int code = GK_EXIT_FAILED;
        if (resolved != 0) {
            snprintf(r->why, sizeof r->why, "%s", job->note);
            printf("skipping %s: %s\n", job->variant ? job->variant : "the main line", job->note);
        } else {
            if (i > 0) printf("\n");
            code = tune(cli, ctx, job, &args, path, deadline, r);
        }
        /* A job that fails fails the command, but the jobs after it still run; a variant without
         * shapes for this device class is only listed. */
        if (code != GK_EXIT_OK && !(resolved != 0 && job->count == 0 && args.all_variants)) exit_code = GK_EXIT_FAILED;
    }
    if (args.all_variants && count > 0) print_summary(results, count, path, args.save);
    gemmkit_context_destroy(ctx);
    return exit_code;
}
