/* Whether a device can use a tuning-database line: the kernel exists, the
 * parameters pass its constraints, and the launch fits the device's limits.
 * Checked once when a context loads the database, so that a bad line costs
 * a warning instead of sending the dispatch to another kernel; the resolved
 * configuration is what the context's calls then use. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_config.h"
#include "policy.h"
#include "status.h"
#include "tuning.h"

/* Geometry is checked at this size: only the slides' tile_m depends on the
 * problem, and no work-group size or local-memory need does, but for the tiny
 * batched kernel's (whole matrices in local memory): its lines are checked at
 * the largest size the policy sends it (M = N = K = 32), where its local
 * memory is that of at least one whole matrix. */
#define CHECK_SIZE 1024
#define CHECK_SIZE_BATCHED_SMALL 32

/* The status message without its "kernel NAME (options): " prefix, which the warning already says. */
static const char *reason(void)
{
    const char *message = gemmkit_last_error_message();
    const char *colon = strncmp(message, "kernel ", 7) == 0 ? strstr(message, ": ") : NULL;
    return colon ? colon + 2 : message;
}

/* The lines that hold a setting of the library, not a registry kernel's
 * parameters (tuning.h): the setting's name (the line's kernel field), its
 * one parameter, and what applies without a line. Every setting is a number
 * >= 0 or "inf". */
typedef struct setting {
    const char *name, *param, *without;
} setting;
static const setting settings[] = {
    {GK_TUNING_BLAS_THRESHOLD, GK_TUNING_BLAS_THRESHOLD_PARAM, "the drop-in's default threshold"},
};

static const setting *find_setting(const char *kernel)
{
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++)
        if (strcmp(kernel, settings[i].name) == 0) return &settings[i];
    return NULL;
}

const char *gk_tuning_setting_default(const char *kernel)
{
    if (gk_cost_is_line(kernel)) return "the cost model's defaults";
    const setting *s = find_setting(kernel);
    return s ? s->without : "the registry defaults";
}

/* A setting line's params: exactly "PARAM=VALUE", VALUE a number >= 0 or "inf". */
static int check_setting(const setting *s, const gk_tuning_entry *e, double *value, char *why, size_t why_size)
{
    const size_t len = strlen(s->param);
    const char *v = e->params;
    if (strncmp(v, s->param, len) != 0 || v[len] != '=') {
        snprintf(why, why_size, "expected %s=<number>|inf", s->param);
        return -1;
    }
    v += len + 1;
    char *end = NULL;
    const double x = strtod(v, &end); /* "inf" and "infinity" too, any case */
    if (end == v || *end || !(x >= 0.0)) {
        snprintf(why, why_size, "%s \"%.40s\" is not a number >= 0 or inf", s->param, v);
        return -1;
    }
    *value = x;
    return 0;
}

/* The routine whose policy rows name the variants of def's operation; NULL: none. */
static const char *variant_routine(const gk_kernel_def *def)
{
    return gk_kernel_op(def) == GK_OP_SGEMM ? "gemm" : gk_kernel_op(def) == GK_OP_SGEMM_BATCHED ? "gemm_batched" : NULL;
}

/* Whether the policy in use has no row for variant `variant` of def (NULL: no such kernel). */
static int unknown_variant(const gk_kernel_def *def, const char *variant)
{
    const char *routine = def ? variant_routine(def) : NULL;
    return !routine || !gk_policy_has_variant(gk_policy_builtin(), routine, variant);
}

int gk_tuning_unknown_variant(const gk_tuning_entry *e)
{
    if (gk_cost_is_line(e->kernel)) return 0;
    char name[sizeof e->kernel];
    snprintf(name, sizeof name, "%s", e->kernel);
    char *variant = strchr(name, '/');
    if (!variant) return 0;
    *variant = '\0';
    return unknown_variant(gk_kernel_find(name), variant + 1);
}

int gk_tuning_check_entry(const gk_tuning_entry *e, const gemmkit_device_info *info, gk_tuned *t, char *why,
                          size_t why_size)
{
    t->value = 0.0;
    const setting *s = find_setting(e->kernel);
    if (s) {
        memset(&t->config, 0, sizeof t->config); /* no kernel: config.def NULL */
        return check_setting(s, e, &t->value, why, why_size);
    }
    if (gk_cost_is_line(e->kernel)) {
        memset(&t->config, 0, sizeof t->config);
        gk_cost_constants scratch = {0};
        return gk_cost_apply(e->kernel, e->params, &scratch, why, why_size);
    }
    gk_config *const config = &t->config;
    /* "KERNEL/VARIANT" lines ("xgemm/small", "xgemm/narrow-n") hold parameters of KERNEL. */
    char name[sizeof e->kernel];
    snprintf(name, sizeof name, "%s", e->kernel);
    char *variant = strchr(name, '/');
    if (variant) *variant = '\0';
    const gk_kernel_def *def = gk_kernel_find(name);
    if (!def || gk_kernel_is_helper(def)) {
        snprintf(why, why_size, "no kernel named \"%s\" in this gemmkit", name);
        return -1;
    }
    const char *routine = variant_routine(def);
    if (variant && unknown_variant(def, variant + 1)) {
        snprintf(why, why_size,
                 "unknown variant \"%s\" (SGEMM and batched kernels have the variants policy.tsv names: /small, ...)",
                 variant + 1);
        return -1;
    }
    /* The checks report through gk_fail; keep the caller's last message. */
    char saved[512];
    snprintf(saved, sizeof saved, "%s", gemmkit_last_error_message());
    gk_geometry g;
    const int64_t size = def->contract == GK_CONTRACT_GEMM_BATCHED_SMALL ? CHECK_SIZE_BATCHED_SMALL : CHECK_SIZE;
    const int64_t k = routine ? size : 0;
    int fails = gk_config_resolve(def, e->params, config) != GEMMKIT_SUCCESS ||
                gk_config_geometry(config, size, size, k, &g) != GEMMKIT_SUCCESS ||
                gk_config_check_device(config, &g, info) != GEMMKIT_SUCCESS;
    if (fails) snprintf(why, why_size, "%s", reason());
    gk_fail(GEMMKIT_SUCCESS, "%s", saved);
    return fails ? -1 : 0;
}
