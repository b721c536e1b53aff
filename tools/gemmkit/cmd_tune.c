/* `gemmkit tune`: searches a kernel's parameter space (the registry's
 * `choices`, filtered by its constraints and the device's limits), times
 * every candidate with device events, verifies the winner, and stores it in
 * the per-device tuning database that the library reads at context creation.
 * What is timed and checked for SGEMM or transposes: tune_target.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "check.h"
#include "cli.h"
#include "context.h"
#include "kernel_config.h"
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

double gk_tune_time_calls(gk_tune_target *t, const char *params, int64_t size, gk_tune_call run)
{
    double ms = 0.0, samples[64];
    const gemmkit_options options = {.kernel = t->kernel, .params = params, .kernel_ms = &ms};
    for (int r = -1; r < t->repeat; r++) {
        if (run(t, &options, size) != GEMMKIT_SUCCESS) return -1.0;
        if (r >= 0) samples[r] = ms;
    }
    return gk_bench_stats_of(samples, t->repeat).median;
}

int gk_cmd_tune(const gk_cli *cli)
{
    const char *kernel = "xgemm";
    int64_t n = 0;
    int repeat = 3, save = 1, small = 0;
    long max_configs = 400;
    char path_buffer[1024];
    const char *path = NULL;
    for (int i = 0; i < cli->argc; i++) {
        const char *arg = cli->argv[i], *value = i + 1 < cli->argc ? cli->argv[i + 1] : NULL;
        if (strcmp(arg, "--kernel") == 0 && value) kernel = cli->argv[++i];
        else if (strcmp(arg, "--size") == 0 && value) n = atol(cli->argv[++i]);
        else if (strcmp(arg, "--repeat") == 0 && value) repeat = atoi(cli->argv[++i]);
        else if (strcmp(arg, "--max-configs") == 0 && value) max_configs = atol(cli->argv[++i]);
        else if (strcmp(arg, "--db") == 0 && value) path = cli->argv[++i];
        else if (strcmp(arg, "--no-save") == 0) save = 0;
        else if (strcmp(arg, "--small") == 0) small = 1;
        else {
            fprintf(stderr, "usage: gemmkit tune [--kernel NAME] [--size N] [--repeat R] [--max-configs C] "
                            "[--db FILE] [--no-save] [--small]\n"
                            "  --small: save as KERNEL/small, used for problems that the main entry's tiles\n"
                            "           would spread over fewer work-groups than the device has compute units\n");
            return GK_EXIT_USAGE;
        }
    }
    const gk_kernel_def *def = gk_kernel_find(kernel);
    if (!def || gk_kernel_is_helper(def)) {
        fprintf(stderr, "gemmkit tune: no SGEMM or transpose kernel named \"%s\" (gemmkit list)\n", kernel);
        return GK_EXIT_USAGE;
    }
    const int sgemm = gk_kernel_op(def) == GK_OP_SGEMM;
    if (small && !sgemm) {
        fprintf(stderr, "gemmkit tune: --small is for SGEMM kernels\n");
        return GK_EXIT_USAGE;
    }
    if (repeat < 1 || repeat > 64 || max_configs < 1 || n < 0 || (!sgemm && n == 1)) {
        fprintf(stderr, "gemmkit tune: --repeat must be 1..64, --max-configs and --size positive "
                        "(at least 2 for transposes)\n");
        return GK_EXIT_USAGE;
    }
    if (!path) path = gk_tuning_path(path_buffer, sizeof path_buffer);
    gemmkit_context *ctx = gk_cli_open(cli);
    if (!ctx) return GK_EXIT_FAILED;
    gemmkit_device_info info;
    gemmkit_context_device_info(ctx, &info);
    if (n == 0 && sgemm) n = small ? (info.is_gpu ? 1024 : 128) : (info.is_gpu ? 4096 : 512);
    if (n == 0 && !sgemm) n = info.is_gpu ? 8192 : 1024;

    space s;
    parse_space(def, &s);
    long total = 1;
    for (int p = 0; p < s.params; p++) total *= s.counts[p];
    if (total > MAX_CANDIDATES * 16L) total = MAX_CANDIDATES * 16L;

    gk_tune_target target;
    gemmkit_status status = sgemm ? gk_tune_target_sgemm(&target, ctx, kernel, n, repeat)
                                  : gk_tune_target_transpose(&target, ctx, kernel, n, repeat);
    if (status != GEMMKIT_SUCCESS) {
        gk_cli_report("allocating the tuning buffers", status);
        gemmkit_context_destroy(ctx);
        return GK_EXIT_FAILED;
    }
    int exit_code = GK_EXIT_FAILED;
    printf("tuning %s on %s | %s at %s: %ld points in the space, at most %ld timed\n", kernel, info.platform,
           info.name, target.shapes, total, max_configs);
    char best[256] = "";
    double best_ms = 0.0;
    long timed = 0, rejected = 0;
    /* Visit the space in a shuffled order, so a capped search still spreads out. */
    long *order = malloc((size_t)total * sizeof *order);
    if (!order) goto done;
    gk_rng shuffle;
    gk_rng_seed(&shuffle, 12345);
    for (long i = 0; i < total; i++) order[i] = i;
    for (long i = total - 1; i > 0; i--) {
        long j = (long)((gk_rng_uniform(&shuffle) * 0.5f + 0.5f) * (float)(i + 1)) % (i + 1);
        long t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (long i = 0; i < total && timed < max_configs; i++) {
        char params[256];
        candidate(def, &s, order[i], params, sizeof params);
        gk_config config;
        gk_geometry g;
        if (gk_config_resolve(def, params, &config) != GEMMKIT_SUCCESS ||
            gk_config_geometry(&config, n, n, sgemm ? n : 0, &g) != GEMMKIT_SUCCESS ||
            gk_config_check_device(&config, &g, &info) != GEMMKIT_SUCCESS) {
            rejected++;
            continue;
        }
        double ms = target.time(&target, params);
        timed++;
        if (!(ms > 0.0)) {
            fprintf(stderr, "  %-48s failed: %s\n", params, gemmkit_last_error_message());
            continue;
        }
        char message[256];
        if (!target.verify(&target, params, message, sizeof message)) {
            fprintf(stderr, "  %-48s WRONG RESULT: %s\n", params, message);
            continue;
        }
        fprintf(stderr, "  %-48s %9.3f ms %9.1f %s\n", params, ms, target.work / (ms * 1e6), target.unit);
        if (best_ms == 0.0 || ms < best_ms) {
            best_ms = ms;
            snprintf(best, sizeof best, "%s", params);
        }
    }
    free(order);
    printf("%ld timed, %ld rejected by constraints or device limits\n", timed, rejected);
    if (best_ms == 0.0) {
        fprintf(stderr, "gemmkit tune: no configuration ran correctly\n");
        goto done;
    }
    const double best_score = target.work / (best_ms * 1e6);
    if (sgemm)
        printf("best: %s  %.3f ms  %.1f GFLOPS (%.1f%% of peak)\n", best, best_ms, best_score,
               100.0 * best_score / info.peak_gflops);
    else
        printf("best: %s  %.3f ms  %.1f GB/s\n", best, best_ms, best_score);
    exit_code = GK_EXIT_OK;
    if (save && path) {
        gk_tuning_entry e = {0};
        snprintf(e.backend, sizeof e.backend, "%s", info.backend);
        snprintf(e.device, sizeof e.device, "%s", info.name);
        snprintf(e.kernel, sizeof e.kernel, "%s%s", kernel, small ? "/small" : "");
        snprintf(e.params, sizeof e.params, "%s", best);
        e.gflops = best_score;
        time_t now = time(NULL);
        strftime(e.date, sizeof e.date, "%Y-%m-%d", gmtime(&now));
        gemmkit_status status = gk_tuning_save(path, &e);
        if (status != GEMMKIT_SUCCESS) {
            gk_cli_report("saving the result", status);
            exit_code = GK_EXIT_FAILED;
        } else {
            printf("saved to %s (used by every new context on this device)\n", path);
        }
    }
done:
    target.release(&target);
    gemmkit_context_destroy(ctx);
    return exit_code;
}
