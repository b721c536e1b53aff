/* The cost model's choice among the policy's candidate rows (dispatch_model.c). */
#ifndef GK_DISPATCH_MODEL_H
#define GK_DISPATCH_MODEL_H

#include "sgemm.h"

/* What the model's choice reads of a call. */
typedef struct gk_model_call {
    const gemmkit_device_info *info;
    const gemmkit_context *ctx; /* NULL: a described device (kernels limited to a backend or architecture skipped) */
    const gk_tuning_set *tuned; /* its lines and cost constants */
    int64_t m, n, k;
    int trans_a, trans_b, beta_nonzero;
    gk_math math;
} gk_model_call;

/* 1 when the policy has candidate rows for this device class and math mode: the model chooses. */
int gk_model_applies(const gk_policy *policy, const gk_model_call *call);
/* The cheapest candidate: 1 and *choice (and *splits, 1 for none), or 0 when no candidate can run the call. */
int gk_model_choose(const gk_policy *policy, const gk_model_call *call, gk_sgemm_choice *choice, int *splits);
/* Every candidate, cheapest first (ties in the walk's order, so out[0] is gk_model_choose's); their count. */
int gk_model_candidates(const gk_policy *policy, const gk_model_call *call, gk_sgemm_candidate *out, int max);

#endif
