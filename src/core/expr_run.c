/* The evaluator of compiled expressions (expr.h): a stack machine over the
 * postfix code expr.c emits, with variables read from slots. No strings: the
 * policy evaluates its conditions with it on every call. */
#include "expr.h"

#include <stdio.h>

/* Stops the evaluation: arithmetic failed at node n. */
static int fault_at(const gk_expr_node *n, const char *what, gk_expr_fault *fault)
{
    if (fault) *fault = (gk_expr_fault){what, n->offset};
    return -1;
}

int gk_expr_run(const gk_expr_node *nodes, int count, const int64_t *values, int64_t *result, gk_expr_fault *fault)
{
    int64_t stack[GK_EXPR_MAX_DEPTH + 1];
    int top = -1; /* stack[top] is the last value pushed */
    for (int i = 0; i < count; i++) {
        const gk_expr_node *n = &nodes[i];
        int64_t a = 0, b = 0;
        switch ((gk_expr_op)n->op) {
        case GK_EXPR_CONST: stack[++top] = n->value; continue;
        case GK_EXPR_VAR: stack[++top] = values[n->arg]; continue;
        case GK_EXPR_OVERFLOW: return fault_at(n, "integer overflow", fault);
        case GK_EXPR_NEG:
            if (__builtin_sub_overflow((int64_t)0, stack[top], &stack[top]))
                return fault_at(n, "integer overflow", fault);
            continue;
        case GK_EXPR_NOT: stack[top] = !stack[top]; continue;
        case GK_EXPR_BOOL: stack[top] = stack[top] != 0; continue;
        case GK_EXPR_AND:
            if (stack[top] == 0) i = n->arg - 1; /* 0 && x is 0 */
            else top--;
            continue;
        case GK_EXPR_OR:
            if (stack[top] != 0) {
                stack[top] = 1;
                i = n->arg - 1;
            } else {
                top--;
            }
            continue;
        default: break;
        }
        /* Binary operators: a op b. */
        b = stack[top--];
        a = stack[top];
        int64_t *r = &stack[top];
        switch ((gk_expr_op)n->op) {
        case GK_EXPR_ADD:
            if (__builtin_add_overflow(a, b, r)) return fault_at(n, "integer overflow", fault);
            break;
        case GK_EXPR_SUB:
            if (__builtin_sub_overflow(a, b, r)) return fault_at(n, "integer overflow", fault);
            break;
        case GK_EXPR_MUL:
            if (__builtin_mul_overflow(a, b, r)) return fault_at(n, "integer overflow", fault);
            break;
        case GK_EXPR_DIV:
        case GK_EXPR_MOD:
            if (b == 0) return fault_at(n, "division by zero", fault);
            if (b == -1 && a == INT64_MIN) return fault_at(n, "integer overflow", fault);
            *r = n->op == GK_EXPR_DIV ? a / b : a % b;
            break;
        case GK_EXPR_LT: *r = a < b; break;
        case GK_EXPR_LE: *r = a <= b; break;
        case GK_EXPR_GT: *r = a > b; break;
        case GK_EXPR_GE: *r = a >= b; break;
        case GK_EXPR_EQ: *r = a == b; break;
        case GK_EXPR_NE: *r = a != b; break;
        case GK_EXPR_MIN: *r = a < b ? a : b; break;
        case GK_EXPR_MAX: *r = a > b ? a : b; break;
        default: return fault_at(n, "bad code", fault);
        }
    }
    if (top != 0) {
        static const gk_expr_node none = {0};
        return fault_at(count ? &nodes[count - 1] : &none, "bad code", fault);
    }
    *result = stack[0];
    return 0;
}

void gk_expr_fault_message(const gk_expr_fault *fault, const char *text, char *error, int error_size)
{
    if (error_size > 0)
        snprintf(error, (size_t)error_size, "%s at offset %d in \"%s\"", fault->what, fault->offset, text);
}
