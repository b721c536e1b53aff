/* The expression language's two evaluators cannot drift: gk_expr_eval (text
 * over string-keyed variables, the registry's) and gk_expr_compile +
 * gk_expr_run (slots, the policy's conditions) agree with each other, with C
 * on expressions C evaluates the same way, and with a tree evaluator of
 * random expressions here: values, short-circuit, precedence, division by
 * zero and overflow where the value is used, unknown names and syntax. */
#include <inttypes.h>
#include <stdio.h>

#include "expr.h"
#include "policy.h"
#include "test_support.h"

/* The variables, in two orders: the text API's table, and the compiled code's slots (reversed). */
#define VARIABLES 6
static const char *const names[VARIABLES] = {"M", "N", "K", "WORK", "ZERO", "NEG"};

typedef struct outcome {
    int status;
    int64_t value;
    char error[256];
} outcome;

static outcome by_text(const char *text, const int64_t *values)
{
    gk_variables vars = {0};
    for (int i = 0; i < VARIABLES; i++) gk_variables_set(&vars, names[i], values[i]);
    outcome o = {0, 0, ""};
    o.status = gk_expr_eval(text, &vars, &o.value, o.error, sizeof o.error);
    return o;
}

static outcome by_code(const char *text, const int64_t *values)
{
    const char *reversed[VARIABLES];
    int64_t slots[VARIABLES];
    for (int i = 0; i < VARIABLES; i++) {
        reversed[i] = names[VARIABLES - 1 - i];
        slots[i] = values[VARIABLES - 1 - i];
    }
    gk_expr_node nodes[512];
    gk_expr_code code = {nodes, 512, 0, 0};
    outcome o = {0, 0, ""};
    o.status = gk_expr_compile(text, reversed, VARIABLES, &code, o.error, sizeof o.error);
    if (o.status != 0) return o;
    gk_expr_fault fault;
    o.status = gk_expr_run(code.nodes, code.count, slots, &o.value, &fault);
    if (o.status != 0) gk_expr_fault_message(&fault, text, o.error, sizeof o.error);
    return o;
}

/* Both evaluators give the same status, value and message; returns it. */
static outcome both(const char *text, const int64_t *values)
{
    const outcome t = by_text(text, values), c = by_code(text, values);
    if (t.status != c.status || (t.status == 0 && t.value != c.value) || strcmp(t.error, c.error) != 0)
        print_error("\"%s\": text %d %" PRId64 " \"%s\", compiled %d %" PRId64 " \"%s\"\n", text, t.status, t.value,
                    t.error, c.status, c.value, c.error);
    assert_int_equal(t.status, c.status);
    if (t.status == 0) assert_true(t.value == c.value);
    assert_string_equal(t.error, c.error);
    return t;
}

/* Expressions C evaluates like the language (no division by zero or overflow at these values). */
#define CASES(X)                                                                                                       \
    X(M + N * K) X((M + N) * K) X(M - N - K) X(M / N * K) X(M % K + N / K) X(-M + -(-N)) X(!M + !ZERO)                 \
    X(M < N == N < M) X(M <= N && N >= K || K > M) X(M != N && !(K == WORK)) X(M * N * K == WORK)                     \
    X(WORK >= 8589934592 || M <= 32 || N <= 32) X(ZERO == 0 || 32 % ZERO == 0) X(ZERO != 0 && M / ZERO > 1)            \
    X(M && N || ZERO && K) X(!(M || ZERO) == !M && !ZERO) X(NEG / 3 + NEG % 3) X(-NEG * -NEG - NEG)                    \
    X(M > 1 && M < 100 || N > 1 && N < 100) X(1 + 2 * 3 - 4 / 2 % 3) X(7 >= 7 && 6 > 7 == 0)                           \
    X(WORK + WORK / 2 > M * N) X(ZERO || NEG) X(NEG && ZERO || M)

/* The cases are written as the language reads them, and C short-circuits the divisions by ZERO. */
#pragma GCC diagnostic ignored "-Wparentheses"
#pragma GCC diagnostic ignored "-Wdiv-by-zero"

#define MIN_C(a, b) ((a) < (b) ? (a) : (b))
#define MAX_C(a, b) ((a) > (b) ? (a) : (b))

static void test_agrees_with_c(void **state)
{
    (void)state;
    static const int64_t shapes[][3] = {{1, 1, 1}, {16, 16, 16}, {7, 300, 2}, {4096, 32, 4096}, {65536, 65536, 3}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int64_t M = shapes[s][0], N = shapes[s][1], K = shapes[s][2], WORK = M * N * K, ZERO = 0, NEG = -7;
        const int64_t values[VARIABLES] = {M, N, K, WORK, ZERO, NEG};
#define CHECK(e)                                                                                                       \
    {                                                                                                                  \
        const outcome o = both(#e, values);                                                                            \
        assert_int_equal(o.status, 0);                                                                                 \
        assert_true(o.value == (int64_t)(e));                                                                          \
    }
        CASES(CHECK)
        const outcome lo = both("min(M, N) + max(K, NEG) * 2", values);
        assert_true(lo.value == MIN_C(M, N) + MAX_C(K, NEG) * 2);
    }
}

/* Failures, and failures that && and || skip: the same status and message from both. */
static void test_errors_agree(void **state)
{
    (void)state;
    const int64_t values[VARIABLES] = {16, 16, 16, 4096, 0, -7};
    static const struct {
        const char *text;
        int status;
        const char *message; /* a part of it, or NULL */
    } cases[] = {
        {"M / ZERO", -1, "division by zero at offset 8"},
        {"M % (ZERO * 5)", -1, "division by zero"},
        {"ZERO == 0 || M / ZERO", 0, NULL},
        {"ZERO != 0 && M / ZERO", 0, NULL},
        {"ZERO == 0 && M / ZERO", -1, "division by zero"},
        /* The skipped side's product goes on after the division (it stopped the parse before). */
        {"ZERO == 0 || 32 % ZERO * 2 == 0", 0, NULL},
        {"WORK * WORK * WORK * WORK * WORK * WORK", -1, "integer overflow"},
        {"ZERO && WORK * WORK * WORK * WORK * WORK * WORK", 0, NULL},
        {"99999999999999999999", -1, "integer overflow at offset 18"},
        {"M || 99999999999999999999", 0, NULL},
        {"9223372036854775807 + 1", -1, "integer overflow"},
        {"-9223372036854775807 - 1 - 1", -1, "integer overflow"},
        {"(-9223372036854775807 - 1) / -1", -1, "integer overflow"},
        {"-(-9223372036854775807 - 1)", -1, "integer overflow"},
        {"UNKNOWN + 1", -1, "unknown name 'UNKNOWN'"},
        {"ZERO == 0 || UNKNOWN", -1, "unknown name"},
        {"ZERO == 0 || (1 + ", -1, "expected"},
        {"(1 + 2", -1, "expected ')'"},
        {"1 2", -1, "unexpected text"},
        {"", -1, "expected a number, name or '('"},
        {"min(1, 2", -1, "expected ')'"},
        {"max 1", -1, "expected '(' after min/max"},
        {"M <= = N", -1, "expected"},
        {"M < = N", -1, "expected"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const outcome o = both(cases[i].text, values);
        if (o.status != cases[i].status) print_error("\"%s\": %d (%s)\n", cases[i].text, o.status, o.error);
        assert_int_equal(o.status, cases[i].status);
        if (cases[i].message) assert_non_null(strstr(o.error, cases[i].message));
    }
}

/* Random expressions as trees, printed with only the parentheses precedence needs, evaluated here. */
enum { LIT, VAR, NEGATE, NOT, MUL, DIV, MOD, ADD, SUB, LT, LE, GT, GE, EQ, NE, AND, OR, MIN, MAX, KINDS };
static const char *const spelling[KINDS] = {"", "", "-", "!", "*", "/", "%", "+", "-", "<", "<=", ">", ">=",
                                            "==", "!=", "&&", "||", "min", "max"};
static int precedence(int kind)
{
    switch (kind) {
    case OR: return 1;
    case AND: return 2;
    case EQ: case NE: return 3;
    case LT: case LE: case GT: case GE: return 4;
    case ADD: case SUB: return 5;
    case MUL: case DIV: case MOD: return 6;
    case NEGATE: case NOT: return 7;
    default: return 8;
    }
}

typedef struct node {
    int kind;
    int64_t value; /* LIT: the literal; VAR: the variable */
    struct node *a, *b;
} node;

/* xorshift64: the same expressions on every run. */
static uint32_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (uint32_t)(*state >> 16);
}

static node pool[4096];
static int used;

static node *random_tree(uint64_t *rng, int depth)
{
    node *n = &pool[used++];
    *n = (node){0};
    const uint32_t r = next_random(rng);
    if (depth == 0 || r % 5 == 0) {
        n->kind = r % 2 ? LIT : VAR;
        static const int64_t literals[] = {0, 1, 2, 3, 7, 32, 1000, 4611686018427387904, 9223372036854775807};
        n->value = n->kind == LIT ? literals[(r >> 8) % 9] : (int64_t)((r >> 8) % VARIABLES);
        return n;
    }
    n->kind = NEGATE + (int)((r >> 4) % (KINDS - NEGATE));
    n->a = random_tree(rng, depth - 1);
    if (n->kind != NEGATE && n->kind != NOT) n->b = random_tree(rng, depth - 1);
    return n;
}

static void print_tree(const node *n, char *out, size_t size, size_t *used_chars);

/* A child, in parentheses where the parser would otherwise bind it differently. */
static void print_child(const node *child, int parent, int right, char *out, size_t size, size_t *at)
{
    const int p = precedence(child->kind), q = precedence(parent);
    const int parens = p < q || (right && p == q && q < 7) || (parent == NEGATE && child->kind == LIT);
    if (parens) *at += (size_t)snprintf(out + *at, size - *at, "(");
    print_tree(child, out, size, at);
    if (parens) *at += (size_t)snprintf(out + *at, size - *at, ")");
}

static void print_tree(const node *n, char *out, size_t size, size_t *at)
{
    if (*at >= size) return;
    switch (n->kind) {
    case LIT: *at += (size_t)snprintf(out + *at, size - *at, "%" PRId64, n->value); return;
    case VAR: *at += (size_t)snprintf(out + *at, size - *at, "%s", names[n->value]); return;
    case NEGATE:
    case NOT:
        *at += (size_t)snprintf(out + *at, size - *at, "%s", spelling[n->kind]);
        print_child(n->a, n->kind, 0, out, size, at);
        return;
    case MIN:
    case MAX:
        *at += (size_t)snprintf(out + *at, size - *at, "%s(", spelling[n->kind]);
        print_tree(n->a, out, size, at);
        *at += (size_t)snprintf(out + *at, size - *at, ", ");
        print_tree(n->b, out, size, at);
        *at += (size_t)snprintf(out + *at, size - *at, ")");
        return;
    default:
        print_child(n->a, n->kind, 0, out, size, at);
        *at += (size_t)snprintf(out + *at, size - *at, " %s ", spelling[n->kind]);
        print_child(n->b, n->kind, 1, out, size, at);
    }
}

/* C's value, or 0 when the language fails: division by zero, int64 overflow where the value is used. */
static int eval_tree(const node *n, const int64_t *values, int64_t *v)
{
    int64_t a = 0, b = 0;
    switch (n->kind) {
    case LIT: *v = n->value; return 1;
    case VAR: *v = values[n->value]; return 1;
    case AND:
        if (!eval_tree(n->a, values, &a)) return 0;
        if (!a) return *v = 0, 1;
        if (!eval_tree(n->b, values, &b)) return 0;
        return *v = b != 0, 1;
    case OR:
        if (!eval_tree(n->a, values, &a)) return 0;
        if (a) return *v = 1, 1;
        if (!eval_tree(n->b, values, &b)) return 0;
        return *v = b != 0, 1;
    default: break;
    }
    if (!eval_tree(n->a, values, &a)) return 0;
    if (n->kind == NEGATE) return !__builtin_sub_overflow((int64_t)0, a, v);
    if (n->kind == NOT) return *v = !a, 1;
    if (!eval_tree(n->b, values, &b)) return 0;
    switch (n->kind) {
    case MUL: return !__builtin_mul_overflow(a, b, v);
    case ADD: return !__builtin_add_overflow(a, b, v);
    case SUB: return !__builtin_sub_overflow(a, b, v);
    case DIV:
    case MOD:
        if (b == 0 || (b == -1 && a == INT64_MIN)) return 0;
        return *v = n->kind == DIV ? a / b : a % b, 1;
    case LT: return *v = a < b, 1;
    case LE: return *v = a <= b, 1;
    case GT: return *v = a > b, 1;
    case GE: return *v = a >= b, 1;
    case EQ: return *v = a == b, 1;
    case NE: return *v = a != b, 1;
    case MIN: return *v = a < b ? a : b, 1;
    case MAX: return *v = a > b ? a : b, 1;
    default: return 0;
    }
}

static void test_random_expressions(void **state)
{
    (void)state;
    uint64_t rng = 0x9e3779b97f4a7c15u;
    static const int64_t assignments[][VARIABLES] = {
        {16, 16, 16, 4096, 0, -7}, {1, 2, 3, 6, 0, -1}, {4611686018427387904, 3, 0, -1, 0, INT64_MIN}};
    int failures = 0;
    for (int i = 0; i < 20000; i++) {
        used = 0;
        const node *tree = random_tree(&rng, 1 + i % 5);
        char text[1024];
        size_t at = 0;
        print_tree(tree, text, sizeof text, &at);
        if (at >= sizeof text) continue;
        const int64_t *values = assignments[i % 3];
        int64_t expected = 0;
        const int ok = eval_tree(tree, values, &expected);
        const outcome o = both(text, values);
        if (o.status != (ok ? 0 : -1) || (ok && o.value != expected)) {
            print_error("\"%s\": %d %" PRId64 " (%s), expected %d %" PRId64 "\n", text, o.status, o.value, o.error,
                        ok ? 0 : -1, expected);
            failures++;
        }
        if (!ok) assert_true(strstr(o.error, "division by zero") || strstr(o.error, "integer overflow"));
    }
    assert_int_equal(failures, 0);
}

/* The policy's compiled conditions: route rows read only route variables; a class whose route rows read no
 * variable has its route fixed at load. */
static void test_policy_compiled(void **state)
{
    (void)state;
    gk_policy policy;
    gk_policy_parse("compiled.tsv",
                    "gemm\troute\tgpu\ttiled\tWORK >= 8589934592\n"
                    "gemm\troute\tgpu\tdevice\tTILE_M > 0\n"
                    "gemm\troute\tcpu\tdevice\t0 && M\n"
                    "gemm\troute\tcpu\thost-blas\t1 || M / 0\n"
                    "gemm\tkernel\tany\tdirect\tM / (N - 1) > 0\n",
                    &policy);
    assert_int_equal(policy.count, 3);
    assert_non_null(strstr(policy.warnings, "compiled.tsv:2: condition: unknown name 'TILE_M'"));
    assert_non_null(strstr(policy.warnings, "compiled.tsv:5: condition: division by zero"));
    int fixed = 0;
    assert_null(gk_policy_fixed(&policy, GK_ROUTINE_GEMM, GK_STEP_ROUTE, 1, &fixed));
    assert_false(fixed);
    /* "0 && M" reads M: the cpu route depends on the values as far as the load can tell. */
    assert_null(gk_policy_fixed(&policy, GK_ROUTINE_GEMM, GK_STEP_ROUTE, 0, &fixed));
    assert_false(fixed);
    const gk_policy *builtin = gk_policy_builtin();
    const gk_policy_rule *cpu = gk_policy_fixed(builtin, GK_ROUTINE_GEMM, GK_STEP_ROUTE, 0, &fixed);
    assert_true(fixed);
    assert_non_null(cpu);
    assert_int_equal(cpu->route, GK_ROUTE_HOST_BLAS);
    gk_policy_fixed(builtin, GK_ROUTINE_GEMM, GK_STEP_ROUTE, 1, &fixed);
    assert_false(fixed);
    gk_policy_parse("constant.tsv", "gemm\troute\tcpu\tdevice\t2 < 1\ngemm\troute\tcpu\ttiled\t1 + 1\n", &policy);
    const gk_policy_rule *tiled = gk_policy_fixed(&policy, GK_ROUTINE_GEMM, GK_STEP_ROUTE, 0, &fixed);
    assert_true(fixed);
    assert_int_equal(tiled->route, GK_ROUTE_TILED);
    assert_null(gk_policy_fixed(&policy, GK_ROUTINE_GEMM, GK_STEP_KERNEL, 0, &fixed));
    assert_true(fixed); /* no kernel rows: none holds, whatever the values */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agrees_with_c),
        cmocka_unit_test(test_errors_agree),
        cmocka_unit_test(test_random_expressions),
        cmocka_unit_test(test_policy_compiled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
