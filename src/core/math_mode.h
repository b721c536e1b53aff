/* Math modes (gemmkit_math, docs/MATH.md): the public names, which devices can
 * compute in each, and the mode of one SGEMM call. */
#ifndef GK_MATH_MODE_H
#define GK_MATH_MODE_H

#include "context.h"
#include "registry.h"

/* The registry's mode of a public one (GEMMKIT_MATH_DEFAULT: none, returns 0). */
int gk_math_from_public(gemmkit_math math, gk_math *out);
gemmkit_math gk_math_to_public(gk_math math);

/* GEMMKIT_SUCCESS when the context's device computes in `math`; otherwise
 * GEMMKIT_ERROR_UNSUPPORTED_MATH with a message naming the device and why.
 * Tensor-core modes need an NVIDIA GPU of compute capability 8.0 or newer
 * (mma.sync with TF32 operands), known from the context's arch ("sm_90"). */
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
