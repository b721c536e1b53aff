/* The cost model's choice for an SGEMM (cost_model.h): where the policy has "candidate" rows for the device class
 * and the call's math mode, every way those rows allow of running the call (each row's kernel whose condition
 * holds, each of its tuned lines, each split count of its split-K build) is predicted from the device's constants,
 * and the cheapest runs. The rows say only what a kernel can serve; which is faster is the model's. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dispatch_model.h"
#include "plan.h"
#include "plan_gemm.h"

/* Each kernel's split-K build (the registry kernel of the same source and mode that slices K), found once. */
#define MAX_KERNELS 256
static const gk_kernel_def *split_builds[MAX_KERNELS][2]; /* {kernel, its split-K build} */
static int split_build_count;
static pthread_once_t split_builds_once = PTHREAD_ONCE_INIT;

static void find_split_builds(void)
{
    const size_t count = gk_kernel_count();
    for (size_t i = 0; i < count; i++) {
        const gk_kernel_def *d = gk_kernel_at(i);
        if (!gk_kernel_slices_k(d)) continue;
        for (size_t j = 0; j < count && split_build_count < MAX_KERNELS; j++) {
            const gk_kernel_def *base = gk_kernel_at(j);
            if (base != d && !gk_kernel_slices_k(base) && base->math == d->math && !strcmp(base->source, d->source) &&
                !strcmp(base->function, d->function) && gk_kernel_op(base) == GK_OP_SGEMM &&
                gk_kernel_packs_operands(base) == gk_kernel_packs_operands(d))
                split_builds[split_build_count][0] = base, split_builds[split_build_count++][1] = d;
        }
    }
}

/* The kernel paired with def in split_builds' column `from` (0: the base, 1: its split-K build), or NULL. */
static const gk_kernel_def *paired(const gk_kernel_def *def, int from)
{
    pthread_once(&split_builds_once, find_split_builds);
    for (int i = 0; i < split_build_count; i++)
        if (split_builds[i][from] == def) return split_builds[i][!from];
    return NULL;
}

static const gk_kernel_def *split_build(const gk_kernel_def *def) { return paired(def, 0); }

const gk_kernel_def *gk_model_split_build(const gk_kernel_def *def)
{
    return gk_kernel_slices_k(def) ? def : split_build(def);
}

const gk_kernel_def *gk_model_unsplit(const gk_kernel_def *def)
{
    const gk_kernel_def *base = gk_kernel_slices_k(def) ? paired(def, 1) : NULL;
    return base ? base : def;
}

/* The tuned line a candidate runs and what the model reads of it. */
typedef struct model_line {
    const gk_config *config;
    const char *name;   /* "xgemm-direct/small", or the kernel's name for its own line */
    const char *params; /* a variant line's text (gk_sgemm_choice.params), else NULL */
    double rate_fallback;
} model_line;

typedef struct model_walk {
    const gk_policy *policy;
    const gk_model_call *call;
    gk_cost_problem problem;
    gk_sgemm_candidate *out; /* every candidate (bench, tests), or NULL: only the cheapest is kept */
    int max, count;
    /* the cheapest so far */
    double best_ms;
    const char *best_params; /* its variant line's text (gk_sgemm_choice.params), else NULL */
    gk_config best_config; /* what it runs: the line's configuration, or its split-K build's over best_splits */
    int best_splits;
} model_walk;

int gk_split_config(const gk_kernel_def *split, const gk_config *line, int splits, gk_config *out)
{
    int values[GK_MAX_PARAMS];
    for (int i = 0; i < GK_MAX_PARAMS && split->params[i].name; i++) {
        const int value = gk_config_value(line, split->params[i].name, -1);
        values[i] = strcmp(split->params[i].name, "SPLITS") == 0 ? splits
                    : value >= 0                                 ? value
                                                                 : split->params[i].default_value;
    }
    return gk_config_from_values(split, values, out) == GEMMKIT_SUCCESS;
}

/* "NAME=V,NAME=V" of a configuration, as gemmkit_options.params takes it. */
static void params_text(const gk_config *config, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < GK_MAX_PARAMS && config->def->params[i].name && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s=%d", i ? "," : "", config->def->params[i].name,
                                 config->values[i]);
}

/* sliced: the split-K build's configuration of the line over `splits` slices (NULL unsplit). */
static void record(model_walk *w, const model_line *line, const gk_config *sliced, int splits, double ms,
                   const gk_cost_parts *parts)
{
    if (!(ms < w->best_ms)) {
        if (!w->out) return;
    } else {
        w->best_ms = ms, w->best_params = line->params, w->best_splits = splits;
        w->best_config = sliced ? *sliced : *line->config;
    }
    if (!w->out || w->count == w->max) return;
    gk_sgemm_candidate *c = &w->out[w->count];
    memset(c, 0, sizeof *c);
    c->choice.def = line->config->def;
    c->choice.params = line->params;
    c->choice.config = *line->config;
    if (sliced) c->choice.config = *sliced, c->choice.def = sliced->def;
    snprintf(c->line, sizeof c->line, "%s", line->name);
    params_text(&c->choice.config, c->params, sizeof c->params);
    c->splits = splits, c->predicted_ms = ms, c->parts = *parts;
    w->count++;
}

/* The policy's copy rows for a kernel reading the operands as stored (plan_copies makes the same copies): *p
 * becomes what the kernel then reads (the copies' orientation, whole float4 columns); returned, the copies' device
 * time with their launches (each reads its operand as stored and writes it once), *launches their count. */
static double planned_copies(const model_walk *w, const gk_config *config, gk_cost_problem *p, int *launches)
{
    const gk_model_call *call = w->call;
    const gk_sgemm_problem stored = {.trans_a = call->trans_a, .trans_b = call->trans_b, .m = call->m, .n = call->n,
                                     .k = call->k, .math = call->math,
                                     .a = {NULL, 0, p->storage & GK_COST_SCALAR_A ? 1 : 4},
                                     .b = {NULL, 0, p->storage & GK_COST_SCALAR_B ? 1 : 4}};
    double bytes = 0;
    *launches = 0;
    for (int operand_b = 0; operand_b < 2; operand_b++) {
        const gk_policy_copy copy = gk_sgemm_copy_choose(w->policy, call->info, config, &stored, operand_b);
        int *trans = operand_b ? &p->trans_b : &p->trans_a;
        const unsigned scalar = operand_b ? GK_COST_SCALAR_B : GK_COST_SCALAR_A;
        const int want = gk_policy_copied_trans(copy, operand_b, *trans);
        const int64_t rows = operand_b ? p->k : p->m, cols = operand_b ? p->n : p->k;
        const int64_t stored_rows = want ? cols : rows, stored_cols = want ? rows : cols; /* as plan_copy stores it */
        if (copy == GK_COPY_NONE || (want == *trans && !(p->storage & scalar)) ||
            gk_round_up(stored_rows, 4) * stored_cols > INT32_MAX) /* plan_copy's limit: read as stored */
            continue;
        *trans = want;
        p->storage &= ~scalar;
        bytes += 8.0 * (double)rows * (double)cols;
        ++*launches;
    }
    return bytes > 0 ? gk_cost_copy_ms(&call->tuned->cost, bytes, *launches) : 0.0;
}

static void consider(model_walk *w, const model_line *line)
{
    const gk_model_call *call = w->call;
    gk_geometry g;
    if (gk_config_geometry(line->config, call->m, call->n, call->k, &g) != GEMMKIT_SUCCESS ||
        gk_config_check_device(line->config, &g, call->info) != GEMMKIT_SUCCESS)
        return;
    const int packed = gk_kernel_packs_operands(line->config->def);
    gk_cost_parts parts;
    gk_cost_problem read = w->problem; /* the operands as the kernel reads them */
    int copy_launches = 0;
    const double copy_ms = packed ? 0.0 : planned_copies(w, line->config, &read, &copy_launches);
    const gk_cost_problem *p = &read;
    if (!packed || gk_sgemm_packed_fits(&g, p->m, p->n, p->k, 1)) {
        const double ms = gk_cost_predict(&call->tuned->cost, call->info, line->config, &g, line->name,
                                          line->rate_fallback, p, 1, &parts) + copy_ms;
        parts.copies_ms += copy_ms, parts.launches += copy_launches;
        record(w, line, NULL, 1, ms, &parts);
    }
    const gk_kernel_def *split = split_build(line->config->def);
    if (!split || (call->ctx && !gk_plan_kernel_runs_here(call->ctx, split))) return;
    gk_config sliced;
    for (int splits = 2; splits <= GK_MODEL_MAX_SPLITS && call->k / splits >= GK_SPLITK_MIN_SLICE; splits *= 2) {
        if (packed ? !gk_sgemm_packed_fits(&g, p->m, p->n, p->k, splits) : !gk_sgemm_partials_fit(p->m, p->n, splits))
            break;
        if (!gk_split_config(split, line->config, splits, &sliced)) break; /* past the build's SPLITS limit */
        const double ms = gk_cost_predict(&call->tuned->cost, call->info, line->config, &g, line->name,
                                          line->rate_fallback, p, splits, &parts) + copy_ms;
        parts.copies_ms += copy_ms, parts.launches += copy_launches;
        record(w, line, &sliced, splits, ms, &parts);
    }
}

static int row_applies(const gk_model_call *call, const gk_policy_rule *r)
{
    return gk_policy_class_fits(r->device, call->info->is_gpu) && r->kernel && r->kernel->math == call->math &&
           (call->ctx ? gk_plan_kernel_runs_here(call->ctx, r->kernel)
                      : r->kernel->backends == 0 && r->kernel->arch_specific == 0 &&
                            r->kernel->min_capability == 0);
}

int gk_model_applies(const gk_policy *policy, const gk_model_call *call)
{
    for (int i = policy->first[GK_ROUTINE_GEMM][GK_STEP_CANDIDATE]; i >= 0; i = policy->rules[i].next)
        if (row_applies(call, &policy->rules[i])) return 1;
    return 0;
}

/* Whether the policy's scope rows let the model weigh the tuned line KERNEL/choice here: a choice with scope rows
 * for the device class only where one holds, any other everywhere. */
static int in_scope(const gk_policy *policy, const gk_model_call *call, const char *choice, const int64_t *values)
{
    int scoped = 0;
    for (int i = policy->first[GK_ROUTINE_GEMM][GK_STEP_SCOPE]; i >= 0; i = policy->rules[i].next) {
        const gk_policy_rule *r = &policy->rules[i];
        if (!gk_policy_class_fits(r->device, call->info->is_gpu) || strcmp(r->choice, choice) != 0) continue;
        if (gk_policy_holds(policy, r, values)) return 1;
        scoped = 1;
    }
    return !scoped;
}

static void walk(const gk_policy *policy, model_walk *w)
{
    w->policy = policy;
    const gk_model_call *call = w->call;
    int64_t values[GK_POLICY_MAX_VARIABLES];
    gk_gemm_shape_variables(values, call->m, call->n, call->k, call->info->compute_units, call->trans_a,
                            call->trans_b, 1, 1, call->math);
    w->problem = (gk_cost_problem){call->m, call->n, call->k, call->beta_nonzero, call->storage, call->trans_a,
                                   call->trans_b};
    w->best_ms = 1e300;
    for (int i = policy->first[GK_ROUTINE_GEMM][GK_STEP_CANDIDATE]; i >= 0; i = policy->rules[i].next) {
        const gk_policy_rule *r = &policy->rules[i];
        if (!row_applies(call, r) || !gk_policy_holds(policy, r, values)) continue;
        const gk_kernel_def *def = r->kernel;
        const size_t name_len = strlen(def->name);
        gk_config own;
        if (gk_tuning_resolve(call->tuned, def, &own) == GEMMKIT_SUCCESS) {
            const gk_tuned *t = gk_tuning_find(call->tuned, def->name);
            consider(w, &(model_line){&own, def->name, NULL, t ? t->line.gflops : 0});
        }
        for (int j = 0; j < call->tuned->count; j++) {
            const gk_tuned *t = &call->tuned->entries[j];
            if (strncmp(t->line.kernel, def->name, name_len) || t->line.kernel[name_len] != '/' ||
                t->config.def != def || !in_scope(policy, call, t->line.kernel + name_len + 1, values))
                continue;
            consider(w, &(model_line){&t->config, t->line.kernel, t->line.params, t->line.gflops});
        }
    }
}

int gk_model_choose(const gk_policy *policy, const gk_model_call *call, gk_sgemm_choice *choice, int *splits)
{
    model_walk w = {.call = call};
    walk(policy, &w);
    if (w.best_ms >= 1e300) return 0;
    choice->def = w.best_config.def;
    choice->params = w.best_params;
    choice->config = w.best_config;
    if (splits) *splits = w.best_splits;
    return 1;
}

static int cheaper(const void *a, const void *b)
{
    const double x = ((const gk_sgemm_candidate *)a)->predicted_ms, y = ((const gk_sgemm_candidate *)b)->predicted_ms;
    return (x > y) - (x < y);
}

int gk_model_candidates(const gk_policy *policy, const gk_model_call *call, gk_sgemm_candidate *out, int max)
{
    model_walk w = {.call = call, .out = out, .max = max};
    walk(policy, &w);
    /* Stable for equal predictions: the walk's order (rows, then lines, then splits) breaks ties, as the
     * choice does (its first cheapest). */
    for (int i = 1; i < w.count; i++) {
        gk_sgemm_candidate c = out[i];
        int j = i;
        while (j > 0 && cheaper(&out[j - 1], &c) > 0) out[j] = out[j - 1], j--;
        out[j] = c;
    }
    return w.count;
}

void gk_gemm_shape_variables(int64_t *values, int64_t m, int64_t n, int64_t k, int64_t compute_units, int trans_a,
                             int trans_b, int aligned_a, int aligned_b, gk_math math)
{
    for (int i = 0; i < GK_GEMM_VARIABLES; i++) values[i] = 0;
    values[GK_GEMM_M] = m, values[GK_GEMM_N] = n, values[GK_GEMM_K] = k;
    values[GK_GEMM_WORK] = gk_policy_product(m, n, k);
    values[GK_GEMM_CUS] = compute_units;
    values[GK_GEMM_TRANS_A] = trans_a, values[GK_GEMM_TRANS_B] = trans_b;
    values[GK_GEMM_ALIGNED_A] = aligned_a, values[GK_GEMM_ALIGNED_B] = aligned_b;
    values[GK_GEMM_MATH] = math;
}
