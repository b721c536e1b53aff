/* Launches registry kernels over a rows x cols grid of tiles (see launch.h). */
#include "launch.h"

#include "status.h"

static size_t groups_times(int64_t size, int64_t tile, int64_t local)
{
    return (size_t)((size + tile - 1) / tile * local);
}

gemmkit_status gk_launch_grid(gemmkit_context *ctx, const gk_config *config, int64_t rows, int64_t cols,
                              const gk_arg *args, unsigned count, double *elapsed_ms)
{
    gk_geometry g;
    GK_TRY(gk_config_geometry(config, rows, cols, 0, &g));
    size_t global[2] = {groups_times(rows, g.tile_m, g.local_x), groups_times(cols, g.tile_n, g.local_y)};
    return gk_context_launch(ctx, config, &g, 2, global, args, count, elapsed_ms);
}

gemmkit_status gk_launch_named(gemmkit_context *ctx, const char *name, const char *params, int64_t rows,
                               int64_t cols, const gk_arg *args, unsigned count, double *elapsed_ms)
{
    const gk_kernel_def *def = gk_kernel_find(name);
    if (!def) return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "kernel %s is not registered", name);
    gk_config config;
    GK_TRY(gk_config_resolve(def, params, &config));
    return gk_launch_grid(ctx, &config, rows, cols, args, count, elapsed_ms);
}
