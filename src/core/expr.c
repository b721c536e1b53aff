/* Recursive-descent evaluator for gk_expr_eval: precedence from || (lowest)
 * through &&, equality, comparison, + -, * / %, unary, to primaries. && and ||
 * short-circuit as in C: the side not evaluated is still parsed (names and
 * syntax are checked) but its arithmetic cannot fail, so "X == 0 || 32 % X == 0"
 * is a valid constraint. */
#include "expr.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct parser {
    const char *text;
    const char *pos;
    const gk_variables *vars;
    char *error;
    int error_size;
    int failed;
    int skipping; /* > 0 inside the unevaluated side of && or || */
} parser;

static int64_t parse_or(parser *p);
static void fail(parser *p, const char *what);
static void arithmetic_fail(parser *p, const char *what);

/* a op b for + - *, failing on int64 overflow instead of wrapping (undefined
 * behaviour): policy conditions multiply problem sizes. */
static int64_t checked(parser *p, int64_t a, char op, int64_t b)
{
    int64_t r = 0;
    int overflow = op == '+' ? __builtin_add_overflow(a, b, &r)
                 : op == '-' ? __builtin_sub_overflow(a, b, &r)
                             : __builtin_mul_overflow(a, b, &r);
    if (overflow) arithmetic_fail(p, "integer overflow");
    return overflow ? 0 : r;
}

static void fail(parser *p, const char *what)
{
    if (!p->failed)
        snprintf(p->error, (size_t)p->error_size, "%s at offset %d in \"%s\"", what,
                 (int)(p->pos - p->text), p->text);
    p->failed = 1;
}

/* Division by zero and overflow: errors only where the value is used. */
static void arithmetic_fail(parser *p, const char *what)
{
    if (!p->skipping) fail(p, what);
}

static void skip_space(parser *p)
{
    while (isspace((unsigned char)*p->pos)) p->pos++;
}

static int accept(parser *p, const char *token)
{
    skip_space(p);
    size_t len = strlen(token);
    if (strncmp(p->pos, token, len) != 0) return 0;
    /* "<" must not match the start of "<=", nor "=" of "==" etc. */
    if (len == 1 && (token[0] == '<' || token[0] == '>' || token[0] == '!') && p->pos[1] == '=')
        return 0;
    p->pos += len;
    return 1;
}

static int64_t parse_primary(parser *p)
{
    skip_space(p);
    if (accept(p, "(")) {
        int64_t v = parse_or(p);
        if (!accept(p, ")")) fail(p, "expected ')'");
        return v;
    }
    if (isdigit((unsigned char)*p->pos)) {
        int64_t v = 0;
        while (isdigit((unsigned char)*p->pos)) {
            v = checked(p, v, '*', 10);
            v = checked(p, v, '+', *p->pos++ - '0');
        }
        return v;
    }
    if (isalpha((unsigned char)*p->pos) || *p->pos == '_') {
        char name[64];
        int len = 0;
        while ((isalnum((unsigned char)*p->pos) || *p->pos == '_') && len < 63)
            name[len++] = *p->pos++;
        name[len] = '\0';
        if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) {
            if (!accept(p, "(")) fail(p, "expected '(' after min/max");
            int64_t a = parse_or(p);
            if (!accept(p, ",")) fail(p, "expected ','");
            int64_t b = parse_or(p);
            if (!accept(p, ")")) fail(p, "expected ')'");
            return name[1] == 'i' ? (a < b ? a : b) : (a > b ? a : b);
        }
        int64_t v = 0;
        if (!gk_variables_get(p->vars, name, &v)) {
            char msg[96];
            snprintf(msg, sizeof msg, "unknown name '%s'", name);
            fail(p, msg);
        }
        return v;
    }
    fail(p, "expected a number, name or '('");
    return 0;
}

static int64_t parse_unary(parser *p)
{
    if (accept(p, "-")) return checked(p, 0, '-', parse_unary(p));
    if (accept(p, "!")) return !parse_unary(p);
    return parse_primary(p);
}

static int64_t parse_product(parser *p)
{
    int64_t v = parse_unary(p);
    for (;;) {
        if (accept(p, "*")) {
            v = checked(p, v, '*', parse_unary(p));
        } else if (accept(p, "/") || accept(p, "%")) {
            char op = p->pos[-1];
            int64_t d = parse_unary(p);
            if (d == 0 || (d == -1 && v == INT64_MIN)) {
                arithmetic_fail(p, d == 0 ? "division by zero" : "integer overflow");
                return 0;
            }
            v = op == '/' ? v / d : v % d;
        } else {
            return v;
        }
    }
}

static int64_t parse_sum(parser *p)
{
    int64_t v = parse_product(p);
    for (;;) {
        if (accept(p, "+")) v = checked(p, v, '+', parse_product(p));
        else if (accept(p, "-")) v = checked(p, v, '-', parse_product(p));
        else return v;
    }
}

static int64_t parse_compare(parser *p)
{
    int64_t v = parse_sum(p);
    for (;;) {
        if (accept(p, "<=")) v = v <= parse_sum(p);
        else if (accept(p, ">=")) v = v >= parse_sum(p);
        else if (accept(p, "<")) v = v < parse_sum(p);
        else if (accept(p, ">")) v = v > parse_sum(p);
        else return v;
    }
}

static int64_t parse_equality(parser *p)
{
    int64_t v = parse_compare(p);
    for (;;) {
        if (accept(p, "==")) v = v == parse_compare(p);
        else if (accept(p, "!=")) v = v != parse_compare(p);
        else return v;
    }
}

static int64_t parse_and(parser *p)
{
    int64_t v = parse_equality(p);
    while (accept(p, "&&")) {
        const int skip = !v;
        p->skipping += skip;
        int64_t r = parse_equality(p);
        p->skipping -= skip;
        v = v && r;
    }
    return v;
}

static int64_t parse_or(parser *p)
{
    int64_t v = parse_and(p);
    while (accept(p, "||")) {
        const int skip = v != 0;
        p->skipping += skip;
        int64_t r = parse_and(p);
        p->skipping -= skip;
        v = v || r;
    }
    return v;
}

int gk_expr_eval(const char *text, const gk_variables *vars, int64_t *result, char *error,
                 int error_size)
{
    parser p = {text, text, vars, error, error_size, 0, 0};
    if (error_size > 0) error[0] = '\0';
    int64_t v = parse_or(&p);
    skip_space(&p);
    if (*p.pos != '\0') fail(&p, "unexpected text");
    if (p.failed) return -1;
    *result = v;
    return 0;
}

int gk_variables_set(gk_variables *vars, const char *name, int64_t value)
{
    for (int i = 0; i < vars->count; i++) {
        if (strcmp(vars->names[i], name) == 0) {
            vars->values[i] = value;
            return 1;
        }
    }
    if (vars->count >= GK_MAX_VARIABLES) return 0;
    vars->names[vars->count] = name;
    vars->values[vars->count++] = value;
    return 1;
}

int gk_variables_get(const gk_variables *vars, const char *name, int64_t *value)
{
    for (int i = 0; i < vars->count; i++) {
        if (strcmp(vars->names[i], name) == 0) {
            *value = vars->values[i];
            return 1;
        }
    }
    return 0;
}
