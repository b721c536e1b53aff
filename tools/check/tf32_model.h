/* A host model of the tensor-core math modes (docs/MATH.md): TF32 rounding as
 * cvt.rna.tf32.f32 does it, one m16n8k8 mma step as the tensor core adds, and
 * one element of C under each summation scheme the kernels could use, so that
 * the accuracy of each design is measured on the CPU against float64.
 *
 * Assumptions (the model, not a specification; NVIDIA documents neither):
 *  - cvt.rna keeps 10 explicit mantissa bits, rounding the 13 dropped bits to
 *    nearest with ties away from zero; Inf and NaN pass through.
 *  - An mma step d = c + a0*b0 + ... + a7*b7 forms the products exactly (11 x
 *    11 significant bits fit fp32), aligns the nine addends to the largest
 *    exponent, truncating bits below that addend's fp32 ulp, adds them exactly
 *    and truncates the sum to fp32 (round toward zero). This is the published
 *    behaviour measured on A100 tensor cores (Fasi et al. 2021; Ootomo and
 *    Yokota 2022): truncation, so errors of a long accumulation in the tensor
 *    core all lean one way. */
#ifndef GK_TF32_MODEL_H
#define GK_TF32_MODEL_H

#include <stdint.h>

/* x rounded to TF32 as cvt.rna.tf32.f32 (the 13 low mantissa bits zero). */
float gk_tf32_rna(float x);

/* One tensor-core step over n <= 8 products (the model above). */
float gk_tc_dot(float c, const float *a, const float *b, int n);

/* How one element of C is summed. */
typedef enum gk_model_scheme {
    GK_MODEL_FP32_FMA,      /* a sequential fp32 FMA loop (gemmkit's fp32 kernels) */
    GK_MODEL_TF32,          /* one TF32 product per k-step, accumulated in the tensor core */
    GK_MODEL_3X_ONE_ACC,    /* big*small, small*big, big*big into one tensor-core accumulator */
    GK_MODEL_3X_SMALL_ACC,  /* the small terms in their own tensor-core accumulator, added at the end */
    GK_MODEL_3X_FP32_BIG,   /* the kernel's design: small terms as above; big*big per k-tile of
                               `ktile` k (a multiple of 8) from zero in the tensor core, added to
                               an fp32 register (round to nearest) */
    GK_MODEL_3X_KTILE,      /* all three products (small terms first) per k-tile of `ktile` k from
                               zero in the tensor core, each k-tile's sum added to an fp32 register */
    GK_MODEL_SCHEME_COUNT
} gk_model_scheme;

const char *gk_model_scheme_name(gk_model_scheme scheme);

/* sum_k a[k*sa] * b[k*sb] under a scheme (a row of A, a column of B); ktile
 * only for GK_MODEL_3X_FP32_BIG. */
float gk_model_dot(gk_model_scheme scheme, int ktile, const float *a, int64_t sa, const float *b, int64_t sb,
                   int64_t k);

#endif
