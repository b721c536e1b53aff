/* Math modes as a table (`modes`): one row per mode with its public value, name, device test, error bound and
 * what the planner does for it; then the context's default and the mode of a call, read from the rows. A new
 * mode is one row here, its kernels in the registry (each row's `math`) and, where it needs steps of its own
 * around them, its contract's planner (plan_gemm.c). */
#include "math_mode.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plan_gemm.h"
#include "status.h"

/* Tensor cores for TF32 (mma.sync with TF32 operands): an NVIDIA GPU of compute capability 8.0 or newer, known
 * from the context's arch ("sm_90"), which only NVIDIA devices get from either backend. */
static gemmkit_status needs_tf32_cores(const gemmkit_context *ctx, const char *mode)
{
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

static gemmkit_status runs_everywhere(const gemmkit_context *ctx, const char *mode)
{
    (void)ctx;
    (void)mode;
    return GEMMKIT_SUCCESS;
}

/* The Ozaki scheme recombines in fp64 (ozaki_crt.cl); its INT8 products run on any device (the portable kernel),
 * on tensor cores where the registry has a kernel for them. */
static gemmkit_status needs_fp64(const gemmkit_context *ctx, const char *mode)
{
    if (ctx->fp64) return GEMMKIT_SUCCESS;
    return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_MATH,
                   "math mode %s recombines its residues in fp64, which %s lacks (fp32 runs everywhere)", mode,
                   ctx->info.name);
}

/* Test bounds per element relative to |alpha||A||B| + |beta||C0| (tools/check, gk_sgemm_bound). */
static double fp32_bound(int64_t k) { return 2.0 * (double)(k + 2) * FLT_EPSILON; }
static double three_bound(int64_t k) { return 2.0 * fp32_bound(k) + 16.0 * FLT_EPSILON; }
static double tf32_bound(int64_t k) { return ldexp(4.0, -11) + three_bound(k); }

static const gk_math_mode modes[GK_MATH_COUNT] = {
    [GK_MATH_FP32] = {GEMMKIT_MATH_FP32, GK_MATH_FP32, "fp32", runs_everywhere, fp32_bound,
                      "2 (K + 2) eps relative to |A||B| (fp32 FMA, any order)", GK_MATH_PLAN_KERNEL},
    [GK_MATH_3XTF32] = {GEMMKIT_MATH_3XTF32, GK_MATH_3XTF32, "3xtf32", needs_tf32_cores, three_bound,
                        "twice fp32's + 16 eps (two TF32 parts per operand, three products, partials in fp32)",
                        GK_MATH_PLAN_SPLIT},
    [GK_MATH_TF32] = {GEMMKIT_MATH_TF32, GK_MATH_TF32, "tf32", needs_tf32_cores, tf32_bound,
                      "4 * 2^-11 + 3xtf32's (each operand rounded or truncated to TF32)", GK_MATH_PLAN_KERNEL},
    /* The default moduli's error measured at or below fp32's (tests/test_ozaki.c); as a test bound 3xtf32's. */
    [GK_MATH_INT8X] = {GEMMKIT_MATH_INT8X, GK_MATH_INT8X, "int8x", needs_fp64, three_bound,
                       "about 2^(-4 moduli) of |row of A|_2 |column of B|_2 (integer slices, exact INT8 products, "
                       "CRT in fp64)",
                       GK_MATH_PLAN_OZAKI, gk_ozaki_scheme_asked},
};

const gk_math_mode *gk_math_mode_of(gk_math math) { return &modes[math >= 0 && math < GK_MATH_COUNT ? math : 0]; }

static const gk_math_mode *mode_of_public(gemmkit_math math)
{
    for (int m = 0; m < GK_MATH_COUNT; m++)
        if (modes[m].public_value == math) return &modes[m];
    return NULL;
}

/* "fp32, 3xtf32, tf32 or int8x" from the rows, into list. */
typedef struct mode_names {
    char text[128];
} mode_names;
static mode_names mode_list(void)
{
    mode_names list = {""};
    size_t used = 0;
    for (int m = 0; m < GK_MATH_COUNT && used < sizeof list.text; m++)
        used += (size_t)snprintf(list.text + used, sizeof list.text - used, "%s%s",
                                 m == 0 ? "" : m + 1 < GK_MATH_COUNT ? ", " : " or ", modes[m].name);
    return list;
}

const char *gemmkit_math_name(gemmkit_math math)
{
    if (math == GEMMKIT_MATH_DEFAULT) return "default";
    const gk_math_mode *row = mode_of_public(math);
    return row ? row->name : "unknown";
}

gemmkit_status gemmkit_math_parse(const char *name, gemmkit_math *math)
{
    if (!name || !math) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "name or math is NULL");
    if (strcasecmp(name, "default") == 0) {
        *math = GEMMKIT_MATH_DEFAULT;
        return GEMMKIT_SUCCESS;
    }
    for (int m = 0; m < GK_MATH_COUNT; m++)
        if (strcasecmp(name, modes[m].name) == 0) {
            *math = modes[m].public_value;
            return GEMMKIT_SUCCESS;
        }
    return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "\"%s\" is no math mode (%s)", name, mode_list().text);
}

int gk_math_from_public(gemmkit_math math, gk_math *out)
{
    const gk_math_mode *row = mode_of_public(math);
    if (!row) return 0;
    *out = row->mode;
    return 1;
}

int gk_math_pinned(gk_math math)
{
    const gk_math_mode *row = gk_math_mode_of(math);
    return row->pinned && row->pinned();
}

gemmkit_math gk_math_to_public(gk_math math) { return gk_math_mode_of(math)->public_value; }

gemmkit_status gk_math_supported(const gemmkit_context *ctx, gk_math math)
{
    const gk_math_mode *row = gk_math_mode_of(math);
    return row->supported(ctx, row->name);
}

gemmkit_status gk_math_from_env(gk_math *math)
{
    *math = GK_MATH_FP32;
    const char *env = getenv("GEMMKIT_MATH");
    if (!env || !*env) return GEMMKIT_SUCCESS;
    gemmkit_math m;
    if (gemmkit_math_parse(env, &m) != GEMMKIT_SUCCESS || m == GEMMKIT_MATH_DEFAULT)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "GEMMKIT_MATH=\"%s\": expected %s", env, mode_list().text);
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
                           gk_math_mode_of(def->math)->name, gemmkit_math_name(asked));
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
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "math = %d: expected a mode (%s)", (int)math, mode_list().text);
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
