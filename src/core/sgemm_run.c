/* Executes a column-major SGEMM problem on device memory: either one
 * "direct" kernel, or pack -> tiled kernel -> unpack around a kernel that
 * needs padded, packed operands (tutorial kernel 10's approach). */
#include <stdio.h>
#include <string.h>

#include "launch.h"
#include "sgemm.h"
#include "status.h"
#include "transpose.h"

static int64_t round_up(int64_t x, int64_t multiple) { return (x + multiple - 1) / multiple * multiple; }

static size_t groups_times(int64_t size, int64_t tile, int64_t local)
{
    return (size_t)((size + tile - 1) / tile * local);
}

static gemmkit_status scale_c(gemmkit_context *ctx, const gk_sgemm_problem *p, double *total_ms)
{
    gk_arg args[] = {GK_INT((int)p->m), GK_INT((int)p->n), GK_FLOAT(p->beta), GK_MEM(p->c.mem),
                     GK_INT((int)p->c.offset), GK_INT((int)p->c.ld)};
    return gk_launch_named(ctx, "scale", NULL, p->m, p->n, args, 6, total_ms);
}

/* Packs op(X) (rows x cols, stored at x) into a zero-padded rows_p x cols_p scratch buffer. */
static gemmkit_status pack(gemmkit_context *ctx, int slot, const gk_matrix *x, int trans, int64_t rows,
                           int64_t cols, int64_t rows_p, int64_t cols_p, gk_mem **out, double *total_ms)
{
    GK_TRY(gk_context_scratch(ctx, slot, (size_t)(rows_p * cols_p) * sizeof(float), out));
    return gk_transpose_pack(ctx, x, trans, rows, cols, rows_p, cols_p, *out, total_ms);
}

static int already_packed(const gk_matrix *x, int trans, int64_t rows, int64_t cols, int64_t rows_p,
                          int64_t cols_p)
{
    return !trans && x->offset == 0 && rows == rows_p && cols == cols_p && x->ld == rows;
}

static gemmkit_status run_direct(gemmkit_context *ctx, gk_config *config, const gk_sgemm_problem *p,
                                 double *kernel_ms, double *total_ms)
{
    snprintf(config->extra_options, sizeof config->extra_options, "-DTRANS_A=%d -DTRANS_B=%d",
             p->trans_a, p->trans_b);
    gk_geometry g;
    GK_TRY(gk_config_geometry(config, p->m, p->n, p->k, &g));
    size_t global[2] = {groups_times(p->m, g.tile_m, g.local_x), groups_times(p->n, g.tile_n, g.local_y)};
    gk_arg args[] = {GK_INT((int)p->m),        GK_INT((int)p->n),        GK_INT((int)p->k),
                     GK_FLOAT(p->alpha),       GK_MEM(p->a.mem),         GK_INT((int)p->a.offset),
                     GK_INT((int)p->a.ld),     GK_MEM(p->b.mem),         GK_INT((int)p->b.offset),
                     GK_INT((int)p->b.ld),     GK_FLOAT(p->beta),        GK_MEM(p->c.mem),
                     GK_INT((int)p->c.offset), GK_INT((int)p->c.ld)};
    double ms = 0.0;
    GK_TRY(gk_context_launch(ctx, config, &g, 2, global, args, 14, kernel_ms || total_ms ? &ms : NULL));
    if (kernel_ms) *kernel_ms = ms;
    if (total_ms) *total_ms += ms;
    return GEMMKIT_SUCCESS;
}

static gemmkit_status run_packed(gemmkit_context *ctx, const gk_config *config, const gk_sgemm_problem *p,
                                 double *kernel_ms, double *total_ms)
{
    const gk_kernel_def *def = config->def;
    gk_geometry g;
    GK_TRY(gk_config_geometry(config, p->m, p->n, p->k, &g));
    int64_t mp = round_up(p->m, g.tile_m), np = round_up(p->n, g.tile_n), kp = round_up(p->k, g.k_multiple);
    if ((def->flags & GK_FLAG_SQUARE_ONLY) && !(mp == np && np == kp)) {
        /* Pad to the common size; the padding is zeros, so the product is unchanged. */
        int64_t s = mp > np ? mp : np;
        s = s > kp ? s : kp;
        int64_t step = g.tile_m > g.tile_n ? g.tile_m : g.tile_n;
        step = step > g.k_multiple ? step : g.k_multiple;
        mp = np = kp = round_up(s, step);
    }
    /* Geometry may depend on the padded sizes (one row per work-item, ...). */
    GK_TRY(gk_config_geometry(config, mp, np, kp, &g));

    const int b_transposed = (def->flags & GK_FLAG_B_TRANSPOSED) != 0;
    gk_mem *a = p->a.mem, *b = p->b.mem, *c = p->c.mem;
    if (!already_packed(&p->a, p->trans_a, p->m, p->k, mp, kp))
        GK_TRY(pack(ctx, GK_SCRATCH_A, &p->a, p->trans_a, p->m, p->k, mp, kp, &a, total_ms));
    /* A transposed-B kernel wants op(B)^T, an np x kp matrix. */
    if (b_transposed) {
        GK_TRY(pack(ctx, GK_SCRATCH_B, &p->b, !p->trans_b, p->n, p->k, np, kp, &b, total_ms));
    } else if (!already_packed(&p->b, p->trans_b, p->k, p->n, kp, np)) {
        GK_TRY(pack(ctx, GK_SCRATCH_B, &p->b, p->trans_b, p->k, p->n, kp, np, &b, total_ms));
    }
    const int direct_c = p->m == mp && p->n == np && p->c.ld == mp && p->c.offset == 0 &&
                         p->alpha == 1.0f && p->beta == 0.0f;
    if (!direct_c) GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_C, (size_t)(mp * np) * sizeof(float), &c));

    size_t global[2] = {groups_times(mp, g.tile_m, g.local_x), groups_times(np, g.tile_n, g.local_y)};
    gk_arg args[] = {GK_INT((int)mp), GK_INT((int)np), GK_INT((int)kp), GK_MEM(a), GK_MEM(b), GK_MEM(c)};
    double ms = 0.0;
    GK_TRY(gk_context_launch(ctx, config, &g, 2, global, args, 6, kernel_ms || total_ms ? &ms : NULL));
    if (kernel_ms) *kernel_ms = ms;
    if (total_ms) *total_ms += ms;
    if (direct_c) return GEMMKIT_SUCCESS;
    gk_arg unpack_args[] = {GK_INT((int)p->m), GK_INT((int)p->n), GK_FLOAT(p->alpha), GK_MEM(c),
                            GK_INT((int)mp),   GK_FLOAT(p->beta), GK_MEM(p->c.mem), GK_INT((int)p->c.offset),
                            GK_INT((int)p->c.ld)};
    return gk_launch_named(ctx, "unpack", NULL, p->m, p->n, unpack_args, 9, total_ms);
}

gemmkit_status gk_sgemm_run(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *p)
{
    double *kernel_ms = options ? options->kernel_ms : NULL;
    double *total_ms = options ? options->total_ms : NULL;
    if (kernel_ms) *kernel_ms = 0.0;
    if (total_ms) *total_ms = 0.0;

    const gk_kernel_def *def = NULL;
    const char *params = NULL;
    if (options && options->kernel) {
        def = gk_kernel_find(options->kernel);
        if (!def) return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "no kernel named \"%s\" (see `gemmkit list`)",
                                 options->kernel);
        if (def->op != GK_OP_SGEMM || (def->flags & GK_FLAG_HELPER))
            return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "kernel \"%s\" is not an SGEMM kernel", def->name);
        if ((def->flags & GK_FLAG_CUDA_ONLY) && strcmp(ctx->ops->name, "cuda") != 0)
            return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "kernel \"%s\" needs the CUDA backend", def->name);
    } else {
        gk_sgemm_choice choice = gk_sgemm_default_kernel(ctx, p->m, p->n, p->k);
        def = choice.def;
        params = choice.params;
    }
    /* Explicit parameters, else the dispatch's or this device's tuned ones, else the defaults. */
    if (options && options->params) params = options->params;
    gk_config config;
    GK_TRY(gk_context_resolve(ctx, def, params, &config));
    /* Reject what the device cannot run before any pack or build. */
    gk_geometry geometry;
    GK_TRY(gk_config_geometry(&config, p->m, p->n, p->k, &geometry));
    GK_TRY(gk_config_check_device(&config, &geometry, &ctx->info));

    if (!gk_sgemm_writes_c(p)) return GEMMKIT_SUCCESS;
    if (!gk_sgemm_reads_ab(p)) return scale_c(ctx, p, total_ms);
    if (def->flags & GK_FLAG_DIRECT) return run_direct(ctx, &config, p, kernel_ms, total_ms);
    return run_packed(ctx, &config, p, kernel_ms, total_ms);
}
