/* The slides' and the lecture's ladder kernels: registry order and defaults,
 * every kernel at native and odd sizes (transposes, alpha/beta, padding), with
 * a non-default parameter set, and the errors for bad parameters and for
 * configurations the device cannot run. */
#include <stdio.h>
#include <string.h>

#include "kernel_config.h"
#include "registry.h"
#include "test_support.h"

/* Each kernel with a non-default parameter set that changes its geometry. */
typedef struct ladder_kernel {
    const char *name;
    gk_family family;
    int step;
    const char *other_params;
} ladder_kernel;

static const ladder_kernel ladder[] = {
    {"slides-1-elem-per-item", GK_FAMILY_SLIDES, 1, "LX=8,LY=4"},
    {"slides-2-row-per-item", GK_FAMILY_SLIDES, 2, "WG=16"},
    /* PRIV below K: the row is done in several chunks. */
    {"slides-3-row-private-a", GK_FAMILY_SLIDES, 3, "WG=32,PRIV=16"},
    {"slides-4-private-a-local-b", GK_FAMILY_SLIDES, 4, "WG=16,PRIV=24"},
    {"slides-5-blocked", GK_FAMILY_SLIDES, 5, "BLOCK=8"},
    {"lecture-1-naive-1x128", GK_FAMILY_LECTURE, 1, "BY=32"},
    {"lecture-2-naive-128x1", GK_FAMILY_LECTURE, 2, "BX=32"},
    {"lecture-3-tiled", GK_FAMILY_LECTURE, 3, "BLOCK=32"},
    {"lecture-4-32x16-blocks", GK_FAMILY_LECTURE, 4, "TILE=16,BY=4"},
    {"lecture-5-transposed-bs", GK_FAMILY_LECTURE, 5, "TILE=16,BY=8,PAD=0"},
    {"lecture-6-one-block-shared", GK_FAMILY_LECTURE, 6, "TW=32,TH=8,TK=8"},
};
#define LADDER_COUNT (sizeof ladder / sizeof ladder[0])

static int64_t round_up(int64_t x, int64_t multiple) { return (x + multiple - 1) / multiple * multiple; }

static gk_sgemm_case make_case(gemmkit_layout layout, gemmkit_transpose ta, gemmkit_transpose tb, int64_t m,
                               int64_t n, int64_t k, float alpha, float beta, int64_t lda, int64_t ldb, int64_t ldc)
{
    gk_sgemm_case c = {layout, ta, tb, m, n, k, alpha, beta, lda, ldb, ldc};
    return c;
}

static void geometry_of(const char *name, const char *params, gk_geometry *g)
{
    const gk_kernel_def *def = gk_kernel_find(name);
    assert_non_null(def);
    gk_config config;
    assert_int_equal(gk_config_resolve(def, params, &config), GEMMKIT_SUCCESS);
    assert_int_equal(gk_config_geometry(&config, 64, 64, 64, g), GEMMKIT_SUCCESS);
}

/* Native sizes (multiples of the tile, so no padding): a square and a rectangular case. */
static void run_native(const char *name, const char *params)
{
    gk_geometry g;
    geometry_of(name, params, &g);
    gemmkit_options options = {.kernel = name, .params = params};
    int64_t s = 64;
    while (s % g.tile_m || s % g.tile_n || s % g.k_multiple) s++;
    assert_case_ok(&options, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, s, s, s, 1.0f, 0.0f,
                                       0, 0, 0));
    assert_case_ok(&options, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS,
                                       round_up(96, g.tile_m), round_up(40, g.tile_n), round_up(72, g.k_multiple),
                                       1.0f, 0.0f, 0, 0, 0));
}

/* Odd sizes through the padding path: transposes, layouts, alpha/beta, leading dimensions. */
static void run_odd(const char *name, const char *params)
{
    gemmkit_options options = {.kernel = name, .params = params};
    assert_case_ok(&options, make_case(GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 37, 53, 29, 0.75f, -1.5f,
                                       41, 60, 57));
    assert_case_ok(&options, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 45, 19, 70, -1.0f, 0.5f,
                                       0, 0, 0));
    assert_case_ok(&options, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_TRANS, 70, 33, 41, 1.25f, 0.0f,
                                       0, 0, 0));
}

static void test_kernel_defaults(void **state)
{
    const ladder_kernel *k = *state;
    run_native(k->name, NULL);
    run_odd(k->name, NULL);
}

static void test_kernel_other_params(void **state)
{
    const ladder_kernel *k = *state;
    run_native(k->name, k->other_params);
    run_odd(k->name, k->other_params);
}

/* The families list exactly these kernels, in step order, each with its source. */
static void test_registry_order(void **state)
{
    (void)state;
    size_t seen = 0;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (gk_kernel_op(def) != GK_OP_SGEMM) continue; /* the lecture's transposes are tested elsewhere */
        if (def->family != GK_FAMILY_SLIDES && def->family != GK_FAMILY_LECTURE) continue;
        assert_true(seen < LADDER_COUNT);
        assert_string_equal(def->name, ladder[seen].name);
        assert_int_equal(def->family, ladder[seen].family);
        assert_int_equal(def->step, ladder[seen].step);
        assert_int_equal(gk_kernel_op(def), GK_OP_SGEMM);
        assert_non_null(gk_kernel_source(def->source));
        seen++;
    }
    assert_int_equal(seen, LADDER_COUNT);
}

/* Defaults fit a typical GPU as well as PoCL: <= 1024 work-items, <= 48 KiB local memory. */
static void test_defaults_fit_gpus(void **state)
{
    (void)state;
    const gemmkit_device_info gpu = {.max_work_group_size = 1024, .local_mem_bytes = 48 * 1024};
    for (size_t i = 0; i < LADDER_COUNT; i++) {
        gk_config config;
        gk_geometry g;
        assert_int_equal(gk_config_resolve(gk_kernel_find(ladder[i].name), NULL, &config), GEMMKIT_SUCCESS);
        assert_int_equal(gk_config_geometry(&config, 1024, 1024, 1024, &g), GEMMKIT_SUCCESS);
        assert_int_equal(gk_config_check_device(&config, &g, &gpu), GEMMKIT_SUCCESS);
    }
}

/* Runs a small SGEMM that must fail with `expected` and leave C untouched. */
static void expect_failure(const char *name, const char *params, gemmkit_status expected)
{
    enum { S = 24 };
    float a[S * S], b[S * S], c[S * S], c0[S * S];
    gk_fill_random(&test_rng, a, S * S);
    gk_fill_random(&test_rng, b, S * S);
    gk_fill_random(&test_rng, c, S * S);
    memcpy(c0, c, sizeof c);
    gemmkit_options options = {.kernel = name, .params = params};
    gemmkit_status status = gemmkit_sgemm_ex(test_ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                             GEMMKIT_NO_TRANS, S, S, S, 1.0f, a, S, b, S, 0.5f, c, S);
    if (status != expected)
        print_error("%s %s: got %s (%s), expected %s\n", name, params, gemmkit_strerror(status),
                    gemmkit_last_error_message(), gemmkit_strerror(expected));
    assert_int_equal(status, expected);
    assert_true(strlen(gemmkit_last_error_message()) > 0);
    assert_memory_equal(c, c0, sizeof c);
}

static void test_constraint_violations(void **state)
{
    (void)state;
    expect_failure("lecture-4-32x16-blocks", "BY=12", GEMMKIT_ERROR_INVALID_KERNEL_PARAMS); /* 32 % 12 != 0 */
    expect_failure("lecture-5-transposed-bs", "BY=64", GEMMKIT_ERROR_INVALID_KERNEL_PARAMS); /* BY > TILE */
    expect_failure("slides-5-blocked", "BLOCK=0", GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
    expect_failure("slides-3-row-private-a", "PRIV=-4", GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
    expect_failure("lecture-6-one-block-shared", "TQ=4", GEMMKIT_ERROR_INVALID_KERNEL_PARAMS); /* no such parameter */
}

static void test_device_limit_violations(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    /* 128 x 128 = 16384 work-items per work-group: more than any device offers. */
    if (info.max_work_group_size && info.max_work_group_size < 128 * 128)
        expect_failure("slides-5-blocked", "BLOCK=128", GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE);
    /* 4 MiB of local memory for Bwrk. */
    if (info.local_mem_bytes && info.local_mem_bytes < 4u << 20)
        expect_failure("slides-4-private-a-local-b", "PRIV=1048576", GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE);
    /* A valid geometry on paper (TILE % BY == 0) whose work-group is too large. */
    if (info.max_work_group_size && info.max_work_group_size < 256 * 32)
        expect_failure("lecture-4-32x16-blocks", "TILE=256,BY=32", GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE);
}

int main(void)
{
    struct CMUnitTest tests[4 + 2 * LADDER_COUNT];
    static char names[2 * LADDER_COUNT][96];
    size_t n = 0;
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_registry_order);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_defaults_fit_gpus);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_constraint_violations);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_device_limit_violations);
    for (size_t i = 0; i < LADDER_COUNT; i++) {
        tests[n] = (struct CMUnitTest)cmocka_unit_test_prestate(test_kernel_defaults, (void *)&ladder[i]);
        snprintf(names[2 * i], sizeof names[0], "%s defaults", ladder[i].name);
        tests[n++].name = names[2 * i];
        tests[n] = (struct CMUnitTest)cmocka_unit_test_prestate(test_kernel_other_params, (void *)&ladder[i]);
        snprintf(names[2 * i + 1], sizeof names[0], "%s %s", ladder[i].name, ladder[i].other_params);
        tests[n++].name = names[2 * i + 1];
    }
    return _cmocka_run_group_tests("ladder_slides", tests, n, test_setup_context, test_teardown_context);
}
