/* A small integer expression evaluator for the registry's geometry and
 * constraint strings ("TSM/WPTM", "TSM % WPTM == 0 && WIDTH <= 8"). */
#ifndef GK_EXPR_H
#define GK_EXPR_H

#include <stdint.h>

#define GK_MAX_VARIABLES 24

typedef struct gk_variables {
    int count;
    const char *names[GK_MAX_VARIABLES];
    int64_t values[GK_MAX_VARIABLES];
} gk_variables;

/* Sets (or adds) a variable; returns 0 when the table is full. */
int gk_variables_set(gk_variables *vars, const char *name, int64_t value);
/* Returns 1 and the value when found. */
int gk_variables_get(const gk_variables *vars, const char *name, int64_t *value);

/* Evaluates `text`; returns 0 on success, else -1 with a message in error. */
int gk_expr_eval(const char *text, const gk_variables *vars, int64_t *result, char *error,
                 int error_size);

#endif
