/* Which kernel the strided batched SGEMM runs when the caller names none: the
 * gemm_batched rows of the policy (policy.tsv) over M, N, K (column-major),
 * BATCH, WORK (M*N*K of one matrix) and CUS. A row's kernel must resolve on
 * this device (its tuned line, else its defaults) and fit it (work-group,
 * local memory at this shape); the choice "sgemm" (GK_POLICY_PER_MATRIX) is
 * one plain SGEMM plan per matrix. */
#include <string.h>

#include "batched.h"

typedef struct batched_state {
    const gemmkit_device_info *info;
    const gk_tuning_set *tuned;
    int64_t m, n, k, batch;
    gk_config candidate;
} batched_state;

static int64_t saturated_product(int64_t a, int64_t b, int64_t c)
{
    int64_t ab = 0, abc = 0;
    const int64_t limit = (int64_t)1 << 61; /* as dispatch.c: "WORK + WORK / 2" cannot overflow */
    if (__builtin_mul_overflow(a, b, &ab) || __builtin_mul_overflow(ab, c, &abc) || abc > limit) return limit;
    return abc;
}

static int variables(const gk_policy_rule *rule, gk_variables *vars, void *data)
{
    batched_state *s = data;
    if (rule->kernel) {
        gk_geometry g;
        if (gk_kernel_op(rule->kernel) != GK_OP_SGEMM_BATCHED ||
            gk_tuning_resolve(s->tuned, rule->kernel, &s->candidate) != GEMMKIT_SUCCESS ||
            gk_config_geometry(&s->candidate, s->m, s->n, s->k, &g) != GEMMKIT_SUCCESS ||
            gk_config_check_device(&s->candidate, &g, s->info) != GEMMKIT_SUCCESS)
            return 0;
    } else {
        s->candidate = (gk_config){0};
    }
    gk_variables_set(vars, "M", s->m);
    gk_variables_set(vars, "N", s->n);
    gk_variables_set(vars, "K", s->k);
    gk_variables_set(vars, "BATCH", s->batch);
    gk_variables_set(vars, "WORK", saturated_product(s->m, s->n, s->k));
    gk_variables_set(vars, "CUS", s->info->compute_units);
    return 1;
}

gk_batched_choice gk_batched_choose(const gk_policy *policy, const gemmkit_device_info *info,
                                    const gk_tuning_set *tuned, int64_t m, int64_t n, int64_t k, int64_t batch)
{
    batched_state s = {.info = info, .tuned = tuned, .m = m, .n = n, .k = k, .batch = batch};
    const gk_policy_rule *rule = gk_policy_first(policy, "gemm_batched", GK_STEP_KERNEL, info->is_gpu, variables, &s);
    gk_batched_choice choice = {NULL, {0}};
    if (rule && rule->kernel) {
        choice.def = s.candidate.def;
        choice.config = s.candidate;
    }
    return choice;
}
