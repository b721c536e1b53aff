/* The SGEMM tutorial ladder (kernels 1-10): every kernel through the public
 * API at native tile multiples and at odd shapes (the padding path), with
 * default and non-default parameters; constraint and device-limit rejection;
 * kernel 8 refused on OpenCL (its OpenCL fallback is still run directly). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#include "context.h"
#include "kernel_config.h"
#include "plan.h"
#include "registry.h"

/* At least one non-default parameter set per kernel (kernel 8 is CUDA-only). */
static const struct {
    const char *kernel;
    const char *params;
} variants[] = {
    {"tutorial-1-naive", "TS=8"},
    {"tutorial-2-tiling", "TS=16"},
    {"tutorial-3-more-work", "TS=16,WPT=4"},
    {"tutorial-3-more-work", "TS=64,WPT=16"},
    {"tutorial-4-wide", "WIDTH=8"},
    {"tutorial-4-wide", "TS=16,WIDTH=2"},
    {"tutorial-4-wide", "WIDTH=1"},
    {"tutorial-5-transposed", "TSM=128,TSN=32,TSK=16,WPTN=8,PADB=1"},
    {"tutorial-5-transposed", "TSM=32,TSN=64,TSK=16,WPTN=4,PADB=0"},
    {"tutorial-6-register-blocking", "TSM=64,TSN=128,TSK=8,WPTM=4,WPTN=8,PADB=1"},
    {"tutorial-6-register-blocking", "TSM=160,TSN=160,TSK=16,WPTM=10,WPTN=10,PADB=0"},
    {"tutorial-7-wide-loads", "VLOCAL=0"},
    {"tutorial-7-wide-loads", "TSM=64,TSN=32,TSK=32,WPTM=4,WPTN=2,WIDTH=2"},
    {"tutorial-7-wide-loads", "WIDTH=8,TSK=32"},
    {"tutorial-7-wide-loads", "WIDTH=1,TSM=32,TSN=64,WPTM=4,WPTN=4"},
    {"tutorial-9-prefetch", "VLOCAL=0,WIDTH=2"},
    {"tutorial-9-prefetch", "TSM=64,TSN=128,TSK=32,WPTM=4,WPTN=8,WIDTH=4"},
    {"tutorial-9-prefetch", "WIDTH=8,TSK=16,TSM=128,TSN=64,WPTM=8,WPTN=8"},
    {"tutorial-10-padded", "KREM=0"},
    /* the tutorial's own kernel-10 configuration: 10x10 blocks, 64-bit loads */
    {"tutorial-10-padded", "TSM=160,TSN=160,TSK=16,WPTM=10,WPTN=10,WIDTH=2"},
    {"tutorial-10-padded", "TSM=32,TSN=64,TSK=8,WPTM=4,WPTN=4,WIDTH=1,VLOCAL=0"},
};

/* One parameter set per kernel that fails a constraint. */
static const struct {
    const char *kernel;
    const char *params;
} invalid[] = {
    {"tutorial-1-naive", "TS=0"},
    {"tutorial-2-tiling", "TS=-4"},
    {"tutorial-3-more-work", "TS=32,WPT=5"},           /* TS % WPT */
    {"tutorial-4-wide", "WIDTH=3"},                    /* no float3 */
    {"tutorial-4-wide", "TS=4,WIDTH=8"},               /* TS % WIDTH */
    {"tutorial-5-transposed", "TSK=4"},                /* LPTA = TSK / RTSN */
    {"tutorial-6-register-blocking", "WPTM=3"},        /* TSM % WPTM */
    {"tutorial-6-register-blocking", "TSM=64,TSN=128,TSK=8,WPTM=2,WPTN=4"}, /* LPTA */
    {"tutorial-7-wide-loads", "TSM=64,TSN=128,TSK=8,WPTM=4,WPTN=8,WIDTH=4"}, /* LPTA / WIDTH */
    {"tutorial-7-wide-loads", "TSN=32,WPTN=2,TSK=32"},                         /* VLOCAL runs of WIDTH */
    {"tutorial-8-cuda", "WIDTH=8"},                                           /* no float8 in CUDA */
    {"tutorial-8-cuda", "TSM=64,WPTM=8,WPTN=16,TSN=256"},                     /* shuffle groups */
    {"tutorial-9-prefetch", "VLOCAL=2"},
    {"tutorial-10-padded", "KREM=2"},
    {"tutorial-10-padded", "NOPE=1"}, /* unknown parameter */
};

static const gk_kernel_def *tutorial_kernel(size_t index)
{
    size_t seen = 0;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (def->family != GK_FAMILY_TUTORIAL) continue;
        if (seen++ == index) return def;
    }
    return NULL;
}

static int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

static int is_cuda_only(const char *name)
{
    const gk_kernel_def *def = gk_kernel_find(name);
    return def && !gk_kernel_runs_on(def, GK_BACKEND_BIT_OPENCL);
}

/* CUDA-only kernels are refused by the other backends (UNSUPPORTED_BACKEND). */
static int runs_on_this_backend(const char *name) { return !is_cuda_only(name) || test_backend_is("cuda"); }

/* A native size for the kernel's tiles: about 128 x 192 x 160, tile multiples. */
static gk_sgemm_case native_case(const char *kernel, const char *params)
{
    gk_config config;
    gk_geometry g;
    assert_int_equal(gk_config_resolve(gk_kernel_find(kernel), params, &config), GEMMKIT_SUCCESS);
    assert_int_equal(gk_config_geometry(&config, 128, 128, 128, &g), GEMMKIT_SUCCESS);
    gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, round_up(128, g.tile_m),
                       round_up(192, g.tile_n), round_up(160, g.k_multiple), 1.0f, 0.0f, 0, 0, 0};
    return c;
}

/* Odd shapes: every transpose, both layouts, alpha/beta, leading-dimension gaps. */
static void run_odd_cases(const gemmkit_options *options)
{
    const gk_sgemm_case cases[] = {
        {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 67, 45, 83, 1.0f, 0.0f, 0, 0, 0},
        {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 129, 33, 17, -1.25f, 1.0f, 0, 0, 0},
        {GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 37, 53, 29, 0.75f, -1.5f, 41, 60, 57},
        {GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_TRANS, 50, 70, 131, 2.0f, 0.5f, 0, 0, 0},
        {GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 1, 1, 1, 1.0f, 0.0f, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) assert_case_ok(options, cases[i]);
}

static void test_registry_ladder(void **state)
{
    (void)state;
    int count = 0;
    for (const gk_kernel_def *def; (def = tutorial_kernel((size_t)count)); count++) {
        assert_int_equal(def->step, count + 1);
        assert_int_equal(gk_kernel_op(def), GK_OP_SGEMM);
        assert_non_null(gk_kernel_source(def->source));
        assert_ptr_equal(gk_kernel_find(def->name), def);
        assert_true(strncmp(def->name, "tutorial-", 9) == 0);
        /* kernel 5 onwards takes B transposed */
        assert_int_equal(!!(def->contract == GK_CONTRACT_GEMM_PACKED_BT), def->step >= 5);
        assert_int_equal(!!!gk_kernel_runs_on(def, GK_BACKEND_BIT_OPENCL), def->step == 8);
    }
    assert_int_equal(count, 10);
}

/* Defaults fit a GPU of 1024 work-items and 48 KiB local memory per work-group. */
static void test_defaults_fit_gpu(void **state)
{
    (void)state;
    for (size_t i = 0; tutorial_kernel(i); i++) {
        const gk_kernel_def *def = tutorial_kernel(i);
        gk_config config;
        gk_geometry g;
        assert_int_equal(gk_config_resolve(def, NULL, &config), GEMMKIT_SUCCESS);
        assert_int_equal(gk_config_geometry(&config, 1024, 1024, 1024, &g), GEMMKIT_SUCCESS);
        if (g.local_x * g.local_y > 1024 || g.local_mem_bytes > 48 * 1024)
            fail_msg("%s defaults: %lld work-items, %lld bytes of local memory", def->name,
                     (long long)(g.local_x * g.local_y), (long long)g.local_mem_bytes);
    }
}

/* Every combination of the tuner's choices either resolves to a positive
 * geometry or fails a constraint cleanly (never an expression error). */
static void test_choices_resolve_cleanly(void **state)
{
    (void)state;
    for (size_t i = 0; tutorial_kernel(i); i++) {
        const gk_kernel_def *def = tutorial_kernel(i);
        int values[GK_MAX_PARAMS][16], counts[GK_MAX_PARAMS], n = 0;
        for (; n < GK_MAX_PARAMS && def->params[n].name; n++) {
            counts[n] = 0;
            for (const char *p = def->params[n].choices; *p;) {
                char *end;
                values[n][counts[n]++] = (int)strtol(p, &end, 10);
                p = *end == ',' ? end + 1 : end;
            }
        }
        int pick[GK_MAX_PARAMS] = {0}, accepted = 0;
        for (;;) {
            char params[256] = "";
            size_t used = 0;
            for (int j = 0; j < n; j++)
                used += (size_t)snprintf(params + used, sizeof params - used, "%s%s=%d", j ? "," : "",
                                         def->params[j].name, values[j][pick[j]]);
            gk_config config;
            gemmkit_status status = gk_config_resolve(def, params, &config);
            if (status == GEMMKIT_SUCCESS) {
                gk_geometry g;
                assert_int_equal(gk_config_geometry(&config, 512, 512, 512, &g), GEMMKIT_SUCCESS);
                assert_int_equal(g.tile_m % g.local_x, 0);
                assert_int_equal(g.tile_n % g.local_y, 0);
                accepted++;
            } else {
                assert_int_equal(status, GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
                if (strstr(gemmkit_last_error_message(), "registry expression"))
                    fail_msg("%s %s: %s", def->name, params, gemmkit_last_error_message());
            }
            int j = 0;
            while (j < n && ++pick[j] == counts[j]) pick[j++] = 0;
            if (j == n) break;
        }
        assert_true(accepted > 0);
    }
}

static void test_native_sizes_defaults(void **state)
{
    (void)state;
    for (size_t i = 0; tutorial_kernel(i); i++) {
        const gk_kernel_def *def = tutorial_kernel(i);
        gemmkit_options options = {.kernel = def->name};
        gk_sgemm_case c = native_case(def->name, NULL);
        if (!runs_on_this_backend(def->name)) {
            gk_check_result result;
            assert_int_equal(gk_check_run(test_ctx, &options, c, &test_rng, 2e8, &result),
                             GEMMKIT_ERROR_UNSUPPORTED_BACKEND);
            assert_non_null(strstr(gemmkit_last_error_message(), "needs the CUDA backend"));
            continue;
        }
        assert_case_ok(&options, c);
    }
}

static void test_odd_shapes_defaults(void **state)
{
    (void)state;
    for (size_t i = 0; tutorial_kernel(i); i++) {
        const gk_kernel_def *def = tutorial_kernel(i);
        if (!runs_on_this_backend(def->name)) continue; /* refused: test_native_sizes_defaults */
        gemmkit_options options = {.kernel = def->name};
        run_odd_cases(&options);
    }
}

static void test_parameter_variants(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        gemmkit_options options = {.kernel = variants[i].kernel, .params = variants[i].params};
        assert_false(is_cuda_only(variants[i].kernel));
        assert_case_ok(&options, native_case(variants[i].kernel, variants[i].params));
        run_odd_cases(&options);
    }
}

/* Host-array calls that fail leave C as it was. */
static void expect_rejected(const char *kernel, const char *params, gemmkit_status expected)
{
    enum { M = 40, N = 24, K = 16 };
    static float a[M * K], b[K * N], c[M * N], before[M * N];
    gk_fill_random(&test_rng, a, M * K);
    gk_fill_random(&test_rng, b, K * N);
    gk_fill_random(&test_rng, c, M * N);
    memcpy(before, c, sizeof c);
    gemmkit_options options = {.kernel = kernel, .params = params};
    gemmkit_status status = gemmkit_sgemm_ex(test_ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                             GEMMKIT_NO_TRANS, M, N, K, 1.0f, a, M, b, K, 0.5f, c, M);
    if (status != expected)
        fail_msg("%s %s: expected %s, got %s (%s)", kernel, params, gemmkit_strerror(expected),
                 gemmkit_strerror(status), gemmkit_last_error_message());
    assert_memory_equal(c, before, sizeof c);
}

static void test_constraint_violations_rejected(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        const gk_kernel_def *def = gk_kernel_find(invalid[i].kernel);
        assert_non_null(def);
        gk_config config;
        assert_int_equal(gk_config_resolve(def, invalid[i].params, &config), GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
        /* Through the API too; a backend that cannot run the kernel refuses it first. */
        expect_rejected(invalid[i].kernel, invalid[i].params,
                        runs_on_this_backend(invalid[i].kernel) ? GEMMKIT_ERROR_INVALID_KERNEL_PARAMS : GEMMKIT_ERROR_UNSUPPORTED_BACKEND);
    }
}

static void test_device_limits_rejected(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    char params[128];

    /* A work-group larger than the device allows (tutorial-1: TS x TS work-items). */
    int ts = 32;
    while ((size_t)(ts * ts) <= info.max_work_group_size) ts *= 2;
    snprintf(params, sizeof params, "TS=%d", ts);
    expect_rejected("tutorial-1-naive", params, GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE);
    assert_non_null(strstr(gemmkit_last_error_message(), "work-group"));

    /* More local memory than the device has: a deep K tile. */
    static const char *deep[] = {"tutorial-6-register-blocking", "tutorial-7-wide-loads", "tutorial-9-prefetch",
                                 "tutorial-10-padded"};
    for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
        int tsk = 16;
        for (;;) {
            gk_config config;
            gk_geometry g;
            snprintf(params, sizeof params, "TSK=%d", tsk);
            assert_int_equal(gk_config_resolve(gk_kernel_find(deep[i]), params, &config), GEMMKIT_SUCCESS);
            assert_int_equal(gk_config_geometry(&config, 64, 64, 64, &g), GEMMKIT_SUCCESS);
            if ((size_t)g.local_mem_bytes > info.local_mem_bytes) break;
            tsk *= 2;
        }
        expect_rejected(deep[i], params, GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE);
        assert_non_null(strstr(gemmkit_last_error_message(), "local memory"));
    }
}

/* Kernel 8 built as OpenCL (its intrinsics fall back to plain loads and local
 * reads), launched directly: checks the index arithmetic it shares with the
 * CUDA build. The library itself refuses it on OpenCL. */
static void run_kernel8_fallback(const char *params)
{
    enum { M = 128, N = 256, K = 48 };
    gk_kernel_def def = *gk_kernel_find("tutorial-8-cuda");
    def.backends = 0; /* every backend */
    gk_config config;
    gk_geometry g;
    assert_int_equal(gk_config_resolve(&def, params, &config), GEMMKIT_SUCCESS);
    assert_int_equal(gk_config_geometry(&config, M, N, K, &g), GEMMKIT_SUCCESS);
    assert_int_equal(M % g.tile_m + N % g.tile_n + K % g.k_multiple, 0);

    float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
    float *bt = malloc(sizeof(float) * N * K), *c = malloc(sizeof(float) * M * N);
    float *c0 = malloc(sizeof(float) * M * N);
    assert_true(a && b && bt && c && c0);
    gk_fill_random(&test_rng, a, M * K);
    gk_fill_random(&test_rng, b, K * N);
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) bt[n + k * N] = b[k + n * K];
    gk_fill_value(c, M * N, NAN);
    gk_fill_value(c0, M * N, NAN);

    gemmkit_buffer *da, *dbt, *dc;
    assert_int_equal(gemmkit_buffer_create(test_ctx, M * K, &da), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, N * K, &dbt), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, M * N, &dc), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, da, 0, M * K, a), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, dbt, 0, N * K, bt), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, dc, 0, M * N, c), GEMMKIT_SUCCESS);
    gk_operands operands = {.m = M, .n = N, .k = K, .a = {da->mem, 0, M}, .b = {dbt->mem, 0, N}, .c = {dc->mem, 0, M}};
    gk_plan plan = {0};
    gemmkit_status status = gk_plan_add(test_ctx, &plan, &config, &g, &operands, 1);
    if (status == GEMMKIT_SUCCESS) status = gk_plan_execute(test_ctx, &plan, NULL, NULL);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s\n%s", gemmkit_last_error_message(), gemmkit_last_build_log());
    assert_int_equal(gemmkit_buffer_read(test_ctx, dc, 0, M * N, c), GEMMKIT_SUCCESS);

    gk_sgemm_case kase = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N, K, 1.0f, 0.0f, M, K, M};
    gk_check_result result;
    gk_check_sgemm(&kase, a, b, c0, c, &result);
    if (!result.passed) fail_msg("tutorial-8-cuda (OpenCL fallback) %s: %s", params, result.message);
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(dbt);
    gemmkit_buffer_destroy(dc);
    free(a);
    free(b);
    free(bt);
    free(c);
    free(c0);
}

static void test_kernel8_opencl_fallback(void **state)
{
    (void)state;
    run_kernel8_fallback("");
    run_kernel8_fallback("WIDTH=2,TSM=64,TSN=128,WPTM=4,WPTN=8,USE_LDG=0,USE_SHUFFLE=0");
    run_kernel8_fallback("WIDTH=1,TSK=8,TSM=32,TSN=64,WPTM=2,WPTN=4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_ladder),
        cmocka_unit_test(test_defaults_fit_gpu),
        cmocka_unit_test(test_choices_resolve_cleanly),
        cmocka_unit_test(test_native_sizes_defaults),
        cmocka_unit_test(test_odd_shapes_defaults),
        cmocka_unit_test(test_parameter_variants),
        cmocka_unit_test(test_constraint_violations_rejected),
        cmocka_unit_test(test_device_limits_rejected),
        cmocka_unit_test(test_kernel8_opencl_fallback),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
