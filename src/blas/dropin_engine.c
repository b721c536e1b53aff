/* The drop-in's engine: reads the GEMMKIT_BLAS_* settings, keeps one lazily
 * created process-wide context, and sends each validated call to the CPU
 * (small, trivial, or no device) or to the device (falling back on failure).
 * "Small": below GEMMKIT_BLAS_THRESHOLD, else below the device's measured
 * threshold (the tuning database's blas-threshold line), else the default.
 * CPU work goes to the host's CPU BLAS (host_blas.h), else gemmkit's own
 * threaded loop. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blas_dropin.h"
#include "env_cache.h"
#include "host_blas.h"

/* ---- settings: read at every call, so a program may change them as it runs
 * (through a per-thread cache, env_cache.h: a few comparisons while they stay) */

/* Both settings as this thread last read them, and this thread's counters;
 * one thread-local block, so that a call looks its address up once. */
typedef struct settings {
    gk_env_cache threshold_env, verbose_env;
    /* Calls of fewer multiply-adds run on the CPU without a look at the
     * device: GEMMKIT_BLAS_THRESHOLD when the user set it (then final), else
     * lowest_threshold() (a bound below every device's threshold; the
     * device's own is known once its context exists, try_device). */
    double threshold;
    int explicit_threshold; /* the user chose it (a usable GEMMKIT_BLAS_THRESHOLD) */
    int verbose;
    gk_blas_stats stats;
} settings;

/* Without GEMMKIT_BLAS_THRESHOLD the threshold is the device's measured
 * line (tuning database or built-in, `gemmkit tune --blas-threshold`), else
 * the default; both known only once the device is opened. A call below the
 * lowest line any device has (and below the default) needs no device to be
 * decided, so a program of small calls opens none, as before measured lines
 * existed: read once per process, from the files, without a device. */
static pthread_once_t lowest_once = PTHREAD_ONCE_INIT;
static double lowest;

static void find_lowest(void)
{
    const double measured = gemmkit_blas_threshold_lowest();
    lowest = measured < GK_BLAS_DEFAULT_THRESHOLD ? measured : GK_BLAS_DEFAULT_THRESHOLD;
}

static double lowest_threshold(void)
{
    pthread_once(&lowest_once, find_lowest);
    return lowest;
}

static void read_threshold(settings *s, const char *env)
{
    static atomic_int warned;
    s->explicit_threshold = 0;
    if (env && *env) {
        char *end = NULL;
        const double v = strtod(env, &end);
        if (*end == '\0' && v >= 0.0 && !isnan(v)) {
            s->threshold = v, s->explicit_threshold = 1;
            return;
        }
        if (!atomic_exchange(&warned, 1))
            fprintf(stderr, "gemmkit-blas: ignoring GEMMKIT_BLAS_THRESHOLD=\"%s\" (expected a number >= 0); using the "
                            "device's measured threshold, else %.0f\n",
                    env, GK_BLAS_DEFAULT_THRESHOLD);
    }
    s->threshold = lowest_threshold();
}

static settings *current_settings(void)
{
    static _Thread_local settings s;
    int changed;
    const char *env = gk_env_cached(&s.threshold_env, "GEMMKIT_BLAS_THRESHOLD", &changed);
    if (changed) read_threshold(&s, env);
    env = gk_env_cached(&s.verbose_env, "GEMMKIT_BLAS_VERBOSE", &changed);
    if (changed) s.verbose = env && *env && strcmp(env, "0") != 0;
    return &s;
}

/* ---- the shared context */

static pthread_once_t context_once = PTHREAD_ONCE_INIT;
static gemmkit_context *shared_ctx;
static char shared_device[300];      /* "platform | device", for the log */
static int shared_is_gpu;
static char shared_error[1024];      /* why there is no context */
static atomic_int device_disabled;   /* set after an unexpected device failure */
/* The threshold without GEMMKIT_BLAS_THRESHOLD: the device's measured line,
 * looked up once here, else the default (also when there is no device). */
static double shared_threshold = GK_BLAS_DEFAULT_THRESHOLD;
static int shared_measured;
static char shared_threshold_source[48] = "default"; /* for the log */
static atomic_int context_tried;     /* create_context has run: the shared_* above are final */

static void create_context(void)
{
    gemmkit_context *ctx = NULL;
    if (gemmkit_context_create(&ctx, NULL) != GEMMKIT_SUCCESS) {
        snprintf(shared_error, sizeof shared_error, "%s", gemmkit_last_error_message());
        atomic_store(&context_tried, 1);
        return;
    }
    double measured = 0.0;
    const char *source = NULL;
    if (gemmkit_context_blas_threshold(ctx, &measured, &source)) {
        shared_threshold = measured, shared_measured = 1;
        snprintf(shared_threshold_source, sizeof shared_threshold_source, "measured, %s", source);
    }
    gemmkit_device_info info;
    int devices = 1;
    gemmkit_context_device_count(ctx, &devices);
    if (gemmkit_context_device_info(ctx, &info) == GEMMKIT_SUCCESS) {
        /* GEMMKIT_DEVICE=all or a list: the calls are tiled over every device. */
        char more[48] = "";
        if (devices > 1) snprintf(more, sizeof more, " and %d more device(s)", devices - 1);
        snprintf(shared_device, sizeof shared_device, "%s | %s%s", info.platform, info.name, more);
        shared_is_gpu = info.is_gpu;
    }
    shared_ctx = ctx; /* published by pthread_once's own synchronisation */
    atomic_store(&context_tried, 1); /* and to note_small, which does not call pthread_once */
}

/* True when GEMMKIT_DEVICE or GEMMKIT_BACKEND is set: the user asked for a device. */
static int device_requested(void)
{
    const char *device = getenv("GEMMKIT_DEVICE"), *backend = getenv("GEMMKIT_BACKEND");
    return (device && *device) || (backend && *backend);
}

/* The context, created on first need; NULL when no device can be used. A
 * device the user asked for and did not get is reported once even when the
 * log is off (a silent CPU fallback would look like a slow GPU); no device on
 * a machine without one is only logged. */
static gemmkit_context *context_or_null(int verbose)
{
    pthread_once(&context_once, create_context);
    if (!shared_ctx && (verbose || device_requested())) {
        static atomic_int told;
        if (!atomic_exchange(&told, 1))
            fprintf(stderr, "gemmkit-blas: %s; every call runs on the CPU\n", shared_error);
    }
    return shared_ctx;
}

/* ---- counters */

void gk_blas_get_stats(gk_blas_stats *stats) { *stats = current_settings()->stats; }

/* ---- dispatch */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void log_call(const gk_blas_call *call, const char *where, double ms)
{
    fprintf(stderr,
            "gemmkit-blas: %s(%s, %c, %c, m=%lld, n=%lld, k=%lld, alpha=%g, lda=%lld, ldb=%lld, beta=%g, ldc=%lld): "
            "%s, %.3f ms\n",
            call->routine, call->layout == GEMMKIT_ROW_MAJOR ? "row-major" : "col-major", call->trans_a ? 'T' : 'N',
            call->trans_b ? 'T' : 'N', (long long)call->m, (long long)call->n, (long long)call->k,
            (double)call->alpha, (long long)call->lda, (long long)call->ldb, (double)call->beta, (long long)call->ldc,
            where, ms);
}

/* Failures that say something about this call only (its size); any other
 * failure means the device is unusable, so later calls skip it. */
static int call_specific(gemmkit_status status)
{
    return status == GEMMKIT_ERROR_SIZE_OVERFLOW || status == GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY ||
           status == GEMMKIT_ERROR_OUT_OF_HOST_MEMORY || status == GEMMKIT_ERROR_BUFFER_TOO_SMALL;
}

/* Why a call ran where it did, for the verbose log; `where` is NULL (and
 * nothing is formatted) when the log is off. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void note(char *where, size_t where_size, const char *format, ...)
{
    if (!where) return;
    va_list args;
    va_start(args, format);
    vsnprintf(where, where_size, format, args);
    va_end(args);
}

/* The log's note for a call below set->threshold: the threshold in effect
 * and where it came from, as far as it is known without opening a device. */
static void note_small(char *where, size_t where_size, const settings *set, double work)
{
    if (set->explicit_threshold)
        note(where, where_size, "cpu (%.0f multiply-adds < threshold %.0f, GEMMKIT_BLAS_THRESHOLD)", work,
             set->threshold);
    else if (atomic_load(&context_tried))
        note(where, where_size, "cpu (%.0f multiply-adds < threshold %.0f, %s)", work, shared_threshold,
             shared_threshold_source);
    else
        note(where, where_size, "cpu (%.0f multiply-adds < threshold %.0f, %s; no device opened yet)", work,
             set->threshold,
             set->threshold < GK_BLAS_DEFAULT_THRESHOLD ? "the lowest measured one of the tuning databases"
                                                        : "default");
}

/* 1 when the device did the call; 0 when it must run on the CPU. C is
 * unchanged when the device fails (gemmkit_sgemm's contract). */
static int try_device(const gk_blas_call *call, double work, settings *set, char *where, size_t where_size)
{
    const int verbose = set->verbose, explicit_threshold = set->explicit_threshold;
    gemmkit_context *ctx = context_or_null(verbose);
    if (!ctx) {
        note(where, where_size, "cpu (no device)");
        return 0;
    }
    if (atomic_load(&device_disabled)) {
        note(where, where_size, "cpu (the device was turned off after a failure)");
        return 0;
    }
    if (!explicit_threshold) {
        /* The device's own threshold: its measured line, else the default. */
        if (work < shared_threshold) {
            note(where, where_size, "cpu (%.0f multiply-adds < threshold %.0f, %s)", work, shared_threshold,
                 shared_threshold_source);
            return 0;
        }
        /* The default threshold is about the cost of a trip to a GPU; a CPU
         * device (PoCL) is only used when the user set a threshold or
         * measured this device's (a measured line counts as the user's choice). */
        if (!shared_is_gpu && !shared_measured) {
            note(where, where_size,
                 "cpu (%s is not a GPU; set GEMMKIT_BLAS_THRESHOLD, or measure its threshold with gemmkit tune "
                 "--blas-threshold, to use it)",
                 shared_device);
            return 0;
        }
    }
    /* The drop-in has chosen the device: gemmkit must not hand a CPU device's
     * call to the CPU BLAS (that is this engine's choice to make). */
    const gemmkit_options on_device = {.device_only = 1};
    gemmkit_status status =
        gemmkit_sgemm_ex(ctx, &on_device, call->layout, call->trans_a ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS,
                         call->trans_b ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, call->m, call->n, call->k, call->alpha,
                         call->a, call->lda, call->b, call->ldb, call->beta, call->c, call->ldc);
    if (status == GEMMKIT_SUCCESS) {
        note(where, where_size, "device %s (threshold %.0f, %s)", shared_device,
             explicit_threshold ? set->threshold : shared_threshold,
             explicit_threshold ? "GEMMKIT_BLAS_THRESHOLD" : shared_threshold_source);
        return 1;
    }
    set->stats.fallbacks++;
    note(where, where_size, "cpu (device failed: %s: %s)", gemmkit_strerror(status), gemmkit_last_error_message());
    if (!call_specific(status) && !atomic_exchange(&device_disabled, 1))
        fprintf(stderr, "gemmkit-blas: the device failed (%s: %s); SGEMM calls run on the CPU from now on\n",
                gemmkit_strerror(status), gemmkit_last_error_message());
    return 0;
}

/* Appends to the log's `where` which CPU code served the call. */
static void note_more(char *where, size_t where_size, const char *more)
{
    if (!where) return;
    size_t used = strlen(where);
    snprintf(where + used, where_size - used, " by %s", more);
}

/* The call on the CPU: the host's CPU BLAS, else gemmkit's own loop. Both are
 * column-major: a row-major call is the transposed problem
 * C^T = op(B)^T op(A)^T. */
static void run_on_cpu(const gk_blas_call *call, gk_blas_stats *stats, char *where, size_t where_size)
{
    const int row_major = call->layout == GEMMKIT_ROW_MAJOR;
    const int ta = row_major ? call->trans_b : call->trans_a, tb = row_major ? call->trans_a : call->trans_b;
    const int64_t m = row_major ? call->n : call->m, n = row_major ? call->m : call->n;
    const float *a = row_major ? call->b : call->a, *b = row_major ? call->a : call->b;
    const int64_t lda = row_major ? call->ldb : call->lda, ldb = row_major ? call->lda : call->ldb;
    /* Scaling C alone stays here: some BLAS (OpenBLAS 0.3.21's small-matrix
     * path) read A and B even when alpha == 0, which the reference forbids. */
    const int multiplies = call->alpha != 0.0f && call->k > 0;
    /* The CPU BLAS of the call's own family: a call to scipy_cblas_sgemm64_
     * goes to scipy-openblas's scipy_sgemm_64_, the code it would have run. */
    const gk_host_blas *blas = multiplies ? gk_host_blas_find_family(call->family) : NULL;
    if (blas && gk_host_blas_sgemm(blas, ta, tb, m, n, call->k, call->alpha, a, lda, b, ldb, call->beta, call->c,
                                   call->ldc) == 0) {
        stats->cpu_blas_calls++;
        note_more(where, where_size, blas->name);
        return;
    }
    gk_blas_cpu_sgemm(ta, tb, m, n, call->k, call->alpha, a, lda, b, ldb, call->beta, call->c, call->ldc, 0);
    note_more(where, where_size, !multiplies ? "gemmkit's own loop"
                                 : blas      ? "gemmkit's own loop (64-bit sizes, and the CPU BLAS has no 64-bit SGEMM)"
                                             : "gemmkit's own loop (no CPU BLAS found)");
}

void gk_blas_execute(const gk_blas_call *call)
{
    settings *set = current_settings();
    const int64_t m = call->m, n = call->n, k = call->k;
    if (m == 0 || n == 0 || ((call->alpha == 0.0f || k == 0) && call->beta == 1.0f)) {
        set->stats.quick_returns++;
        if (set->verbose) log_call(call, "quick return", 0.0);
        return;
    }
    const int multiplies = call->alpha != 0.0f && k > 0;
    const double work = (double)m * (double)n * (double)k; /* multiply-adds */
    const int small = work < set->threshold;
    /* The common small call, without the log: straight to the CPU. */
    if (!set->verbose && (!multiplies || small)) {
        set->stats.cpu_calls++;
        run_on_cpu(call, &set->stats, NULL, 0);
        return;
    }
    const double start = set->verbose ? now_ms() : 0.0;
    char log_buffer[1400];
    char *where = set->verbose ? log_buffer : NULL;
    const size_t where_size = sizeof log_buffer;
    int on_device = 0;
    if (!multiplies)
        note(where, where_size, "cpu (no multiply: C = beta C)");
    else if (small)
        note_small(where, where_size, set, work);
    else
        on_device = try_device(call, work, set, where, where_size);
    if (on_device) {
        set->stats.device_calls++;
    } else {
        set->stats.cpu_calls++;
        run_on_cpu(call, &set->stats, where, where_size);
    }
    if (set->verbose) log_call(call, where, now_ms() - start);
}
