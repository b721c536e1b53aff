/* A registry kernel with concrete parameter values: its -D options, its
 * launch geometry for a problem size, and its fit to a device. */
#ifndef GK_KERNEL_CONFIG_H
#define GK_KERNEL_CONFIG_H

#include <stdint.h>

#include "gemmkit.h"
#include "registry.h"

typedef struct gk_config {
    const gk_kernel_def *def;
    int values[GK_MAX_PARAMS];
    char options[512]; /* "-DTSM=64 -DTSN=64 ...": for messages and listings */
} gk_config;

typedef struct gk_geometry {
    int64_t local_x, local_y;
    int64_t tile_m, tile_n;
    int64_t k_multiple;
    int64_t k_loop; /* the K granule of the kernel's loop (cost model); >= 1 */
    int64_t local_mem_bytes;
} gk_geometry;

/* Defaults, then `overrides` ("NAME=value,NAME=value"), then the constraints. */
gemmkit_status gk_config_resolve(const gk_kernel_def *def, const char *overrides, gk_config *config);
/* def with these parameter values (one per def->params, in order): constraints checked, options text made;
 * no text parsed (the constraints run compiled, geometry_code.c). */
gemmkit_status gk_config_from_values(const gk_kernel_def *def, const int *values, gk_config *config);

/* Evaluates the geometry for sizes m, n, k (transposes: rows, cols, 0). */
gemmkit_status gk_config_geometry(const gk_config *config, int64_t m, int64_t n, int64_t k,
                                  gk_geometry *geometry);

/* Rejects configurations the device cannot run (work-group size, local memory). */
gemmkit_status gk_config_check_device(const gk_config *config, const gk_geometry *geometry,
                                      const gemmkit_device_info *info);

/* The parameters as typed defines (out holds GK_MAX_PARAMS), plan-only ones left out; returns their count. */
unsigned gk_config_defines(const gk_config *config, gk_define *out);

/* Looks up a parameter's value by name; returns `fallback` when absent. */
int gk_config_value(const gk_config *config, const char *name, int fallback);

#endif
