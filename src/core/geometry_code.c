/* See geometry_code.h. */
#include "geometry_code.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct compiled_field {
    gk_expr_node *nodes; /* NULL: no text (value 0), or it did not compile (the text path says why) */
    int count;
    int present;         /* the row has text for it */
} compiled_field;

struct gk_compiled_kernel {
    const gk_kernel_def *def;
    int params;
    int param_slot[GK_MAX_PARAMS]; /* parameter i's slot */
    int size_slot[3];             /* the slots of M, N, K */
    int rows_slot, cols_slot;     /* ROWS and COLS (M and N again) */
    compiled_field fields[GK_GEO_FIELDS];
    compiled_field constraints[GK_MAX_CONSTRAINTS];
};

static gk_compiled_kernel *compiled; /* one per registry row, in gk_kernel_at's order; kept for the process */
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
    case GK_GEO_K_LOOP: text = def->k_loop ? def->k_loop : def->k_multiple; break;
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

static int slot_of(const gk_variables *vars, const char *name)
{
    for (int i = 0; i < vars->count; i++)
        if (strcmp(vars->names[i], name) == 0) return i;
    return 0; /* every name is set by gk_geometry_variables */
}

static compiled_field compile_field(const char *text, const gk_variables *vars)
{
    compiled_field f = {NULL, 0, text != NULL};
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

static void compile_one(const gk_kernel_def *def, gk_compiled_kernel *ck)
{
    gk_variables vars;
    gk_geometry_variables(def, NULL, 0, 0, 0, &vars);
    ck->def = def;
    ck->params = 0;
    for (; ck->params < GK_MAX_PARAMS && def->params[ck->params].name; ck->params++)
        ck->param_slot[ck->params] = slot_of(&vars, def->params[ck->params].name);
    ck->size_slot[0] = slot_of(&vars, "M");
    ck->size_slot[1] = slot_of(&vars, "N");
    ck->size_slot[2] = slot_of(&vars, "K");
    ck->rows_slot = slot_of(&vars, "ROWS");
    ck->cols_slot = slot_of(&vars, "COLS");
    for (int f = 0; f < GK_GEO_FIELDS; f++)
        ck->fields[f] = compile_field(gk_geometry_text(def, (gk_geometry_field)f), &vars);
    for (int c = 0; c < GK_MAX_CONSTRAINTS && def->constraints[c]; c++)
        ck->constraints[c] = compile_field(def->constraints[c], &vars);
}

static void compile_all(void)
{
    const size_t count = gk_kernel_count();
    compiled = calloc(count, sizeof *compiled);
    if (!compiled) return; /* every call then evaluates the text */
    for (size_t i = 0; i < count; i++) compile_one(gk_kernel_at(i), &compiled[i]);
    compiled_count = count;
}

const gk_compiled_kernel *gk_compiled_kernel_for(const gk_kernel_def *def)
{
    pthread_once(&compiled_once, compile_all);
    for (size_t i = 0; i < compiled_count; i++)
        if (compiled[i].def == def) return &compiled[i];
    return NULL;
}

void gk_compiled_slots(const gk_compiled_kernel *ck, const int *values, int64_t m, int64_t n, int64_t k,
                       int64_t *slots)
{
    for (int i = 0; i < ck->params; i++) slots[ck->param_slot[i]] = values ? values[i] : 0;
    slots[ck->size_slot[0]] = m;
    slots[ck->size_slot[1]] = n;
    slots[ck->size_slot[2]] = k;
    slots[ck->rows_slot] = m;
    slots[ck->cols_slot] = n;
}

int gk_compiled_geometry(const gk_compiled_kernel *ck, gk_geometry_field field, const int64_t *slots, int64_t *out)
{
    const compiled_field *f = &ck->fields[field];
    if (!f->present) {
        *out = 0;
        return 1;
    }
    return f->nodes && gk_expr_run(f->nodes, f->count, slots, out, NULL) == 0;
}

int gk_compiled_constraints(const gk_compiled_kernel *ck, const int64_t *slots, int *failing)
{
    for (int c = 0; c < GK_MAX_CONSTRAINTS && ck->def->constraints[c]; c++) {
        const compiled_field *f = &ck->constraints[c];
        int64_t ok = 0;
        if (!f->nodes || gk_expr_run(f->nodes, f->count, slots, &ok, NULL) != 0) return -1;
        if (!ok) {
            *failing = c;
            return 0;
        }
    }
    return 1;
}
