/* `gemmkit bench`: times SGEMM kernels on device buffers with profiling
 * events (compilation and a warm-up outside the timing), takes the median,
 * and checks every result against the reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "registry.h"

#define MAX_SIZES 32

typedef struct bench_args {
    const char *kernel;
    const char *params;
    int64_t sizes[MAX_SIZES];
    int size_count;
    int repeat;
} bench_args;

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int parse_sizes(const char *text, bench_args *args)
{
    args->size_count = 0;
    for (const char *p = text; *p;) {
        char *end = NULL;
        long v = strtol(p, &end, 10);
        if (end == p || v <= 0 || args->size_count >= MAX_SIZES) return 0;
        args->sizes[args->size_count++] = v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return 0;
    }
    return args->size_count > 0;
}

typedef struct bench_result {
    double median_ms, min_ms, max_ms;
    double gflops;
    int verified;
    char message[256];
} bench_result;

static gemmkit_status bench_one(gemmkit_context *ctx, const gemmkit_options *base, int64_t n, int repeat,
                                gk_rng *rng, bench_result *out)
{
    size_t count = (size_t)(n * n);
    float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b), *c = malloc(count * sizeof *c);
    gemmkit_buffer *da = NULL, *db = NULL, *dc = NULL;
    double *samples = calloc((size_t)repeat, sizeof *samples);
    gemmkit_status status = GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    if (!a || !b || !c || !samples) goto done;
    gk_fill_random(rng, a, count);
    gk_fill_random(rng, b, count);
    gk_fill_value(c, count, NAN);
    if ((status = gemmkit_buffer_create(ctx, count, &da)) || (status = gemmkit_buffer_create(ctx, count, &db)) ||
        (status = gemmkit_buffer_create(ctx, count, &dc)))
        goto done;
    if ((status = gemmkit_buffer_write(ctx, da, 0, count, a)) || (status = gemmkit_buffer_write(ctx, db, 0, count, b)) ||
        (status = gemmkit_buffer_write(ctx, dc, 0, count, c)))
        goto done;
    gemmkit_options options = *base;
    double kernel_ms = 0.0;
    options.kernel_ms = &kernel_ms;
    for (int r = -1; r < repeat; r++) { /* r == -1: warm-up, compiles the kernels */
        status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n,
                                       1.0f, da, 0, n, db, 0, n, 0.0f, dc, 0, n);
        if (status != GEMMKIT_SUCCESS) goto done;
        if (r >= 0) samples[r] = kernel_ms;
    }
    if ((status = gemmkit_buffer_read(ctx, dc, 0, count, c))) goto done;
    qsort(samples, (size_t)repeat, sizeof *samples, compare_double);
    out->median_ms = samples[repeat / 2];
    out->min_ms = samples[0];
    out->max_ms = samples[repeat - 1];
    out->gflops = 2.0 * (double)n * n * n / (out->median_ms * 1e6);
    gk_sgemm_case kase = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f, 0.0f, n, n, n};
    float *c0 = malloc(count * sizeof *c0);
    gk_check_result check;
    if (!c0) {
        status = GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
        goto done;
    }
    gk_fill_value(c0, count, NAN);
    gk_check_sgemm_sampled(&kase, a, b, c0, c, 256, rng, &check);
    free(c0);
    out->verified = check.passed;
    snprintf(out->message, sizeof out->message, "%s", check.message);
done:
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    gemmkit_buffer_destroy(dc);
    free(a);
    free(b);
    free(c);
    free(samples);
    return status;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: gemmkit bench [--kernel NAME|all|best] [--params P=V,...] [--sizes N,N,...] [--repeat R]\n"
                 "       gemmkit bench --transpose [options]   (transposes and copies; --transpose --help)\n");
}

int gk_cmd_bench(const gk_cli *cli)
{
    for (int i = 0; i < cli->argc; i++)
        if (strcmp(cli->argv[i], "--transpose") == 0) return gk_bench_transpose(cli, cli->argc, cli->argv);
    bench_args args = {"best", NULL, {0}, 0, 5};
    for (int i = 0; i < cli->argc; i++) {
        const char *arg = cli->argv[i];
        const char *value = i + 1 < cli->argc ? cli->argv[i + 1] : NULL;
        if (strcmp(arg, "--help") == 0) {
            usage(stdout);
            return GK_EXIT_OK;
        } else if (strcmp(arg, "--kernel") == 0 && value) {
            args.kernel = value;
            i++;
        } else if (strcmp(arg, "--params") == 0 && value) {
            args.params = value;
            i++;
        } else if (strcmp(arg, "--sizes") == 0 && value) {
            if (!parse_sizes(value, &args)) {
                fprintf(stderr, "gemmkit bench: bad --sizes \"%s\" (positive integers, comma separated)\n", value);
                return GK_EXIT_USAGE;
            }
            i++;
        } else if (strcmp(arg, "--repeat") == 0 && value) {
            args.repeat = atoi(value);
            if (args.repeat < 1 || args.repeat > 10000) {
                fprintf(stderr, "gemmkit bench: --repeat must be between 1 and 10000\n");
                return GK_EXIT_USAGE;
            }
            i++;
        } else {
            fprintf(stderr, "gemmkit bench: unknown or incomplete argument %s\n", arg);
            usage(stderr);
            return GK_EXIT_USAGE;
        }
    }
    const int all = strcmp(args.kernel, "all") == 0, best = strcmp(args.kernel, "best") == 0;
    if (!all && !best) {
        const gk_kernel_def *def = gk_kernel_find(args.kernel);
        if (!def || def->op != GK_OP_SGEMM || (def->flags & GK_FLAG_HELPER)) {
            fprintf(stderr, "gemmkit bench: no SGEMM kernel named \"%s\" (see gemmkit list)\n", args.kernel);
            return GK_EXIT_USAGE;
        }
    }
    gemmkit_context *ctx = gk_cli_open(cli);
    if (!ctx) return GK_EXIT_FAILED;
    gemmkit_device_info info;
    gemmkit_context_device_info(ctx, &info);
    if (args.size_count == 0) {
        static const int64_t gpu_sizes[] = {1024, 2048, 4096}, cpu_sizes[] = {256, 512};
        const int64_t *s = info.is_gpu ? gpu_sizes : cpu_sizes;
        args.size_count = info.is_gpu ? 3 : 2;
        memcpy(args.sizes, s, (size_t)args.size_count * sizeof *s);
    }
    printf("device: %s | %s (driver %s)\n", info.platform, info.name, info.driver_version);
    printf("fp32 peak estimate: %.0f GFLOPS = %d units x %d lanes x 2 flops x %d MHz\n", info.peak_gflops,
           info.compute_units, info.lanes_per_unit, info.clock_mhz);
    printf("SGEMM C = A*B, column-major, square n; device time of the main kernel, median of %d runs\n\n",
           args.repeat);
    printf("%-28s %7s %10s %10s %7s  %s\n", "kernel", "n", "ms", "GFLOPS", "%peak", "check");
    uint64_t seed = gk_rng_fresh_seed();
    gk_rng rng;
    gk_rng_seed(&rng, seed);
    int failures = 0;
    for (size_t k = 0; k < (best ? 1 : gk_kernel_count()); k++) {
        const gk_kernel_def *def = best ? NULL : gk_kernel_at(k);
        if (def && (def->op != GK_OP_SGEMM || (def->flags & GK_FLAG_HELPER))) continue;
        if (def && !all && strcmp(def->name, args.kernel) != 0) continue;
        gemmkit_options options = {.kernel = def ? def->name : NULL, .params = args.params};
        for (int s = 0; s < args.size_count; s++) {
            bench_result r = {0};
            gemmkit_status status = bench_one(ctx, &options, args.sizes[s], args.repeat, &rng, &r);
            const char *name = def ? def->name : "best (library default)";
            if (status != GEMMKIT_SUCCESS) {
                printf("%-28s %7lld %10s %10s %7s  %s: %s\n", name, (long long)args.sizes[s], "-", "-", "-",
                       gemmkit_strerror(status), gemmkit_last_error_message());
                if (status != GEMMKIT_ERROR_UNSUPPORTED_BACKEND) failures++;
                continue;
            }
            printf("%-28s %7lld %10.3f %10.1f %6.1f%%  %s\n", name, (long long)args.sizes[s], r.median_ms,
                   r.verified ? r.gflops : 0.0, r.verified ? 100.0 * r.gflops / info.peak_gflops : 0.0,
                   r.verified ? "ok" : r.message);
            fflush(stdout);
            failures += !r.verified;
        }
    }
    gemmkit_context_destroy(ctx);
    return failures ? GK_EXIT_FAILED : GK_EXIT_OK;
}
