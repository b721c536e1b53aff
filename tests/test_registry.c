/* The registry and its expression language: every registered kernel is
 * complete and consistent, and the evaluator gets precedence and errors right. */
#include "expr.h"
#include "kernel_config.h"
#include "test_support.h"

static int64_t eval_ok(const char *text, const gk_variables *vars)
{
    int64_t v = 0;
    char error[128];
    if (gk_expr_eval(text, vars, &v, error, sizeof error) != 0) print_error("%s: %s\n", text, error);
    assert_int_equal(gk_expr_eval(text, vars, &v, error, sizeof error), 0);
    return v;
}

static void test_expressions(void **state)
{
    (void)state;
    gk_variables vars = {0};
    gk_variables_set(&vars, "TSM", 128);
    gk_variables_set(&vars, "WPTM", 8);
    assert_int_equal(eval_ok("TSM/WPTM", &vars), 16);
    assert_int_equal(eval_ok("2 + 3 * 4", &vars), 14);
    assert_int_equal(eval_ok("(2 + 3) * 4", &vars), 20);
    assert_int_equal(eval_ok("TSM % WPTM == 0 && WPTM <= 8", &vars), 1);
    assert_int_equal(eval_ok("TSM < 64 || !(WPTM != 8)", &vars), 1);
    assert_int_equal(eval_ok("min(TSM, 100) + max(1, -WPTM)", &vars), 101);
    assert_int_equal(eval_ok("10 - 2 - 3", &vars), 5);
    assert_int_equal(eval_ok("7 >= 7 && 6 > 7 == 0", &vars), 1);
    int64_t v;
    char error[128];
    assert_int_equal(gk_expr_eval("TSM / 0", &vars, &v, error, sizeof error), -1);
    assert_int_equal(gk_expr_eval("UNKNOWN + 1", &vars, &v, error, sizeof error), -1);
    assert_non_null(strstr(error, "UNKNOWN"));
    assert_int_equal(gk_expr_eval("(1 + 2", &vars, &v, error, sizeof error), -1);
    assert_int_equal(gk_expr_eval("1 2", &vars, &v, error, sizeof error), -1);
    /* && and || short-circuit: arithmetic on the side not evaluated cannot fail, names and syntax still count. */
    gk_variables_set(&vars, "ZERO", 0);
    assert_int_equal(eval_ok("ZERO == 0 || 32 % ZERO == 0", &vars), 1);
    assert_int_equal(eval_ok("ZERO != 0 && TSM / ZERO > 1", &vars), 0);
    assert_int_equal(gk_expr_eval("ZERO != 0 || 32 % ZERO == 0", &vars, &v, error, sizeof error), -1);
    assert_non_null(strstr(error, "division by zero"));
    assert_int_equal(gk_expr_eval("ZERO == 0 || UNKNOWN", &vars, &v, error, sizeof error), -1);
    assert_int_equal(gk_expr_eval("ZERO == 0 || (1 + ", &vars, &v, error, sizeof error), -1);
}

static void test_every_kernel_is_consistent(void **state)
{
    (void)state;
    assert_true(gk_kernel_count() > 0);
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *d = gk_kernel_at(i);
        assert_non_null(d->name);
        assert_non_null(d->summary);
        assert_non_null(d->function);
        if (!gk_kernel_source(d->source)) print_error("%s: source %s not embedded\n", d->name, d->source);
        assert_non_null(gk_kernel_source(d->source));
        assert_non_null(strstr(gk_kernel_source(d->source), d->function));
        assert_ptr_equal(gk_kernel_find(d->name), d); /* names are unique */
        gk_config config;
        if (gk_config_resolve(d, NULL, &config) != GEMMKIT_SUCCESS)
            print_error("%s: defaults rejected: %s\n", d->name, gemmkit_last_error_message());
        assert_int_equal(gk_config_resolve(d, NULL, &config), GEMMKIT_SUCCESS);
        gk_geometry g;
        /* at a size the kernel serves: the tiny batched kernel keeps whole matrices in local memory */
        const int64_t size = d->contract == GK_CONTRACT_GEMM_BATCHED_SMALL ? 32 : 256;
        assert_int_equal(gk_config_geometry(&config, size, size, size, &g), GEMMKIT_SUCCESS);
        /* Defaults fit a 1024-work-item, 48 KiB GPU such as the H200. */
        if (g.local_x * g.local_y > 1024 || g.local_mem_bytes > 48 * 1024)
            print_error("%s: defaults exceed 1024 work-items / 48 KiB\n", d->name);
        assert_true(g.local_x * g.local_y <= 1024);
        assert_true(g.local_mem_bytes <= 48 * 1024);
        /* Every parameter's tuning choices satisfy the expression language. */
        for (int p = 0; p < GK_MAX_PARAMS && d->params[p].name; p++) assert_non_null(d->params[p].choices);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expressions),
        cmocka_unit_test(test_every_kernel_is_consistent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
