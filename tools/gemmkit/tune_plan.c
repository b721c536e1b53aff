/* What `gemmkit tune` tunes (tune.h): the main line, or the policy's
 * variants at their representative shapes, for the kernel the policy runs
 * there. Refusals come here, before any search (exit status 2). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "policy.h"
#include "routine_desc.h"
#include "sgemm.h"
#include "tune.h"
#include "tune_shapes.h"

static int class_fits(gk_policy_class device, int is_gpu)
{
    return device == GK_CLASS_ANY || (device == GK_CLASS_GPU) == (is_gpu != 0);
}

static const char *class_name(int is_gpu) { return is_gpu ? "GPU" : "CPU"; }

/* The choices of the gemm rows of a step for this device class, each once, as "a, b, c". */
static void row_choices(gk_policy_step step, int is_gpu, char *text, size_t size)
{
    const gk_policy *policy = gk_policy_builtin();
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < policy->count && used < size; i++) {
        const gk_policy_rule *r = &policy->rules[i];
        if (r->step != step || !class_fits(r->device, is_gpu) || strcmp(r->routine, "gemm") != 0) continue;
        int seen = 0;
        for (int j = 0; j < i; j++) {
            const gk_policy_rule *q = &policy->rules[j];
            seen |= q->step == step && class_fits(q->device, is_gpu) && strcmp(q->routine, "gemm") == 0 &&
                    strcmp(q->choice, r->choice) == 0;
        }
        if (!seen) used += (size_t)snprintf(text + used, size - used, "%s%s", used ? ", " : "", r->choice);
    }
}

/* Whether a row of the step for this class names choice. */
static int step_names(gk_policy_step step, int is_gpu, const char *choice)
{
    const gk_policy *policy = gk_policy_builtin();
    for (int i = 0; i < policy->count; i++) {
        const gk_policy_rule *r = &policy->rules[i];
        if (r->step == step && class_fits(r->device, is_gpu) && strcmp(r->routine, "gemm") == 0 &&
            strcmp(r->choice, choice) == 0)
            return 1;
    }
    return 0;
}

/* A variant job from its shapes row; 0 and the job's note when the table has none for this class, or a row
 * without shapes (a variant measured with `gemmkit bench`, not searched by tune). */
static int variant_job(const char *variant, int is_gpu, gk_tune_job *job)
{
    const gk_tune_shapes_row *row = gk_tune_shapes_find(gk_tune_shapes_builtin(), "gemm", variant, is_gpu);
    *job = (gk_tune_job){.variant = variant};
    if (!row || row->count == 0) {
        if (!row) snprintf(job->note, sizeof job->note, "no representative shapes on a %s in "
                           "src/kernels/tuning/shapes.tsv", class_name(is_gpu));
        else snprintf(job->note, sizeof job->note, "not tuned here: %s", row->note);
        return 0;
    }
    job->count = row->count;
    memcpy(job->shapes, row->shapes, sizeof job->shapes);
    return 1;
}

int gk_tune_plan(const gk_tune_args *args, const gemmkit_device_info *info, const gk_kernel_def *named,
                 gk_tune_job *jobs, int *count)
{
    const int is_gpu = info->is_gpu;
    const gk_routine *routine = gk_routine_of(named ? gk_kernel_op(named) : GK_OP_SGEMM);
    *count = 0;
    if (!args->variant) /* the main line */
        jobs[(*count)++] = (gk_tune_job){.n = args->size ? args->size : routine->tune_size(is_gpu, 0)};
    if (!args->variant && !args->all_variants) return 0;

    char variants[256], kernels[256];
    row_choices(GK_STEP_VARIANT, is_gpu, variants, sizeof variants);
    row_choices(GK_STEP_KERNEL, is_gpu, kernels, sizeof kernels);
    if (named && gk_kernel_op(named) != GK_OP_SGEMM)
        return gk_cli_usage_error("tune", "variants are for SGEMM kernels, not %s", named->name);
    if (named && !step_names(GK_STEP_KERNEL, is_gpu, named->name))
        return gk_cli_usage_error("tune", "policy.tsv's kernel rows never run %s on a %s (they run %s), so no "
                                  "variant line of it would be used; leave out --kernel to tune what they run",
                                  named->name, class_name(is_gpu), kernels);
    if (args->variant) {
        if (!step_names(GK_STEP_VARIANT, is_gpu, args->variant))
            return gk_cli_usage_error("tune", "policy.tsv has no variant \"%s\" on a %s (its variants: %s)",
                                      args->variant, class_name(is_gpu), variants[0] ? variants : "none");
        if (!variant_job(args->variant, is_gpu, &jobs[*count]))
            return gk_cli_usage_error("tune", "variant %s: %s", args->variant, jobs[*count].note);
        (*count)++;
        return 0;
    }
    const gk_policy *policy = gk_policy_builtin();
    for (int i = 0; i < policy->count && *count < GK_TUNE_MAX_JOBS; i++) {
        const gk_policy_rule *r = &policy->rules[i];
        if (r->step != GK_STEP_VARIANT || !class_fits(r->device, is_gpu) || strcmp(r->routine, "gemm") != 0) continue;
        int seen = 0;
        for (int j = 0; j < *count; j++) seen |= jobs[j].variant && strcmp(jobs[j].variant, r->choice) == 0;
        if (seen) continue;
        variant_job(r->choice, is_gpu, &jobs[(*count)++]); /* a job without shapes keeps its note */
    }
    return 0;
}

static void shape_text(const int64_t s[3], char *text, size_t size)
{
    snprintf(text, size, "%lldx%lldx%lld", (long long)s[0], (long long)s[1], (long long)s[2]);
}

int gk_tune_job_resolve(gk_tune_job *job, const gemmkit_device_info *info, const gk_tuning_set *tuned,
                        const gk_kernel_def *named)
{
    const gk_policy *policy = gk_policy_builtin();
    if (!job->variant) {
        job->def = named ? named : gk_sgemm_choose_kernel(policy, info, tuned, job->n, job->n, job->n);
        if (!job->def) snprintf(job->note, sizeof job->note, "no kernel row of policy.tsv holds at n = %lld",
                                (long long)job->n);
        return job->def ? 0 : -1;
    }
    if (job->count == 0) return -1; /* the plan's note says why */
    job->def = named;
    int kept = 0;
    size_t used = 0;
    for (int i = 0; i < job->count; i++) {
        const gk_kernel_def *runs = gk_sgemm_choose_kernel(policy, info, tuned, job->shapes[i][0], job->shapes[i][1],
                                                           job->shapes[i][2]);
        if (!job->def) job->def = runs;
        char shape[64];
        shape_text(job->shapes[i], shape, sizeof shape);
        if (runs != job->def && used < sizeof job->note)
            used += (size_t)snprintf(job->note + used, sizeof job->note - used, "%s%s runs %s here%s", used ? "; " : "",
                                     shape, runs ? runs->name : "no kernel row",
                                     named ? "" : ": left out");
        if (runs == job->def || named) memmove(job->shapes[kept++], job->shapes[i], sizeof job->shapes[i]);
    }
    job->count = kept;
    if (!job->def) snprintf(job->note, sizeof job->note, "no kernel row of policy.tsv holds at its shapes");
    return job->def ? 0 : -1;
}

void gk_tune_remember(gk_tuning_set *set, const gemmkit_device_info *info, const gk_tuning_entry *line)
{
    gk_tuned t = {.line = *line, .level = GK_TUNING_DEVICE};
    char why[256];
    if (gk_tuning_check_entry(line, info, &t, why, sizeof why) != 0) return;
    for (int i = 0; i < set->count; i++)
        if (strcmp(set->entries[i].line.kernel, line->kernel) == 0) {
            set->entries[i] = t;
            return;
        }
    if (set->count < GK_TUNED_MAX) set->entries[set->count++] = t;
}

int gk_tune_job_uses(const gk_tune_job *job, const gemmkit_device_info *info, gk_tuning_set *tuned,
                     const char *params)
{
    gk_tuning_entry line = {0};
    snprintf(line.kernel, sizeof line.kernel, "%s/%s", job->def->name, job->variant);
    snprintf(line.params, sizeof line.params, "%s", params);
    gk_tune_remember(tuned, info, &line);
    const gk_tuned *entry = gk_tuning_find(tuned, line.kernel);
    if (!entry || strcmp(entry->line.params, params) != 0) return 0;
    int uses = 0;
    for (int i = 0; i < job->count; i++) {
        const gk_sgemm_choice c = gk_sgemm_choose(gk_policy_builtin(), info, tuned, job->shapes[i][0],
                                                  job->shapes[i][1], job->shapes[i][2]);
        uses += c.def == job->def && c.params == entry->line.params;
    }
    return uses;
}
