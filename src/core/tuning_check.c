/* Whether a device can use a tuning-database line: the kernel exists, the
 * parameters pass its constraints, and the launch fits the device's limits.
 * Checked once when a context loads the database, so that a bad line costs
 * a warning instead of sending the dispatch to another kernel; the resolved
 * configuration is what the context's calls then use. */
#include <stdio.h>
#include <string.h>

#include "kernel_config.h"
#include "policy.h"
#include "status.h"
#include "tuning.h"

/* Geometry is checked at this size: only the slides' tile_m depends on the
 * problem, and no work-group size or local-memory need does. */
#define CHECK_SIZE 1024

/* The status message without its "kernel NAME (options): " prefix, which the warning already says. */
static const char *reason(void)
{
    const char *message = gemmkit_last_error_message();
    const char *colon = strncmp(message, "kernel ", 7) == 0 ? strstr(message, ": ") : NULL;
    return colon ? colon + 2 : message;
}

int gk_tuning_check_entry(const gk_tuning_entry *e, const gemmkit_device_info *info, gk_config *config, char *why,
                          size_t why_size)
{
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
    /* The routine whose policy rows name the variants of this kernel's operation. */
    const char *routine = gk_kernel_op(def) == GK_OP_SGEMM           ? "gemm"
                          : gk_kernel_op(def) == GK_OP_SGEMM_BATCHED ? "gemm_batched"
                                                                     : NULL;
    if (variant && (!routine || !gk_policy_has_variant(gk_policy_builtin(), routine, variant + 1))) {
        snprintf(why, why_size,
                 "unknown variant \"%s\" (SGEMM and batched kernels have the variants policy.tsv names: /small, ...)",
                 variant + 1);
        return -1;
    }
    /* The checks report through gk_fail; keep the caller's last message. */
    char saved[512];
    snprintf(saved, sizeof saved, "%s", gemmkit_last_error_message());
    gk_geometry g;
    const int64_t k = routine ? CHECK_SIZE : 0;
    int fails = gk_config_resolve(def, e->params, config) != GEMMKIT_SUCCESS ||
                gk_config_geometry(config, CHECK_SIZE, CHECK_SIZE, k, &g) != GEMMKIT_SUCCESS ||
                gk_config_check_device(config, &g, info) != GEMMKIT_SUCCESS;
    if (fails) snprintf(why, why_size, "%s", reason());
    gk_fail(GEMMKIT_SUCCESS, "%s", saved);
    return fails ? -1 : 0;
}
