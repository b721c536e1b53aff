/* Contexts over several devices (issue 18): selectors ("all", lists), the
 * devices a context reports, host-array SGEMM tiled over the devices against
 * the reference (both layouts, every transpose, odd sizes, alpha/beta, C
 * poisoned when beta = 0, more tiles than lanes and fewer), the first-device
 * rule of every other call, and failures on one device (injected allocation
 * and build failures) that stop the call with that device's status.
 * ctest runs it with POCL_DEVICES="pthread pthread": two CPU devices. */
#include <math.h>
#include <string.h>

#include "context.h"
#include "multi_gemm.h"
#include "test_support.h"
#include "test_random.h"

static const gemmkit_options device_only = {.device_only = 1};
static int backend_devices; /* devices "all" should open */

static gemmkit_context *create(const char *selector)
{
    gemmkit_context *ctx = NULL;
    gemmkit_status status = gemmkit_context_create(&ctx, selector);
    if (status != GEMMKIT_SUCCESS) fail_msg("\"%s\": %s", selector ? selector : "(GEMMKIT_DEVICE)", gemmkit_last_error_message());
    return ctx;
}

static int device_count(gemmkit_context *ctx)
{
    int count = 0;
    assert_int_equal(gemmkit_context_device_count(ctx, &count), GEMMKIT_SUCCESS);
    return count;
}

static int setup(void **state)
{
    if (test_setup_context(state) != 0) return -1;
    int count = 0;
    gemmkit_device_count(GEMMKIT_BACKEND_DEFAULT, &count);
    int gpus = 0;
    for (int i = 0; i < count; i++) {
        gemmkit_device_info info;
        if (gemmkit_device_get_info(GEMMKIT_BACKEND_DEFAULT, i, &info) == GEMMKIT_SUCCESS && info.is_gpu) gpus++;
    }
    backend_devices = gpus ? gpus : count;
    printf("%d device(s) for \"all\" (POCL_DEVICES=%s)\n", backend_devices,
           getenv("POCL_DEVICES") ? getenv("POCL_DEVICES") : "unset");
    return 0;
}

#define REQUIRE_TWO_DEVICES()                                                                                      \
    do {                                                                                                           \
        if (backend_devices < 2) skip_because("one device only (run with POCL_DEVICES=\"pthread pthread\")");  \
    } while (0)

static void expect_selector_error(const char *selector, gemmkit_status expected, const char *mention)
{
    gemmkit_context *ctx = (gemmkit_context *)&ctx; /* must be reset to NULL */
    gemmkit_status status = gemmkit_context_create(&ctx, selector);
    if (status != expected || !strstr(gemmkit_last_error_message(), mention))
        print_error("\"%s\": %s: %s\n", selector, gemmkit_strerror(status), gemmkit_last_error_message());
    assert_int_equal(status, expected);
    assert_null(ctx);
    assert_non_null(strstr(gemmkit_last_error_message(), mention));
}

static void test_selectors(void **state)
{
    (void)state;
    gemmkit_context *all = create("ALL");
    assert_int_equal(device_count(all), backend_devices);
    for (int i = 0; i < backend_devices; i++) {
        gemmkit_device_info info;
        assert_int_equal(gemmkit_context_device_info_at(all, i, &info), GEMMKIT_SUCCESS);
        assert_true(info.name[0] != '\0');
    }
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info_at(all, backend_devices, &info), GEMMKIT_ERROR_NO_DEVICE);
    assert_int_equal(gemmkit_context_device_info_at(all, -1, &info), GEMMKIT_ERROR_NO_DEVICE);
    assert_int_equal(gemmkit_context_device_info_at(all, 0, NULL), GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_context_device_count(all, NULL), GEMMKIT_ERROR_NULL_POINTER);
    gemmkit_context_destroy(all);

    /* One device stays an ordinary context. */
    gemmkit_context *one = create("0");
    assert_int_equal(device_count(one), 1);
    gemmkit_context_destroy(one);

    /* Bad lists name what is wrong, and create nothing. */
    expect_selector_error("0,,1", GEMMKIT_ERROR_INVALID_ARGUMENT, "empty");
    expect_selector_error("0,0", GEMMKIT_ERROR_INVALID_ARGUMENT, "twice");
    expect_selector_error("0,99", GEMMKIT_ERROR_NO_DEVICE, "\"99\"");
    expect_selector_error("0,no-such-device", GEMMKIT_ERROR_NO_DEVICE, "no-such-device");
    setenv("GEMMKIT_DEVICE_MEMORY_LIMIT", "12Q", 1);
    expect_selector_error("0", GEMMKIT_ERROR_INVALID_ARGUMENT, "GEMMKIT_DEVICE_MEMORY_LIMIT");
    unsetenv("GEMMKIT_DEVICE_MEMORY_LIMIT");

    REQUIRE_TWO_DEVICES();
    /* A list keeps its order; GEMMKIT_DEVICE takes lists too. */
    gemmkit_context *list = create(" 1, 0 ");
    assert_int_equal(device_count(list), 2);
    gemmkit_device_info first, second, expected;
    assert_int_equal(gemmkit_context_device_info_at(list, 0, &first), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_context_device_info_at(list, 1, &second), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_device_get_info(GEMMKIT_BACKEND_DEFAULT, 1, &expected), GEMMKIT_SUCCESS);
    assert_string_equal(first.name, expected.name);
    assert_int_equal(gemmkit_context_device_info(list, &info), GEMMKIT_SUCCESS);
    assert_string_equal(info.name, first.name);
    gemmkit_context_destroy(list);
    setenv("GEMMKIT_DEVICE", "0,1", 1);
    gemmkit_context *from_env = create(NULL);
    unsetenv("GEMMKIT_DEVICE");
    assert_int_equal(device_count(from_env), 2);
    gemmkit_context_destroy(from_env);
    expect_selector_error("1,1", GEMMKIT_ERROR_INVALID_ARGUMENT, "device 1 twice");
}

/* Every layout and transpose of each case, through the tiled path. */
static void assert_tiled_cases(gemmkit_context *ctx, const gk_sgemm_case *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) assert_case_every_form(ctx, &device_only, cases[i], 1e9);
}

static gk_tiling tiling_of(gemmkit_context *ctx, int64_t m, int64_t n, int64_t k)
{
    const gk_gemm_call call = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, m, n, k, 1.0f, 0.5f,
                               NULL, NULL, NULL, 0, 0, 0, m, k, m};
    gk_sgemm_problem p;
    assert_int_equal(gk_sgemm_prepare(&call, &p), GEMMKIT_SUCCESS);
    gk_tiling t;
    assert_int_equal(gk_sgemm_tiling(ctx, &p, &t), GEMMKIT_SUCCESS);
    return t;
}

static void test_tiles_over_devices(void **state)
{
    (void)state;
    REQUIRE_TWO_DEVICES();
    /* Tiles of at most 24: many more tiles than lanes at these sizes. */
    setenv("GEMMKIT_TILE_SIZE", "24", 1);
    gemmkit_context *ctx = create("all");
    unsetenv("GEMMKIT_TILE_SIZE");
    const gk_tiling many = tiling_of(ctx, 61, 50, 33);
    assert_true(many.rows * many.cols > 2 * GK_LANES_PER_DEVICE);
    assert_int_equal(many.chunks, 1);
    const gk_sgemm_case cases[] = {
        {0, 0, 0, 61, 50, 33, 1.25f, 0.0f, 0, 0, 0},    /* C poisoned: beta = 0 must not read it */
        {0, 0, 0, 47, 29, 70, -0.5f, 0.75f, 0, 0, 0},
        {0, 0, 0, 24, 49, 5, 1.0f, 1.0f, 0, 0, 0},       /* a tile side exactly, one column past */
        {0, 0, 0, 33, 26, 17, 2.0f, -1.5f, 75, 80, 71}, /* gaps between columns stay as they are */
        {0, 0, 0, 37, 41, 0, 1.0f, 0.5f, 0, 0, 0},       /* k = 0: C = beta C */
        {0, 0, 0, 37, 41, 9, 0.0f, 2.0f, 0, 0, 0},       /* alpha = 0 */
    };
    assert_tiled_cases(ctx, cases, sizeof cases / sizeof cases[0]);
    gemmkit_context_destroy(ctx);

    /* Default tiles: one tile, fewer than devices. */
    ctx = create("all");
    const gk_tiling one = tiling_of(ctx, 45, 38, 52);
    assert_int_equal(one.rows * one.cols, 1);
    const gk_sgemm_case small[] = {{0, 0, 0, 45, 38, 52, 0.5f, 0.0f, 0, 0, 0}, {0, 0, 0, 1, 1, 1, 1.0f, 0.5f, 0, 0, 0}};
    assert_tiled_cases(ctx, small, sizeof small / sizeof small[0]);
    gemmkit_context_destroy(ctx);
}

/* Timings add up over tiles; every other call runs on the first device. */
static void test_timings_and_first_device_rule(void **state)
{
    (void)state;
    REQUIRE_TWO_DEVICES();
    setenv("GEMMKIT_TILE_SIZE", "32", 1);
    gemmkit_context *ctx = create("all");
    unsetenv("GEMMKIT_TILE_SIZE");
    double kernel_ms = -1.0, total_ms = -1.0;
    const gemmkit_options timed = {.device_only = 1, .kernel_ms = &kernel_ms, .total_ms = &total_ms};
    const gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 70, 66, 40, 1.0f, 0.0f, 0, 0, 0};
    gk_check_result result;
    assert_int_equal(gk_check_run(ctx, &timed, c, &test_rng, 1e9, &result), GEMMKIT_SUCCESS);
    assert_true(result.passed);
    assert_true(kernel_ms > 0.0 && total_ms >= kernel_ms);

    assert_int_equal(check_run_buffers(ctx, NULL, c, &test_rng, &result), GEMMKIT_SUCCESS);
    assert_true(result.passed);
    float a[6], b[6];
    gk_fill_random(&test_rng, a, 6);
    assert_int_equal(gemmkit_somatcopy(ctx, GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, 2, 3, 1.0f, a, 3, b, 2),
                     GEMMKIT_SUCCESS);
    assert_true(b[1] == a[3] && b[2] == a[1]);
    /* A mode is the whole context's only where its devices (here all of one kind) have it: as on the first alone. */
    gemmkit_context *first = NULL;
    assert_int_equal(gemmkit_context_create(&first, NULL), GEMMKIT_SUCCESS);
    const gemmkit_status alone = gemmkit_context_set_math(first, GEMMKIT_MATH_TF32);
    gemmkit_context_destroy(first);
    assert_true(alone == GEMMKIT_SUCCESS || alone == GEMMKIT_ERROR_UNSUPPORTED_MATH);
    assert_int_equal(gemmkit_context_set_math(ctx, GEMMKIT_MATH_TF32), alone);
    gemmkit_context_destroy(ctx);
}

/* After a failed tiled call every element of C holds its old value or its result. */
static void assert_old_or_result(const gk_sgemm_case *c, const float *a, const float *b, const float *c0,
                                 const float *after, size_t ec)
{
    float *ref = malloc(ec * sizeof *ref);
    memcpy(ref, c0, ec * sizeof *ref);
    assert_int_equal(gemmkit_sgemm_reference(c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k, c->alpha, a, c->lda,
                                             b, c->ldb, c->beta, ref, c->ldc),
                     GEMMKIT_SUCCESS);
    for (size_t i = 0; i < ec; i++)
        if (!(after[i] == c0[i] || fabsf(after[i] - ref[i]) <= 1e-4f * (1.0f + fabsf(ref[i]))))
            fail_msg("element %zu: %g, neither the old %g nor the result %g", i, after[i], c0[i], ref[i]);
    free(ref);
}

static void test_device_failures(void **state)
{
    (void)state;
    REQUIRE_TWO_DEVICES();
    gk_sgemm_case c = {GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 40, 36, 20, 1.0f, 0.5f, 0, 0, 0};
    gk_case_complete(&c);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    float *a = malloc(ea * sizeof *a), *b = malloc(eb * sizeof *b), *c0 = malloc(ec * sizeof *c0),
          *out = malloc(ec * sizeof *out);
    gk_case_fill_inputs(&c, &test_rng, a, b, c0);
    /* An allocation failing at each point of the call, on a fresh context each time (scratch is kept). */
    setenv("GEMMKIT_TILE_SIZE", "16", 1);
    for (int after = 0; after < 12; after += 3) {
        gemmkit_context *ctx = create("all");
        memcpy(out, c0, ec * sizeof *out);
        gemmkit_test_inject_alloc_failure(after);
        gemmkit_status status = gemmkit_sgemm_ex(ctx, &device_only, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k,
                                                 c.alpha, a, c.lda, b, c.ldb, c.beta, out, c.ldc);
        gemmkit_test_inject_alloc_failure(-1);
        if (status != GEMMKIT_SUCCESS) {
            assert_int_equal(status, GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY);
            const char *message = gemmkit_last_error_message();
            if (!strstr(message, "injected") || strncmp(message, "device ", 7) != 0) fail_msg("message: %s", message);
        }
        assert_old_or_result(&c, a, b, c0, out, ec);
        /* The context still works. */
        gk_check_result result;
        assert_int_equal(gk_check_run(ctx, &device_only, c, &test_rng, 1e9, &result), GEMMKIT_SUCCESS);
        assert_true(result.passed);
        gemmkit_context_destroy(ctx);
    }
    /* A kernel that fails to build: the build log reaches the calling thread. */
    gemmkit_context *ctx = create("all");
    const gemmkit_options named = {.device_only = 1, .kernel = "direct", .params = "TS=8,WPT=2"};
    gemmkit_test_inject_build_error("#error gemmkit_injected_multi_failure");
    memcpy(out, c0, ec * sizeof *out);
    gemmkit_status status = gemmkit_sgemm_ex(ctx, &named, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, a,
                                             c.lda, b, c.ldb, c.beta, out, c.ldc);
    gemmkit_test_inject_build_error(NULL);
    assert_int_equal(status, GEMMKIT_ERROR_BUILD_FAILED);
    assert_non_null(strstr(gemmkit_last_build_log(), "gemmkit_injected_multi_failure"));
    assert_memory_equal(out, c0, ec * sizeof *out); /* nothing was computed, nothing written */
    gemmkit_context_destroy(ctx);
    unsetenv("GEMMKIT_TILE_SIZE");
    free(a);
    free(b);
    free(c0);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selectors),
        cmocka_unit_test(test_tiles_over_devices),
        cmocka_unit_test(test_timings_and_first_device_rule),
        cmocka_unit_test(test_device_failures),
    };
    return cmocka_run_group_tests(tests, setup, test_teardown_context);
}
