/* The representative shapes of the policy's variants as data: rows of
 * src/kernels/tuning/shapes.tsv (embedded like policy.tsv),
 * "routine<TAB>variant<TAB>device<TAB>MxNxK,...[<TAB>note]". They are what
 * `gemmkit tune --variant NAME` times to produce the "KERNEL/NAME" tuning
 * line that the policy's variant row NAME selects. Only parsed and looked
 * up here; the tool decides what to do with them. */
#ifndef GK_TUNE_SHAPES_H
#define GK_TUNE_SHAPES_H

#include <stdint.h>

#include "policy.h"

#define GK_TUNE_SHAPES_MAX_ROWS 32
#define GK_TUNE_SHAPES_PER_ROW 4 /* the tool's timed cases per target (GK_ROUTINE_MAX_CASES) */

typedef struct gk_tune_shapes_row {
    char routine[16];
    char variant[64];
    gk_policy_class device;
    int count;
    int64_t shapes[GK_TUNE_SHAPES_PER_ROW][3]; /* m, n, k, column-major */
    char note[160];
    int line;
} gk_tune_shapes_row;

typedef struct gk_tune_shapes {
    int count;
    gk_tune_shapes_row rows[GK_TUNE_SHAPES_MAX_ROWS];
    char warnings[1024]; /* rows left out, one line each ending in '\n' ("" when none) */
} gk_tune_shapes;

/* Parses a table; a malformed row (field count, device class, a shape that is
 * not MxNxK with positive sizes, too many shapes) is left out with a warning
 * naming `name` and the line. */
void gk_tune_shapes_parse(const char *name, const char *text, gk_tune_shapes *table);

/* The built-in table, parsed once per process (never NULL). */
const gk_tune_shapes *gk_tune_shapes_builtin(void);

/* The first row of routine and variant for a device of this class, or NULL. */
const gk_tune_shapes_row *gk_tune_shapes_find(const gk_tune_shapes *table, const char *routine, const char *variant,
                                              int is_gpu);

#endif
