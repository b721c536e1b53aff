/* Building and executing plans (plan.h). */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

static const struct {
    unsigned bit;
    const char *name;
} problem_defines[] = {{GK_DEFINE_TRANS_A, "TRANS_A"}, {GK_DEFINE_TRANS_B, "TRANS_B"}, {GK_DEFINE_VEC_A, "VEC_A"},
                       {GK_DEFINE_VEC_B, "VEC_B"},     {GK_DEFINE_VEC_C, "VEC_C"},
                       {GK_DEFINE_SIZE_M, "SIZE_M"},   {GK_DEFINE_SIZE_N, "SIZE_N"}, {GK_DEFINE_SIZE_K, "SIZE_K"},
                       {GK_DEFINE_DENSE_A, "DENSE_A"}, {GK_DEFINE_DENSE_B, "DENSE_B"}, {GK_DEFINE_DENSE_C, "DENSE_C"},
                       {GK_DEFINE_MODULI, "MODULI"},   {GK_DEFINE_K_CONTIGUOUS, "K_CONTIGUOUS"},
                       {GK_DEFINE_SUM_HERE, "SUM_HERE"}};

_Static_assert(GK_MAX_PARAMS + sizeof problem_defines / sizeof problem_defines[0] + 1 <= GK_MAX_DEFINES,
               "a step's defines: every parameter, every problem define and GK_ARCH_SPECIFIC");

static const char *backends_text(unsigned mask)
{
    return mask == GK_BACKEND_BIT_CUDA ? "the CUDA backend" : mask == GK_BACKEND_BIT_OPENCL ? "the OpenCL backend"
                                                                                            : "another backend";
}

/* "sm_90" for an arch-specific kernel of capability 9.0. */
static int arch_matches(const gemmkit_context *ctx, int arch)
{
    char want[16];
    snprintf(want, sizeof want, "sm_%d", arch);
    return strcmp(ctx->arch, want) == 0;
}

/* 90 for "sm_90"; 0 where the context's arch is unknown (no NVIDIA GPU). */
static int capability(const gemmkit_context *ctx)
{
    return strncmp(ctx->arch, "sm_", 3) == 0 ? atoi(ctx->arch + 3) : 0;
}

gemmkit_status gk_plan_check_backend(const gemmkit_context *ctx, const gk_kernel_def *def)
{
    if (!gk_kernel_runs_on(def, ctx->ops->bit))
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "kernel \"%s\" needs %s", def->name,
                       backends_text(def->backends));
    if (def->arch_specific && !arch_matches(ctx, def->arch_specific))
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE,
                       "kernel \"%s\" uses instructions of compute capability %d.%d only (sm_%da); %s is %s",
                       def->name, def->arch_specific / 10, def->arch_specific % 10, def->arch_specific,
                       ctx->info.name, ctx->arch[0] ? ctx->arch : "no NVIDIA GPU");
    /* Its arithmetic (tensor-core instructions) is what the device lacks, as for a mode's device test. */
    if (def->min_capability && capability(ctx) < def->min_capability)
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_MATH,
                       "kernel \"%s\" needs the tensor cores of an NVIDIA GPU of compute capability %d.%d or newer; "
                       "%s is %s",
                       def->name,
                       def->min_capability / 10, def->min_capability % 10, ctx->info.name,
                       ctx->arch[0] ? ctx->arch : "none");
    return GEMMKIT_SUCCESS;
}

int gk_plan_kernel_runs_here(const gemmkit_context *ctx, const gk_kernel_def *def)
{
    return gk_kernel_runs_on(def, ctx->ops->bit) && (!def->arch_specific || arch_matches(ctx, def->arch_specific)) &&
           (!def->min_capability || capability(ctx) >= def->min_capability);
}

gemmkit_status gk_plan_add(const gemmkit_context *ctx, gk_plan *plan, const gk_config *config,
                           const gk_geometry *geometry, const gk_operands *o, int main)
{
    const gk_kernel_def *def = config->def;
    if (plan->count >= GK_PLAN_MAX_STEPS)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "kernel %s: a plan holds at most %d steps", def->name,
                       GK_PLAN_MAX_STEPS);
    GK_TRY(gk_plan_check_backend(ctx, def));
    gk_step *step = &plan->steps[plan->count];
    step->config = *config;
    step->main = main;
    if (geometry) step->geometry = *geometry;
    else GK_TRY(gk_config_geometry(config, o->m, o->n, o->k, &step->geometry));
    GK_TRY(gk_config_check_device(config, &step->geometry, &ctx->info));

    step->define_count = gk_config_defines(config, step->defines);
    for (size_t i = 0; i < sizeof problem_defines / sizeof problem_defines[0]; i++)
        if (def->defines & problem_defines[i].bit)
            step->defines[step->define_count++] =
                (gk_define){problem_defines[i].name, gk_contract_define_value(problem_defines[i].bit, o)};
    if (def->arch_specific) step->defines[step->define_count++] = (gk_define){"GK_ARCH_SPECIFIC", 1};

    gk_contract_bind(def, &step->geometry, o, &step->binding);
    if (step->binding.dims > 2 && !(ctx->ops->caps & GK_CAP_LAUNCH_3D))
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "kernel %s: the %s backend launches no 3-D grids",
                       def->name, ctx->ops->name);
    for (unsigned i = 0; i < step->binding.arg_count; i++)
        if (step->binding.args[i].kind == GK_ARG_TENSOR_MAP && !(ctx->ops->caps & GK_CAP_TENSOR_MAPS))
            return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND,
                           "kernel %s: the %s backend passes no tensor maps (the CUDA backend's)", def->name,
                           ctx->ops->name);
    plan->count++;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_plan_add_helper(const gemmkit_context *ctx, gk_plan *plan, gk_helper helper,
                                  const gk_operands *operands, int main)
{
    return gk_plan_add(ctx, plan, &ctx->helpers[helper], NULL, operands, main);
}

/* GEMMKIT_TRACE: one line per launched step (kernel, parameters, grid, device time). */
static void trace_step(const gk_step *step, unsigned index, unsigned count, double ms)
{
    const gk_binding *b = &step->binding;
    fprintf(stderr, "gemmkit trace: step %u/%u %s%s %s grid %zux%zux%zu local %zux%zux%zu: %.4f ms\n", index + 1,
            count, step->config.def->name, step->main ? " (main)" : "", step->config.options, b->global[0],
            b->dims > 1 ? b->global[1] : 1, b->dims > 2 ? b->global[2] : 1, b->local[0], b->dims > 1 ? b->local[1] : 1,
            b->dims > 2 ? b->local[2] : 1, ms);
}

gemmkit_status gk_plan_execute(gemmkit_context *ctx, const gk_plan *plan, double *kernel_ms, double *total_ms)
{
    /* A dry run (the workspace's size) only planned: nothing is built or launched. */
    if (ctx->workspace.dry) {
        gk_workspace_plan_done(ctx);
        return GEMMKIT_SUCCESS;
    }
    /* Every program first: a build that fails leaves nothing of the plan enqueued. */
    gk_program *programs[GK_PLAN_MAX_STEPS];
    for (unsigned i = 0; i < plan->count; i++) {
        const gk_step *step = &plan->steps[i];
        GK_TRY(gk_context_program(ctx, step->config.def->source, step->defines, step->define_count, &programs[i]));
    }
    for (unsigned i = 0; i < plan->count; i++) {
        const gk_step *step = &plan->steps[i];
        gk_program *program = programs[i];
        const gk_binding *b = &step->binding;
        const gk_launch launch = {
            .function = step->config.def->function,
            .dims = b->dims,
            .global = {b->global[0], b->global[1], b->global[2]},
            .local = {b->local[0], b->local[1], b->local[2]},
            .args = b->args,
            .arg_count = b->arg_count,
            .dynamic_local_bytes = step->config.def->flags & GK_FLAG_DYNAMIC_LOCAL
                                       ? (size_t)step->geometry.local_mem_bytes : 0,
        };
        const int timed = total_ms || (step->main && kernel_ms) || ctx->trace;
        double ms = 0.0;
        GK_TRY(ctx->ops->launch(ctx->device, program, &launch, timed ? &ms : NULL));
        if (ctx->trace) trace_step(step, i, plan->count, ms);
        if (step->main && kernel_ms) *kernel_ms += ms;
        if (total_ms) *total_ms += ms;
    }
    gk_workspace_plan_done(ctx);
    return GEMMKIT_SUCCESS;
}
