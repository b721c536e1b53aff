/* The registry kernels' geometry expressions compiled once per process, so
 * that a call's geometry is a few runs of the stack machine (expr_run.c),
 * with no text parsed on its path. A kernel's variables always sit in the
 * same slots: its parameters in order, then M, N, K, ROWS, COLS
 * (geometry_code_variables), whatever the configuration's values. */
#ifndef GK_GEOMETRY_CODE_H
#define GK_GEOMETRY_CODE_H

#include "expr.h"
#include "registry.h"

typedef enum gk_geometry_field {
    GK_GEO_LOCAL_X,
    GK_GEO_LOCAL_Y,
    GK_GEO_TILE_M,
    GK_GEO_TILE_N,
    GK_GEO_K_MULTIPLE,
    GK_GEO_LOCAL_MEM,
    GK_GEO_FIELDS
} gk_geometry_field;

/* The expression text of a field ("1" where the registry leaves local_x..k_multiple unset; NULL for an
 * unset local_mem_bytes, which is 0). */
const char *gk_geometry_text(const gk_kernel_def *def, gk_geometry_field field);

/* def's variables for a configuration's values and a problem's sizes, in the slots the code reads. */
void gk_geometry_variables(const gk_kernel_def *def, const int *values, int64_t m, int64_t n, int64_t k,
                           gk_variables *vars);

/* Runs field's compiled code over vars (from gk_geometry_variables). Returns 1 and *out, or 0 when def is
 * not a registry row, the text did not compile or the run faulted: the caller then evaluates the text,
 * which reports why. Thread-safe; the first call compiles every row's code. */
int gk_geometry_run(const gk_kernel_def *def, gk_geometry_field field, const gk_variables *vars, int64_t *out);

#endif
