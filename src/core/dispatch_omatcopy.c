/* Which kernel a transposition or copy runs when the caller names none: the
 * omatcopy rows of the policy (src/kernels/tuning/policy.tsv, policy.h). Its
 * parameters come from the tuning database (gk_context_resolve). */
#include "transpose.h"

typedef struct omatcopy_state {
    const gemmkit_device_info *info;
    const gk_transpose_problem *problem;
} omatcopy_state;

static int omatcopy_variables(const gk_policy_rule *rule, gk_variables *vars, void *data)
{
    const omatcopy_state *s = data;
    const gk_transpose_problem *p = s->problem;
    gk_variables_set(vars, "TRANS", p->trans);
    gk_variables_set(vars, "ROWS", p->rows);
    gk_variables_set(vars, "COLS", p->cols);
    gk_variables_set(vars, "OFFA", (int64_t)p->a.offset);
    gk_variables_set(vars, "LDA", p->a.ld);
    gk_variables_set(vars, "OFFB", (int64_t)p->b.offset);
    gk_variables_set(vars, "LDB", p->b.ld);
    gk_variables_set(vars, "CUS", s->info->compute_units);
    return 1;
}

const gk_kernel_def *gk_omatcopy_choose(const gk_policy *policy, const gemmkit_device_info *info,
                                        const gk_transpose_problem *p)
{
    omatcopy_state s = {info, p};
    const gk_policy_rule *rule = gk_policy_first(policy, "omatcopy", GK_STEP_KERNEL, info->is_gpu, omatcopy_variables, &s);
    if (rule) return rule->kernel;
    /* No row holds (a broken table): the simplest kernels, which run anywhere. */
    return gk_kernel_find(p->trans ? "lecture-transpose-naive" : "lecture-copy");
}
