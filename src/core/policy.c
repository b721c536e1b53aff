/* Parsing, checking and matching the policy's rows (see policy.h). A bad row
 * is a bug in the built-in table, which tests/test_policy.c catches; at run
 * time it costs a warning and the row, never a crash. */
#include "policy.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "registry.h"
#include "tsv_rows.h"
#include "status.h"

static const char *const gemm_variables[] = {"M", "N", "K", "WORK", "CUS", "TILE_M", "TILE_N", "TILE_K",
                                             "GROUPS", "PADDED", "PACKED", NULL};
static const char *const gemm_batched_variables[] = {"M", "N", "K", "BATCH", "WORK", "CUS", NULL};
static const char *const omatcopy_variables[] = {"TRANS", "ROWS", "COLS", "OFFA", "LDA", "OFFB", "LDB", "CUS", NULL};

const char *const *gk_policy_variables(const char *routine)
{
    if (strcmp(routine, "gemm") == 0) return gemm_variables;
    if (strcmp(routine, "omatcopy") == 0) return omatcopy_variables;
    if (strcmp(routine, "gemm_batched") == 0) return gemm_batched_variables;
    return NULL;
}

static const char *const step_names[GK_STEP_COUNT] = {"kernel", "variant", "split", "fallback", "route"};
static const char *const route_names[] = {"host-blas", "device", "tiled"};
static const char *const class_names[] = {"any", "gpu", "cpu"};

/* The index of `word` in names[count], or -1. */
static int lookup(const char *word, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (strcmp(word, names[i]) == 0) return i;
    return -1;
}

static void warn(gk_policy *policy, const char *name, int line, const char *format, ...) GK_PRINTF(4, 5);
static void warn(gk_policy *policy, const char *name, int line, const char *format, ...)
{
    char why[256];
    va_list args;
    va_start(args, format);
    vsnprintf(why, sizeof why, format, args);
    va_end(args);
    size_t used = strlen(policy->warnings);
    snprintf(policy->warnings + used, sizeof policy->warnings - used, "gemmkit: policy %s:%d: %s; ignoring the row\n",
             name, line, why);
}

/* Copies src into dst[size]; 0 when it does not fit. */
static int fits(char *dst, size_t size, const char *src)
{
    if (strlen(src) >= size) return 0;
    strcpy(dst, src);
    return 1;
}

/* The condition evaluates with every variable of the routine set to 1. */
static int condition_parses(const char *condition, const char *const *names, char *error, int error_size)
{
    gk_variables vars = {0};
    for (int i = 0; names[i]; i++) gk_variables_set(&vars, names[i], 1);
    int64_t value = 0;
    return gk_expr_eval(condition, &vars, &value, error, error_size) == 0;
}

/* Checks the fields of one row; 0 and a warning when it cannot be used. */
static int parse_rule(gk_policy *policy, const char *name, int line, char **f, int count, gk_policy_rule *r)
{
    if (count < 5 || count > 6) {
        warn(policy, name, line, "%d tab-separated field(s), want 5 or 6: routine, step, device, choice, "
             "condition[, note]", count);
        return 0;
    }
    memset(r, 0, sizeof *r);
    r->line = line;
    const char *const *variables = gk_policy_variables(f[0]);
    const int step = lookup(f[1], step_names, GK_STEP_COUNT), device = lookup(f[2], class_names, 3);
    char error[256] = "";
    const int per_matrix = strcmp(f[0], "gemm_batched") == 0 && strcmp(f[3], GK_POLICY_PER_MATRIX) == 0;
    const int names_kernel = step >= 0 && step != GK_STEP_VARIANT && step != GK_STEP_ROUTE && !per_matrix;
    const gk_kernel_def *kernel = names_kernel ? gk_kernel_find(f[3]) : NULL;
    if (!variables) warn(policy, name, line, "unknown routine \"%s\" (gemm, gemm_batched, omatcopy)", f[0]);
    else if (step < 0) warn(policy, name, line, "unknown step \"%s\" (route, kernel, variant, split, fallback)", f[1]);
    else if (device < 0) warn(policy, name, line, "unknown device class \"%s\" (gpu, cpu, any)", f[2]);
    else if (step != GK_STEP_KERNEL && strcmp(f[0], "gemm") != 0 &&
             !(step == GK_STEP_VARIANT && strcmp(f[0], "gemm_batched") == 0))
        warn(policy, name, line, "routine %s has only kernel%s rows", f[0],
             strcmp(f[0], "gemm_batched") == 0 ? " and variant" : "");
    else if (step == GK_STEP_ROUTE && lookup(f[3], route_names, 3) < 0)
        warn(policy, name, line, "unknown route \"%s\" (host-blas, device, tiled)", f[3]);
    else if (names_kernel && (!kernel || gk_kernel_is_helper(kernel)))
        warn(policy, name, line, "no kernel named \"%s\" in this gemmkit", f[3]);
    else if (!fits(r->routine, sizeof r->routine, f[0]) || !fits(r->choice, sizeof r->choice, f[3]) ||
             !fits(r->condition, sizeof r->condition, f[4]) || !fits(r->note, sizeof r->note, count > 5 ? f[5] : ""))
        warn(policy, name, line, "a field too long");
    else if (!condition_parses(r->condition, variables, error, sizeof error))
        warn(policy, name, line, "condition: %s", error);
    else {
        r->step = (gk_policy_step)step;
        r->device = (gk_policy_class)device;
        r->kernel = kernel;
        return 1;
    }
    return 0;
}

typedef struct parsing {
    gk_policy *policy;
    const char *name;
} parsing;

static int take_row(char **fields, int count, int line, void *data)
{
    parsing *p = data;
    gk_policy *policy = p->policy;
    if (policy->count == GK_POLICY_MAX_RULES) {
        warn(policy, p->name, line, "more than %d rows", GK_POLICY_MAX_RULES);
        return 0;
    }
    if (parse_rule(policy, p->name, line, fields, count, &policy->rules[policy->count])) policy->count++;
    return 1;
}

void gk_policy_parse(const char *name, const char *text, gk_policy *policy)
{
    policy->count = 0;
    policy->warnings[0] = '\0';
    parsing p = {policy, name};
    gk_tsv_each_row(text, take_row, &p);
}

static gk_policy builtin;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void parse_builtin(void)
{
    const char *text = gk_kernel_source("tuning/policy.tsv");
    gk_policy_parse("(built-in) src/kernels/tuning/policy.tsv", text ? text : "", &builtin);
}

const gk_policy *gk_policy_builtin(void)
{
    pthread_once(&builtin_once, parse_builtin);
    return &builtin;
}

static int class_fits(gk_policy_class device, int is_gpu)
{
    return device == GK_CLASS_ANY || (device == GK_CLASS_GPU) == (is_gpu != 0);
}

const gk_policy_rule *gk_policy_first(const gk_policy *policy, const char *routine, gk_policy_step step, int is_gpu,
                                      gk_policy_vars_fn vars_fn, void *data)
{
    for (int i = 0; i < policy->count; i++) {
        const gk_policy_rule *r = &policy->rules[i];
        if (r->step != step || !class_fits(r->device, is_gpu) || strcmp(r->routine, routine) != 0) continue;
        gk_variables vars = {0};
        if (!vars_fn(r, &vars, data)) continue;
        int64_t holds = 0;
        char error[256];
        if (gk_expr_eval(r->condition, &vars, &holds, error, sizeof error) == 0 && holds) return r;
    }
    return NULL;
}

int gk_policy_has_variant(const gk_policy *policy, const char *routine, const char *choice)
{
    for (int i = 0; i < policy->count; i++) {
        const gk_policy_rule *r = &policy->rules[i];
        if (r->step == GK_STEP_VARIANT && strcmp(r->routine, routine) == 0 && strcmp(r->choice, choice) == 0) return 1;
    }
    return 0;
}
