/* The registry and its expression language: every registered kernel is
 * complete and consistent, and the evaluator gets precedence and errors right. */
#include "contract.h"
#include "expr.h"
#include "kernel_config.h"
#include "test_choices.h"
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
        /* One text: includes (library/async_copy.h) were inlined when the sources were embedded. */
        assert_null(strstr(gk_kernel_source(d->source), "\n#include"));
        assert_ptr_equal(gk_kernel_find(d->name), d); /* names are unique */
        gk_config config;
        if (gk_config_resolve(d, NULL, &config) != GEMMKIT_SUCCESS)
            print_error("%s: defaults rejected: %s\n", d->name, gemmkit_last_error_message());
        assert_int_equal(gk_config_resolve(d, NULL, &config), GEMMKIT_SUCCESS);
        gk_geometry g;
        /* at a size the kernel serves: the tiny batched kernel keeps whole matrices in local memory */
        const int64_t size = d->contract == GK_CONTRACT_GEMM_BATCHED_SMALL ? 32 : 256;
        assert_int_equal(gk_config_geometry(&config, size, size, size, &g), GEMMKIT_SUCCESS);
        /* Defaults fit a 1024-work-item, 48 KiB GPU such as the H200 (local memory sized at launch: its
         * 227 KiB, CUDA-only kernels). */
        const int64_t local_limit = d->flags & GK_FLAG_DYNAMIC_LOCAL ? 227 * 1024 : 48 * 1024;
        if (g.local_x * g.local_y > 1024 || g.local_mem_bytes > local_limit)
            print_error("%s: defaults exceed 1024 work-items / %lld bytes\n", d->name, (long long)local_limit);
        assert_true(g.local_x * g.local_y <= 1024);
        assert_true(g.local_mem_bytes <= local_limit);
        if (d->flags & GK_FLAG_DYNAMIC_LOCAL) assert_int_equal(d->backends, GK_BACKEND_BIT_CUDA);
        /* Every parameter's tuning choices satisfy the expression language. */
        for (int p = 0; p < GK_MAX_PARAMS && d->params[p].name; p++) assert_non_null(d->params[p].choices);
    }
}

/* One parameter choice at every size. */
static void small_fits_at_every_size(const char *params, const gk_config *config, void *data)
{
    (void)data;
    static const int64_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 31, 32};
    const int count = (int)(sizeof sizes / sizeof sizes[0]);
    const int64_t elems = gk_config_value(config, "ELEMS", 0);
    for (int i = 0; i < count; i++)
        for (int j = 0; j < count; j++)
            for (int k = 0; k < count; k++) {
                const int64_t m = sizes[i], n = sizes[j], kk = sizes[k];
                const int64_t most = elems / (m * n) > 1 ? elems / (m * n) : 1; /* ELEMS / (M*N) */
                gk_geometry g;
                assert_int_equal(gk_config_geometry(config, m, n, kk, &g), GEMMKIT_SUCCESS);
                if (g.local_mem_bytes > 48 * 1024 || g.local_x > 1024 || g.tile_m < 1 || g.tile_m > most)
                    print_error("%s at %lldx%lldx%lld: %lld bytes, %lld work-items, %lld matrices\n", params,
                                (long long)m, (long long)n, (long long)kk, (long long)g.local_mem_bytes,
                                (long long)g.local_x, (long long)g.tile_m);
                assert_true(g.local_mem_bytes <= 48 * 1024 && g.local_x <= 1024);
                assert_true(g.tile_m >= 1 && g.tile_m <= most);
            }
}

/* batched-small fits 48 KiB of local memory and 1024 work-items with every parameter choice its constraints
 * allow, at every size the policy can send it (M, N, K up to 32; sampled), and its work-group holds at least one
 * matrix: the registry's formulas, which batched_small.cl repeats (test_batched checks the two agree). */
static void test_batched_small_fits_everywhere(void **state)
{
    (void)state;
    const gk_kernel_def *def = gk_kernel_find("batched-small");
    assert_non_null(def);
    const int configs = test_each_choice(def, small_fits_at_every_size, NULL);
    assert_int_equal(configs, 66);
    /* 8^3 and 16^3 keep ELEMS / (M*N) matrices even at ELEMS = 4096 */
    gk_config big;
    assert_int_equal(gk_config_resolve(def, "ELEMS=4096,RM=4,RN=4", &big), GEMMKIT_SUCCESS);
    gk_geometry g;
    assert_int_equal(gk_config_geometry(&big, 8, 8, 8, &g), GEMMKIT_SUCCESS);
    assert_int_equal(g.tile_m, 64);
    assert_int_equal(gk_config_geometry(&big, 16, 16, 16, &g), GEMMKIT_SUCCESS);
    assert_int_equal(g.tile_m, 16);
}

/* DENSE_A/B/C: an operand's batch is one dense, float4-aligned run (ld = stored rows, stride = rows * cols,
 * offset and stride multiples of 4; never a broadcast), each operand on its own, stored shapes per transpose. */
static void test_dense_defines(void **state)
{
    (void)state;
    gk_operands o = {.m = 8, .n = 6, .k = 2, .batch = 10, .stride_a = 16, .stride_b = 12, .stride_c = 48};
    o.a.ld = 8, o.b.ld = 2, o.c.ld = 8;
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_A, &o), 1);
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_B, &o), 1);
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_C, &o), 1);
    gk_operands x = o;
    x.a.offset = 4, x.b.offset = 8, x.c.offset = 400;
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_A, &x), 1);
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_B, &x), 1);
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_C, &x), 1);
    x.a.offset = 2; /* misaligned: A alone goes general */
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_A, &x), 0);
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_B, &x), 1);
    x = o, x.a.ld = 12, x.stride_a = 24; /* a leading dimension above the rows */
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_A, &x), 0);
    x = o, x.stride_b = 16; /* a gap between matrices */
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_B, &x), 0);
    x = o, x.stride_a = 0; /* a broadcast */
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_A, &x), 0);
    x = o, x.m = 7, x.stride_a = 14, x.a.ld = 7, x.c.ld = 7, x.stride_c = 42; /* 14 and 42 floats: no float4 runs */
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_A, &x), 0);
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_C, &x), 0);
    /* Transposed: A stored K x M (ld 2), B stored N x K (ld 6). */
    x = o, x.trans_a = 1, x.trans_b = 1, x.a.ld = 2, x.b.ld = 6;
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_A, &x), 1);
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_B, &x), 1);
    x.a.ld = 8; /* the untransposed ld is no longer tight */
    assert_int_equal(gk_contract_define_value(GK_DEFINE_DENSE_A, &x), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expressions),
        cmocka_unit_test(test_every_kernel_is_consistent),
        cmocka_unit_test(test_batched_small_fits_everywhere),
        cmocka_unit_test(test_dense_defines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
