/* The registry kernels' geometry expressions and constraints compiled once
 * per process, so that a call's geometry and a configuration's check are a
 * few runs of the stack machine (expr_run.c), with no text parsed and no
 * variable looked up by name on its path. A kernel's variables always sit in
 * the same slots: its parameters in order, then M, N, K, ROWS, COLS
 * (gk_geometry_variables), whatever the configuration's values. */
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
    GK_GEO_K_LOOP,
    GK_GEO_LOCAL_MEM,
    GK_GEO_FIELDS
} gk_geometry_field;

/* The expression text of a field ("1" where the registry leaves local_x..k_multiple unset, k_multiple's for an
 * unset k_loop; NULL for an unset local_mem_bytes, which is 0). */
const char *gk_geometry_text(const gk_kernel_def *def, gk_geometry_field field);

/* def's variables by name for a configuration's values (NULL: zeros) and a problem's sizes: what the text
 * path evaluates over, in the slots the compiled code reads. */
void gk_geometry_variables(const gk_kernel_def *def, const int *values, int64_t m, int64_t n, int64_t k,
                           gk_variables *vars);

/* A registry row's compiled code; NULL for a def that is no registry row (or when memory ran out). The first
 * call compiles every row's; thread-safe. */
typedef struct gk_compiled_kernel gk_compiled_kernel;
const gk_compiled_kernel *gk_compiled_kernel_for(const gk_kernel_def *def);

/* The slots' values for a configuration's values and a problem's sizes (GK_MAX_VARIABLES of them). */
void gk_compiled_slots(const gk_compiled_kernel *ck, const int *values, int64_t m, int64_t n, int64_t k,
                       int64_t *slots);

/* A field's value: 1, or 0 when its text did not compile or the run faulted (the caller then evaluates the
 * text, which says why). */
int gk_compiled_geometry(const gk_compiled_kernel *ck, gk_geometry_field field, const int64_t *slots, int64_t *out);

/* The constraints: 1 when all hold, 0 when constraint *failing does not, -1 when one did not compile or faulted. */
int gk_compiled_constraints(const gk_compiled_kernel *ck, const int64_t *slots, int *failing);

#endif
