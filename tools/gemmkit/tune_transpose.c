/* `gemmkit tune` for transposes and copies: B = op(A) timed on n x n and
 * (n-1) x (n-1) with tight leading dimensions, so that the winner is fast
 * whether or not columns start on 16 bytes; checked exactly on odd shapes with
 * offsets and gaps (where edge handling fails if it is wrong). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_transpose.h"
#include "registry.h"
#include "tune_target.h"

static gemmkit_status run_transpose(gk_tune_target *t, const gemmkit_options *options, int64_t m)
{
    return gemmkit_somatcopy_buffers(t->ctx, options, GEMMKIT_COL_MAJOR, t->trans, m, m, 1.0f, t->buffers[0], 0, m,
                                     t->buffers[1], 0, m);
}

/* n x n, then (n - 1) x (n - 1): the sum of the two medians. */
static double time_transpose(gk_tune_target *t, const char *params)
{
    const double aligned = gk_tune_time_calls(t, params, t->n, run_transpose);
    if (aligned < 0.0) return -1.0;
    const double misaligned = gk_tune_time_calls(t, params, t->n - 1, run_transpose);
    return misaligned < 0.0 ? -1.0 : aligned + misaligned;
}

static int verify_transpose(gk_tune_target *t, const char *params, char *message, size_t size)
{
    const gk_omatcopy_case cases[] = {
        {GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, 203, 131, 0.75f, 207, 133, 1, 3},
        {GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, 130, 67, 1.0f, 0, 0, 0, 2},
        {GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, 256, 192, 1.0f, 0, 0, 0, 0},
    };
    const gemmkit_options options = {.kernel = t->kernel, .params = params};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gk_omatcopy_case c = cases[i];
        c.trans = t->trans;
        if (t->trans == GEMMKIT_NO_TRANS) c.ldb = c.lda; /* a copy: B has A's shape, reuse A's gap */
        gk_check_result r;
        gemmkit_status status = gk_check_omatcopy_run(t->ctx, &options, c, 1, &t->rng, &r);
        if (status != GEMMKIT_SUCCESS || !r.passed) {
            char text[128];
            gk_omatcopy_describe(&c, text, sizeof text);
            snprintf(message, size, "%s: %s", text, r.message);
            return 0;
        }
    }
    snprintf(message, size, "exact");
    return 1;
}

static void release_transpose(gk_tune_target *t)
{
    gemmkit_buffer_destroy(t->buffers[0]);
    gemmkit_buffer_destroy(t->buffers[1]);
    free(t->host[0]);
    memset(t->buffers, 0, sizeof t->buffers);
    t->host[0] = NULL;
}

gemmkit_status gk_tune_target_transpose(gk_tune_target *t, gemmkit_context *ctx, const char *kernel, int64_t n,
                                        int repeat)
{
    const double m = (double)(n - 1);
    const int copy = gk_kernel_op(gk_kernel_find(kernel)) == GK_OP_COPY;
    *t = (gk_tune_target){.unit = "GB/s", .work = 8.0 * ((double)n * n + m * m), .time = time_transpose,
                          .verify = verify_transpose, .release = release_transpose, .ctx = ctx,
                          .kernel = kernel, .trans = copy ? GEMMKIT_NO_TRANS : GEMMKIT_TRANS, .n = n,
                          .repeat = repeat};
    snprintf(t->shapes, sizeof t->shapes, "%lldx%lld and %lldx%lld", (long long)n, (long long)n,
             (long long)(n - 1), (long long)(n - 1));
    gk_rng_seed(&t->rng, gk_rng_fresh_seed());
    const size_t count = (size_t)(n * n);
    gemmkit_status status = GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    if ((t->host[0] = malloc(count * sizeof(float)))) {
        gk_fill_random(&t->rng, t->host[0], count);
        status = gemmkit_buffer_create(ctx, count, &t->buffers[0]);
        if (status == GEMMKIT_SUCCESS) status = gemmkit_buffer_create(ctx, count, &t->buffers[1]);
        if (status == GEMMKIT_SUCCESS) status = gemmkit_buffer_write(ctx, t->buffers[0], 0, count, t->host[0]);
    }
    if (status != GEMMKIT_SUCCESS) release_transpose(t);
    return status;
}
