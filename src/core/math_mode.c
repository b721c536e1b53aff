/* Math modes: names, the device test, the context's default and the mode of a call. */
#include "math_mode.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "status.h"

static const char *const names[] = {"default", "fp32", "3xtf32", "tf32"};

const char *gemmkit_math_name(gemmkit_math math)
{
    return math >= GEMMKIT_MATH_DEFAULT && math <= GEMMKIT_MATH_TF32 ? names[math] : "unknown";
}

gemmkit_status gemmkit_math_parse(const char *name, gemmkit_math *math)
{
    if (!name || !math) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "name or math is NULL");
    for (int m = GEMMKIT_MATH_DEFAULT; m <= GEMMKIT_MATH_TF32; m++)
        if (strcasecmp(name, names[m]) == 0) {
            *math = (gemmkit_math)m;
            return GEMMKIT_SUCCESS;
        }
    return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "\"%s\" is no math mode (fp32, 3xtf32, tf32)", name);
}

int gk_math_from_public(gemmkit_math math, gk_math *out)
{
    switch (math) {
    case GEMMKIT_MATH_FP32: *out = GK_MATH_FP32; return 1;
    case GEMMKIT_MATH_3XTF32: *out = GK_MATH_3XTF32; return 1;
    case GEMMKIT_MATH_TF32: *out = GK_MATH_TF32; return 1;
    default: return 0;
    }
}

gemmkit_math gk_math_to_public(gk_math math)
{
    return math == GK_MATH_3XTF32 ? GEMMKIT_MATH_3XTF32 : math == GK_MATH_TF32 ? GEMMKIT_MATH_TF32 : GEMMKIT_MATH_FP32;
}

gemmkit_status gk_math_supported(const gemmkit_context *ctx, gk_math math)
{
    if (math == GK_MATH_FP32) return GEMMKIT_SUCCESS;
    const char *mode = gemmkit_math_name(gk_math_to_public(math));
    /* Only NVIDIA devices get an arch ("sm_XY") from either backend. */
    const int cc = strncmp(ctx->arch, "sm_", 3) == 0 ? atoi(ctx->arch + 3) : 0;
    if (cc >= 80) return GEMMKIT_SUCCESS;
    if (cc > 0)
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_MATH,
                       "math mode %s needs TF32 tensor cores (compute capability 8.0 or newer); %s is %s", mode,
                       ctx->info.name, ctx->arch);
    return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_MATH,
                   "math mode %s needs TF32 tensor cores (an NVIDIA GPU of compute capability 8.0 or newer); "
                   "%s is none (fp32 runs everywhere)",
                   mode, ctx->info.name);
}

gemmkit_status gk_math_from_env(gk_math *math)
{
    *math = GK_MATH_FP32;
    const char *env = getenv("GEMMKIT_MATH");
    if (!env || !*env) return GEMMKIT_SUCCESS;
    gemmkit_math m;
    if (gemmkit_math_parse(env, &m) != GEMMKIT_SUCCESS || m == GEMMKIT_MATH_DEFAULT)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "GEMMKIT_MATH=\"%s\": expected fp32, 3xtf32 or tf32", env);
    gk_math_from_public(m, math);
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_sgemm_math_slow(const gemmkit_context *ctx, const gemmkit_options *options, gk_math *math)
{
    const gemmkit_math asked = options ? options->math : GEMMKIT_MATH_DEFAULT;
    gk_math mode = (gk_math)atomic_load_explicit(&ctx->math, memory_order_relaxed);
    if (asked != GEMMKIT_MATH_DEFAULT && !gk_math_from_public(asked, &mode))
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "options->math = %d is no math mode", (int)asked);
    const gk_kernel_def *def = options && options->kernel ? gk_kernel_find(options->kernel) : NULL;
    if (def) {
        if (asked != GEMMKIT_MATH_DEFAULT && mode != def->math)
            return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "kernel \"%s\" computes in math mode %s, not %s", def->name,
                           gemmkit_math_name(gk_math_to_public(def->math)), gemmkit_math_name(asked));
        mode = def->math;
    }
    GK_TRY(gk_math_supported(ctx, mode));
    *math = mode;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_context_set_math(gemmkit_context *ctx, gemmkit_math math)
{
    if (!ctx) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx is NULL");
    gk_math mode;
    if (!gk_math_from_public(math, &mode))
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "math = %d: expected GEMMKIT_MATH_FP32, _3XTF32 or _TF32",
                       (int)math);
    /* Every device of the context computes its tiles in the mode. */
    for (int d = 0; d < ctx->device_count; d++) GK_TRY(gk_math_supported(gk_context_device(ctx, d), mode));
    pthread_mutex_lock(&ctx->lock);
    atomic_store_explicit(&ctx->math, (int)mode, memory_order_relaxed);
    pthread_mutex_unlock(&ctx->lock);
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_context_get_math(gemmkit_context *ctx, gemmkit_math *math)
{
    if (!ctx || !math) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx or math is NULL");
    *math = gk_math_to_public((gk_math)atomic_load_explicit(&ctx->math, memory_order_relaxed));
    return GEMMKIT_SUCCESS;
}
