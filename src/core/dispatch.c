/* Which kernel the public SGEMM uses for a shape when the caller names none:
 * the device class's fast tiled kernel when the padding it needs wastes
 * little, the direct kernel (no packing, any shape) for small and skinny
 * problems. The fast kernel's parameters come from the tuning database. */
#include <stdio.h>

#include "sgemm.h"

/* The fastest kernel per device class, measured with `gemmkit bench --kernel all`
 * (docs/PERFORMANCE.md): on GPUs xgemm (48 TFLOPS on the H200); on CPUs through
 * PoCL the lecture's rank-1-update kernel, whose register-resident C column
 * PoCL vectorises well (22.8 GFLOPS against xgemm's 10.8 at n = 512). */
static const char *fast_kernel_for(const gemmkit_device_info *info)
{
    return info->is_gpu ? "xgemm" : "lecture-6-one-block-shared";
}

/* Below ~64^3 multiply-adds, packing costs more than the fast kernel saves;
 * nor is it worth padding a problem by more than half its work. */
#define MIN_FAST_WORK 262144.0
#define MAX_PADDING 1.5

const gk_kernel_def *gk_sgemm_fast_kernel(const gemmkit_context *ctx)
{
    return gk_kernel_find(fast_kernel_for(&ctx->info));
}

const char *gk_sgemm_fast_kernel_scope(void)
{
    return "problems of at least 64^3 multiply-adds that padding to its tiles grows by less than 50% "
           "(smaller and skinnier ones run direct)";
}

/* Work-groups a configuration launches for an m x n result. */
static int64_t work_groups(const gk_geometry *g, int64_t m, int64_t n)
{
    return (m + g->tile_m - 1) / g->tile_m * ((n + g->tile_n - 1) / g->tile_n);
}

gk_sgemm_choice gk_sgemm_default_kernel(const gemmkit_context *ctx, int64_t m, int64_t n, int64_t k)
{
    gk_sgemm_choice direct = {gk_kernel_find("direct"), NULL};
    gk_sgemm_choice fast = {gk_sgemm_fast_kernel(ctx), NULL};
    gk_config config;
    gk_geometry g;
    if (!fast.def || gk_context_resolve(ctx, fast.def, NULL, &config) != GEMMKIT_SUCCESS ||
        gk_config_geometry(&config, m, n, k, &g) != GEMMKIT_SUCCESS)
        return direct;
    /* Large tiles leave compute units idle on smaller problems: the database's
     * "<kernel>/small" line (tuned at such a size) serves those. */
    char small_key[80];
    snprintf(small_key, sizeof small_key, "%s/small", fast.def->name);
    const char *small = gk_tuning_params(&ctx->tuned, small_key);
    if (small && work_groups(&g, m, n) < ctx->info.compute_units &&
        gk_config_resolve(fast.def, small, &config) == GEMMKIT_SUCCESS &&
        gk_config_geometry(&config, m, n, k, &g) == GEMMKIT_SUCCESS)
        fast.params = small;
    const double work = (double)m * (double)n * (double)k;
    const double padded = (double)gk_round_up(m, g.tile_m) * (double)gk_round_up(n, g.tile_n) *
                          (double)gk_round_up(k, g.k_multiple);
    if (work < MIN_FAST_WORK || padded > MAX_PADDING * work) return direct;
    return fast;
}
