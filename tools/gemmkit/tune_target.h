/* What `gemmkit tune` times and checks for one kind of kernel: SGEMM
 * (GFLOPS on n x n x n) or transposes (GB/s on an aligned and a misaligned
 * square, so a winner must handle both). The search itself is in cmd_tune.c. */
#ifndef GK_TUNE_TARGET_H
#define GK_TUNE_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "gemmkit.h"

typedef struct gk_tune_target gk_tune_target;
struct gk_tune_target {
    const char *unit; /* of the score: "GFLOPS" or "GB/s" */
    double work;      /* flops or bytes per timed round, for the score */
    char shapes[96];  /* the timed shapes, for the report */
    /* Median device time (ms) of one round with these parameters; < 0 on failure. */
    double (*time)(gk_tune_target *t, const char *params);
    /* Checks results of these parameters against the reference; message on failure. */
    int (*verify)(gk_tune_target *t, const char *params, char *message, size_t size);
    void (*release)(gk_tune_target *t);

    gemmkit_context *ctx;
    const char *kernel;
    gemmkit_transpose trans; /* transposes: T, or N for a copy kernel */
    int64_t n;
    int repeat;
    gk_rng rng;
    gemmkit_buffer *buffers[3];
    float *host[2];
};

/* Each allocates what it times on (n x n operands of random values); on
 * failure the status says why and nothing needs releasing. */
gemmkit_status gk_tune_target_sgemm(gk_tune_target *t, gemmkit_context *ctx, const char *kernel, int64_t n,
                                    int repeat);
gemmkit_status gk_tune_target_transpose(gk_tune_target *t, gemmkit_context *ctx, const char *kernel, int64_t n,
                                        int repeat);

/* Median device time (ms) of t->repeat calls of run on a problem of the given
 * size, after one untimed warm-up call; < 0 when a call fails. */
typedef gemmkit_status (*gk_tune_call)(gk_tune_target *t, const gemmkit_options *options, int64_t size);
double gk_tune_time_calls(gk_tune_target *t, const char *params, int64_t size, gk_tune_call run);

#endif
