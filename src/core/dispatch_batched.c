/* Which kernel the strided batched SGEMM runs when the caller names none: the
 * gemm_batched rows of the policy (policy.tsv) over M, N, K (column-major),
 * BATCH, WORK (M*N*K of one matrix) and CUS. A row's kernel must resolve on
 * this device (its tuned line, else its defaults) and fit it (work-group,
 * local memory at this shape); the choice "sgemm" (GK_POLICY_PER_MATRIX) is
 * one plain SGEMM plan per matrix. Then the first variant row whose tuned
 * "KERNEL/CHOICE" line this device has (and which fits it at this shape)
 * replaces the kernel's own parameters, as for SGEMM (dispatch.c). */
#include <string.h>

#include "batched.h"

typedef struct batched_state {
    const gemmkit_device_info *info;
    const gk_tuning_set *tuned;
    int64_t m, n, k, batch;
    gk_config candidate;
    const gk_kernel_def *chosen; /* variant rows: the kernel chosen */
} batched_state;

static int fits(batched_state *s, const gk_config *config)
{
    gk_geometry g;
    return gk_config_geometry(config, s->m, s->n, s->k, &g) == GEMMKIT_SUCCESS &&
           gk_config_check_device(config, &g, s->info) == GEMMKIT_SUCCESS;
}

static void set_variables(const batched_state *s, int64_t *values)
{
    values[GK_BATCHED_M] = s->m;
    values[GK_BATCHED_N] = s->n;
    values[GK_BATCHED_K] = s->k;
    values[GK_BATCHED_BATCH] = s->batch;
    values[GK_BATCHED_WORK] = gk_policy_product(s->m, s->n, s->k);
    values[GK_BATCHED_CUS] = s->info->compute_units;
}

static int variables(const gk_policy_rule *rule, int64_t *values, void *data)
{
    batched_state *s = data;
    if (rule->kernel) {
        if (gk_kernel_op(rule->kernel) != GK_OP_SGEMM_BATCHED ||
            gk_tuning_resolve(s->tuned, rule->kernel, &s->candidate) != GEMMKIT_SUCCESS || !fits(s, &s->candidate))
            return 0;
    } else {
        s->candidate = (gk_config){0};
    }
    set_variables(s, values);
    return 1;
}

static int variant_variables(const gk_policy_rule *rule, int64_t *values, void *data)
{
    batched_state *s = data;
    const gk_tuned *variant = gk_tuning_find_variant(s->tuned, s->chosen->name, rule->choice);
    if (!variant || !fits(s, &variant->config)) return 0;
    s->candidate = variant->config;
    set_variables(s, values);
    return 1;
}

gk_batched_choice gk_batched_choose(const gk_policy *policy, const gemmkit_device_info *info,
                                    const gk_tuning_set *tuned, int64_t m, int64_t n, int64_t k, int64_t batch)
{
    batched_state s = {.info = info, .tuned = tuned, .m = m, .n = n, .k = k, .batch = batch};
    const gk_policy_rule *rule = gk_policy_first(policy, GK_ROUTINE_GEMM_BATCHED, GK_STEP_KERNEL, info->is_gpu, variables, &s);
    gk_batched_choice choice = {NULL, {0}};
    if (rule && rule->kernel) {
        choice.def = s.candidate.def;
        choice.config = s.candidate;
        s.chosen = choice.def;
        if (gk_policy_first(policy, GK_ROUTINE_GEMM_BATCHED, GK_STEP_VARIANT, info->is_gpu, variant_variables, &s))
            choice.config = s.candidate;
    }
    return choice;
}
