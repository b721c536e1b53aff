/* The compiler of gk_expr_compile: a recursive-descent parser, precedence from
 * || (lowest) through &&, then the binary levels of one table (equality,
 * comparison, + -, * / %), unary, to primaries, emitting postfix code for
 * expr_run.c. Names and syntax are
 * checked here, on both sides of && and ||; arithmetic (division by zero,
 * overflow, literals beyond int64) only fails when evaluated, and && and ||
 * jump over the side C would skip, so "X == 0 || 32 % X == 0" is a valid
 * constraint. */
#include "expr.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct parser {
    const char *text;
    const char *pos;
    const char *const *names;
    int name_count;
    gk_expr_code *code;
    int depth, max_depth; /* values on the machine's stack after the code so far */
    char *error;
    int error_size;
    int failed;
} parser;

static void parse_or(parser *p);

static void fail(parser *p, const char *what)
{
    if (!p->failed && p->error_size > 0)
        snprintf(p->error, (size_t)p->error_size, "%s at offset %d in \"%s\"", what, (int)(p->pos - p->text),
                 p->text);
    p->failed = 1;
}

/* Appends a node that changes the stack's depth by `effect`; returns its index. */
static int emit(parser *p, gk_expr_op op, int effect, int64_t value)
{
    gk_expr_code *c = p->code;
    if (p->failed) return 0;
    if (c->count == c->capacity) {
        fail(p, "expression too long");
        return 0;
    }
    p->depth += effect;
    if (p->depth > p->max_depth) p->max_depth = p->depth;
    if (p->depth > GK_EXPR_MAX_DEPTH) {
        fail(p, "expression nested too deeply");
        return 0;
    }
    c->nodes[c->count] = (gk_expr_node){.op = (uint8_t)op, .offset = (int32_t)(p->pos - p->text), .value = value};
    if (op == GK_EXPR_VAR) {
        c->nodes[c->count].arg = (int32_t)value;
        c->nodes[c->count].value = 0;
        if (value < 32) c->reads |= (uint32_t)1 << value;
    }
    return c->count++;
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

/* A literal: its value, or an overflow node reported at the digit where the value left int64. */
static void parse_number(parser *p)
{
    int64_t v = 0;
    int overflow_at = -1;
    while (isdigit((unsigned char)*p->pos)) {
        if (overflow_at < 0 && __builtin_mul_overflow(v, 10, &v)) overflow_at = (int)(p->pos - p->text);
        const int digit = *p->pos++ - '0';
        if (overflow_at < 0 && __builtin_add_overflow(v, digit, &v)) overflow_at = (int)(p->pos - p->text);
    }
    if (overflow_at < 0) {
        emit(p, GK_EXPR_CONST, 1, v);
        return;
    }
    const int at = emit(p, GK_EXPR_OVERFLOW, 1, 0);
    if (!p->failed) p->code->nodes[at].offset = overflow_at;
}

static void parse_primary(parser *p)
{
    skip_space(p);
    if (accept(p, "(")) {
        parse_or(p);
        if (!accept(p, ")")) fail(p, "expected ')'");
        return;
    }
    if (isdigit((unsigned char)*p->pos)) {
        parse_number(p);
        return;
    }
    if (isalpha((unsigned char)*p->pos) || *p->pos == '_') {
        char name[64];
        int len = 0;
        while ((isalnum((unsigned char)*p->pos) || *p->pos == '_') && len < 63)
            name[len++] = *p->pos++;
        name[len] = '\0';
        if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) {
            if (!accept(p, "(")) fail(p, "expected '(' after min/max");
            parse_or(p);
            if (!accept(p, ",")) fail(p, "expected ','");
            parse_or(p);
            if (!accept(p, ")")) fail(p, "expected ')'");
            emit(p, name[1] == 'i' ? GK_EXPR_MIN : GK_EXPR_MAX, -1, 0);
            return;
        }
        for (int i = 0; i < p->name_count; i++) {
            if (strcmp(p->names[i], name) == 0) {
                emit(p, GK_EXPR_VAR, 1, i);
                return;
            }
        }
        char msg[96];
        snprintf(msg, sizeof msg, "unknown name '%s'", name);
        fail(p, msg);
        return;
    }
    fail(p, "expected a number, name or '('");
}

static void parse_unary(parser *p)
{
    if (accept(p, "-")) {
        parse_unary(p);
        emit(p, GK_EXPR_NEG, 0, 0);
    } else if (accept(p, "!")) {
        parse_unary(p);
        emit(p, GK_EXPR_NOT, 0, 0);
    } else {
        parse_primary(p);
    }
}

/* The left-associative binary operators, from the tightest level to the
 * loosest; within a level a longer token comes before its prefix ("<=" before
 * "<"). */
static const struct binary_op {
    const char *token;
    gk_expr_op op;
} binary_levels[][4] = {
    {{"*", GK_EXPR_MUL}, {"/", GK_EXPR_DIV}, {"%", GK_EXPR_MOD}},
    {{"+", GK_EXPR_ADD}, {"-", GK_EXPR_SUB}},
    {{"<=", GK_EXPR_LE}, {">=", GK_EXPR_GE}, {"<", GK_EXPR_LT}, {">", GK_EXPR_GT}},
    {{"==", GK_EXPR_EQ}, {"!=", GK_EXPR_NE}},
};
#define EQUALITY_LEVEL ((int)(sizeof binary_levels / sizeof binary_levels[0]) - 1)

/* Operands of the level below (unary below level 0) joined by the operators of `level`. */
static void parse_binary(parser *p, int level)
{
    if (level < 0) {
        parse_unary(p);
        return;
    }
    parse_binary(p, level - 1);
    for (;;) {
        const struct binary_op *found = NULL;
        for (int i = 0; i < 4 && binary_levels[level][i].token && !found; i++)
            if (accept(p, binary_levels[level][i].token)) found = &binary_levels[level][i];
        if (!found) return;
        parse_binary(p, level - 1);
        emit(p, found->op, -1, 0);
    }
}

static void parse_equality(parser *p) { parse_binary(p, EQUALITY_LEVEL); }

/* left op right for && and ||: the jump over the right side, taken on the left's value alone. */
static void parse_logic(parser *p, const char *token, gk_expr_op op, void (*side)(parser *))
{
    side(p);
    while (accept(p, token)) {
        const int jump = emit(p, op, -1, 0);
        side(p);
        emit(p, GK_EXPR_BOOL, 0, 0);
        if (!p->failed) p->code->nodes[jump].arg = p->code->count;
    }
}

static void parse_and(parser *p) { parse_logic(p, "&&", GK_EXPR_AND, parse_equality); }

static void parse_or(parser *p) { parse_logic(p, "||", GK_EXPR_OR, parse_and); }

int gk_expr_compile(const char *text, const char *const *names, int count, gk_expr_code *code, char *error,
                    int error_size)
{
    parser p = {.text = text, .pos = text, .names = names, .name_count = count, .code = code,
                .error = error, .error_size = error_size};
    if (error_size > 0) error[0] = '\0';
    code->count = 0;
    code->reads = 0;
    parse_or(&p);
    skip_space(&p);
    if (*p.pos != '\0') fail(&p, "unexpected text");
    return p.failed ? -1 : 0;
}
