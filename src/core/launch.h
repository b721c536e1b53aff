/* Launching a registry kernel over a rows x cols problem with its registry
 * geometry: one work-group of local_x x local_y work-items per tile_m x tile_n
 * block. Used for the transposes and the SGEMM helpers (padding, scaling). */
#ifndef GK_LAUNCH_H
#define GK_LAUNCH_H

#include "context.h"

/* Adds the kernel's device time to *elapsed_ms when that is non-NULL. */
gemmkit_status gk_launch_grid(gemmkit_context *ctx, const gk_config *config, int64_t rows, int64_t cols,
                              const gk_arg *args, unsigned count, double *elapsed_ms);

/* The same for a kernel looked up by name, with "NAME=value" overrides (or NULL). */
gemmkit_status gk_launch_named(gemmkit_context *ctx, const char *name, const char *params, int64_t rows,
                               int64_t cols, const gk_arg *args, unsigned count, double *elapsed_ms);

#endif
