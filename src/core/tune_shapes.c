/* Parsing and looking up the variants' representative shapes (tune_shapes.h).
 * A bad row is a bug in the built-in table that tests/test_tune_shapes.c
 * catches; at run time it costs a warning and the row. */
#include "tune_shapes.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "tsv_rows.h"

static void warn(gk_tune_shapes *table, const char *name, int line, const char *why)
{
    const size_t used = strlen(table->warnings);
    snprintf(table->warnings + used, sizeof table->warnings - used,
             "gemmkit: shapes %s:%d: %s; ignoring the row\n", name, line, why);
}

/* One positive size and what follows it; 0 when the text is no size. */
static int parse_size(const char **p, int64_t *out)
{
    char *end = NULL;
    errno = 0;
    const long long v = strtoll(*p, &end, 10);
    if (end == *p || errno || v < 1 || v > ((int64_t)1 << 31)) return 0;
    *out = v;
    *p = end;
    return 1;
}

/* "MxNxK,MxNxK" into row->shapes, or "-" (none: a variant that tune does not search); 0 when malformed or too
 * many. */
static int parse_shapes(const char *text, gk_tune_shapes_row *row)
{
    const char *p = text;
    row->count = 0;
    if (strcmp(text, "-") == 0) return 1;
    for (;;) {
        if (row->count == GK_TUNE_SHAPES_PER_ROW) return 0;
        int64_t *s = row->shapes[row->count];
        if (!parse_size(&p, &s[0]) || *p++ != 'x' || !parse_size(&p, &s[1]) || *p++ != 'x' || !parse_size(&p, &s[2]))
            return 0;
        row->count++;
        if (*p == '\0') return 1;
        if (*p++ != ',') return 0;
    }
}

static int parse_row(gk_tune_shapes *table, const char *name, int line, char **f, int count, gk_tune_shapes_row *r)
{
    static const char *const classes[] = {"any", "gpu", "cpu"};
    memset(r, 0, sizeof *r);
    r->line = line;
    int device = -1;
    for (int i = 0; i < 3; i++)
        if (count > 2 && strcmp(f[2], classes[i]) == 0) device = i;
    if (count < 4 || count > 5) warn(table, name, line, "want 4 or 5 tab-separated fields: routine, variant, device, "
                                                        "shapes[, note]");
    else if (device < 0) warn(table, name, line, "unknown device class (gpu, cpu, any)");
    else if (strlen(f[0]) >= sizeof r->routine || strlen(f[1]) >= sizeof r->variant ||
             (count > 4 && strlen(f[4]) >= sizeof r->note))
        warn(table, name, line, "a field too long");
    else if (!parse_shapes(f[3], r))
        warn(table, name, line, "shapes must be MxNxK (positive sizes) separated by commas, at most 4");
    else {
        snprintf(r->routine, sizeof r->routine, "%s", f[0]);
        snprintf(r->variant, sizeof r->variant, "%s", f[1]);
        snprintf(r->note, sizeof r->note, "%s", count > 4 ? f[4] : "");
        r->device = (gk_policy_class)device;
        return 1;
    }
    return 0;
}

typedef struct parsing {
    gk_tune_shapes *table;
    const char *name;
} parsing;

static int take_row(char **fields, int count, int line, void *data)
{
    parsing *p = data;
    gk_tune_shapes *table = p->table;
    if (table->count == GK_TUNE_SHAPES_MAX_ROWS) {
        warn(table, p->name, line, "too many rows");
        return 0;
    }
    if (parse_row(table, p->name, line, fields, count, &table->rows[table->count])) table->count++;
    return 1;
}

void gk_tune_shapes_parse(const char *name, const char *text, gk_tune_shapes *table)
{
    table->count = 0;
    table->warnings[0] = '\0';
    parsing p = {table, name};
    gk_tsv_each_row(text, take_row, &p);
}

static gk_tune_shapes builtin;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void parse_builtin(void)
{
    const char *text = gk_kernel_source("tuning/shapes.tsv");
    gk_tune_shapes_parse("(built-in) src/kernels/tuning/shapes.tsv", text ? text : "", &builtin);
}

const gk_tune_shapes *gk_tune_shapes_builtin(void)
{
    pthread_once(&builtin_once, parse_builtin);
    return &builtin;
}

const gk_tune_shapes_row *gk_tune_shapes_find(const gk_tune_shapes *table, const char *routine, const char *variant,
                                              int is_gpu)
{
    for (int i = 0; i < table->count; i++) {
        const gk_tune_shapes_row *r = &table->rows[i];
        const int fits = r->device == GK_CLASS_ANY || (r->device == GK_CLASS_GPU) == (is_gpu != 0);
        if (fits && strcmp(r->routine, routine) == 0 && strcmp(r->variant, variant) == 0) return r;
    }
    return NULL;
}
