/* The cost model's choice among the policy's candidate rows (dispatch_model.c). */
#ifndef GK_DISPATCH_MODEL_H
#define GK_DISPATCH_MODEL_H

#include "sgemm.h"

/* The most K-slices the model weighs (powers of two from 2, each within its split-K build's own SPLITS limit): a
 * small C over a K of 10^5-10^6 needs hundreds of slices to put a work-group on every compute unit. */
#define GK_MODEL_MAX_SPLITS 1024

/* What the model's choice reads of a call. */
typedef struct gk_model_call {
    const gemmkit_device_info *info;
    const gemmkit_context *ctx; /* NULL: a described device (kernels limited to a backend or architecture skipped) */
    const gk_tuning_set *tuned; /* its lines and cost constants */
    int64_t m, n, k;
    int trans_a, trans_b, beta_nonzero;
    gk_math math;
    unsigned storage; /* GK_COST_IN_PLACE_* (operands a packing plan could use as they are), GK_COST_SCALAR_C */
} gk_model_call;

/* 1 when the policy has candidate rows for this device class and math mode: the model chooses. */
int gk_model_applies(const gk_policy *policy, const gk_model_call *call);
/* The cheapest candidate: 1 and *choice (and *splits, 1 for none), or 0 when no candidate can run the call. */
int gk_model_choose(const gk_policy *policy, const gk_model_call *call, gk_sgemm_choice *choice, int *splits);
/* Every candidate, cheapest first (ties in the walk's order, so out[0] is gk_model_choose's); their count. */
int gk_model_candidates(const gk_policy *policy, const gk_model_call *call, gk_sgemm_candidate *out, int max);

/* The split-K build's configuration of a tuned line: the line's values for the parameters both have, the
 * build's defaults for the others, SPLITS = splits; 0 when its constraints refuse it. */
int gk_split_config(const gk_kernel_def *split, const gk_config *line, int splits, gk_config *out);
/* The kernel whose split-K build def is (def itself when it slices no K, or has no base). */
const gk_kernel_def *gk_model_unsplit(const gk_kernel_def *def);
/* The split-K build a split run of def launches: def itself when it slices K, else its split-K build (NULL: none). */
const gk_kernel_def *gk_model_split_build(const gk_kernel_def *def);

/* The gemm routine's variables of a shape and a call (policy.h's GK_GEMM_* slots; a configuration's read 0). */
void gk_gemm_shape_variables(int64_t *values, int64_t m, int64_t n, int64_t k, int64_t compute_units, int trans_a,
                             int trans_b, int aligned_a, int aligned_b, gk_math math);

#endif
