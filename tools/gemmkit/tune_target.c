/* `gemmkit tune`'s timing and checking of one kernel, through its routine's
 * descriptor (tune_target.h). */
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

gemmkit_status gk_tune_target_open(gk_tune_target *t, gemmkit_context *ctx, const gk_kernel_def *def, int64_t n,
                                   int repeat)
{
    const gk_routine *routine = gk_routine_of(gk_kernel_op(def));
    *t = (gk_tune_target){.routine = routine, .ctx = ctx, .kernel = def->name, .repeat = repeat,
                          .shape = {1, 1, 1, gk_kernel_op(def)}};
    t->case_count = routine->tune_cases(&t->shape, n, t->cases);
    for (int i = 0; i < t->case_count; i++) t->work += routine->work(&t->cases[i]);
    routine->tune_shapes(n, t->shapes, sizeof t->shapes);
    gk_rng_seed(&t->rng, gk_rng_fresh_seed());
    routine->extents(&t->cases[0], t->extent);
    gemmkit_status status = GEMMKIT_SUCCESS;
    for (int i = 0; i < routine->operands && status == GEMMKIT_SUCCESS; i++)
        if (!(t->host[i] = malloc((t->extent[i] ? t->extent[i] : 1) * sizeof(float))))
            status = GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    if (status == GEMMKIT_SUCCESS) routine->fill(&t->cases[0], &t->rng, t->host);
    for (int i = 0; i < routine->operands && status == GEMMKIT_SUCCESS; i++) {
        status = gemmkit_buffer_create(ctx, t->extent[i], &t->buffers[i]);
        if (status == GEMMKIT_SUCCESS) status = gemmkit_buffer_write(ctx, t->buffers[i], 0, t->extent[i], t->host[i]);
    }
    if (status != GEMMKIT_SUCCESS) gk_tune_target_release(t);
    return status;
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
        sum += ms;
    }
    return sum;
}

/* Sampled elements of the output that the last timed run (of the first case) left. */
static int check_timed_output(gk_tune_target *t, char *message, size_t size)
{
    const gk_routine *routine = t->routine;
    const int out = routine->operands - 1;
    float *result = malloc((t->extent[out] ? t->extent[out] : 1) * sizeof *result);
    int ok = 0;
    snprintf(message, size, "out of host memory");
    if (result && gemmkit_buffer_read(t->ctx, t->buffers[out], 0, t->extent[out], result) == GEMMKIT_SUCCESS) {
        gk_check_result r;
        routine->check(&t->cases[0], t->host, result, 0.0, routine->tune_samples, &t->rng, &r);
        ok = r.passed;
        snprintf(message, size, "%s", r.message);
    }
    free(result);
    return ok;
}

int gk_tune_target_verify(gk_tune_target *t, const char *params, char *message, size_t size)
{
    const gk_routine *routine = t->routine;
    if (routine->tune_samples > 0 && !check_timed_output(t, message, size)) return 0;
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
