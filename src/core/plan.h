/* Plans: a call resolved once into a few steps (kernel configuration,
 * geometry, defines, arguments, grid), then executed by gk_plan_execute, the
 * only code that launches kernels. Routines build plans (routine_*.c); a
 * multi-step plan (pack, main kernel, unpack; partial products, reduction)
 * is an ordinary plan. */
#ifndef GK_PLAN_H
#define GK_PLAN_H

#include "context.h"
#include "contract.h"

#define GK_PLAN_MAX_STEPS 16

typedef struct gk_step {
    gk_config config;
    gk_geometry geometry;
    gk_define defines[GK_MAX_DEFINES];
    unsigned define_count;
    gk_binding binding;
    int main; /* its device time is the call's kernel time */
} gk_step;

typedef struct gk_plan {
    unsigned count;
    gk_step steps[GK_PLAN_MAX_STEPS];
} gk_plan;

/* Appends a step running `config` on the operands: the geometry for their
 * sizes (or `geometry` when the caller has it already), checked against the
 * device and the backend, the defines (parameters, then the problem defines
 * the kernel declares) and the contract's arguments and grid. */
gemmkit_status gk_plan_add(const gemmkit_context *ctx, gk_plan *plan, const gk_config *config,
                           const gk_geometry *geometry, const gk_operands *operands, int main);

/* Appends a step running one of the library's helpers with its defaults. */
gemmkit_status gk_plan_add_helper(const gemmkit_context *ctx, gk_plan *plan, gk_helper helper,
                                  const gk_operands *operands, int main);

/* Fails unless the kernel runs on the context's backend and, for an arch-specific kernel, device. */
gemmkit_status gk_plan_check_backend(const gemmkit_context *ctx, const gk_kernel_def *def);
/* Whether def can run on ctx's device and backend (the check above, as a yes or no). */
int gk_plan_kernel_runs_here(const gemmkit_context *ctx, const gk_kernel_def *def);

/* Builds (or finds) each step's program and launches the steps in order.
 * Adds the main steps' device time to *kernel_ms and every timed step's to
 * *total_ms (either may be NULL; timing waits for each kernel). */
gemmkit_status gk_plan_execute(gemmkit_context *ctx, const gk_plan *plan, double *kernel_ms, double *total_ms);

#endif
