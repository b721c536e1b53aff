/* What `gemmkit tune` times and checks for one kernel, for any routine: the
 * routine's descriptor (tools/check/routine_desc.h) gives the timed cases on
 * n (SGEMM: n x n x n in GFLOPS; transposes: an aligned and a misaligned
 * square in GB/s, so a winner must handle both) and what a candidate is
 * checked on. The search itself is in cmd_tune.c. */
#ifndef GK_TUNE_TARGET_H
#define GK_TUNE_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "gemmkit.h"
#include "routine_desc.h"

typedef struct gk_tune_target {
    const gk_routine *routine;
    double work;     /* flops or bytes per timed round (every timed case once), for the score */
    char shapes[96]; /* the timed shapes, for the report */
    int per_shape;   /* representative shapes (a variant): scored by the geometric mean of their rates, each checked */
    double case_ms[GK_ROUTINE_MAX_CASES]; /* the last timing's median per case */
    gemmkit_context *ctx;
    const char *kernel;
    gk_kernel_shape shape;
    gk_case cases[GK_ROUTINE_MAX_CASES]; /* timed, on the same buffers (the first is the largest) */
    int case_count;
    int repeat;
    gk_rng rng;
    gemmkit_buffer *buffers[GK_ROUTINE_MAX_OPERANDS];
    float *host[GK_ROUTINE_MAX_OPERANDS]; /* the first case's inputs, for the check */
    size_t extent[GK_ROUTINE_MAX_OPERANDS];
} gk_tune_target;

/* Allocates and fills what kernel `def` is timed on at size n; on failure the
 * status says why and nothing needs releasing. */
gemmkit_status gk_tune_target_open(gk_tune_target *t, gemmkit_context *ctx, const gk_kernel_def *def, int64_t n,
                                   int repeat);
/* The same for SGEMM kernel def on the given column-major shapes (m, n, k),
 * at most GK_ROUTINE_MAX_CASES, on buffers that fit the largest of each. */
gemmkit_status gk_tune_target_open_shapes(gk_tune_target *t, gemmkit_context *ctx, const gk_kernel_def *def,
                                          const int64_t (*shapes)[3], int count, int repeat);
/* Sum over the timed cases of the median device time (ms) of t->repeat calls
 * after one untimed warm-up call; < 0 when a call fails. */
double gk_tune_target_time(gk_tune_target *t, const char *params);
/* Higher is better: the work over total_ms (a sum from gk_tune_target_time);
 * per_shape targets: the geometric mean of the cases' rates of the last timing. */
double gk_tune_target_score(const gk_tune_target *t, double total_ms);
/* Checks these parameters against the reference (the output the last timed
 * run left; per_shape targets: every shape's, each run once more; and the
 * routine's extra cases); 1, or 0 with why in message. */
int gk_tune_target_verify(gk_tune_target *t, const char *params, char *message, size_t size);
/* The finalist's check: every timed case once more on fresh inputs, the
 * output poisoned with NaN (so an element left unwritten shows), through
 * the routine's check_run; 1, or 0 with why in message. */
int gk_tune_target_final_check(gk_tune_target *t, const char *params, char *message, size_t size);
void gk_tune_target_release(gk_tune_target *t);

#endif
