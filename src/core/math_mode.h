/* Math modes (gemmkit_math, docs/MATH.md): the public names, which devices can
 * compute in each, and the mode of one SGEMM call. */
#ifndef GK_MATH_MODE_H
#define GK_MATH_MODE_H

#include "context.h"
#include "registry.h"

/* What the planner does for a mode: the mode's kernels on the operands (fp32, tf32); 3xTF32's split of each
 * operand into TF32 parts, in the kernels' registers or by the plan first (GK_CONTRACT_GEMM_SPLIT ...); the Ozaki
 * scheme's slices, INT8 products and recombination (GK_CONTRACT_GEMM_OZAKI, plan_ozaki.c). */
typedef enum gk_math_plan { GK_MATH_PLAN_KERNEL, GK_MATH_PLAN_SPLIT, GK_MATH_PLAN_OZAKI } gk_math_plan;

/* One math mode (a row of math_mode.c's table). */
typedef struct gk_math_mode {
    gemmkit_math public_value;
    gk_math mode;
    const char *name; /* gemmkit_math_name's */
    /* GEMMKIT_SUCCESS when the context's device computes in the mode, else GEMMKIT_ERROR_UNSUPPORTED_MATH
     * with a message naming the device and why. */
    gemmkit_status (*supported)(const gemmkit_context *ctx, const char *name);
    /* The test bound per element relative to |alpha||A||B| + |beta||C0| for a depth of k (tools/check). */
    double (*bound)(int64_t k);
    const char *error_bound; /* the bound in words (docs/MATH.md) */
    gk_math_plan plan;
    /* Where set and true, a call keeps this mode's own kernels where the policy's math rows would serve it with
     * another mode's (int8x: GEMMKIT_OZAKI_MODULI set asks for the scheme itself); read per call. */
    int (*pinned)(void);
} gk_math_mode;

/* The row of a mode (fp32's for a value out of range). */
const gk_math_mode *gk_math_mode_of(gk_math math);

/* Whether a call in `math` keeps its mode's own kernels (the row's pinned test; 0 where it has none). */
int gk_math_pinned(gk_math math);

/* The registry's mode of a public one (GEMMKIT_MATH_DEFAULT: none, returns 0). */
int gk_math_from_public(gemmkit_math math, gk_math *out);
gemmkit_math gk_math_to_public(gk_math math);

/* GEMMKIT_SUCCESS when the context's device computes in `math`; otherwise
 * GEMMKIT_ERROR_UNSUPPORTED_MATH with a message naming the device and why.
 * (the row's test: TF32 tensor cores for 3xtf32 and tf32, fp64 for int8x). */
gemmkit_status gk_math_supported(const gemmkit_context *ctx, gk_math math);

/* The mode of the environment variable GEMMKIT_MATH (fp32 when unset or
 * empty); GEMMKIT_ERROR_INVALID_ARGUMENT for a value that names no mode. */
gemmkit_status gk_math_from_env(gk_math *math);

/* The mode an SGEMM call computes in, checked against the device: a named
 * kernel's own (options->math, when set, must agree), else options->math,
 * else the context's. An unknown kernel name is left to the kernel choice. */
gemmkit_status gk_sgemm_math_slow(const gemmkit_context *ctx, const gemmkit_options *options, gk_math *math);
/* Inline for the common call: no options and an fp32 context, which every device runs. */
static inline gemmkit_status gk_sgemm_math(const gemmkit_context *ctx, const gemmkit_options *options, gk_math *math)
{
    if (!options && atomic_load_explicit(&ctx->math, memory_order_relaxed) == GK_MATH_FP32) {
        *math = GK_MATH_FP32;
        return GEMMKIT_SUCCESS;
    }
    return gk_sgemm_math_slow(ctx, options, math);
}

#endif
