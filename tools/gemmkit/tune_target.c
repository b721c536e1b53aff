/* `gemmkit tune`'s timing and checking of one kernel, through its routine's
 * descriptor (tune_target.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "tune_target.h"

void gk_tune_target_release(gk_tune_target *t)
{
    for (int i = 0; i < GK_ROUTINE_MAX_OPERANDS; i++) {
        gemmkit_buffer_destroy(t->buffers[i]);
        free(t->host[i]);
    }
    memset(t->buffers, 0, sizeof t->buffers);
    memset(t->host, 0, sizeof t->host);
}

/* Buffers that fit every case (the largest extent of each operand), filled
 * case by case from the last to the first: every case reads random inputs
 * and the first one's, which the check reads, are its own. */
static gemmkit_status fill_buffers(gk_tune_target *t)
{
    const gk_routine *routine = t->routine;
    for (int c = 0; c < t->case_count; c++) {
        size_t extent[GK_ROUTINE_MAX_OPERANDS] = {0};
        routine->extents(&t->cases[c], extent);
        for (int i = 0; i < routine->operands; i++)
            if (extent[i] > t->extent[i]) t->extent[i] = extent[i];
    }
    gemmkit_status status = GEMMKIT_SUCCESS;
    for (int i = 0; i < routine->operands && status == GEMMKIT_SUCCESS; i++)
        if (!(t->host[i] = calloc(t->extent[i] ? t->extent[i] : 1, sizeof(float))))
            status = GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    for (int c = t->case_count - 1; c >= 0 && status == GEMMKIT_SUCCESS; c--) routine->fill(&t->cases[c], &t->rng, t->host);
    for (int i = 0; i < routine->operands && status == GEMMKIT_SUCCESS; i++) {
        status = gemmkit_buffer_create(t->ctx, t->extent[i], &t->buffers[i]);
        if (status == GEMMKIT_SUCCESS) status = gemmkit_buffer_write(t->ctx, t->buffers[i], 0, t->extent[i], t->host[i]);
    }
    if (status != GEMMKIT_SUCCESS) gk_tune_target_release(t);
    return status;
}

static void start(gk_tune_target *t, gemmkit_context *ctx, const gk_kernel_def *def, int repeat)
{
    *t = (gk_tune_target){.routine = gk_routine_of(gk_kernel_op(def)), .ctx = ctx, .kernel = def->name,
                          .repeat = repeat, .shape = {1, 1, 1, gk_kernel_op(def)}};
    gk_rng_seed(&t->rng, gk_rng_fresh_seed());
}

gemmkit_status gk_tune_target_open(gk_tune_target *t, gemmkit_context *ctx, const gk_kernel_def *def, int64_t n,
                                   int repeat)
{
    start(t, ctx, def, repeat);
    t->case_count = t->routine->tune_cases(&t->shape, n, t->cases);
    for (int i = 0; i < t->case_count; i++) t->work += t->routine->work(&t->cases[i]);
    t->routine->tune_shapes(n, t->shapes, sizeof t->shapes);
    return fill_buffers(t);
}

gemmkit_status gk_tune_target_open_shapes(gk_tune_target *t, gemmkit_context *ctx, const gk_kernel_def *def,
                                          const int64_t (*shapes)[3], int count, int repeat)
{
    start(t, ctx, def, repeat);
    t->per_shape = 1;
    size_t used = 0;
    for (int i = 0; i < count && i < GK_ROUTINE_MAX_CASES; i++) {
        t->routine->case_of(shapes[i], GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, &t->cases[i]);
        t->work += t->routine->work(&t->cases[i]);
        t->case_count++;
        if (used < sizeof t->shapes)
            used += (size_t)snprintf(t->shapes + used, sizeof t->shapes - used, "%s%lldx%lldx%lld", i ? "," : "",
                                     (long long)shapes[i][0], (long long)shapes[i][1], (long long)shapes[i][2]);
    }
    return fill_buffers(t);
}

/* Median device time (ms) of one timed case. */
static double time_case(gk_tune_target *t, const char *params, const gk_case *c)
{
    double ms = 0.0, samples[64];
    const gemmkit_options options = {.kernel = t->kernel, .params = params, .kernel_ms = &ms};
    for (int r = -1; r < t->repeat; r++) {
        if (t->routine->run(t->ctx, &options, c, t->buffers) != GEMMKIT_SUCCESS) return -1.0;
        if (r >= 0) samples[r] = ms;
    }
    return gk_bench_stats_of(samples, t->repeat).median;
}

double gk_tune_target_time(gk_tune_target *t, const char *params)
{
    double sum = 0.0;
    for (int i = t->case_count - 1; i >= 0; i--) { /* the first last: its output is what the check reads */
        const double ms = time_case(t, params, &t->cases[i]);
        if (ms < 0.0) return -1.0;
        t->case_ms[i] = ms;
        sum += ms;
    }
    return sum;
}

double gk_tune_target_score(const gk_tune_target *t, double total_ms)
{
    if (!(total_ms > 0.0)) return 0.0;
    if (!t->per_shape) return t->work / (total_ms * 1e6);
    double log_sum = 0.0;
    for (int i = 0; i < t->case_count; i++)
        log_sum += log(t->routine->work(&t->cases[i]) / (t->case_ms[i] * 1e6));
    return exp(log_sum / t->case_count);
}

/* Sampled elements of the output that the last run of case c left. */
static int check_output(gk_tune_target *t, const gk_case *c, char *message, size_t size)
{
    const gk_routine *routine = t->routine;
    const int out = routine->operands - 1;
    float *result = malloc((t->extent[out] ? t->extent[out] : 1) * sizeof *result);
    int ok = 0;
    snprintf(message, size, "out of host memory");
    if (result && gemmkit_buffer_read(t->ctx, t->buffers[out], 0, t->extent[out], result) == GEMMKIT_SUCCESS) {
        gk_check_result r;
        routine->check(c, t->host, result, 0.0, routine->tune_samples, &t->rng, &r);
        ok = r.passed;
        snprintf(message, size, "%s", r.message);
    }
    free(result);
    return ok;
}

/* Every shape of a per_shape target: the first's output is the last timed
 * run's; each other one runs once more (the inputs are the same buffers). */
static int check_every_shape(gk_tune_target *t, const char *params, char *message, size_t size)
{
    const gemmkit_options options = {.kernel = t->kernel, .params = params};
    for (int i = 0; i < t->case_count; i++) {
        char text[160], why[256];
        if (i > 0 && t->routine->run(t->ctx, &options, &t->cases[i], t->buffers) != GEMMKIT_SUCCESS)
            snprintf(why, sizeof why, "failed: %s", gemmkit_last_error_message());
        else if (check_output(t, &t->cases[i], why, sizeof why))
            continue;
        t->routine->describe(&t->cases[i], text, sizeof text);
        snprintf(message, size, "%s: %s", text, why);
        return 0;
    }
    return 1;
}

int gk_tune_target_final_check(gk_tune_target *t, const char *params, char *message, size_t size)
{
    const gemmkit_options options = {.kernel = t->kernel, .params = params};
    for (int i = 0; i < t->case_count; i++) {
        gk_check_result r;
        const gemmkit_status status = t->routine->check_run(t->ctx, &options, &t->cases[i], &t->rng, &r);
        if (status != GEMMKIT_SUCCESS || !r.passed) {
            char text[160];
            t->routine->describe(&t->cases[i], text, sizeof text);
            snprintf(message, size, "%s: %s", text, r.message);
            return 0;
        }
    }
    snprintf(message, size, "every shape passed on fresh inputs");
    return 1;
}

int gk_tune_target_verify(gk_tune_target *t, const char *params, char *message, size_t size)
{
    const gk_routine *routine = t->routine;
    if (t->per_shape) {
        if (routine->tune_samples > 0 && !check_every_shape(t, params, message, size)) return 0;
    } else if (routine->tune_samples > 0 && !check_output(t, &t->cases[0], message, size)) {
        return 0;
    }
    gk_case cases[GK_ROUTINE_MAX_CASES];
    const int count = routine->tune_check_cases(&t->shape, cases);
    const gemmkit_options options = {.kernel = t->kernel, .params = params};
    for (int i = 0; i < count; i++) {
        gk_check_result r;
        gemmkit_status status = routine->check_run(t->ctx, &options, &cases[i], &t->rng, &r);
        if (status != GEMMKIT_SUCCESS || !r.passed) {
            char text[160];
            routine->describe(&cases[i], text, sizeof text);
            snprintf(message, size, "%s: %s", text, r.message);
            return 0;
        }
    }
    if (count) snprintf(message, size, "exact");
    return 1;
}
