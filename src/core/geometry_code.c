/* See geometry_code.h. */
#include "geometry_code.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct compiled_field {
    gk_expr_node *nodes; /* NULL: not compiled (the text path reports the error), or no text (value 0) */
    int count;
} compiled_field;

typedef struct compiled_kernel {
    const gk_kernel_def *def;
    compiled_field fields[GK_GEO_FIELDS];
} compiled_kernel;

static compiled_kernel *compiled; /* one per registry row, in gk_kernel_at's order; kept for the process */
static size_t compiled_count;
static pthread_once_t compiled_once = PTHREAD_ONCE_INIT;

const char *gk_geometry_text(const gk_kernel_def *def, gk_geometry_field field)
{
    const char *text = NULL;
    switch (field) {
    case GK_GEO_LOCAL_X: text = def->local_x; break;
    case GK_GEO_LOCAL_Y: text = def->local_y; break;
    case GK_GEO_TILE_M: text = def->tile_m; break;
    case GK_GEO_TILE_N: text = def->tile_n; break;
    case GK_GEO_K_MULTIPLE: text = def->k_multiple; break;
    case GK_GEO_LOCAL_MEM: return def->local_mem_bytes;
    case GK_GEO_FIELDS: break;
    }
    return text ? text : "1";
}

void gk_geometry_variables(const gk_kernel_def *def, const int *values, int64_t m, int64_t n, int64_t k,
                           gk_variables *vars)
{
    vars->count = 0;
    for (int i = 0; i < GK_MAX_PARAMS && def->params[i].name; i++)
        gk_variables_set(vars, def->params[i].name, values ? values[i] : 0);
    gk_variables_set(vars, "M", m);
    gk_variables_set(vars, "N", n);
    gk_variables_set(vars, "K", k);
    gk_variables_set(vars, "ROWS", m);
    gk_variables_set(vars, "COLS", n);
}

static compiled_field compile_field(const char *text, const gk_variables *vars)
{
    compiled_field f = {NULL, 0};
    if (!text) return f;
    const size_t need = strlen(text) + 1; /* enough nodes for any text (gk_expr_compile) */
    gk_expr_code code = {malloc(need * sizeof(gk_expr_node)), (int)need, 0, 0};
    char error[128];
    if (code.nodes && gk_expr_compile(text, vars->names, vars->count, &code, error, sizeof error) == 0) {
        f.nodes = code.nodes;
        f.count = code.count;
    } else {
        free(code.nodes);
    }
    return f;
}

static void compile_all(void)
{
    const size_t count = gk_kernel_count();
    compiled = calloc(count, sizeof *compiled);
    if (!compiled) return; /* every call then evaluates the text */
    for (size_t i = 0; i < count; i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        gk_variables vars;
        gk_geometry_variables(def, NULL, 0, 0, 0, &vars);
        compiled[i].def = def;
        for (int f = 0; f < GK_GEO_FIELDS; f++)
            compiled[i].fields[f] = compile_field(gk_geometry_text(def, (gk_geometry_field)f), &vars);
    }
    compiled_count = count;
}

int gk_geometry_run(const gk_kernel_def *def, gk_geometry_field field, const gk_variables *vars, int64_t *out)
{
    pthread_once(&compiled_once, compile_all);
    for (size_t i = 0; i < compiled_count; i++) {
        if (compiled[i].def != def) continue;
        const compiled_field *f = &compiled[i].fields[field];
        if (!f->nodes) {
            if (gk_geometry_text(def, field)) return 0;
            *out = 0;
            return 1;
        }
        return gk_expr_run(f->nodes, f->count, vars->values, out, NULL) == 0;
    }
    return 0;
}
