/* A small integer expression language for the registry's geometry and
 * constraint strings ("TSM/WPTM", "TSM % WPTM == 0 && WIDTH <= 8") and the
 * policy's conditions ("WORK >= 8589934592").
 *
 * An expression is compiled once (expr.c) into code for a small stack machine
 * whose variables are slots, indices into the names it was compiled against,
 * and evaluated (expr_run.c) on an array of values with no string work: the
 * policy compiles its conditions when it is loaded. gk_expr_eval (expr_text.c)
 * does both on the spot over string-keyed variables. */
#ifndef GK_EXPR_H
#define GK_EXPR_H

#include <stdint.h>

#define GK_MAX_VARIABLES 24
/* Values an expression may hold at once: deeper nesting does not compile. */
#define GK_EXPR_MAX_DEPTH 64

typedef struct gk_variables {
    int count;
    const char *names[GK_MAX_VARIABLES];
    int64_t values[GK_MAX_VARIABLES];
} gk_variables;

/* Sets (or adds) a variable; returns 0 when the table is full. */
int gk_variables_set(gk_variables *vars, const char *name, int64_t value);
/* Returns 1 and the value when found. */
int gk_variables_get(const gk_variables *vars, const char *name, int64_t *value);

/* Evaluates `text`; returns 0 on success, else -1 with a message in error. */
int gk_expr_eval(const char *text, const gk_variables *vars, int64_t *result, char *error,
                 int error_size);

/* The compiled form. */
typedef enum gk_expr_op {
    GK_EXPR_CONST,    /* push value */
    GK_EXPR_VAR,      /* push values[arg] */
    GK_EXPR_OVERFLOW, /* a literal beyond int64: fails when evaluated */
    GK_EXPR_NEG,
    GK_EXPR_NOT,
    GK_EXPR_ADD,
    GK_EXPR_SUB,
    GK_EXPR_MUL,
    GK_EXPR_DIV,
    GK_EXPR_MOD,
    GK_EXPR_LT,
    GK_EXPR_LE,
    GK_EXPR_GT,
    GK_EXPR_GE,
    GK_EXPR_EQ,
    GK_EXPR_NE,
    GK_EXPR_MIN,
    GK_EXPR_MAX,
    GK_EXPR_AND,  /* left side of &&: 0 stays and jumps to arg, else popped */
    GK_EXPR_OR,   /* left side of ||: non-zero becomes 1 and jumps to arg, else popped */
    GK_EXPR_BOOL, /* right side of && or ||: 0 or 1 */
} gk_expr_op;

typedef struct gk_expr_node {
    uint8_t op;     /* gk_expr_op */
    int32_t arg;    /* GK_EXPR_VAR: the slot; GK_EXPR_AND/OR: the node to jump to */
    int32_t offset; /* where in the text an arithmetic failure is reported */
    int64_t value;  /* GK_EXPR_CONST */
} gk_expr_node;

typedef struct gk_expr_code {
    gk_expr_node *nodes; /* capacity nodes, the caller's */
    int capacity, count;
    uint32_t reads; /* bit i: slot i is read (slots 0-31) */
} gk_expr_code;

/* Compiles `text` over variables names[0..count) (slot i is names[i]; the
 * first match wins) into code->nodes. Returns 0, or -1 with a message in
 * error for malformed text, an unknown name, nesting deeper than
 * GK_EXPR_MAX_DEPTH or more nodes than code->capacity (strlen(text) + 1 always
 * suffice). Arithmetic is left to evaluation: "1 / 0" compiles. */
int gk_expr_compile(const char *text, const char *const *names, int count, gk_expr_code *code, char *error,
                    int error_size);

/* Why an evaluation failed, and where in the text. */
typedef struct gk_expr_fault {
    const char *what; /* "division by zero" or "integer overflow" */
    int offset;
} gk_expr_fault;

/* Evaluates compiled code over values (indexed by slot). Returns 0 and the
 * result, or -1 (division by zero or int64 overflow where the value is used;
 * the side of && or || that C would skip is not evaluated) and, when fault is
 * not NULL, why. */
int gk_expr_run(const gk_expr_node *nodes, int count, const int64_t *values, int64_t *result,
                gk_expr_fault *fault);

/* The message gk_expr_eval gives for a fault of the evaluation of `text`. */
void gk_expr_fault_message(const gk_expr_fault *fault, const char *text, char *error, int error_size);

#endif
