/* The per-device policy as data: which kernel a routine runs when the caller
 * names none, as rows of src/kernels/tuning/policy.tsv (embedded like the
 * tuning database): "routine<TAB>step<TAB>device<TAB>choice<TAB>condition[<TAB>note]".
 * Per step (route, math, peel, then kernel, variant, split, fallback, then copy-a and copy-b) the first row of the routine
 * whose device class fits and whose condition holds wins; conditions are
 * integer expressions (expr.h) over variables the routine provides, compiled
 * when the policy is parsed and evaluated per call on the routine's values
 * (an array indexed by the gk_*_var enums below; no names at run time). The
 * routines (dispatch.c, dispatch_batched.c, dispatch_omatcopy.c, route_gemm.c)
 * give the meaning of the steps and the variables; this file only parses,
 * checks and matches rows. */
#ifndef GK_POLICY_H
#define GK_POLICY_H

#include "expr.h"
#include "gemmkit.h"
#include "registry.h"

#define GK_POLICY_MAX_RULES 96
#define GK_POLICY_WARNINGS 2048
/* Compiled condition nodes of all the rows together. */
#define GK_POLICY_MAX_CODE 2048
/* Values a routine provides to its conditions. */
#define GK_POLICY_MAX_VARIABLES 20

typedef enum gk_policy_routine { GK_ROUTINE_GEMM, GK_ROUTINE_GEMM_BATCHED, GK_ROUTINE_OMATCOPY, GK_ROUTINE_COUNT } gk_policy_routine;

/* The variables of each routine: their slots in the values the routine fills
 * (gk_policy_vars_fn); the names are gk_policy_variables'. */
typedef enum gk_gemm_var {
    GK_GEMM_M, GK_GEMM_N, GK_GEMM_K, GK_GEMM_WORK, GK_GEMM_CUS, /* route rows read only these */
    GK_GEMM_TILE_M, GK_GEMM_TILE_N, GK_GEMM_TILE_K, GK_GEMM_GROUPS, GK_GEMM_PADDED, GK_GEMM_PACKED,
    /* The operands as stored: TRANS_* in every step of a call (0 where a tool chooses by shape alone,
     * as for an NN call), ALIGNED_* in the copy rows only (1 elsewhere); the call's math mode; the
     * configuration's A_DESC parameter (0 where it has none: the wgmma kernels read A through a
     * descriptor where it is K-contiguous and aligned, which a copy can make it). */
    GK_GEMM_TRANS_A, GK_GEMM_TRANS_B, GK_GEMM_ALIGNED_A, GK_GEMM_ALIGNED_B, GK_GEMM_MATH, GK_GEMM_A_DESC,
    GK_GEMM_VARIABLES,
    GK_GEMM_ROUTE_VARIABLES = GK_GEMM_TILE_M
} gk_gemm_var;
typedef enum gk_gemm_batched_var {
    GK_BATCHED_M, GK_BATCHED_N, GK_BATCHED_K, GK_BATCHED_BATCH, GK_BATCHED_WORK, GK_BATCHED_CUS, GK_BATCHED_VARIABLES
} gk_gemm_batched_var;
typedef enum gk_omatcopy_var {
    GK_OMATCOPY_TRANS, GK_OMATCOPY_ROWS, GK_OMATCOPY_COLS, GK_OMATCOPY_OFFA, GK_OMATCOPY_LDA, GK_OMATCOPY_OFFB,
    GK_OMATCOPY_LDB, GK_OMATCOPY_CUS, GK_OMATCOPY_CUDA, GK_OMATCOPY_VARIABLES
} gk_omatcopy_var;

/* a * b * c for the conditions' variables (WORK, GROUPS, PADDED ...), saturated
 * at 2^61: far above any valid problem (A, B and C each hold at most 2^31
 * elements, so M*N*K < 2^47), and low enough that a condition like
 * "WORK + WORK / 2" cannot overflow. */
#define GK_POLICY_SATURATED ((int64_t)1 << 61)
static inline int64_t gk_policy_product(int64_t a, int64_t b, int64_t c)
{
    int64_t ab = 0, abc = 0;
    if (__builtin_mul_overflow(a, b, &ab) || __builtin_mul_overflow(ab, c, &abc) || abc > GK_POLICY_SATURATED)
        return GK_POLICY_SATURATED;
    return abc;
}

typedef enum gk_policy_step {
    GK_STEP_KERNEL,   /* the kernel to run */
    GK_STEP_VARIANT,  /* the tuned "KERNEL/CHOICE" line instead of KERNEL's own */
    GK_STEP_SPLIT,    /* a split-K kernel running the choice so far's tiles over slices of K */
    GK_STEP_FALLBACK, /* replaces the choice so far */
    GK_STEP_ROUTE,    /* before all the others, host arrays only: "host-blas" (the host's CPU BLAS) or "device" */
    GK_STEP_COPY_A,   /* after the choice, a kernel reading the operands as stored: copy A first (gk_policy_copy) */
    GK_STEP_COPY_B,   /* the same for B */
    /* Before the kernel step, a call the policy chooses for: cut M and N down to multiples of the choice (an
     * integer), the edges past them (at most GK_PEEL_MAX_EDGE wide, sgemm.h) planned apart as strips */
    GK_STEP_PEEL,
    /* Instead of the kernel, variant, split and fallback steps, where the routine's rows of this step hold for
     * the device class and the call's math mode: the kernels the cost model chooses among (cost_model.h), each
     * row's condition the shapes its kernel can serve at all (dispatch.c) */
    GK_STEP_CANDIDATE,
    /* Where the cost model weighs a tuned "KERNEL/CHOICE" line: a line whose choice has scope rows for the device
     * class is a candidate only where one of them holds (dispatch_model.c); a line without any, everywhere */
    GK_STEP_SCOPE,
    /* Before the others, a call in another mode than fp32: the mode whose kernels serve it (the choice, a mode's
     * name) where the row holds and that mode has a kernel for the device, unless the call's mode is pinned
     * (math_mode.h): int8x's shapes where 3xTF32 is the faster way to fp32 accuracy */
    GK_STEP_MATH,
    GK_STEP_COUNT
} gk_policy_step;

/* The gemm_batched kernel rows' choice that is no kernel: one plain SGEMM plan per matrix. */
#define GK_POLICY_PER_MATRIX "sgemm"

typedef enum gk_policy_class { GK_CLASS_ANY, GK_CLASS_GPU, GK_CLASS_CPU } gk_policy_class;

/* Where a route row sends a host-array call (its choice). */
typedef enum gk_policy_route { GK_ROUTE_HOST_BLAS, GK_ROUTE_DEVICE, GK_ROUTE_TILED } gk_policy_route;

/* How a copy row lays out its operand in a scratch buffer before the kernel
 * reads it (its choice; GK_COPY_NONE: no row holds): "k-major" stores op(X)
 * with K contiguous (A as A^T, B as B), "outer" with M or N contiguous (A as
 * A, B as B^T: what a kernel copies 16 bytes at a time without turning it),
 * "aligned" keeps the caller's orientation; each with a leading dimension of
 * whole float4 from offset 0. */
typedef enum gk_policy_copy { GK_COPY_NONE, GK_COPY_KMAJOR, GK_COPY_ALIGNED, GK_COPY_OUTER } gk_policy_copy;

/* Whether op(X) is stored transposed after a copy of kind `copy` (A: A^T stored is K-contiguous; B: B^T stored is
 * N-contiguous), `trans` as the caller stores it: the plan's copies and the cost model's agree through this. */
static inline int gk_policy_copied_trans(gk_policy_copy copy, int operand_b, int trans)
{
    if (copy == GK_COPY_KMAJOR) return !operand_b;
    if (copy == GK_COPY_OUTER) return operand_b;
    return trans;
}

typedef struct gk_policy_rule {
    char routine[16];
    gk_policy_routine routine_id; /* the routine, as matched */
    gk_policy_step step;
    gk_policy_class device;
    char choice[64];     /* a kernel name; a variant name for GK_STEP_VARIANT; a place for GK_STEP_ROUTE;
                            GK_POLICY_PER_MATRIX in gemm_batched rows */
    const gk_kernel_def *kernel; /* that kernel, found once when the row is parsed; NULL for variants, routes
                                    and GK_POLICY_PER_MATRIX */
    gk_policy_route route;       /* GK_STEP_ROUTE: the choice */
    gk_policy_copy copy;         /* GK_STEP_COPY_A, GK_STEP_COPY_B: the choice */
    int64_t multiple;            /* GK_STEP_PEEL: the choice, 2 or more */
    gk_math math;                /* GK_STEP_MATH: the choice */
    char condition[256]; /* "1": always */
    char note[160];      /* the condition in words, or "" */
    int line;
    int code, code_count; /* the condition compiled: nodes code..code+code_count of the policy's code */
    uint32_t reads;       /* bit i: the condition reads variable i (gk_expr_code.reads) */
    int next;             /* the next rule of the same routine and step, or -1 */
} gk_policy_rule;

typedef struct gk_policy {
    int count;
    gk_policy_rule rules[GK_POLICY_MAX_RULES];
    int first[GK_ROUTINE_COUNT][GK_STEP_COUNT]; /* each routine's and step's first rule, or -1 */
    int fixed[GK_ROUTINE_COUNT][GK_STEP_COUNT][2]; /* gk_policy_fixed per class (cpu, gpu): a rule, -1, or -2 */
    int code_count;
    gk_expr_node code[GK_POLICY_MAX_CODE];
    /* Rows that were ignored, one line each ending in '\n' ("" when none). */
    char warnings[GK_POLICY_WARNINGS];
} gk_policy;

/* Parses a policy; a row that is malformed, names an unknown routine, step,
 * device class or kernel, or whose condition does not evaluate over the
 * routine's variables is left out with a warning naming `name` and the line. */
void gk_policy_parse(const char *name, const char *text, gk_policy *policy);

/* The built-in policy, parsed once per process (never NULL). */
const gk_policy *gk_policy_builtin(void);

/* Whether a variant row of the routine names `choice` (the "KERNEL/CHOICE" tuning lines it may use), or a scope row
 * (the name of lines the cost model alone weighs, only where the choice's scope rows hold). */
int gk_policy_has_variant(const gk_policy *policy, const char *routine, const char *choice);

/* The variables a routine's conditions may use, NULL-terminated, in the
 * order of its gk_*_var enum; NULL for an unknown routine. */
const char *const *gk_policy_variables(const char *routine);

/* Fills the values a rule's condition is evaluated with, values[GK_<ROUTINE>_<NAME>]
 * for each of the routine's variables (route rows: the first
 * GK_GEMM_ROUTE_VARIABLES); 0: the rule does not apply here (its kernel or
 * variant is unavailable on this device). */
typedef int (*gk_policy_vars_fn)(const gk_policy_rule *rule, int64_t *values, void *data);

/* The first rule of routine and step for a device of this class whose
 * condition holds, or NULL. A condition that fails to evaluate (division by
 * zero, overflow) counts as false. */
const gk_policy_rule *gk_policy_first(const gk_policy *policy, gk_policy_routine routine, gk_policy_step step,
                                      int is_gpu, gk_policy_vars_fn vars_fn, void *data);

/* The rule gk_policy_first returns for routine, step and device class
 * whatever the values, for a vars_fn that always returns 1 (route rows,
 * route_gemm.c), found when the policy is parsed: *fixed is 1 and the rule
 * (NULL when no row holds) when every row before the first that holds reads
 * no variable, else 0 (the choice depends on the values) and NULL. */
static inline const gk_policy_rule *gk_policy_fixed(const gk_policy *policy, gk_policy_routine routine,
                                                    gk_policy_step step, int is_gpu, int *fixed)
{
    const int i = policy->fixed[routine][step][is_gpu != 0];
    *fixed = i != -2;
    return i >= 0 ? &policy->rules[i] : NULL;
}

/* Whether a row of device class `device` serves a device (a GPU when is_gpu). */
static inline int gk_policy_class_fits(gk_policy_class device, int is_gpu)
{
    return device == GK_CLASS_ANY || (device == GK_CLASS_GPU) == (is_gpu != 0);
}

/* Evaluates a rule's condition on values: 1 when it holds, 0 when it does not
 * or fails to evaluate. */
int gk_policy_holds(const gk_policy *policy, const gk_policy_rule *rule, const int64_t *values);

#endif
