/* Resolves registry kernels into concrete configurations. */
#include "kernel_config.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "geometry_code.h"
#include "status.h"

static int param_count(const gk_kernel_def *def)
{
    int n = 0;
    while (n < GK_MAX_PARAMS && def->params[n].name) n++;
    return n;
}

static gemmkit_status eval(const gk_config *config, const char *text, const gk_variables *vars,
                           int64_t *out)
{
    char error[256];
    if (!text) text = "1";
    if (gk_expr_eval(text, vars, out, error, sizeof error) != 0)
        return gk_fail(GEMMKIT_ERROR_INVALID_KERNEL_PARAMS, "kernel %s: registry expression: %s",
                       config->def->name, error);
    return GEMMKIT_SUCCESS;
}

/* Applies one "NAME=value" override. */
static gemmkit_status apply_override(gk_config *config, const char *item, size_t len)
{
    char buf[96];
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, item, len);
    buf[len] = '\0';
    char *eq = strchr(buf, '=');
    if (!eq)
        return gk_fail(GEMMKIT_ERROR_INVALID_KERNEL_PARAMS,
                       "kernel %s: parameter override \"%s\" is not NAME=value", config->def->name, buf);
    *eq = '\0';
    char *end = NULL;
    long value = strtol(eq + 1, &end, 10);
    if (end == eq + 1 || *end != '\0')
        return gk_fail(GEMMKIT_ERROR_INVALID_KERNEL_PARAMS, "kernel %s: value of %s is not an integer",
                       config->def->name, buf);
    for (int i = 0; i < param_count(config->def); i++) {
        if (strcmp(config->def->params[i].name, buf) == 0) {
            config->values[i] = (int)value;
            return GEMMKIT_SUCCESS;
        }
    }
    return gk_fail(GEMMKIT_ERROR_INVALID_KERNEL_PARAMS, "kernel %s has no parameter %s",
                   config->def->name, buf);
}

static gemmkit_status resolve_text(const gk_kernel_def *def, const char *overrides, gk_config *config);

/* Every registry row's defaults resolved once per process (a call resolves the kernels it weighs that have no
 * tuned line: their constraints and defines are the same every time). */
static gk_config *default_configs;
static gemmkit_status *default_status;
static size_t default_count;
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;

static void resolve_defaults(void)
{
    const size_t count = gk_kernel_count();
    default_configs = calloc(count, sizeof *default_configs);
    default_status = calloc(count, sizeof *default_status);
    if (!default_configs || !default_status) return;
    for (size_t i = 0; i < count; i++) default_status[i] = resolve_text(gk_kernel_at(i), NULL, &default_configs[i]);
    default_count = count;
}

gemmkit_status gk_config_resolve(const gk_kernel_def *def, const char *overrides, gk_config *config)
{
    if (!overrides) {
        pthread_once(&defaults_once, resolve_defaults);
        for (size_t i = 0; i < default_count; i++)
            if (default_configs[i].def == def && default_status[i] == GEMMKIT_SUCCESS) {
                *config = default_configs[i];
                return GEMMKIT_SUCCESS;
            }
    }
    return resolve_text(def, overrides, config); /* with the message of a default that fails */
}

/* The constraints (compiled, else as text, which says why one fails) and the options text of the values. */
static gemmkit_status check_and_describe(gk_config *config)
{
    const gk_kernel_def *def = config->def;
    const gk_compiled_kernel *ck = gk_compiled_kernel_for(def);
    int held = -1, failing = 0;
    if (ck) {
        int64_t slots[GK_MAX_VARIABLES];
        gk_compiled_slots(ck, config->values, 0, 0, 0, slots);
        held = gk_compiled_constraints(ck, slots, &failing);
    }
    if (held == 0)
        return gk_fail(GEMMKIT_ERROR_INVALID_KERNEL_PARAMS, "kernel %s: constraint \"%s\" fails", def->name,
                       def->constraints[failing]);
    gk_variables vars;
    if (held < 0) gk_geometry_variables(def, config->values, 0, 0, 0, &vars);
    for (int i = 0; held < 0 && i < GK_MAX_CONSTRAINTS && def->constraints[i]; i++) {
        int64_t ok = 0;
        GK_TRY(eval(config, def->constraints[i], &vars, &ok));
        if (!ok)
            return gk_fail(GEMMKIT_ERROR_INVALID_KERNEL_PARAMS, "kernel %s: constraint \"%s\" fails",
                           def->name, def->constraints[i]);
    }
    size_t used = 0;
    for (int i = 0; i < param_count(def); i++)
        used += (size_t)snprintf(config->options + used, sizeof config->options - used, "%s%s%s=%d",
                                 i ? " " : "", def->params[i].plan_only ? "" : "-D", def->params[i].name,
                                 config->values[i]);
    return GEMMKIT_SUCCESS;
}

static gemmkit_status resolve_text(const gk_kernel_def *def, const char *overrides, gk_config *config)
{
    memset(config, 0, sizeof *config);
    config->def = def;
    int n = param_count(def);
    for (int i = 0; i < n; i++) config->values[i] = def->params[i].default_value;

    for (const char *p = overrides; p && *p;) {
        while (*p == ',' || isspace((unsigned char)*p)) p++;
        if (!*p) break;
        size_t len = strcspn(p, ", ");
        GK_TRY(apply_override(config, p, len));
        p += len;
    }

    return check_and_describe(config);
}

gemmkit_status gk_config_from_values(const gk_kernel_def *def, const int *values, gk_config *config)
{
    memset(config, 0, sizeof *config);
    config->def = def;
    for (int i = 0; i < param_count(def); i++) config->values[i] = values[i];
    return check_and_describe(config);
}

/* A field of the geometry: its compiled code, else its text (which says what is wrong). */
static gemmkit_status geometry_field(const gk_config *config, const gk_compiled_kernel *ck, const int64_t *slots,
                                     gk_geometry_field field, int64_t m, int64_t n, int64_t k, int64_t *out)
{
    if (ck && gk_compiled_geometry(ck, field, slots, out)) return GEMMKIT_SUCCESS;
    const char *text = gk_geometry_text(config->def, field);
    if (!text) {
        *out = 0;
        return GEMMKIT_SUCCESS;
    }
    gk_variables vars;
    gk_geometry_variables(config->def, config->values, m, n, k, &vars);
    return eval(config, text, &vars, out);
}

gemmkit_status gk_config_geometry(const gk_config *config, int64_t m, int64_t n, int64_t k,
                                  gk_geometry *g)
{
    const gk_kernel_def *def = config->def;
    const gk_compiled_kernel *ck = gk_compiled_kernel_for(def);
    int64_t slots[GK_MAX_VARIABLES];
    if (ck) gk_compiled_slots(ck, config->values, m, n, k, slots);
    GK_TRY(geometry_field(config, ck, slots, GK_GEO_LOCAL_X, m, n, k, &g->local_x));
    GK_TRY(geometry_field(config, ck, slots, GK_GEO_LOCAL_Y, m, n, k, &g->local_y));
    GK_TRY(geometry_field(config, ck, slots, GK_GEO_TILE_M, m, n, k, &g->tile_m));
    GK_TRY(geometry_field(config, ck, slots, GK_GEO_TILE_N, m, n, k, &g->tile_n));
    GK_TRY(geometry_field(config, ck, slots, GK_GEO_K_MULTIPLE, m, n, k, &g->k_multiple));
    GK_TRY(geometry_field(config, ck, slots, GK_GEO_K_LOOP, m, n, k, &g->k_loop));
    GK_TRY(geometry_field(config, ck, slots, GK_GEO_LOCAL_MEM, m, n, k, &g->local_mem_bytes));
    if (g->local_x < 1 || g->local_y < 1 || g->tile_m < 1 || g->tile_n < 1 || g->k_multiple < 1 ||
        g->k_loop < 1)
        return gk_fail(GEMMKIT_ERROR_INVALID_KERNEL_PARAMS,
                       "kernel %s: geometry must be positive (local %lldx%lld, tile %lldx%lld, k %lld, "
                       "k loop %lld)",
                       def->name, (long long)g->local_x, (long long)g->local_y, (long long)g->tile_m,
                       (long long)g->tile_n, (long long)g->k_multiple, (long long)g->k_loop);
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_config_check_device(const gk_config *config, const gk_geometry *g,
                                      const gemmkit_device_info *info)
{
    int64_t items = g->local_x * g->local_y;
    if (info->max_work_group_size && (size_t)items > info->max_work_group_size)
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE,
                       "kernel %s (%s): work-group of %lld work-items exceeds the device's %zu",
                       config->def->name, config->options, (long long)items, info->max_work_group_size);
    /* Dynamic local memory goes beyond the static limit the info gives; the backend checks it at launch. */
    if (info->local_mem_bytes && (size_t)g->local_mem_bytes > info->local_mem_bytes &&
        !(config->def->flags & GK_FLAG_DYNAMIC_LOCAL))
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE,
                       "kernel %s (%s): needs %lld bytes of local memory, the device has %zu",
                       config->def->name, config->options, (long long)g->local_mem_bytes,
                       info->local_mem_bytes);
    return GEMMKIT_SUCCESS;
}

unsigned gk_config_defines(const gk_config *config, gk_define *out)
{
    unsigned count = 0;
    for (int i = 0; i < param_count(config->def); i++)
        if (!config->def->params[i].plan_only) out[count++] = (gk_define){config->def->params[i].name, config->values[i]};
    return count;
}

int gk_config_value(const gk_config *config, const char *name, int fallback)
{
    for (int i = 0; i < param_count(config->def); i++)
        if (strcmp(config->def->params[i].name, name) == 0) return config->values[i];
    return fallback;
}
