/* Which kernel the public SGEMM uses for a shape when the caller names none:
 * the device class's fast tiled kernel when the padding it needs wastes
 * little, the direct kernel (no packing, any shape) for small and skinny
 * problems. The fast kernel's parameters come from the tuning database. */
#include "sgemm.h"

static int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/* The fastest kernel per device class, measured with `gemmkit bench --kernel all`
 * (docs/PERFORMANCE.md): on GPUs xgemm (48 TFLOPS on the H200); on CPUs through
 * PoCL the lecture's rank-1-update kernel, whose register-resident C column
 * PoCL vectorises well (22.8 GFLOPS against xgemm's 10.8 at n = 512). */
static const char *fast_kernel_for(const gemmkit_device_info *info)
{
    return info->is_gpu ? "xgemm" : "lecture-6-one-block-shared";
}

const gk_kernel_def *gk_sgemm_default_kernel(const gemmkit_context *ctx, int64_t m, int64_t n, int64_t k)
{
    const gk_kernel_def *fast = gk_kernel_find(fast_kernel_for(&ctx->info));
    const gk_kernel_def *direct = gk_kernel_find("direct");
    gk_config config;
    gk_geometry g;
    if (!fast || gk_context_resolve(ctx, fast, NULL, &config) != GEMMKIT_SUCCESS ||
        gk_config_geometry(&config, m, n, k, &g) != GEMMKIT_SUCCESS)
        return direct;
    const double work = (double)m * (double)n * (double)k;
    const double padded = (double)round_up(m, g.tile_m) * (double)round_up(n, g.tile_n) *
                          (double)round_up(k, g.k_multiple);
    /* Below ~64^3 multiply-adds, packing costs more than the fast kernel saves. */
    if (work < 262144.0 || padded > 1.5 * work) return direct;
    return fast;
}
