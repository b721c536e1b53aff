/* The per-device policy as data: which kernel a routine runs when the caller
 * names none, as rows of src/kernels/tuning/policy.tsv (embedded like the
 * tuning database): "routine<TAB>step<TAB>device<TAB>choice<TAB>condition[<TAB>note]".
 * Per step (route, then kernel, variant, split, fallback) the first row of the routine
 * whose device class fits and whose condition holds wins; conditions are
 * integer expressions (expr.c) over variables the routine provides. The
 * routines (dispatch.c, dispatch_omatcopy.c) give the meaning of the steps and
 * the variables; this file only parses, checks and matches rows. */
#ifndef GK_POLICY_H
#define GK_POLICY_H

#include "expr.h"
#include "gemmkit.h"
#include "registry.h"

#define GK_POLICY_MAX_RULES 64
#define GK_POLICY_WARNINGS 1024

typedef enum gk_policy_step {
    GK_STEP_KERNEL,   /* the kernel to run */
    GK_STEP_VARIANT,  /* the tuned "KERNEL/CHOICE" line instead of KERNEL's own */
    GK_STEP_SPLIT,    /* a split-K kernel running the choice so far's tiles over slices of K */
    GK_STEP_FALLBACK, /* replaces the choice so far */
    GK_STEP_ROUTE,    /* before all the others, host arrays only: "host-blas" (the host's CPU BLAS) or "device" */
    GK_STEP_COUNT
} gk_policy_step;

/* The gemm_batched kernel rows' choice that is no kernel: one plain SGEMM plan per matrix. */
#define GK_POLICY_PER_MATRIX "sgemm"

typedef enum gk_policy_class { GK_CLASS_ANY, GK_CLASS_GPU, GK_CLASS_CPU } gk_policy_class;

typedef struct gk_policy_rule {
    char routine[16];
    gk_policy_step step;
    gk_policy_class device;
    char choice[64];     /* a kernel name; a variant name for GK_STEP_VARIANT; a place for GK_STEP_ROUTE;
                            GK_POLICY_PER_MATRIX in gemm_batched rows */
    const gk_kernel_def *kernel; /* that kernel, found once when the row is parsed; NULL for variants, routes
                                    and GK_POLICY_PER_MATRIX */
    char condition[256]; /* "1": always */
    char note[160];      /* the condition in words, or "" */
    int line;
} gk_policy_rule;

typedef struct gk_policy {
    int count;
    gk_policy_rule rules[GK_POLICY_MAX_RULES];
    /* Rows that were ignored, one line each ending in '\n' ("" when none). */
    char warnings[GK_POLICY_WARNINGS];
} gk_policy;

/* Parses a policy; a row that is malformed, names an unknown routine, step,
 * device class or kernel, or whose condition does not evaluate over the
 * routine's variables is left out with a warning naming `name` and the line. */
void gk_policy_parse(const char *name, const char *text, gk_policy *policy);

/* The built-in policy, parsed once per process (never NULL). */
const gk_policy *gk_policy_builtin(void);

/* Whether a variant row of the routine names `choice` (the "KERNEL/CHOICE" tuning lines it may use). */
int gk_policy_has_variant(const gk_policy *policy, const char *routine, const char *choice);

/* The variables a routine's conditions may use, NULL-terminated; NULL for an unknown routine. */
const char *const *gk_policy_variables(const char *routine);

/* Fills the variables a rule's condition is evaluated with; 0: the rule does
 * not apply here (its kernel or variant is unavailable on this device). */
typedef int (*gk_policy_vars_fn)(const gk_policy_rule *rule, gk_variables *vars, void *data);

/* The first rule of routine and step for a device of this class whose
 * condition holds, or NULL. A condition that fails to evaluate (division by
 * zero, overflow) counts as false. */
const gk_policy_rule *gk_policy_first(const gk_policy *policy, const char *routine, gk_policy_step step, int is_gpu,
                                      gk_policy_vars_fn vars_fn, void *data);

#endif
