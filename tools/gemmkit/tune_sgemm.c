/* `gemmkit tune` for SGEMM kernels: C = A * B on n x n x n, column-major NN,
 * results checked on sampled entries against the double-precision reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_target.h"

static gemmkit_status run_sgemm(gk_tune_target *t, const gemmkit_options *options, int64_t n)
{
    return gemmkit_sgemm_buffers(t->ctx, options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f,
                                 t->buffers[0], 0, n, t->buffers[1], 0, n, 0.0f, t->buffers[2], 0, n);
}

static double time_sgemm(gk_tune_target *t, const char *params)
{
    return gk_tune_time_calls(t, params, t->n, run_sgemm);
}

/* Checks the C that the last timed run of these parameters left. */
static int verify_sgemm(gk_tune_target *t, const char *params, char *message, size_t size)
{
    (void)params;
    const int64_t n = t->n;
    const size_t count = (size_t)(n * n);
    float *hc = malloc(count * sizeof *hc), *c0 = malloc(count * sizeof *c0);
    int ok = 0;
    snprintf(message, size, "out of host memory");
    if (hc && c0 && gemmkit_buffer_read(t->ctx, t->buffers[2], 0, count, hc) == GEMMKIT_SUCCESS) {
        gk_fill_value(c0, count, NAN);
        gk_sgemm_case kase = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f, 0.0f, n, n, n};
        gk_check_result r;
        gk_check_sgemm_sampled(&kase, t->host[0], t->host[1], c0, hc, 256, &t->rng, &r);
        ok = r.passed;
        snprintf(message, size, "%s", r.message);
    }
    free(hc);
    free(c0);
    return ok;
}

static void release_sgemm(gk_tune_target *t)
{
    for (int i = 0; i < 3; i++) gemmkit_buffer_destroy(t->buffers[i]);
    free(t->host[0]);
    free(t->host[1]);
    memset(t->buffers, 0, sizeof t->buffers);
    memset(t->host, 0, sizeof t->host);
}

gemmkit_status gk_tune_target_sgemm(gk_tune_target *t, gemmkit_context *ctx, const char *kernel, int64_t n,
                                    int repeat)
{
    *t = (gk_tune_target){.unit = "GFLOPS", .work = 2.0 * (double)n * n * n, .time = time_sgemm,
                          .verify = verify_sgemm, .release = release_sgemm, .ctx = ctx, .kernel = kernel,
                          .n = n, .repeat = repeat};
    snprintf(t->shapes, sizeof t->shapes, "n=%lld", (long long)n);
    gk_rng_seed(&t->rng, gk_rng_fresh_seed());
    const size_t count = (size_t)(n * n);
    gemmkit_status status = GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    t->host[0] = malloc(count * sizeof(float));
    t->host[1] = malloc(count * sizeof(float));
    if (t->host[0] && t->host[1]) {
        gk_fill_random(&t->rng, t->host[0], count);
        gk_fill_random(&t->rng, t->host[1], count);
        status = GEMMKIT_SUCCESS;
        for (int i = 0; i < 3 && status == GEMMKIT_SUCCESS; i++)
            status = gemmkit_buffer_create(ctx, count, &t->buffers[i]);
        for (int i = 0; i < 2 && status == GEMMKIT_SUCCESS; i++)
            status = gemmkit_buffer_write(ctx, t->buffers[i], 0, count, t->host[i]);
    }
    if (status != GEMMKIT_SUCCESS) release_sgemm(t);
    return status;
}
