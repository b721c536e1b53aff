/* Math modes (issue 14, docs/MATH.md): names and parsing; the context's mode
 * (gemmkit_context_set_math, GEMMKIT_MATH); refusal on devices without TF32
 * tensor cores with C unchanged; the policy's choice per mode; the host model
 * of TF32 rounding and of the summation schemes against float64; and, on a
 * GPU that has tensor cores, every mode against the float64 reference with
 * its own bound (skipped elsewhere, saying why). */
#include "test_support.h"

#include <float.h>
#include <math.h>
#include <strings.h>

#include "context.h"
#include "math_mode.h"
#include "plan.h"
#include "registry.h"
#include "sgemm.h"
#include "tf32_model.h"

static const gemmkit_math tc_modes[] = {GEMMKIT_MATH_3XTF32, GEMMKIT_MATH_TF32};

static int device_has_tensor_cores(void) { return gk_math_supported(test_ctx, GK_MATH_3XTF32) == GEMMKIT_SUCCESS; }

static void test_names_and_parsing(void **state)
{
    (void)state;
    for (int m = GEMMKIT_MATH_DEFAULT; m <= GEMMKIT_MATH_TF32; m++) {
        gemmkit_math parsed = (gemmkit_math)-1;
        assert_int_equal(gemmkit_math_parse(gemmkit_math_name((gemmkit_math)m), &parsed), GEMMKIT_SUCCESS);
        assert_int_equal(parsed, m);
    }
    gemmkit_math math = GEMMKIT_MATH_FP32;
    assert_int_equal(gemmkit_math_parse("3XTF32", &math), GEMMKIT_SUCCESS);
    assert_int_equal(math, GEMMKIT_MATH_3XTF32);
    assert_int_equal(gemmkit_math_parse("fp16", &math), GEMMKIT_ERROR_INVALID_ARGUMENT);
    assert_int_equal(math, GEMMKIT_MATH_3XTF32); /* unchanged */
    assert_non_null(strstr(gemmkit_last_error_message(), "fp16"));
    assert_int_equal(gemmkit_math_parse(NULL, &math), GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_math_parse("tf32", NULL), GEMMKIT_ERROR_NULL_POINTER);
    assert_string_equal(gemmkit_math_name((gemmkit_math)42), "unknown");
    assert_string_equal(gemmkit_strerror(GEMMKIT_ERROR_UNSUPPORTED_MATH), "math mode not supported by the device");
}

/* The context's mode: fp32 from the start unless GEMMKIT_MATH names another (the suite run with a mode forced
 * on, docs/MATH.md; test_environment_variable checks the variable itself); set and refused as the device allows,
 * and left as it started. */
static void test_context_mode(void **state)
{
    (void)state;
    gemmkit_math math = GEMMKIT_MATH_DEFAULT, start = GEMMKIT_MATH_DEFAULT;
    assert_int_equal(gemmkit_context_get_math(test_ctx, &start), GEMMKIT_SUCCESS);
    const char *forced = getenv("GEMMKIT_MATH");
    if (!forced || !*forced) assert_int_equal(start, GEMMKIT_MATH_FP32);
    else assert_int_equal(strcasecmp(gemmkit_math_name(start), forced), 0);
    assert_int_equal(gemmkit_context_set_math(test_ctx, GEMMKIT_MATH_DEFAULT), GEMMKIT_ERROR_INVALID_ARGUMENT);
    assert_int_equal(gemmkit_context_set_math(test_ctx, (gemmkit_math)7), GEMMKIT_ERROR_INVALID_ARGUMENT);
    assert_int_equal(gemmkit_context_set_math(NULL, GEMMKIT_MATH_FP32), GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_context_get_math(test_ctx, NULL), GEMMKIT_ERROR_NULL_POINTER);
    for (size_t i = 0; i < 2; i++) {
        gemmkit_status status = gemmkit_context_set_math(test_ctx, tc_modes[i]);
        assert_int_equal(gemmkit_context_get_math(test_ctx, &math), GEMMKIT_SUCCESS);
        if (device_has_tensor_cores()) {
            assert_int_equal(status, GEMMKIT_SUCCESS);
            assert_int_equal(math, tc_modes[i]);
        } else { /* refused, the mode unchanged, the message says why */
            assert_int_equal(status, GEMMKIT_ERROR_UNSUPPORTED_MATH);
            assert_int_equal(math, start);
            assert_non_null(strstr(gemmkit_last_error_message(), "tensor cores"));
            assert_non_null(strstr(gemmkit_last_error_message(), gemmkit_math_name(tc_modes[i])));
        }
    }
    /* Back to the start (where the device refused every mode, the context never left it: a mode forced by the
     * variable on a device without tensor cores stays, and its calls are refused) */
    assert_int_equal(gemmkit_context_get_math(test_ctx, &math), GEMMKIT_SUCCESS);
    if (math != start) assert_int_equal(gemmkit_context_set_math(test_ctx, start), GEMMKIT_SUCCESS);
}

/* A call asking for a mode the device lacks fails before anything runs: C keeps every bit. */
static void test_refusal_leaves_c_unchanged(void **state)
{
    (void)state;
    if (device_has_tensor_cores()) skip_because("the device has TF32 tensor cores: nothing is refused");
    enum { M = 37, N = 29, K = 41 };
    float a[M * K], b[K * N], c[M * N], before[M * N];
    gk_fill_random(&test_rng, a, M * K);
    gk_fill_random(&test_rng, b, K * N);
    gk_fill_random(&test_rng, c, M * N);
    memcpy(before, c, sizeof c);
    const char *kernels[] = {NULL, "xgemm-3xtf32", "xgemm-tf32"};
    for (size_t i = 0; i < 3; i++)
        for (size_t m = 0; m < 2; m++) {
            const gemmkit_options o = {.kernel = kernels[i], .math = kernels[i] ? GEMMKIT_MATH_DEFAULT : tc_modes[m]};
            assert_int_equal(gemmkit_sgemm_ex(test_ctx, &o, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N,
                                              K, 1.0f, a, M, b, K, 0.5f, c, M),
                             GEMMKIT_ERROR_UNSUPPORTED_MATH);
            assert_memory_equal(c, before, sizeof c);
        }
    /* The buffers entry point refuses too. */
    gemmkit_buffer *da, *db, *dc;
    assert_int_equal(gemmkit_buffer_create(test_ctx, M * K, &da), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, K * N, &db), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, M * N, &dc), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, dc, 0, M * N, c), GEMMKIT_SUCCESS);
    const gemmkit_options tf32 = {.math = GEMMKIT_MATH_TF32};
    assert_int_equal(gemmkit_sgemm_buffers(test_ctx, &tf32, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N,
                                           K, 1.0f, da, 0, M, db, 0, K, 0.0f, dc, 0, M),
                     GEMMKIT_ERROR_UNSUPPORTED_MATH);
    float back[M * N];
    assert_int_equal(gemmkit_buffer_read(test_ctx, dc, 0, M * N, back), GEMMKIT_SUCCESS);
    assert_memory_equal(back, before, sizeof back);
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    gemmkit_buffer_destroy(dc);
}

/* The batched entry points honour the mode too (they once ran fp32 whatever was asked): options->math and the
 * context's mode are refused where the device lacks them, before anything runs. */
static void test_batched_refusal_leaves_c_unchanged(void **state)
{
    (void)state;
    if (device_has_tensor_cores()) skip_because("the device has TF32 tensor cores: nothing is refused");
    enum { M = 9, N = 7, K = 11, BATCH = 3 };
    float a[BATCH * M * K], b[BATCH * K * N], c[BATCH * M * N], before[BATCH * M * N];
    gk_fill_random(&test_rng, a, BATCH * M * K);
    gk_fill_random(&test_rng, b, BATCH * K * N);
    gk_fill_random(&test_rng, c, BATCH * M * N);
    memcpy(before, c, sizeof c);
    for (size_t m = 0; m < 2; m++) {
        const gemmkit_options o = {.math = tc_modes[m]};
        assert_int_equal(gemmkit_sgemm_strided_batched(test_ctx, &o, GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS,
                                                       GEMMKIT_NO_TRANS, M, N, K, 1.0f, a, K, M * K, b, N, K * N,
                                                       0.5f, c, N, M * N, BATCH),
                         GEMMKIT_ERROR_UNSUPPORTED_MATH);
        assert_memory_equal(c, before, sizeof c);
    }
    gemmkit_buffer *da, *db, *dc;
    assert_int_equal(gemmkit_buffer_create(test_ctx, BATCH * M * K, &da), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, BATCH * K * N, &db), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, BATCH * M * N, &dc), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, dc, 0, BATCH * M * N, c), GEMMKIT_SUCCESS);
    const gemmkit_options tf32 = {.math = GEMMKIT_MATH_TF32};
    assert_int_equal(gemmkit_sgemm_strided_batched_buffers(test_ctx, &tf32, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                                           GEMMKIT_NO_TRANS, M, N, K, 1.0f, da, 0, M, M * K, db, 0,
                                                           K, K * N, 0.0f, dc, 0, M, M * N, BATCH),
                     GEMMKIT_ERROR_UNSUPPORTED_MATH);
    const float ones[BATCH] = {1.0f, 1.0f, 1.0f}, zeros[BATCH] = {0};
    const size_t offsets_a[BATCH] = {0, M * K, 2 * M * K}, offsets_b[BATCH] = {0, K * N, 2 * K * N},
                 offsets_c[BATCH] = {0, M * N, 2 * M * N};
    assert_int_equal(gemmkit_sgemm_batched_buffers(test_ctx, &tf32, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                                   GEMMKIT_NO_TRANS, M, N, K, ones, da, offsets_a, M, db, offsets_b,
                                                   K, zeros, dc, offsets_c, M, BATCH),
                     GEMMKIT_ERROR_UNSUPPORTED_MATH);
    float back[BATCH * M * N];
    assert_int_equal(gemmkit_buffer_read(test_ctx, dc, 0, BATCH * M * N, back), GEMMKIT_SUCCESS);
    assert_memory_equal(back, before, sizeof back);
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    gemmkit_buffer_destroy(dc);
}

/* options->math must be a mode, and agree with a named kernel's. */
static void test_bad_options_are_refused(void **state)
{
    (void)state;
    float a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, c[4] = {9, 9, 9, 9};
    const gemmkit_options bad = {.math = (gemmkit_math)99};
    assert_int_equal(gemmkit_sgemm_ex(test_ctx, &bad, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2, 2,
                                      1.0f, a, 2, b, 2, 0.0f, c, 2),
                     GEMMKIT_ERROR_INVALID_ARGUMENT);
    const gemmkit_options mismatch = {.kernel = "xgemm-direct", .math = GEMMKIT_MATH_3XTF32};
    assert_int_equal(gemmkit_sgemm_ex(test_ctx, &mismatch, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2,
                                      2, 1.0f, a, 2, b, 2, 0.0f, c, 2),
                     GEMMKIT_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(gemmkit_last_error_message(), "computes in math mode fp32"));
    for (int i = 0; i < 4; i++) assert_true(c[i] == 9.0f);
    /* fp32 asked for explicitly runs anywhere. */
    const gemmkit_options fp32 = {.math = GEMMKIT_MATH_FP32};
    assert_case_ok(&fp32, (gk_sgemm_case){GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 33, 17, 21, 1.5f, 0.0f,
                                          0, 0, 0});
}

/* GEMMKIT_MATH is every new context's mode; a bad value fails context creation. */
static void test_environment_variable(void **state)
{
    (void)state;
    gemmkit_context *ctx = NULL;
    setenv("GEMMKIT_MATH", "bogus", 1);
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_ERROR_INVALID_ARGUMENT);
    assert_null(ctx);
    assert_non_null(strstr(gemmkit_last_error_message(), "GEMMKIT_MATH"));
    setenv("GEMMKIT_MATH", "TF32", 1);
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    unsetenv("GEMMKIT_MATH");
    gemmkit_math math = GEMMKIT_MATH_DEFAULT;
    assert_int_equal(gemmkit_context_get_math(ctx, &math), GEMMKIT_SUCCESS);
    assert_int_equal(math, GEMMKIT_MATH_TF32);
    float a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, c[4] = {9, 9, 9, 9};
    const gemmkit_status status = gemmkit_sgemm(ctx, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2, 2,
                                                1.0f, a, 2, b, 2, 0.0f, c, 2);
    if (gk_math_supported(ctx, GK_MATH_TF32) == GEMMKIT_SUCCESS) {
        assert_int_equal(status, GEMMKIT_SUCCESS);
    } else {
        assert_int_equal(status, GEMMKIT_ERROR_UNSUPPORTED_MATH);
        for (int i = 0; i < 4; i++) assert_true(c[i] == 9.0f);
    }
    gemmkit_context_destroy(ctx);
}

/* The policy: a mode's calls get its kernel on a GPU with tensor cores (3xTF32's of a short K fp32's), fp32 calls
 * never a tensor-core kernel. */
static void test_policy_per_mode(void **state)
{
    (void)state;
    gemmkit_device_info gpu = {0}, cpu = {0};
    gpu.is_gpu = 1, gpu.compute_units = 132, gpu.max_work_group_size = 1024, gpu.local_mem_bytes = 48 * 1024;
    cpu.is_gpu = 0, cpu.compute_units = 2, cpu.max_work_group_size = 4096, cpu.local_mem_bytes = 2 << 20;
    gk_tuning_set tuned;
    memset(&tuned, 0, sizeof tuned);
    static const int64_t shapes[][3] = {{4096, 4096, 4096}, {1, 1, 1},       {8, 4096, 4096},
                                        {4096, 8, 4096},    {4096, 4096, 8}, {256, 256, 65536}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int64_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        /* Its split-K build where the registry's 128 x 128 tiles number under 1.5 per unit and K >= 1024
         * (policy.tsv's split rows): 8 x 4096 x 4096, 4096 x 8 x 4096 and 256 x 256 x 65536 here. */
        const int64_t tiles = (m + 127) / 128 * ((n + 127) / 128);
        const gk_kernel_def *fp32_accurate =
            gk_sgemm_choose_math(gk_policy_builtin(), &gpu, &tuned, m, n, k, GK_MATH_3XTF32).def;
        if (k <= 48) /* the math row for a short K: fp32's kernels (policy.tsv) */
            assert_int_equal(fp32_accurate->math, GK_MATH_FP32);
        else
            assert_string_equal(fp32_accurate->name,
                                tiles * 2 < 132 * 3 && k >= 1024 ? "xgemm-3xtf32-splitk" : "xgemm-3xtf32");
        assert_string_equal(gk_sgemm_choose_math(gk_policy_builtin(), &gpu, &tuned, m, n, k, GK_MATH_TF32).def->name,
                            "xgemm-tf32");
        assert_int_equal(gk_sgemm_choose(gk_policy_builtin(), &gpu, &tuned, m, n, k).def->math, GK_MATH_FP32);
        assert_int_equal(gk_sgemm_choose(gk_policy_builtin(), &cpu, &tuned, m, n, k).def->math, GK_MATH_FP32);
        /* No CPU row names a tensor-core kernel, and there is no fp32 fallback for a tensor-core call. */
        assert_null(gk_sgemm_choose_math(gk_policy_builtin(), &cpu, &tuned, m, n, k, GK_MATH_3XTF32).def);
    }
}

/* The wgmma kernels (sm_90a) run only through the CUDA backend on a device of compute capability 9.0:
 * elsewhere the policy passes over them to the mma.sync kernel of the mode, and naming one is an error
 * that says why. There 3xTF32 from 2^33 multiply-adds runs on operands split first and TF32 from 2^34 (2^33 with A
 * stored transposed), both copied by the tensor memory accelerator, and 3xTF32 at 1024^3 over K-slices. */
static void test_arch_specific_kernels_only_where_they_run(void **state)
{
    (void)state;
    const char *names[] = {"xgemm-wgmma-3xtf32", "xgemm-wgmma-tf32"}, *fallbacks[] = {"xgemm-3xtf32", "xgemm-tf32"};
    const char *large[] = {"xgemm-wgmma-3xtf32-split-tma", "xgemm-wgmma-tf32-tma"};
    /* 1024^3: 64 tiles for 132 SMs; 3xTF32 runs them over two K-slices (policy.tsv's split-k rows) */
    const char *mid[] = {"xgemm-wgmma-3xtf32-splitk", "xgemm-wgmma-tf32"};
    const int hopper_cuda = strcmp(test_ctx->info.backend, "cuda") == 0 && strcmp(test_ctx->arch, "sm_90") == 0;
    for (int mode = 0; mode < 2; mode++) {
        const gk_kernel_def *def = gk_kernel_find(names[mode]);
        assert_non_null(def);
        assert_int_equal(def->arch_specific, 90);
        assert_int_equal(gk_plan_kernel_runs_here(test_ctx, def), hopper_cuda);
        if (!hopper_cuda) {
            assert_int_not_equal(gk_plan_check_backend(test_ctx, def), GEMMKIT_SUCCESS);
            const char *why = gemmkit_last_error_message();
            assert_true(strstr(why, "CUDA backend") || strstr(why, "sm_90a"));
        }
        if (!device_has_tensor_cores()) continue;
        gk_math math;
        assert_true(gk_math_from_public(tc_modes[mode], &math));
        assert_string_equal(gk_sgemm_default_kernel_math(test_ctx, 4096, 4096, 4096, math).def->name,
                            hopper_cuda ? large[mode] : fallbacks[mode]);
        const char *at_1024 = gk_sgemm_default_kernel_math(test_ctx, 1024, 1024, 1024, math).def->name;
        if (hopper_cuda)
            assert_string_equal(at_1024, mid[mode]);
        else /* the mma.sync kernel, or (3xTF32, as few tiles as the H200's 64) its split-K build */
            assert_true(strncmp(at_1024, fallbacks[mode], strlen(fallbacks[mode])) == 0);
    }
}

/* cvt.rna.tf32.f32 as modelled: 13 low bits zero, ties away from zero, within half a TF32 ulp; the split exact. */
static void test_tf32_rounding(void **state)
{
    (void)state;
    assert_true(gk_tf32_rna(1.0f + ldexpf(1.0f, -11)) == 1.0f + ldexpf(1.0f, -10)); /* a tie: away */
    assert_true(gk_tf32_rna(-(1.0f + ldexpf(1.0f, -11))) == -(1.0f + ldexpf(1.0f, -10)));
    assert_true(gk_tf32_rna(1.0f + ldexpf(1.0f, -12)) == 1.0f); /* below the tie: down */
    assert_true(isinf(gk_tf32_rna(INFINITY)) && isnan(gk_tf32_rna(NAN)));
    for (int i = 0; i < 100000; i++) {
        const float x = ldexpf(gk_rng_uniform(&test_rng), (i % 41) - 20);
        const float big = gk_tf32_rna(x), small = gk_tf32_rna(x - big);
        uint32_t bits;
        memcpy(&bits, &big, sizeof bits);
        assert_int_equal(bits & 0x1fffu, 0);
        assert_true(fabs((double)x - big) <= ldexp(fabs((double)x), -11));
        /* x = big + small + a remainder below 2^-22 |x| */
        assert_true(fabs((double)x - big - small) <= ldexp(fabs((double)x), -22));
    }
}

/* The host model of each scheme against float64 (the table of docs/MATH.md): the kernel's 3xTF32
 * (per K tile in the tensor core, added in fp32) at or below fp32's error, one accumulator over K above. */
static void test_model_accuracy(void **state)
{
    (void)state;
    enum { S = 24, K = 2048 };
    float *a = malloc(sizeof(float) * S * K), *b = malloc(sizeof(float) * S * K);
    assert_non_null(a);
    assert_non_null(b);
    gk_fill_random(&test_rng, a, S * K);
    gk_fill_random(&test_rng, b, S * K);
    double worst[GK_MODEL_SCHEME_COUNT] = {0};
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++) {
            double ref = 0.0, mag = 0.0;
            for (int p = 0; p < K; p++) {
                ref += (double)a[i * K + p] * b[j * K + p];
                mag += fabs((double)a[i * K + p] * b[j * K + p]);
            }
            for (int s = 0; s < GK_MODEL_SCHEME_COUNT; s++) {
                const double e = fabs(gk_model_dot((gk_model_scheme)s, 16, a + i * K, 1, b + j * K, 1, K) - ref) / mag;
                if (e > worst[s]) worst[s] = e;
            }
        }
    for (int s = 0; s < GK_MODEL_SCHEME_COUNT; s++) printf("%-40s max %.2e\n", gk_model_scheme_name((gk_model_scheme)s), worst[s]);
    assert_true(worst[GK_MODEL_FP32_FMA] < 3.5e-7);                      /* cuBLAS fp32's bar on the H200 */
    assert_true(worst[GK_MODEL_3X_KTILE] <= worst[GK_MODEL_FP32_FMA]);   /* the kernel's scheme */
    assert_true(worst[GK_MODEL_3X_ONE_ACC] > worst[GK_MODEL_3X_KTILE]);  /* why it is not one accumulator */
    assert_true(worst[GK_MODEL_TF32] > 1e-6 && worst[GK_MODEL_TF32] < ldexp(1.0, -10));
    free(a);
    free(b);
}

/* On a GPU with tensor cores: every mode by policy and by name, edges, transposes, layouts, leading
 * dimensions, offsets, alpha/beta, against the float64 reference with its mode's bound (gk_sgemm_bound). */
static void test_modes_on_the_device(void **state)
{
    (void)state;
    if (!device_has_tensor_cores()) skip_because("%s", gemmkit_last_error_message());
    static const int64_t sizes[][3] = {{1, 1, 1},     {7, 13, 17},   {33, 65, 9},   {128, 128, 16},
                                       {129, 257, 31}, {300, 5, 700}, {5, 300, 700}, {513, 511, 1029}};
    for (int mode = 0; mode < 2; mode++) {
        const gemmkit_options by_policy = {.math = tc_modes[mode]};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (int t = 0; t < 8; t++) {
                gk_sgemm_case c = {t & 4 ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR, t & 1 ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS,
                                   t & 2 ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, sizes[i][0], sizes[i][1], sizes[i][2],
                                   1.0f, 0.0f, 0, 0, 0};
                assert_case_ok(&by_policy, c);
                /* Every kernel of the mode that runs here (wgmma's only on sm_90 through CUDA), by name. */
                c.alpha = -1.25f, c.beta = 0.5f;
                c.lda = (t & 4 ? (t & 1 ? c.m : c.k) : (t & 1 ? c.k : c.m)) + 3; /* not multiples of 4: no float4 */
                for (size_t d = 0; d < gk_kernel_count(); d++) {
                    const gk_kernel_def *def = gk_kernel_at(d);
                    if (gk_math_to_public(def->math) != tc_modes[mode] || !gk_plan_kernel_runs_here(test_ctx, def))
                        continue;
                    const gemmkit_options by_name = {.kernel = def->name};
                    assert_case_ok(&by_name, c);
                }
            }
    }
}

/* On a GPU with tensor cores: 3xTF32's error at n = 1024 on inputs in [-1, 1) meets cuBLAS fp32's bar
 * (max 3.5e-7 of sum |a||b|) and is far below TF32's. */
static void test_3xtf32_accuracy_on_the_device(void **state)
{
    (void)state;
    if (!device_has_tensor_cores()) skip_because("%s", gemmkit_last_error_message());
    const gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 1024, 1024, 1024, 1.0f, 0.0f, 0, 0, 0};
    gk_check_result three, one;
    const gemmkit_options o3 = {.math = GEMMKIT_MATH_3XTF32}, o1 = {.math = GEMMKIT_MATH_TF32};
    assert_int_equal(gk_check_run(test_ctx, &o3, c, &test_rng, 2e9, &three), GEMMKIT_SUCCESS);
    assert_int_equal(gk_check_run(test_ctx, &o1, c, &test_rng, 2e9, &one), GEMMKIT_SUCCESS);
    printf("n = 1024: 3xtf32 max %.2e, tf32 max %.2e (of sum |a||b|)\n", three.max_rel_error, one.max_rel_error);
    assert_true(three.passed && one.passed);
    assert_true(three.max_rel_error <= 3.5e-7);
    assert_true(one.max_rel_error > 10.0 * three.max_rel_error);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_parsing),
        cmocka_unit_test(test_context_mode),
        cmocka_unit_test(test_refusal_leaves_c_unchanged),
        cmocka_unit_test(test_batched_refusal_leaves_c_unchanged),
        cmocka_unit_test(test_bad_options_are_refused),
        cmocka_unit_test(test_environment_variable),
        cmocka_unit_test(test_policy_per_mode),
        cmocka_unit_test(test_arch_specific_kernels_only_where_they_run),
        cmocka_unit_test(test_tf32_rounding),
        cmocka_unit_test(test_model_accuracy),
        cmocka_unit_test(test_modes_on_the_device),
        cmocka_unit_test(test_3xtf32_accuracy_on_the_device),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
