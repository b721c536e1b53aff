/* `gemmkit tune --blas-threshold` (tune.h): where the BLAS drop-in should
 * start sending calls to this device. For square n = 64, 128, ... it times
 * what the drop-in would do on each side with host arrays, as a BLAS caller
 * has them: gemmkit_sgemm_ex with device_only (the copies in and out
 * included) against the CPU BLAS the library routes CPU work to
 * (host_blas.h), each the median of --repeat calls after a warm-up, both
 * results checked on sampled elements against float64. The threshold is
 * the n^3 of the smallest n from which the device won at every larger size
 * measured ("inf" when it did not win at the largest), saved as the device's
 * blas-threshold line (tuning.h), score = the device's GFLOPS at that n (at
 * the largest n measured for "inf"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "check.h"
#include "cli.h"
#include "host_blas.h"
#include "tune.h"
#include "tuning.h"

#define DEFAULT_MAX_N 4096
#define FIRST_N 64
#define MAX_SIZES 16
#define SAMPLES 64

typedef struct size_row {
    int64_t n;
    double cpu_ms, device_ms;
} size_row;

/* The median of `repeat` timed calls after one warm-up call; < 0 when the device call fails. */
static double time_side(int device, gemmkit_context *ctx, const gk_host_blas *blas, int64_t n, const float *a,
                        const float *b, float *c, int repeat, gemmkit_status *status)
{
    const gemmkit_options on_device = {.device_only = 1};
    double ms[64];
    for (int r = -1; r < repeat; r++) {
        const double start = gk_bench_now_ms();
        if (device) {
            *status = gemmkit_sgemm_ex(ctx, &on_device, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n,
                                       n, 1.0f, a, n, b, n, 0.0f, c, n);
            if (*status != GEMMKIT_SUCCESS) return -1.0;
        } else {
            gk_host_blas_sgemm(blas, 0, 0, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n); /* n fits 32 bits */
        }
        if (r >= 0) ms[r] = gk_bench_now_ms() - start;
    }
    return gk_bench_stats_of(ms, repeat).median;
}

/* Times and checks one size; 0, or an exit status after a message. */
static int measure(gemmkit_context *ctx, const gk_host_blas *blas, gemmkit_math math, int64_t n, int repeat,
                   gk_rng *rng, size_row *row)
{
    gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f, 0.0f, 0, 0, 0};
    gk_case_complete(&c);
    const size_t count = (size_t)n * (size_t)n;
    float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b), *c0 = malloc(count * sizeof *c0),
          *out[2] = {malloc(count * sizeof(float)), malloc(count * sizeof(float))};
    int code = GK_EXIT_OK;
    if (!a || !b || !c0 || !out[0] || !out[1]) {
        fprintf(stderr, "gemmkit tune: out of host memory for n = %lld\n", (long long)n);
        code = GK_EXIT_FAILED;
    }
    for (int device = 0; device < 2 && code == GK_EXIT_OK; device++) {
        if (device == 0) gk_case_fill_inputs(&c, rng, a, b, c0); /* C0 NaN: beta = 0 must not read it */
        memcpy(out[device], c0, count * sizeof(float));
        gemmkit_status status = GEMMKIT_SUCCESS;
        const double ms = time_side(device, ctx, blas, n, a, b, out[device], repeat, &status);
        if (ms < 0.0) {
            gk_cli_report("the device's SGEMM", status);
            code = GK_EXIT_FAILED;
            break;
        }
        *(device ? &row->device_ms : &row->cpu_ms) = ms;
        gk_check_result check;
        gk_check_sgemm_sampled_math(&c, device ? math : GEMMKIT_MATH_FP32, a, b, c0, out[device], SAMPLES, rng,
                                    &check);
        if (!check.passed) {
            fprintf(stderr, "gemmkit tune: WRONG RESULT from the %s at n = %lld: %s\n",
                    device ? "device" : "CPU BLAS", (long long)n, check.message);
            code = GK_EXIT_FAILED;
        }
    }
    row->n = n;
    free(a);
    free(b);
    free(c0);
    free(out[0]);
    free(out[1]);
    return code;
}

/* The CPU BLAS the drop-in would use in this process, or NULL after saying why there is none. */
static const gk_host_blas *cpu_blas(void)
{
    const gk_host_blas *blas = gk_host_blas_find();
    if (blas) return blas;
    const char *named = getenv("GEMMKIT_CPU_BLAS_LIB");
    fprintf(stderr,
            "gemmkit tune: --blas-threshold needs a CPU BLAS to time, and there is none (%s). Without one the "
            "drop-in's CPU calls run gemmkit's own loop, which lives in libgemmkit_blas, not in this command; "
            "install OpenBLAS or BLIS, or name a library with GEMMKIT_CPU_BLAS_LIB\n",
            named && strcmp(named, "builtin") == 0
                ? "GEMMKIT_CPU_BLAS_LIB=builtin"
                : "looked for: GEMMKIT_CPU_BLAS_LIB, libopenblas.so.0, libblis.so.4, an optimised libblas.so.3");
    return NULL;
}

int gk_tune_blas_threshold(const struct gk_cli *cli, const gk_tune_args *args, const char *path)
{
    const double start_ms = gk_bench_now_ms();
    const gk_host_blas *blas = cpu_blas();
    if (!blas) return GK_EXIT_FAILED;
    gemmkit_context *ctx = gk_cli_open(cli);
    if (!ctx) return GK_EXIT_FAILED;
    gemmkit_device_info info;
    gemmkit_context_device_info(ctx, &info);
    gemmkit_math math = GEMMKIT_MATH_FP32;
    gemmkit_context_get_math(ctx, &math);
    int64_t max_n = FIRST_N; /* the largest n = 64 * 2^i within --size */
    while (max_n * 2 <= (args->size ? args->size : DEFAULT_MAX_N)) max_n *= 2;
    printf("measuring the BLAS drop-in's threshold on %s | %s (%s)\n", info.platform, info.name, info.backend);
    printf("  device: gemmkit_sgemm_ex on host arrays, copies in and out included (%s math)\n",
           gemmkit_math_name(math));
    printf("  CPU:    %s%s\n", blas->name, blas->optimised ? "" : " (not known to be an optimised BLAS)");
    printf("  square n x n x n column-major SGEMM, alpha 1, beta 0, n = %d ... %lld; median of %d after a warm-up; "
           "%d sampled elements of each result checked against float64\n",
           FIRST_N, (long long)max_n, args->repeat, SAMPLES);
    printf("%8s %12s %12s  %s\n", "n", "cpu ms", "device ms", "faster");
    fflush(stdout);
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    size_row rows[MAX_SIZES];
    int count = 0, wins_in_a_row = 0, code = GK_EXIT_OK;
    const char *stopped = "";
    double last_ms = 0.0;
    for (int64_t n = FIRST_N; n <= max_n && count < MAX_SIZES; n *= 2) {
        /* The next size does 8 times the work: do not start one that would end past --max-time. */
        const double now = gk_bench_now_ms();
        if (count > 0 && args->max_seconds > 0.0 && now + 8.0 * last_ms > start_ms + args->max_seconds * 1000.0) {
            stopped = " (stopped: --max-time)";
            break;
        }
        code = measure(ctx, blas, math, n, args->repeat, &rng, &rows[count]);
        if (code != GK_EXIT_OK) break;
        last_ms = gk_bench_now_ms() - now;
        const size_row *r = &rows[count++];
        const int device_won = r->device_ms < r->cpu_ms;
        printf("%8lld %12.4f %12.4f  %s\n", (long long)n, r->cpu_ms, r->device_ms, device_won ? "device" : "cpu");
        fflush(stdout);
        wins_in_a_row = device_won ? wins_in_a_row + 1 : 0;
        if (wins_in_a_row == 2) {
            stopped = " (stopped: the device won twice in a row)";
            break;
        }
    }
    gemmkit_context_destroy(ctx);
    if (code != GK_EXIT_OK) return code;
    /* The smallest n from which the device won at every larger size measured. */
    int from = count;
    while (from > 0 && rows[from - 1].device_ms < rows[from - 1].cpu_ms) from--;
    const size_row *at = from < count ? &rows[from] : &rows[count - 1];
    const double n3 = (double)at->n * (double)at->n * (double)at->n;
    const double score = 2.0 * n3 / (at->device_ms * 1e6); /* the device's GFLOPS there */
    gk_tuning_entry e = {0};
    snprintf(e.backend, sizeof e.backend, "%s", info.backend);
    snprintf(e.device, sizeof e.device, "%s", info.name);
    snprintf(e.kernel, sizeof e.kernel, "%s", GK_TUNING_BLAS_THRESHOLD);
    if (from < count) {
        snprintf(e.params, sizeof e.params, "%s=%.0f", GK_TUNING_BLAS_THRESHOLD_PARAM, n3);
        printf("threshold: %s multiply-adds (n = %lld^3): the device was faster at n = %lld and every larger n "
               "measured, up to %lld%s\n",
               e.params, (long long)at->n, (long long)at->n, (long long)rows[count - 1].n, stopped);
    } else {
        snprintf(e.params, sizeof e.params, "%s=inf", GK_TUNING_BLAS_THRESHOLD_PARAM);
        printf("threshold: %s: the CPU BLAS was faster at n = %lld, the largest measured%s; the drop-in keeps every "
               "call on the CPU\n",
               e.params, (long long)at->n, stopped);
    }
    if (!path) {
        printf("not saved (--no-save)\n");
        return GK_EXIT_OK;
    }
    e.gflops = score;
    time_t now = time(NULL);
    strftime(e.date, sizeof e.date, "%Y-%m-%d", gmtime(&now));
    gemmkit_status status = gk_tuning_save(path, &e);
    if (status != GEMMKIT_SUCCESS) {
        gk_cli_report("saving the result", status);
        return GK_EXIT_FAILED;
    }
    char read_buffer[1024];
    const char *read = gk_tuning_path(read_buffer, sizeof read_buffer);
    printf("saved to %s (score: the device's GFLOPS at n = %lld); the BLAS drop-in uses it on this device when "
           "GEMMKIT_BLAS_THRESHOLD is not set%s%s\n",
           path, (long long)at->n, read && strcmp(read, path) == 0 ? "" : " and GEMMKIT_TUNING_DB=",
           read && strcmp(read, path) == 0 ? "" : path);
    return GK_EXIT_OK;
}
