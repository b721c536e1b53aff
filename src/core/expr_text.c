/* Expressions as text over string-keyed variables (gk_expr_eval, expr.h):
 * compiled over the table's names and evaluated on the spot, for the
 * registry's geometry and constraint strings, which are not on the hot path
 * of a call (the policy compiles its conditions once, policy.c). */
#include "expr.h"

#include <stdlib.h>
#include <string.h>

int gk_expr_eval(const char *text, const gk_variables *vars, int64_t *result, char *error, int error_size)
{
    gk_expr_node local[128];
    const size_t need = strlen(text) + 1; /* enough nodes for any text (gk_expr_compile) */
    gk_expr_code code = {local, (int)(sizeof local / sizeof local[0]), 0, 0};
    if (need > sizeof local / sizeof local[0]) {
        code.nodes = need <= INT32_MAX ? malloc(need * sizeof *code.nodes) : NULL;
        code.capacity = code.nodes ? (int)need : 0;
    }
    int status = gk_expr_compile(text, vars->names, vars->count, &code, error, error_size);
    gk_expr_fault fault;
    if (status == 0 && gk_expr_run(code.nodes, code.count, vars->values, result, &fault) != 0) {
        gk_expr_fault_message(&fault, text, error, error_size);
        status = -1;
    }
    if (code.nodes != local) free(code.nodes);
    return status;
}

int gk_variables_set(gk_variables *vars, const char *name, int64_t value)
{
    for (int i = 0; i < vars->count; i++) {
        if (strcmp(vars->names[i], name) == 0) {
            vars->values[i] = value;
            return 1;
        }
    }
    if (vars->count >= GK_MAX_VARIABLES) return 0;
    vars->names[vars->count] = name;
    vars->values[vars->count++] = value;
    return 1;
}

int gk_variables_get(const gk_variables *vars, const char *name, int64_t *value)
{
    for (int i = 0; i < vars->count; i++) {
        if (strcmp(vars->names[i], name) == 0) {
            *value = vars->values[i];
            return 1;
        }
    }
    return 0;
}
