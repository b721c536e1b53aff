/* `gemmkit bench --transpose`: times every transpose and copy variant on
 * device buffers (device time of the kernel through options.kernel_ms, a
 * warm-up first, the median of repeats), prints GB/s (bytes read + bytes
 * written) next to the best copy at the same size, and checks every result
 * exactly against A. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "registry.h"

#define MAX_SIZES 64
#define MAX_VARIANTS 32
#define REFERENCE_COPY "copy-fast" /* timed beside a single named transpose */

typedef struct shape {
    int64_t rows, cols;
} shape;

typedef struct bench_options {
    const char *kernel; /* NULL = every variant */
    const char *params;
    shape sizes[MAX_SIZES];
    int size_count;
    int repeat;
} bench_options;

typedef struct result {
    const gk_kernel_def *def;
    const char *params;
    gemmkit_status status;
    char error[256];
    double median_ms, gbs;
    int64_t wrong; /* elements that differ from the reference */
} result;

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int add_size(bench_options *o, int64_t rows, int64_t cols)
{
    if (rows <= 0 || cols <= 0 || o->size_count >= MAX_SIZES) return 0;
    o->sizes[o->size_count++] = (shape){rows, cols};
    return 1;
}

/* "4000,4096,5001x3007": square sizes or ROWSxCOLS. */
static int parse_sizes(const char *text, bench_options *o)
{
    o->size_count = 0;
    for (const char *p = text; *p;) {
        char *end = NULL;
        long long rows = strtoll(p, &end, 10), cols = rows;
        if (end == p) return 0;
        if (*end == 'x') {
            p = end + 1;
            cols = strtoll(p, &end, 10);
            if (end == p) return 0;
        }
        if (!add_size(o, rows, cols) || (*end && *end != ',')) return 0;
        p = *end ? end + 1 : end;
    }
    return o->size_count > 0;
}

/* "FROM:TO:STEP": square sizes, to look for performance cliffs. */
static int parse_sweep(const char *text, bench_options *o)
{
    long long from = 0, to = 0, step = 0;
    if (sscanf(text, "%lld:%lld:%lld", &from, &to, &step) != 3 || from <= 0 || to < from || step <= 0) return 0;
    o->size_count = 0;
    for (long long n = from; n <= to; n += step)
        if (!add_size(o, n, n)) return 0;
    return 1;
}

static int is_variant(const gk_kernel_def *def)
{
    return (def->op == GK_OP_TRANSPOSE || def->op == GK_OP_COPY) && !(def->flags & GK_FLAG_HELPER);
}

/* Elements of B that are not exactly A (copy) or A^T (transpose); alpha is 1. */
static int64_t count_wrong(const gk_kernel_def *def, shape s, const float *a, const float *b)
{
    int64_t wrong = 0;
    if (def->op == GK_OP_COPY) {
        for (size_t i = 0; i < (size_t)(s.rows * s.cols); i++) wrong += !(b[i] == a[i]);
        return wrong;
    }
    for (int64_t r = 0; r < s.rows; r++) /* B's column r is A's row r */
        for (int64_t c = 0; c < s.cols; c++) wrong += !(b[c + r * s.cols] == a[r + c * s.rows]);
    return wrong;
}

static void run_variant(gemmkit_context *ctx, const bench_options *o, shape s, gemmkit_buffer *da, gemmkit_buffer *db,
                        const float *a, float *b, double *samples, result *out)
{
    const gk_kernel_def *def = out->def;
    const size_t count = (size_t)(s.rows * s.cols);
    const int trans = def->op == GK_OP_TRANSPOSE;
    double kernel_ms = 0.0;
    const gemmkit_options options = {.kernel = def->name, .params = out->params, .kernel_ms = &kernel_ms};
    gk_fill_value(b, count, NAN); /* poison: every element must be written */
    gemmkit_status status = gemmkit_buffer_write(ctx, db, 0, count, b);
    for (int r = -1; r < o->repeat && status == GEMMKIT_SUCCESS; r++) { /* r == -1: warm-up, compiles */
        status = gemmkit_somatcopy_buffers(ctx, &options, GEMMKIT_COL_MAJOR, trans ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS,
                                           s.rows, s.cols, 1.0f, da, 0, s.rows, db, 0, trans ? s.cols : s.rows);
        if (r >= 0) samples[r] = kernel_ms;
    }
    if (status == GEMMKIT_SUCCESS) status = gemmkit_buffer_read(ctx, db, 0, count, b);
    out->status = status;
    if (status != GEMMKIT_SUCCESS) {
        snprintf(out->error, sizeof out->error, "%s: %s", gemmkit_strerror(status), gemmkit_last_error_message());
        return;
    }
    qsort(samples, (size_t)o->repeat, sizeof *samples, compare_double);
    out->median_ms = samples[o->repeat / 2];
    out->gbs = 2.0 * (double)count * sizeof(float) / (out->median_ms * 1e6);
    out->wrong = count_wrong(def, s, a, b);
}

/* Times every chosen variant at one size and prints its rows; returns the failures. */
static int bench_size(gemmkit_context *ctx, const bench_options *o, shape s, gk_rng *rng)
{
    const size_t count = (size_t)(s.rows * s.cols);
    float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b);
    double *samples = calloc((size_t)o->repeat, sizeof *samples);
    gemmkit_buffer *da = NULL, *db = NULL;
    result results[MAX_VARIANTS];
    int n = 0, failures = 0;
    gemmkit_status status = GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    if (a && b && samples) {
        gk_fill_random(rng, a, count);
        status = gemmkit_buffer_create(ctx, count, &da);
        if (!status) status = gemmkit_buffer_create(ctx, count, &db);
        if (!status) status = gemmkit_buffer_write(ctx, da, 0, count, a);
    }
    if (status != GEMMKIT_SUCCESS) {
        printf("%5lldx%-6lld %s: %s\n", (long long)s.rows, (long long)s.cols, gemmkit_strerror(status),
               gemmkit_last_error_message());
        failures = 1;
        goto done;
    }
    const gk_kernel_def *named = o->kernel ? gk_kernel_find(o->kernel) : NULL;
    for (size_t k = 0; k < gk_kernel_count() && n < MAX_VARIANTS; k++) {
        const gk_kernel_def *def = gk_kernel_at(k);
        if (!is_variant(def)) continue;
        if (named && def != named) { /* one kernel: with the library's copy as the reference */
            if (named->op == GK_OP_COPY || strcmp(def->name, REFERENCE_COPY) != 0) continue;
        }
        results[n] = (result){.def = def, .params = def == named ? o->params : NULL};
        run_variant(ctx, o, s, da, db, a, b, samples, &results[n++]);
    }
    double copy_gbs = 0.0; /* the best verified copy at this size */
    for (int i = 0; i < n; i++)
        if (results[i].def->op == GK_OP_COPY && !results[i].status && !results[i].wrong && results[i].gbs > copy_gbs)
            copy_gbs = results[i].gbs;
    for (int i = 0; i < n; i++) {
        const result *r = &results[i];
        printf("%5lldx%-6lld %-28s ", (long long)s.rows, (long long)s.cols, r->def->name);
        if (r->status) {
            printf("%9s %9s %7s  %s\n", "-", "-", "-", r->error);
            failures += r->status != GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE;
            continue;
        }
        char share[16] = "-";
        if (copy_gbs > 0.0) snprintf(share, sizeof share, "%.1f%%", 100.0 * r->gbs / copy_gbs);
        char check[64] = "ok";
        if (r->wrong) snprintf(check, sizeof check, "WRONG: %lld elements differ", (long long)r->wrong);
        printf("%9.4f %9.1f %7s  %s\n", r->median_ms, r->wrong ? 0.0 : r->gbs, share, check);
        failures += r->wrong != 0;
    }
    fflush(stdout);
done:
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    free(a);
    free(b);
    free(samples);
    return failures;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: gemmkit bench --transpose [--kernel NAME] [--params P=V,...] [--sizes N|RxC,...]\n"
                 "                                 [--sweep FROM:TO:STEP] [--repeat R]\n"
                 "Times every transpose and copy variant on column-major A, B = A^T or B = A; or NAME\n"
                 "(with --params) beside " REFERENCE_COPY ", the copy reference.\n");
}

int gk_bench_transpose_legacy(const gk_cli *cli, int argc, char **argv)
{
    bench_options o = {.repeat = 10};
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--transpose") == 0) continue;
        if (strcmp(arg, "--help") == 0) {
            usage(stdout);
            return GK_EXIT_OK;
        }
        int ok = value != NULL;
        if (ok && strcmp(arg, "--kernel") == 0) o.kernel = strcmp(value, "all") == 0 ? NULL : value;
        else if (ok && strcmp(arg, "--params") == 0) o.params = value;
        else if (ok && strcmp(arg, "--sizes") == 0) ok = parse_sizes(value, &o);
        else if (ok && strcmp(arg, "--sweep") == 0) ok = parse_sweep(value, &o);
        else if (ok && strcmp(arg, "--repeat") == 0) ok = (o.repeat = atoi(value)) >= 1 && o.repeat <= 10000;
        else ok = 0;
        if (!ok) {
            fprintf(stderr, "gemmkit bench: bad, unknown or incomplete argument %s%s%s\n", arg, value ? " " : "",
                    value ? value : "");
            usage(stderr);
            return GK_EXIT_USAGE;
        }
        i++;
    }
    if (o.kernel) {
        const gk_kernel_def *def = gk_kernel_find(o.kernel);
        if (!def || !is_variant(def)) {
            fprintf(stderr, "gemmkit bench: no transpose or copy kernel named \"%s\" (see gemmkit list)\n", o.kernel);
            return GK_EXIT_USAGE;
        }
    } else if (o.params) {
        fprintf(stderr, "gemmkit bench: --params needs --kernel NAME (the variants have different parameters)\n");
        return GK_EXIT_USAGE;
    }
    gemmkit_context *ctx = gk_cli_open(cli);
    if (!ctx) return GK_EXIT_FAILED;
    gemmkit_device_info info;
    gemmkit_context_device_info(ctx, &info);
    if (o.size_count == 0) {
        if (info.is_gpu) {
            static const shape gpu[] = {{4000, 4000}, {4096, 4096}, {8192, 8192}, {16384, 16384}, {5001, 3007}};
            for (size_t i = 0; i < sizeof gpu / sizeof gpu[0]; i++) add_size(&o, gpu[i].rows, gpu[i].cols);
        } else {
            add_size(&o, 1024, 1024);
            add_size(&o, 1000, 777);
        }
    }
    printf("device: %s | %s (driver %s)\n", info.platform, info.name, info.driver_version);
    printf("B = A^T (transpose) and B = A (copy), column-major float32, alpha = 1; GB/s = (bytes read + bytes\n"
           "written) / device time of the kernel, median of %d runs after a warm-up; %%copy: against the best\n"
           "copy at that size; every result checked exactly\n\n",
           o.repeat);
    printf("%-12s %-28s %9s %9s %7s  %s\n", "size", "kernel", "ms", "GB/s", "%copy", "check");
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    int failures = 0;
    for (int s = 0; s < o.size_count; s++) failures += bench_size(ctx, &o, o.sizes[s], &rng);
    gemmkit_context_destroy(ctx);
    return failures ? GK_EXIT_FAILED : GK_EXIT_OK;
}
