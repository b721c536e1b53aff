/* Which kernel a transposition or copy runs when the caller names none: the
 * omatcopy rows of the policy (src/kernels/tuning/policy.tsv, policy.h). Its
 * parameters come from the tuning database (gk_context_resolve). */
#include <string.h>

#include "transpose.h"

typedef struct omatcopy_state {
    const gemmkit_device_info *info;
    const gk_transpose_problem *problem;
} omatcopy_state;

static int omatcopy_variables(const gk_policy_rule *rule, int64_t *values, void *data)
{
    const omatcopy_state *s = data;
    const gk_transpose_problem *p = s->problem;
    values[GK_OMATCOPY_TRANS] = p->trans;
    values[GK_OMATCOPY_ROWS] = p->rows;
    values[GK_OMATCOPY_COLS] = p->cols;
    values[GK_OMATCOPY_OFFA] = (int64_t)p->a.offset;
    values[GK_OMATCOPY_LDA] = p->a.ld;
    values[GK_OMATCOPY_OFFB] = (int64_t)p->b.offset;
    values[GK_OMATCOPY_LDB] = p->b.ld;
    values[GK_OMATCOPY_CUS] = s->info->compute_units;
    values[GK_OMATCOPY_CUDA] = strcmp(s->info->backend, "cuda") == 0; /* the same kernel compiles differently there */
    return 1;
}

const gk_kernel_def *gk_omatcopy_choose(const gk_policy *policy, const gemmkit_device_info *info,
                                        const gk_transpose_problem *p)
{
    omatcopy_state s = {info, p};
    const gk_policy_rule *rule = gk_policy_first(policy, GK_ROUTINE_OMATCOPY, GK_STEP_KERNEL, info->is_gpu, omatcopy_variables, &s);
    if (rule) return rule->kernel;
    /* No row holds (a broken table): the simplest kernels, which run anywhere. */
    return gk_kernel_find(p->trans ? "lecture-transpose-naive" : "lecture-copy");
}
