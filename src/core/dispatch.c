/* Which kernel and parameters the public SGEMM uses for a call (its shape, math mode and operands' orientation) when the
 * caller names none: the gemm rows of the policy (src/kernels/tuning/policy.tsv,
 * policy.h) over this file's variables. Steps: the kernel; then its tuned
 * variant line ("xgemm/small") if one fits; then split-K (the row's
 * strided kernel with the choice's tiles and gk_sgemm_splits slices); then a
 * fallback (to direct) that may replace the choice. When the plan is built,
 * the copy rows (gk_sgemm_copy_choose) say whether an operand of a kernel
 * reading them as stored is first copied into another layout. No row matching: direct,
 * which serves every shape on every device. A row whose kernel computes in
 * another math mode than the call's is skipped (registry.h, gk_math): fp32
 * calls never meet a tensor-core kernel, and a tensor-core call gets its
 * mode's kernel or none (def NULL). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "decision_cache.h"
#include "dispatch_model.h"
#include "math_mode.h"
#include "plan.h"
#include "sgemm.h"

typedef struct gemm_state {
    const gemmkit_device_info *info;
    const gemmkit_context *ctx; /* NULL when choosing for a described device: kernels limited to a backend or an
                                   architecture are then skipped */
    const gk_tuning_set *tuned;
    int64_t m, n, k;
    gk_math math;           /* the call's: rows of kernels in another mode are skipped */
    int pinned;             /* the call keeps its mode (gk_math_pinned): no math row serves it */
    /* The operands as stored: their orientation for a call's every step (0 when choosing by shape alone: an NN
     * call), their alignment for copy rows only (elsewhere aligned). */
    int trans_a, trans_b, unaligned_a, unaligned_b;
    int beta_nonzero; /* C is read (0 when choosing by shape alone) */
    unsigned storage; /* GK_COST_IN_PLACE_*, GK_COST_SCALAR_*: what gk_sgemm_storage says (0 by shape alone) */
    gk_config candidate;    /* kernel rows: the row's kernel on this device */
    const gk_config *chosen; /* variant and fallback rows: the choice so far */
    const gk_tuned *variant; /* variant rows: the row's tuned line */
    gk_config split;         /* split rows: the row's kernel with the chosen tiles and its slices */
} gemm_state;

unsigned gk_sgemm_storage(const gk_sgemm_problem *p)
{
    const unsigned a = !p->trans_a && p->a.offset == 0 && p->a.ld == p->m;
    const unsigned b = !p->trans_b && p->b.offset == 0 && p->b.ld == p->k;
    const unsigned c = p->c.offset == 0 && p->c.ld == p->m && p->alpha == 1.0f && p->beta == 0.0f;
    return (a ? GK_COST_IN_PLACE_A : 0) | (b ? GK_COST_IN_PLACE_B : 0) | (c ? GK_COST_IN_PLACE_C : 0) |
           (gk_matrix_float4_columns(&p->c) ? 0 : GK_COST_SCALAR_C) |
           (gk_matrix_float4_columns(&p->a) ? 0 : GK_COST_SCALAR_A) |
           (gk_matrix_float4_columns(&p->b) ? 0 : GK_COST_SCALAR_B);
}

int gk_sgemm_splits(int64_t compute_units, int64_t groups, int64_t m, int64_t n, int64_t k)
{
    if (compute_units < 1 || groups < 1) return 1;
    int64_t splits = (GK_SPLITK_WAVES * compute_units + groups - 1) / groups;
    if (splits > GK_SPLITK_MAX_SPLITS) splits = GK_SPLITK_MAX_SPLITS;
    if (splits > k / GK_SPLITK_MIN_SLICE) splits = k / GK_SPLITK_MIN_SLICE;
    const int64_t edge = m > n ? m : n;
    if (edge > 0 && splits > 2 * k / edge) splits = 2 * k / edge;
    int power = 1;
    while (power * 2 <= splits) power *= 2;
    return power;
}

int gk_sgemm_splits_by_waves(int64_t compute_units, int64_t groups, int64_t k, int64_t k_step)
{
    if (compute_units < 1 || groups < 1 || k < 1) return 1;
    if (k_step < 1) k_step = 1;
    int best = 1;
    int64_t best_cost = 0;
    for (int splits = 1; splits <= GK_SPLITK_WAVE_MAX && (splits == 1 || k / splits >= GK_SPLITK_MIN_SLICE); splits++) {
        const int64_t kslice = gk_round_up((k + splits - 1) / splits, k_step);
        const int64_t waves = (groups * splits + compute_units - 1) / compute_units;
        const int64_t cost = waves * (kslice + GK_SPLITK_UNIT_OVERHEAD_K);
        if (splits == 1 || cost < best_cost) best = splits, best_cost = cost;
    }
    return best;
}

int gk_sgemm_splits_for(const gk_kernel_def *def, int64_t k_step, int64_t compute_units, int64_t groups, int64_t m,
                        int64_t n, int64_t k)
{
    if (def->flags & GK_FLAG_SPLIT_BY_WAVES) return gk_sgemm_splits_by_waves(compute_units, groups, k, k_step);
    return gk_sgemm_splits(compute_units, groups, m, n, k);
}

/* The shape's, the device's and the call's variables; those of a configuration 0. */
static void set_shape_variables(const gemm_state *s, int64_t *values)
{
    gk_gemm_shape_variables(values, s->m, s->n, s->k, s->info->compute_units, s->trans_a, s->trans_b, !s->unaligned_a,
                            !s->unaligned_b, s->math);
}

/* The shape's and the device's variables, and those of configuration c. */
static int set_variables(const gemm_state *s, const gk_config *c, int64_t *values)
{
    gk_geometry g;
    if (gk_config_geometry(c, s->m, s->n, s->k, &g) != GEMMKIT_SUCCESS) return 0;
    set_shape_variables(s, values);
    values[GK_GEMM_TILE_M] = g.tile_m;
    values[GK_GEMM_TILE_N] = g.tile_n;
    values[GK_GEMM_TILE_K] = g.k_multiple;
    values[GK_GEMM_GROUPS] =
        gk_policy_product((s->m + g.tile_m - 1) / g.tile_m, (s->n + g.tile_n - 1) / g.tile_n, 1);
    values[GK_GEMM_PADDED] = gk_policy_product(gk_round_up(s->m, g.tile_m), gk_round_up(s->n, g.tile_n),
                                               gk_round_up(s->k, g.k_multiple));
    values[GK_GEMM_PACKED] = gk_kernel_packs_operands(c->def);
    values[GK_GEMM_A_DESC] = gk_config_value(c, "A_DESC", 0);
    return 1;
}

/* Whether the row's kernel can run on the device chosen for. */
static int runs_here(const gemm_state *s, const gk_kernel_def *def)
{
    if (s->ctx) return gk_plan_kernel_runs_here(s->ctx, def);
    return def->backends == 0 && def->arch_specific == 0 && def->min_capability == 0;
}

static int kernel_variables(const gk_policy_rule *rule, int64_t *values, void *data)
{
    gemm_state *s = data;
    return gk_kernel_op(rule->kernel) == GK_OP_SGEMM && rule->kernel->math == s->math && runs_here(s, rule->kernel) &&
           gk_tuning_resolve(s->tuned, rule->kernel, &s->candidate) == GEMMKIT_SUCCESS &&
           set_variables(s, &s->candidate, values);
}

static int variant_variables(const gk_policy_rule *rule, int64_t *values, void *data)
{
    gemm_state *s = data;
    s->variant = gk_tuning_find_variant(s->tuned, s->chosen->def->name, rule->choice);
    return s->variant && set_variables(s, s->chosen, values);
}

/* The split-K kernel def with the chosen configuration's values for the
 * parameters both have (its tiles) and SPLITS from gk_sgemm_splits; 0 unless
 * def is the split-K build of the chosen kernel (its source), or when one
 * slice is all. */
static int split_config(gemm_state *s, const gk_kernel_def *def)
{
    gk_geometry g;
    if (!gk_kernel_slices_k(def) || gk_kernel_slices_k(s->chosen->def) || strcmp(def->source, s->chosen->def->source) ||
        gk_config_geometry(s->chosen, s->m, s->n, s->k, &g) != GEMMKIT_SUCCESS)
        return 0;
    const int64_t groups = gk_policy_product((s->m + g.tile_m - 1) / g.tile_m, (s->n + g.tile_n - 1) / g.tile_n, 1);
    const int by_waves = (def->flags & GK_FLAG_SPLIT_BY_WAVES) != 0;
    int splits = gk_sgemm_splits_for(def, gk_config_value(s->chosen, "TSK", 1), s->info->compute_units, groups, s->m,
                                     s->n, s->k);
    /* A split row holds where splitting paid, also with several work-groups
     * per unit already (mid sizes, policy.tsv): two slices there. Not for a
     * count by waves, where one slice can be the cheapest. */
    if (!by_waves && splits < 2 && s->k >= 2 * GK_SPLITK_MIN_SLICE) splits = 2;
    return splits >= 2 && gk_split_config(def, s->chosen, splits, &s->split);
}

static int split_variables(const gk_policy_rule *rule, int64_t *values, void *data)
{
    gemm_state *s = data;
    return rule->kernel->math == s->math && split_config(s, rule->kernel) && set_variables(s, s->chosen, values);
}

static int chosen_variables(const gk_policy_rule *rule, int64_t *values, void *data)
{
    const gemm_state *s = data;
    return rule->kernel->math == s->math && set_variables(s, s->chosen, values);
}

/* The kernel step alone: 1 and the candidate, or 0 (no row holds). */
static int kernel_step(const gk_policy *policy, gemm_state *s)
{
    return gk_policy_first(policy, GK_ROUTINE_GEMM, GK_STEP_KERNEL, s->info->is_gpu, kernel_variables, s) != NULL;
}

/* def on this device, as the choice; def NULL when it cannot be resolved. */
static gk_sgemm_choice plain(const gk_tuning_set *tuned, const gk_kernel_def *def)
{
    gk_sgemm_choice choice = {def, NULL, {0}};
    if (!def || gk_tuning_resolve(tuned, def, &choice.config) != GEMMKIT_SUCCESS) choice.def = NULL;
    return choice;
}

static gk_model_call model_call(const gemm_state *s)
{
    return (gk_model_call){s->info, s->ctx, s->tuned, s->m, s->n, s->k, s->trans_a, s->trans_b, s->beta_nonzero,
                           s->math, s->storage};
}

/* The policy's choice for s (its shape, mode and device set): the cost model's where the policy has candidate
 * rows for the device class and the call's mode, else the step rows'. */
static gk_sgemm_choice choose_in_mode(const gk_policy *policy, gemm_state s)
{
    const gemmkit_device_info *info = s.info;
    const gk_tuning_set *tuned = s.tuned;
    const int64_t m = s.m, n = s.n, k = s.k;
    const gk_math math = s.math;
    const gk_model_call call = model_call(&s);
    if (gk_model_applies(policy, &call)) {
        gk_sgemm_choice choice;
        if (gk_model_choose(policy, &call, &choice, NULL)) return choice;
        return plain(tuned, math == GK_MATH_FP32 ? gk_kernel_find("direct") : NULL);
    }
    if (!kernel_step(policy, &s)) return plain(tuned, math == GK_MATH_FP32 ? gk_kernel_find("direct") : NULL);
    gk_sgemm_choice choice = {s.candidate.def, NULL, s.candidate};
    s.chosen = &s.candidate;
    const gk_policy_rule *variant = gk_policy_first(policy, GK_ROUTINE_GEMM, GK_STEP_VARIANT, info->is_gpu, variant_variables, &s);
    gk_geometry g;
    if (variant && gk_config_geometry(&s.variant->config, m, n, k, &g) == GEMMKIT_SUCCESS) {
        choice.params = s.variant->line.params;
        choice.config = s.variant->config;
    }
    s.chosen = &choice.config;
    if (gk_policy_first(policy, GK_ROUTINE_GEMM, GK_STEP_SPLIT, info->is_gpu, split_variables, &s)) {
        choice.def = s.split.def;
        choice.config = s.split;
    }
    const gk_policy_rule *fallback =
        gk_policy_first(policy, GK_ROUTINE_GEMM, GK_STEP_FALLBACK, info->is_gpu, chosen_variables, &s);
    return fallback ? plain(tuned, fallback->kernel) : choice;
}

static int shape_variables(const gk_policy_rule *rule, int64_t *values, void *data)
{
    (void)rule;
    set_shape_variables(data, values);
    return 1;
}

/* The choice in the mode that serves s: a math row's where one holds, the call's mode is not pinned and the row's
 * mode has a kernel here (3xTF32 serving int8x needs TF32 tensor cores); else in s's own mode. */
static gk_sgemm_choice choose(const gk_policy *policy, gemm_state s)
{
    if (s.math != GK_MATH_FP32 && !s.pinned) {
        const gk_policy_rule *r =
            gk_policy_first(policy, GK_ROUTINE_GEMM, GK_STEP_MATH, s.info->is_gpu, shape_variables, &s);
        if (r && r->math != s.math) {
            gemm_state served = s;
            served.math = r->math;
            const gk_sgemm_choice choice = choose_in_mode(policy, served);
            if (choice.def) return choice;
        }
    }
    return choose_in_mode(policy, s);
}

/* Copy rows: the chosen configuration's variables (no kernel of their own to check). */
static int copy_variables(const gk_policy_rule *rule, int64_t *values, void *data)
{
    (void)rule;
    const gemm_state *s = data;
    return set_variables(s, s->chosen, values);
}

gk_policy_copy gk_sgemm_copy_choose(const gk_policy *policy, const gemmkit_device_info *info,
                                    const gk_config *config, const gk_sgemm_problem *p, int operand_b)
{
    gemm_state s = {.info = info, .m = p->m, .n = p->n, .k = p->k, .math = p->math, .chosen = config,
                    .trans_a = p->trans_a, .trans_b = p->trans_b, .unaligned_a = !gk_matrix_float4_columns(&p->a),
                    .unaligned_b = !gk_matrix_float4_columns(&p->b)};
    const gk_policy_rule *r =
        gk_policy_first(policy, GK_ROUTINE_GEMM, operand_b ? GK_STEP_COPY_B : GK_STEP_COPY_A, info->is_gpu,
                        copy_variables, &s);
    return r ? r->copy : GK_COPY_NONE;
}

int64_t gk_sgemm_peel_choose(const gk_policy *policy, const gemmkit_device_info *info, const gk_sgemm_problem *p)
{
    gemm_state s = {.info = info, .m = p->m, .n = p->n, .k = p->k, .math = p->math, .trans_a = p->trans_a,
                    .trans_b = p->trans_b};
    const gk_policy_rule *r = gk_policy_first(policy, GK_ROUTINE_GEMM, GK_STEP_PEEL, info->is_gpu, shape_variables, &s);
    return r ? r->multiple : 0;
}

gk_sgemm_choice gk_sgemm_choose_math(const gk_policy *policy, const gemmkit_device_info *info,
                                     const gk_tuning_set *tuned, int64_t m, int64_t n, int64_t k, gk_math math)
{
    return choose(policy, (gemm_state){.info = info, .tuned = tuned, .m = m, .n = n, .k = k, .math = math,
                                       .pinned = gk_math_pinned(math)});
}

gk_sgemm_choice gk_sgemm_choose_for(const gk_policy *policy, const gemmkit_device_info *info,
                                    const gk_tuning_set *tuned, const gk_sgemm_problem *p)
{
    return choose(policy, (gemm_state){.info = info, .tuned = tuned, .m = p->m, .n = p->n, .k = p->k,
                                       .math = p->math, .pinned = gk_math_pinned(p->math), .trans_a = p->trans_a,
                                       .trans_b = p->trans_b, .beta_nonzero = p->beta != 0.0f,
                                       .storage = gk_sgemm_storage(p)});
}

gk_sgemm_choice gk_sgemm_default_kernel_for(const gemmkit_context *ctx, const gk_sgemm_problem *p)
{
    const unsigned storage = gk_sgemm_storage(p);
    /* fp32's row has no pinned test: its calls read no variable here. A pinned call is decided apart. */
    const int pinned = gk_math_pinned(p->math);
    const gk_decision_key key = {p->m,     p->n, p->k, p->trans_a, p->trans_b, p->beta != 0.0f,
                                 (int)p->math + (pinned ? GK_MATH_COUNT : 0), storage};
    gk_sgemm_choice choice;
    if (gk_decision_lookup(ctx->decisions, &key, &choice)) return choice;
    choice = choose(gk_policy_builtin(), (gemm_state){.info = &ctx->info, .ctx = ctx, .tuned = &ctx->tuned,
                                                      .m = p->m, .n = p->n, .k = p->k, .math = p->math,
                                                      .pinned = pinned, .trans_a = p->trans_a, .trans_b = p->trans_b,
                                                      .beta_nonzero = p->beta != 0.0f, .storage = storage});
    gk_decision_store(ctx->decisions, &key, &choice);
    return choice;
}

gk_sgemm_choice gk_sgemm_choose(const gk_policy *policy, const gemmkit_device_info *info, const gk_tuning_set *tuned,
                                int64_t m, int64_t n, int64_t k)
{
    return gk_sgemm_choose_math(policy, info, tuned, m, n, k, GK_MATH_FP32);
}

gk_sgemm_choice gk_sgemm_default_kernel_math(const gemmkit_context *ctx, int64_t m, int64_t n, int64_t k, gk_math math)
{
    return choose(gk_policy_builtin(), (gemm_state){.info = &ctx->info, .ctx = ctx, .tuned = &ctx->tuned, .m = m,
                                                    .n = n, .k = k, .math = math, .pinned = gk_math_pinned(math)});
}

gk_sgemm_choice gk_sgemm_default_kernel(const gemmkit_context *ctx, int64_t m, int64_t n, int64_t k)
{
    return gk_sgemm_default_kernel_math(ctx, m, n, k, GK_MATH_FP32);
}

const gk_kernel_def *gk_sgemm_choose_kernel(const gk_policy *policy, const gemmkit_device_info *info,
                                           const gk_tuning_set *tuned, int64_t m, int64_t n, int64_t k)
{
    gemm_state s = {.info = info, .tuned = tuned, .m = m, .n = n, .k = k};
    const gk_model_call call = model_call(&s);
    if (gk_model_applies(policy, &call)) {
        /* The model's choice, as the kernel whose lines serve the shape: a split-K build's base kernel. */
        gk_sgemm_choice choice;
        return gk_model_choose(policy, &call, &choice, NULL) ? gk_model_unsplit(choice.def) : NULL;
    }
    return kernel_step(policy, &s) ? s.candidate.def : NULL;
}

const gk_kernel_def *gk_sgemm_fast_kernel(const gemmkit_context *ctx, int64_t n)
{
    return gk_sgemm_choose_kernel(gk_policy_builtin(), &ctx->info, &ctx->tuned, n, n, n);
}

static char scope[512];
static pthread_once_t scope_once = PTHREAD_ONCE_INIT;

/* The fallback rows' notes (or conditions), in words for `gemmkit tune`. */
static void describe_scope(void)
{
    const gk_policy *policy = gk_policy_builtin();
    size_t used = (size_t)snprintf(scope, sizeof scope, "problems except those");
    const char *separator = " ";
    for (int i = 0; i < policy->count && used < sizeof scope; i++) {
        const gk_policy_rule *r = &policy->rules[i];
        if (r->routine_id != GK_ROUTINE_GEMM || r->step != GK_STEP_FALLBACK) continue;
        used += (size_t)snprintf(scope + used, sizeof scope - used, "%s%s (which run %s)", separator,
                                 r->note[0] ? r->note : r->condition, r->choice);
        separator = "; or ";
    }
    if (!strcmp(separator, " ")) snprintf(scope, sizeof scope, "every problem");
}

const char *gk_sgemm_fast_kernel_scope(void)
{
    pthread_once(&scope_once, describe_scope);
    return scope;
}

/* The model's candidates for s, or 0 where the model does not choose. */
static int candidates(const gk_policy *policy, const gemm_state *s, gk_sgemm_candidate *out, int max)
{
    const gk_model_call call = model_call(s);
    return gk_model_applies(policy, &call) ? gk_model_candidates(policy, &call, out, max) : 0;
}

int gk_sgemm_candidates(const gk_policy *policy, const gemmkit_device_info *info, const gk_tuning_set *tuned,
                        const gk_sgemm_problem *p, gk_sgemm_candidate *out, int max)
{
    const gemm_state s = {.info = info, .tuned = tuned, .m = p->m, .n = p->n, .k = p->k, .math = p->math,
                          .trans_a = p->trans_a, .trans_b = p->trans_b, .beta_nonzero = p->beta != 0.0f,
                          .storage = gk_sgemm_storage(p)};
    return candidates(policy, &s, out, max);
}

int gk_sgemm_candidates_for(const gemmkit_context *ctx, const gk_sgemm_problem *p, gk_sgemm_candidate *out, int max)
{
    const gemm_state s = {.info = &ctx->info, .ctx = ctx, .tuned = &ctx->tuned, .m = p->m, .n = p->n, .k = p->k,
                          .math = p->math, .trans_a = p->trans_a, .trans_b = p->trans_b,
                          .beta_nonzero = p->beta != 0.0f, .storage = gk_sgemm_storage(p)};
    return candidates(gk_policy_builtin(), &s, out, max);
}
