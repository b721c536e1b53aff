/* Parsing, checking and matching the policy's rows (see policy.h). A bad row
 * is a bug in the built-in table, which tests/test_policy.c catches; at run
 * time it costs a warning and the row, never a crash. */
#include "policy.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math_mode.h"
#include "registry.h"
#include "tsv_rows.h"
#include "tuning.h"
#include "status.h"

/* Each routine's names, at the slots of its enum (policy.h). */
static const char *const gemm_variables[GK_GEMM_VARIABLES + 1] = {
    [GK_GEMM_M] = "M", [GK_GEMM_N] = "N", [GK_GEMM_K] = "K", [GK_GEMM_WORK] = "WORK", [GK_GEMM_CUS] = "CUS",
    [GK_GEMM_TILE_M] = "TILE_M", [GK_GEMM_TILE_N] = "TILE_N", [GK_GEMM_TILE_K] = "TILE_K",
    [GK_GEMM_GROUPS] = "GROUPS", [GK_GEMM_PADDED] = "PADDED", [GK_GEMM_PACKED] = "PACKED",
    [GK_GEMM_TRANS_A] = "TRANS_A", [GK_GEMM_TRANS_B] = "TRANS_B", [GK_GEMM_ALIGNED_A] = "ALIGNED_A",
    [GK_GEMM_ALIGNED_B] = "ALIGNED_B", [GK_GEMM_MATH] = "MATH", [GK_GEMM_A_DESC] = "A_DESC"};
static const char *const gemm_batched_variables[GK_BATCHED_VARIABLES + 1] = {
    [GK_BATCHED_M] = "M", [GK_BATCHED_N] = "N", [GK_BATCHED_K] = "K", [GK_BATCHED_BATCH] = "BATCH",
    [GK_BATCHED_WORK] = "WORK", [GK_BATCHED_CUS] = "CUS"};
static const char *const omatcopy_variables[GK_OMATCOPY_VARIABLES + 1] = {
    [GK_OMATCOPY_TRANS] = "TRANS", [GK_OMATCOPY_ROWS] = "ROWS", [GK_OMATCOPY_COLS] = "COLS",
    [GK_OMATCOPY_OFFA] = "OFFA",   [GK_OMATCOPY_LDA] = "LDA",   [GK_OMATCOPY_OFFB] = "OFFB",
    [GK_OMATCOPY_LDB] = "LDB",     [GK_OMATCOPY_CUS] = "CUS",   [GK_OMATCOPY_CUDA] = "CUDA"};
_Static_assert(GK_GEMM_VARIABLES <= GK_POLICY_MAX_VARIABLES && GK_BATCHED_VARIABLES <= GK_POLICY_MAX_VARIABLES &&
                   GK_OMATCOPY_VARIABLES <= GK_POLICY_MAX_VARIABLES,
               "a routine with more variables than GK_POLICY_MAX_VARIABLES");

static const char *const routine_names[GK_ROUTINE_COUNT] = {
    [GK_ROUTINE_GEMM] = "gemm", [GK_ROUTINE_GEMM_BATCHED] = "gemm_batched", [GK_ROUTINE_OMATCOPY] = "omatcopy"};
static const char *const *const routine_variables[GK_ROUTINE_COUNT] = {
    [GK_ROUTINE_GEMM] = gemm_variables, [GK_ROUTINE_GEMM_BATCHED] = gemm_batched_variables,
    [GK_ROUTINE_OMATCOPY] = omatcopy_variables};

static const char *const step_names[GK_STEP_COUNT] = {"kernel", "variant", "split", "fallback", "route",
                                                      "copy-a", "copy-b", "peel", "candidate", "scope",
                                                      "math"};
static const char *const copy_names[] = {[GK_COPY_KMAJOR] = "k-major", [GK_COPY_ALIGNED] = "aligned",
                                         [GK_COPY_OUTER] = "outer"};
static const char *const route_names[] = {[GK_ROUTE_HOST_BLAS] = "host-blas", [GK_ROUTE_DEVICE] = "device",
                                          [GK_ROUTE_TILED] = "tiled"};
static const char *const class_names[] = {"any", "gpu", "cpu"};

/* The mode named `word` (gemmkit_math_name's names), or -1; no error recorded, as parsing a row warns instead. */
static int math_of_name(const char *word)
{
    for (int m = 0; m < GK_MATH_COUNT; m++)
        if (strcmp(word, gemmkit_math_name(gk_math_to_public((gk_math)m))) == 0) return m;
    return -1;
}

/* The index of `word` in names[count], or -1. */
static int lookup(const char *word, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (strcmp(word, names[i]) == 0) return i;
    return -1;
}

const char *const *gk_policy_variables(const char *routine)
{
    const int id = lookup(routine, routine_names, GK_ROUTINE_COUNT);
    return id < 0 ? NULL : routine_variables[id];
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

/* Compiles the condition of rule r over `count` variables names[] into the
 * policy's code; 0 and a message when it does not compile, or does not
 * evaluate with every variable set to 1. */
static int compile_condition(gk_policy *policy, gk_policy_rule *r, const char *const *names, int count, char *error,
                             int error_size)
{
    gk_expr_code code = {policy->code + policy->code_count, GK_POLICY_MAX_CODE - policy->code_count, 0, 0};
    if (gk_expr_compile(r->condition, names, count, &code, error, error_size) != 0) return 0;
    int64_t ones[GK_POLICY_MAX_VARIABLES], value = 0;
    for (int i = 0; i < GK_POLICY_MAX_VARIABLES; i++) ones[i] = 1;
    gk_expr_fault fault;
    if (gk_expr_run(code.nodes, code.count, ones, &value, &fault) != 0) {
        gk_expr_fault_message(&fault, r->condition, error, error_size);
        return 0;
    }
    r->code = policy->code_count;
    r->code_count = code.count;
    r->reads = code.reads;
    policy->code_count += code.count;
    return 1;
}

/* How many of the routine's variables a step's conditions may read: route
 * rows are evaluated before any configuration is considered. */
static int variable_count(int routine, int step)
{
    if (routine == GK_ROUTINE_GEMM && step == GK_STEP_ROUTE) return GK_GEMM_ROUTE_VARIABLES;
    int count = 0;
    while (routine_variables[routine][count]) count++;
    return count;
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
    const int routine = lookup(f[0], routine_names, GK_ROUTINE_COUNT);
    const char *const *variables = routine < 0 ? NULL : routine_variables[routine];
    const int step = lookup(f[1], step_names, GK_STEP_COUNT), device = lookup(f[2], class_names, 3);
    const int route = step == GK_STEP_ROUTE ? lookup(f[3], route_names, 3) : 0;
    const int copies = step == GK_STEP_COPY_A || step == GK_STEP_COPY_B;
    const int copy = copies ? lookup(f[3], copy_names + 1, (int)(sizeof copy_names / sizeof *copy_names) - 1) + 1 : GK_COPY_NONE; /* 0: not a copy's name */
    const int peels = step == GK_STEP_PEEL;
    const int maths = step == GK_STEP_MATH;
    const int math = maths ? math_of_name(f[3]) : GK_MATH_FP32; /* -1: no mode's name */
    char *end = NULL;
    const long long multiple = peels ? strtoll(f[3], &end, 10) : 0;
    char error[256] = "";
    const int per_matrix = strcmp(f[0], "gemm_batched") == 0 && strcmp(f[3], GK_POLICY_PER_MATRIX) == 0;
    const int names_kernel =
        step >= 0 && step != GK_STEP_VARIANT && step != GK_STEP_SCOPE && step != GK_STEP_ROUTE && !copies && !peels &&
        !maths && !per_matrix;
    const gk_kernel_def *kernel = names_kernel ? gk_kernel_find(f[3]) : NULL;
    if (!variables) warn(policy, name, line, "unknown routine \"%s\" (gemm, gemm_batched, omatcopy)", f[0]);
    else if (step < 0)
        warn(policy, name, line,
             "unknown step \"%s\" (route, math, peel, kernel, variant, split, fallback, copy-a, copy-b, candidate, "
             "scope)",
             f[1]);
    else if (device < 0) warn(policy, name, line, "unknown device class \"%s\" (gpu, cpu, any)", f[2]);
    else if (step != GK_STEP_KERNEL && strcmp(f[0], "gemm") != 0 &&
             !(step == GK_STEP_VARIANT && strcmp(f[0], "gemm_batched") == 0))
        warn(policy, name, line, "routine %s has only kernel%s rows", f[0],
             strcmp(f[0], "gemm_batched") == 0 ? " and variant" : "");
    else if (route < 0)
        warn(policy, name, line, "unknown route \"%s\" (host-blas, device, tiled)", f[3]);
    else if (copies && copy == GK_COPY_NONE)
        warn(policy, name, line, "unknown copy \"%s\" (k-major, aligned, outer)", f[3]);
    else if (peels && (!*f[3] || *end || multiple < 2 || multiple > INT32_MAX))
        warn(policy, name, line, "peel \"%s\": want a multiple from 2 to 2^31-1", f[3]);
    else if (math < 0)
        warn(policy, name, line, "math \"%s\": want a math mode's name (fp32, 3xtf32, tf32, int8x)", f[3]);
    else if (names_kernel && (!kernel || gk_kernel_is_helper(kernel)))
        warn(policy, name, line, "no kernel named \"%s\" in this gemmkit", f[3]);
    else if (!fits(r->routine, sizeof r->routine, f[0]) || !fits(r->choice, sizeof r->choice, f[3]) ||
             !fits(r->condition, sizeof r->condition, f[4]) || !fits(r->note, sizeof r->note, count > 5 ? f[5] : ""))
        warn(policy, name, line, "a field too long");
    else if (!compile_condition(policy, r, variables, variable_count(routine, step), error, sizeof error))
        warn(policy, name, line, "condition: %s", error);
    else {
        r->routine_id = (gk_policy_routine)routine;
        r->step = (gk_policy_step)step;
        r->device = (gk_policy_class)device;
        r->kernel = kernel;
        r->route = (gk_policy_route)route;
        r->copy = (gk_policy_copy)copy;
        r->multiple = multiple;
        r->math = (gk_math)math;
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

/* gk_policy_fixed's answer: the rule's index, -1 (no row holds) or -2 (it depends on the values). */
static int fixed_first(const gk_policy *policy, int routine, int step, int is_gpu)
{
    const int64_t none[GK_POLICY_MAX_VARIABLES] = {0}; /* read by no condition evaluated here */
    for (int i = policy->first[routine][step]; i >= 0; i = policy->rules[i].next) {
        const gk_policy_rule *r = &policy->rules[i];
        if (!gk_policy_class_fits(r->device, is_gpu)) continue;
        if (r->reads) return -2;
        if (gk_policy_holds(policy, r, none)) return i;
    }
    return -1;
}

void gk_policy_parse(const char *name, const char *text, gk_policy *policy)
{
    policy->count = 0;
    policy->code_count = 0;
    policy->warnings[0] = '\0';
    parsing p = {policy, name};
    gk_tsv_each_row(text, take_row, &p);
    /* Each routine's and step's rows in order, as chains. */
    int *last[GK_ROUTINE_COUNT][GK_STEP_COUNT];
    for (int r = 0; r < GK_ROUTINE_COUNT; r++)
        for (int s = 0; s < GK_STEP_COUNT; s++) {
            policy->first[r][s] = -1;
            last[r][s] = &policy->first[r][s];
        }
    for (int i = 0; i < policy->count; i++) {
        gk_policy_rule *rule = &policy->rules[i];
        rule->next = -1;
        *last[rule->routine_id][rule->step] = i;
        last[rule->routine_id][rule->step] = &rule->next;
    }
    for (int r = 0; r < GK_ROUTINE_COUNT; r++)
        for (int s = 0; s < GK_STEP_COUNT; s++)
            for (int gpu = 0; gpu < 2; gpu++) policy->fixed[r][s][gpu] = fixed_first(policy, r, s, gpu);
}

static gk_policy builtin;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

/* The built-in table, or the whole table GEMMKIT_POLICY names instead (for
 * trying rows before they are built in; nothing of the built-in table is
 * added to it); a file that cannot be read leaves the built-in table and a
 * warning. */
static void parse_builtin(void)
{
    const char *path = getenv("GEMMKIT_POLICY");
    char why[256] = "";
    if (path && *path) {
        char *text = NULL;
        size_t len = 0;
        const int read = gk_tuning_read_file(path, &text, &len, why, sizeof why);
        if (read == 0) {
            gk_policy_parse(path, text, &builtin);
            free(text);
            return;
        }
        if (read == 1) snprintf(why, sizeof why, "%s", strerror(ENOENT));
    }
    const char *text = gk_kernel_source("tuning/policy.tsv");
    gk_policy_parse("(built-in) src/kernels/tuning/policy.tsv", text ? text : "", &builtin);
    if (why[0]) {
        const size_t used = strlen(builtin.warnings);
        snprintf(builtin.warnings + used, sizeof builtin.warnings - used,
                 "gemmkit: GEMMKIT_POLICY=%s: %s; the built-in policy instead\n", path, why);
    }
}

static _Atomic(const gk_policy *) builtin_parsed; /* &builtin once parsed: no pthread_once per call */

const gk_policy *gk_policy_builtin(void)
{
    const gk_policy *policy = atomic_load_explicit(&builtin_parsed, memory_order_acquire);
    if (policy) return policy;
    pthread_once(&builtin_once, parse_builtin);
    atomic_store_explicit(&builtin_parsed, &builtin, memory_order_release);
    return &builtin;
}

int gk_policy_holds(const gk_policy *policy, const gk_policy_rule *rule, const int64_t *values)
{
    int64_t holds = 0;
    return gk_expr_run(policy->code + rule->code, rule->code_count, values, &holds, NULL) == 0 && holds;
}

const gk_policy_rule *gk_policy_first(const gk_policy *policy, gk_policy_routine routine, gk_policy_step step,
                                      int is_gpu, gk_policy_vars_fn vars_fn, void *data)
{
    for (int i = policy->first[routine][step]; i >= 0; i = policy->rules[i].next) {
        const gk_policy_rule *r = &policy->rules[i];
        if (!gk_policy_class_fits(r->device, is_gpu)) continue;
        int64_t values[GK_POLICY_MAX_VARIABLES]; /* the step's variables: all a condition may read (parse_rule) */
        if (vars_fn(r, values, data) && gk_policy_holds(policy, r, values)) return r;
    }
    return NULL;
}

int gk_policy_has_variant(const gk_policy *policy, const char *routine, const char *choice)
{
    for (int i = 0; i < policy->count; i++) {
        const gk_policy_rule *r = &policy->rules[i];
        if ((r->step == GK_STEP_VARIANT || r->step == GK_STEP_SCOPE) && strcmp(r->routine, routine) == 0 &&
            strcmp(r->choice, choice) == 0)
            return 1;
    }
    return 0;
}
