/* The steps around an SGEMM kernel, by its contract (plan_gemm.c). */
#ifndef GK_PLAN_GEMM_H
#define GK_PLAN_GEMM_H

#include "sgemm.h"

/* A chosen kernel and the problem it runs (the context locked). */
typedef struct gk_sgemm_planning {
    gemmkit_context *ctx;
    const gk_config *config;
    const gk_geometry *g; /* the configuration's geometry for the problem */
    const gk_sgemm_problem *p;
    int policy_chose; /* 1: the library chose the kernel, so its copy rows may copy A and B first; 0: named */
} gk_sgemm_planning;

/* Appends the kernel's steps and those around it (copies, packing, reduction) to the plan. */
gemmkit_status gk_sgemm_plan_kernel(const gk_sgemm_planning *s, gk_plan *plan);

/* Math mode int8x's steps around its product kernel (GK_CONTRACT_GEMM_OZAKI, plan_ozaki.c). */
gemmkit_status gk_sgemm_plan_ozaki(const gk_sgemm_planning *s, gk_plan *plan);
/* The number of moduli of an int8x call: GEMMKIT_OZAKI_MODULI (2-20) where set to a count, else (unset or "auto")
 * from its operands' spread
 * (gk_ozaki_moduli_for_spread; measured on the device, one wait; 8 on the caller's queue or stream); an error for
 * a value out of range, too few for K, or a failed measurement. */
gemmkit_status gk_ozaki_moduli(gemmkit_context *ctx, const gk_sgemm_problem *p, int *moduli);
/* The automatic count for the largest spread of op(A)'s rows and op(B)'s columns, each in quarter bits
 * (ceil(4 log2(sqrt(K) |x|_2 / |x|_1))), at depth k: 8, one more per 2 bits of the two past 9, at least 12 where
 * either is at its cap (one element dominating a row, K >= 16), at most 20. */
int gk_ozaki_moduli_for_spread(int quarter_bits_a, int quarter_bits_b, int64_t k);
/* Whether GEMMKIT_OZAKI_MODULI is set at all (a count or "auto"): the caller asks for the scheme itself on every
 * shape, so int8x is pinned (math_mode.c); read per call. */
int gk_ozaki_scheme_asked(void);

/* Whether a packed kernel of geometry g over `splits` slices of K (1: none) pads its operands and C's partials within
 * the 32-bit indices of its kernels and copies; the cost model and the planner ask the same question. */
int gk_sgemm_packed_fits(const gk_geometry *g, int64_t m, int64_t n, int64_t k, int64_t splits);
/* Whether split-K's partials on the operands as stored (splits of round_up(m, 4) x n) fit 32-bit indices. */
int gk_sgemm_partials_fit(int64_t m, int64_t n, int64_t splits);

#endif
