/* The CUDA backend's driver calls against a stand-in libcuda
 * (mock_libcuda.c, via GEMMKIT_LIBCUDA): device properties, copies with
 * offsets, NVRTC's CUBIN and PTX loaded as modules, launch geometry and
 * argument marshalling, timing, refusals, build logs, and that every
 * resource is released with the context made current around each call.
 * Kernels are not run (no GPU): the GPU check is bench/cuda-check.sh. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check.h"
#include "context.h"
#include "cuda_internal.h"
#ifdef GK_MOCK_LIBCUDA /* a build with the CUDA backend: the toolkit's cuda.h is on the path */
#include "cuda_staging.h"
#endif
#include "gemmkit.h"
#include "mock_libcuda.h"

static mock_cuda_state_t *mock;

static void require_mock(void)
{
    if (!mock) {
        print_message("skipping: no CUDA backend or no mock libcuda in this build\n");
        skip();
    }
    if (gk_cuda_nvrtc_load() != GEMMKIT_SUCCESS) {
        print_message("skipping: %s\n", gemmkit_last_error_message());
        skip();
    }
}

static void test_device_info(void **state)
{
    (void)state;
    require_mock();
    int n = 0;
    assert_int_equal(gemmkit_device_count(GEMMKIT_BACKEND_CUDA, &n), GEMMKIT_SUCCESS);
    assert_int_equal(n, 1);
    gemmkit_device_info info;
    assert_int_equal(gemmkit_device_get_info(GEMMKIT_BACKEND_CUDA, 0, &info), GEMMKIT_SUCCESS);
    assert_string_equal(info.backend, "cuda");
    assert_string_equal(info.name, "Mock H200");
    assert_non_null(strstr(info.driver_version, "compute capability 9.0"));
    assert_true(info.is_gpu);
    assert_int_equal(info.compute_units, 132);
    assert_int_equal(info.clock_mhz, 1980);
    assert_int_equal(info.lanes_per_unit, 128);
    assert_int_equal(info.local_mem_bytes, 49152);
    assert_int_equal(info.max_work_group_size, 1024);
    assert_true(info.global_mem_bytes == ((size_t)150 << 30));
    assert_true(info.peak_gflops > 66900.0 && info.peak_gflops < 66910.0); /* 132 * 128 * 2 * 1.98 GHz */
    assert_int_not_equal(gemmkit_device_get_info(GEMMKIT_BACKEND_CUDA, 1, &info), GEMMKIT_SUCCESS);
}

static float as_float_bits(uint64_t bits)
{
    float f;
    uint32_t low = (uint32_t)bits;
    memcpy(&f, &low, sizeof f);
    return f;
}

static void test_copies_build_and_launch(void **state)
{
    (void)state;
    require_mock();
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_CUDA, "mock"), GEMMKIT_SUCCESS);

    /* Copies at offsets land where they should ("device" memory is host memory). */
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    const int64_t m = 100, n = 70, k = 50, lda = 103, ldb = 73, ldc = 101; /* B is n x k (B^T) */
    const size_t off_a = 3, off_b = 5, off_c = 7;
    const size_t ca = off_a + (size_t)(lda * k), cb = off_b + (size_t)(ldb * k), cc = off_c + (size_t)(ldc * n);
    float *a = malloc(ca * sizeof *a), *b = malloc(cb * sizeof *b), *c = malloc(cc * sizeof *c);
    float *back = malloc(cc * sizeof *back);
    gk_fill_random(&rng, a, ca);
    gk_fill_random(&rng, b, cb);
    gk_fill_random(&rng, c, cc);
    gemmkit_buffer *da = NULL, *db = NULL, *dc = NULL;
    assert_int_equal(gemmkit_buffer_create(ctx, ca, &da), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(ctx, cb, &db), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(ctx, cc, &dc), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(ctx, da, 0, ca, a), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(ctx, db, 0, cb, b), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(ctx, dc, 0, 10, c), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(ctx, dc, 10, cc - 10, c + 10), GEMMKIT_SUCCESS);
    gk_fill_value(back, cc, 0.0f);
    assert_int_equal(gemmkit_buffer_read(ctx, dc, 4, cc - 4, back + 4), GEMMKIT_SUCCESS);
    assert_memory_equal(back + 4, c + 4, (cc - 4) * sizeof *c);

    /* SGEMM with the direct kernel: NVRTC's CUBIN is loaded, the launch recorded. */
    double kernel_ms = 0.0, total_ms = 0.0;
    gemmkit_options options = {.kernel = "direct", .params = "TS=16,WPT=2", .kernel_ms = &kernel_ms,
                               .total_ms = &total_ms};
    mock->expected_params = 14;
    int cubins = mock->cubins_loaded, launches = mock->launches;
    gemmkit_status status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                                  GEMMKIT_TRANS, m, n, k, 0.5f, da, off_a, lda, db, off_b,
                                                  ldb, -2.0f, dc, off_c, ldc);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s\n%s", gemmkit_last_error_message(), gemmkit_last_build_log());
    assert_int_equal(mock->cubins_loaded, cubins + 1);
    assert_int_equal(mock->launches, launches + 1);
    const mock_launch *l = &mock->last;
    assert_string_equal(l->function, "gk_sgemm_direct");
    assert_int_equal(l->grid[0], 4); /* ceil(100 / 32) */
    assert_int_equal(l->grid[1], 3); /* ceil(70 / 32) */
    assert_int_equal(l->grid[2], 1);
    assert_int_equal(l->block[0], 16);
    assert_int_equal(l->block[1], 16);
    assert_int_equal(l->block[2], 1);
    assert_int_equal((int32_t)l->params[0], m);
    assert_int_equal((int32_t)l->params[1], n);
    assert_int_equal((int32_t)l->params[2], k);
    assert_true(as_float_bits(l->params[3]) == 0.5f);
    assert_int_equal((int32_t)l->params[5], off_a);
    assert_int_equal((int32_t)l->params[6], lda);
    assert_int_equal((int32_t)l->params[8], off_b);
    assert_int_equal((int32_t)l->params[9], ldb);
    assert_true(as_float_bits(l->params[10]) == -2.0f);
    assert_int_equal((int32_t)l->params[12], off_c);
    assert_int_equal((int32_t)l->params[13], ldc);
    /* Buffer arguments are the allocations holding the data written above. */
    assert_memory_equal((const float *)(uintptr_t)l->params[4], a, ca * sizeof *a);
    assert_memory_equal((const float *)(uintptr_t)l->params[7], b, cb * sizeof *b);
    assert_memory_equal((const float *)(uintptr_t)l->params[11], c, cc * sizeof *c);
    assert_true(kernel_ms == 1.5 && total_ms == 1.5); /* the mock's event time */

    /* The second call reuses the cached module. */
    assert_int_equal(gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, m, n,
                                           k, 0.5f, da, off_a, lda, db, off_b, ldb, -2.0f, dc, off_c, ldc),
                     GEMMKIT_SUCCESS);
    assert_int_equal(mock->cubins_loaded, cubins + 1);

    /* A kernel whose registers allow fewer threads than the block is refused before launch. */
    mock->max_threads = 128;
    launches = mock->launches;
    status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, m, n, k, 0.5f,
                                   da, off_a, lda, db, off_b, ldb, -2.0f, dc, off_c, ldc);
    mock->max_threads = 0;
    assert_int_equal(status, GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE);
    assert_non_null(strstr(gemmkit_last_error_message(), "registers"));
    assert_int_equal(mock->launches, launches);

    /* A compile error reaches the caller with NVRTC's log. */
    gemmkit_test_inject_build_error("#error injected build failure");
    options.params = "TS=8,WPT=1"; /* not cached yet */
    status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, m, n, k, 0.5f,
                                   da, off_a, lda, db, off_b, ldb, -2.0f, dc, off_c, ldc);
    gemmkit_test_inject_build_error(NULL);
    assert_int_equal(status, GEMMKIT_ERROR_BUILD_FAILED);
    assert_non_null(strstr(gemmkit_last_build_log(), "injected build failure"));

    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    gemmkit_buffer_destroy(dc);
    gemmkit_context_destroy(ctx);
    free(a);
    free(b);
    free(c);
    free(back);
}

/* A kernel whose local memory is sized at launch (the wgmma kernels: sm_90a, beyond 48 KiB): allowed for the
 * function up to the device's opt-in limit, then launched with it; over the limit, refused before launching. */
static void test_dynamic_local_memory(void **state)
{
    (void)state;
    require_mock();
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_CUDA, "mock"), GEMMKIT_SUCCESS);
    const int64_t n = 256;
    gemmkit_buffer *d = NULL;
    assert_int_equal(gemmkit_buffer_create(ctx, (size_t)(n * n), &d), GEMMKIT_SUCCESS);
    const gemmkit_options options = {.kernel = "xgemm-wgmma-3xtf32", .params = "WARPS_M=8,NI=16,TSK=32,STAGES=4"};
    mock->expected_params = 14;
    int launches = mock->launches;
    gemmkit_status status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS,
                                                  n, n, n, 1.0f, d, 0, n, d, 0, n, 0.0f, d, 0, n);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s\n%s", gemmkit_last_error_message(), gemmkit_last_build_log());
    assert_int_equal(mock->launches, launches + 1);
    assert_string_equal(mock->last.function, "gk_xgemm_wgmma");
    /* 4 stages of B big and small (32 x 128) and A ((128 + 8) x (32 + 4), to 256 floats), 1024 to align, 128
     * for the ring's mbarriers */
    const unsigned bytes = 4 * (2 * 32 * 128 + 5120) * 4 + 1024 + 128;
    assert_int_equal(mock->last.shared, bytes);
    assert_int_equal(mock->dynamic_allowed, bytes);

    mock->optin_shared = 100 * 1024;
    launches = mock->launches;
    status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f,
                                   d, 0, n, d, 0, n, 0.0f, d, 0, n);
    mock->optin_shared = 0;
    assert_int_equal(status, GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE);
    assert_non_null(strstr(gemmkit_last_error_message(), "shared memory"));
    assert_int_equal(mock->launches, launches);
    gemmkit_buffer_destroy(d);
    gemmkit_context_destroy(ctx);
}

/* 3xTF32 on the stand-in H200 (sm_90, 132 SMs) by policy: where 128 x 128 tiles make under two waves and K is
 * at least 1024, the wgmma kernel's split-K build over the slice count whose waves cost least
 * (gk_sgemm_splits_by_waves), then the reduction; from two waves on, the kernel alone. By name, the TMA kernel's
 * split-K build on split operands takes the same count: A's transposing copy, the two splits, the kernel over
 * the slices, the reduction. */
static void test_3xtf32_split_by_waves(void **state)
{
    (void)state;
    require_mock();
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_CUDA, "mock"), GEMMKIT_SUCCESS);
    static const struct {
        int64_t n;
        unsigned slices; /* 0: no split */
    } cases[] = {
        {1024, 2}, /* 64 tiles: one wave of halves */
        {1500, 3}, /* 144 tiles: 4 waves of thirds (1.33 tiles' time) against 2 whole, 3 halves, 5 quarters */
        {2000, 0}, /* 256 tiles: two waves, no better split (from 2048^3 the TMA kernel on split operands runs) */
    };
    gemmkit_options options = {.math = GEMMKIT_MATH_3XTF32};
    mock->expected_params = 0; /* the launches' parameters are not read here */
    for (int named = 0; named < 2; named++) {
        options.kernel = named ? "xgemm-wgmma-3xtf32-split-tma-splitk" : NULL;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            const int64_t n = cases[i].n, tiles = (n + 127) / 128;
            gemmkit_buffer *d = NULL;
            assert_int_equal(gemmkit_buffer_create(ctx, (size_t)(n * n), &d), GEMMKIT_SUCCESS);
            const int launches = mock->launches, kernel_at = launches + (named ? 3 : 0);
            const gemmkit_status status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                                                GEMMKIT_NO_TRANS, n, n, n, 1.0f, d, 0, n, d, 0, n, 0.0f,
                                                                d, 0, n);
            if (status != GEMMKIT_SUCCESS) fail_msg("%s\n%s", gemmkit_last_error_message(), gemmkit_last_build_log());
            const mock_launch *kernel = &mock->recent[kernel_at % MOCK_RECENT];
            assert_string_equal(kernel->function, named ? "gk_xgemm_wgmma_tma" : "gk_xgemm_wgmma");
            assert_int_equal(kernel->grid[0] * kernel->grid[1], tiles * tiles);
            /* named, the split-K build runs as such even over one slice */
            assert_int_equal(mock->launches, kernel_at + 1 + (cases[i].slices || named));
            assert_int_equal(kernel->grid[2], cases[i].slices ? cases[i].slices : 1);
            if (cases[i].slices || named) assert_non_null(strstr(mock->last.function, "reduce"));
            gemmkit_buffer_destroy(d);
        }
    }
    gemmkit_context_destroy(ctx);
}

/* The tensor memory accelerator's kernels: A^T and B described to cuTensorMapEncodeTiled (K contiguous, boxes of
 * 32 k by the tile's rows in the 128-byte swizzle, the split operands' small parts as a second part a matrix
 * further), the maps passed by value; operands not K-contiguous and aligned copied first. One buffer holds A, B
 * and C at different offsets, so the maps' addresses are checked against each other. */
static void test_tensor_maps(void **state)
{
    (void)state;
    require_mock();
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_CUDA, "mock"), GEMMKIT_SUCCESS);
    const int64_t m = 300, n = 200, k = 100, lda = 104, ldb = 108, off_b = 40000, off_c = 80000;
    gemmkit_buffer *d = NULL;
    assert_int_equal(gemmkit_buffer_create(ctx, 200000, &d), GEMMKIT_SUCCESS);
    gemmkit_options options = {.kernel = "xgemm-wgmma-tf32-tma", .math = GEMMKIT_MATH_TF32};
    mock->expected_params = 6;

    /* TN: A stored as A^T (K contiguous), B as stored: no copies. */
    int launches = mock->launches, maps = mock->tensor_maps;
    gemmkit_status status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS,
                                                  m, n, k, 1.0f, d, 0, lda, d, off_b, ldb, 0.0f, d, off_c, m);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s\n%s", gemmkit_last_error_message(), gemmkit_last_build_log());
    assert_int_equal(mock->launches, launches + 1);
    assert_int_equal(mock->tensor_maps, maps + 2);
    assert_string_equal(mock->last.function, "gk_xgemm_wgmma_tma");
    assert_int_equal(mock->last.block[0], 8 * 32 + 128); /* two consumer warpgroups and the producer */
    assert_int_equal(mock->last.grid[0], 3);             /* 300 rows in 128 */
    assert_int_equal(mock->last.grid[1], 1);             /* 200 columns in 256 */
    /* 4 slots of 32 k by 128 + 256 rows, 1024 to align, 128 for the mbarriers */
    assert_int_equal(mock->last.shared, 4 * 32 * (128 + 256) * 4 + 1024 + 128);
    const mock_tensor_map *a = &mock->maps[maps % MOCK_MAPS], *b = &mock->maps[(maps + 1) % MOCK_MAPS];
    assert_int_equal(a->rank, 3);
    assert_int_equal(a->dims[0], k);
    assert_int_equal(a->dims[1], m);
    assert_int_equal(a->dims[2], 1);
    assert_int_equal(a->strides[0], lda * 4);
    assert_int_equal(a->box[0], 32);
    assert_int_equal(a->box[1], 128);
    assert_int_equal(a->box[2], 1);
    assert_int_equal(a->swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
    assert_int_equal(a->data_type, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
    assert_int_equal(b->dims[0], k);
    assert_int_equal(b->dims[1], n);
    assert_int_equal(b->strides[0], ldb * 4);
    assert_int_equal(b->box[1], 256);
    assert_int_equal(b->address - a->address, off_b * 4);
    /* the maps by value: parameters 4 and 5 (the mock's maps begin with their address) */
    assert_true(mock->last.params[4] == a->address && mock->last.params[5] == b->address);

    /* NN with an unaligned B: A transposed and B re-aligned into scratch first, the maps then on the copies. */
    launches = mock->launches, maps = mock->tensor_maps;
    status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, m, n, k, 1.0f,
                                   d, 0, m, d, off_b + 1, ldb, 0.0f, d, off_c, m);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s\n%s", gemmkit_last_error_message(), gemmkit_last_build_log());
    assert_int_equal(mock->launches, launches + 3);
    assert_string_equal(mock->last.function, "gk_xgemm_wgmma_tma");
    a = &mock->maps[maps % MOCK_MAPS], b = &mock->maps[(maps + 1) % MOCK_MAPS];
    assert_int_equal(a->dims[0], k);
    assert_int_equal(a->dims[1], m);
    assert_int_equal(a->strides[0], 128 * 4); /* K rounded up to whole 128-byte lines */
    assert_int_equal(b->strides[0], 128 * 4);

    /* 3xTF32 on split operands: big and small parts, a matrix apart. */
    options = (gemmkit_options){.kernel = "xgemm-wgmma-3xtf32-split-tma", .math = GEMMKIT_MATH_3XTF32};
    launches = mock->launches, maps = mock->tensor_maps;
    status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, m, n, k, 1.0f, d,
                                   0, lda, d, off_b, ldb, 0.0f, d, off_c, m);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s\n%s", gemmkit_last_error_message(), gemmkit_last_build_log());
    assert_int_equal(mock->launches, launches + 3); /* the two splits, the kernel */
    a = &mock->maps[maps % MOCK_MAPS], b = &mock->maps[(maps + 1) % MOCK_MAPS];
    assert_int_equal(a->dims[2], 2);
    assert_int_equal(a->strides[1], m * 128 * 4);
    assert_int_equal(b->dims[2], 2);
    assert_int_equal(b->strides[1], n * 128 * 4);
    assert_int_equal(a->box[1], 128);
    assert_int_equal(b->box[1], 128);
    gemmkit_buffer_destroy(d);

    /* By policy on the stand-in H200 (policy.tsv): TF32 on this kernel from 2^33 multiply-adds where A is
     * K-contiguous, from 2^34 whatever its orientation (A copied first); below, the cp.async kernel. */
    static const struct {
        int64_t n;
        gemmkit_transpose trans_a;
        const char *function;
        int launches;
    } cases[] = {
        {4096, GEMMKIT_NO_TRANS, "gk_xgemm_wgmma_tma", 2},
        {3072, GEMMKIT_NO_TRANS, "gk_xgemm_wgmma_tma", 2},
        {2048, GEMMKIT_TRANS, "gk_xgemm_wgmma_tma", 1},
        {2048, GEMMKIT_NO_TRANS, "gk_xgemm_wgmma", 1},
    };
    assert_int_equal(gemmkit_buffer_create(ctx, 4096 * 4096, &d), GEMMKIT_SUCCESS);
    options = (gemmkit_options){.math = GEMMKIT_MATH_TF32};
    mock->expected_params = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int64_t s = cases[i].n;
        launches = mock->launches;
        status = gemmkit_sgemm_buffers(ctx, &options, GEMMKIT_COL_MAJOR, cases[i].trans_a, GEMMKIT_NO_TRANS, s, s, s,
                                       1.0f, d, 0, s, d, 0, s, 0.0f, d, 0, s);
        if (status != GEMMKIT_SUCCESS) fail_msg("%s\n%s", gemmkit_last_error_message(), gemmkit_last_build_log());
        assert_string_equal(mock->last.function, cases[i].function);
        assert_int_equal(mock->launches, launches + cases[i].launches);
    }
    gemmkit_buffer_destroy(d);
    gemmkit_context_destroy(ctx);
}

/* Math mode int8x's wgmma products: the sliced residues described to cuTensorMapEncodeTiled as floats (Kp / 4 a row,
 * Mp or Np rows after the rows' int32 exponents, one part per modulus), padded to the kernel's 128 x 256 tiles and K
 * to whole 16 bytes; one work-group z per modulus. And the policy's choice of it on the stand-in H200 where
 * GEMMKIT_OZAKI_MODULI asks for the scheme ("auto": the moduli from the operands' spread, whose passes run first;
 * the mock runs no kernel: its zeros read back give 8); unset, the policy's math row serves this short K with 3xTF32. */
static void test_ozaki_tensor_maps(void **state)
{
    (void)state;
    require_mock();
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_CUDA, "mock"), GEMMKIT_SUCCESS);
    const int64_t m = 300, n = 200, k = 100, mp = 384, np = 256, kp = 128, moduli = 8;
    gemmkit_buffer *d = NULL;
    assert_int_equal(gemmkit_buffer_create(ctx, 200000, &d), GEMMKIT_SUCCESS);
    mock->expected_params = 6;
    const gemmkit_options named = {.kernel = "ozaki-igemm-wgmma"}, by_policy = {.math = GEMMKIT_MATH_INT8X};
    const gemmkit_options *options[] = {&named, &by_policy};
    setenv("GEMMKIT_OZAKI_MODULI", "auto", 1);
    for (int i = 0; i < 2; i++) {
        const int launches = mock->launches, maps = mock->tensor_maps;
        const gemmkit_status status = gemmkit_sgemm_buffers(ctx, options[i], GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                                            GEMMKIT_NO_TRANS, m, n, k, 1.0f, d, 0, m, d, 40000, k, 0.0f,
                                                            d, 80000, m);
        if (status != GEMMKIT_SUCCESS) fail_msg("%s\n%s", gemmkit_last_error_message(), gemmkit_last_build_log());
        /* A's spread and B's, A's norms and residues, B's, the products, the recombination */
        assert_int_equal(mock->launches, launches + 8);
        assert_string_equal(mock->recent[launches % MOCK_RECENT].function, "gk_ozaki_spread");
        assert_string_equal(mock->recent[(launches + 1) % MOCK_RECENT].function, "gk_ozaki_spread");
        assert_int_equal(mock->tensor_maps, maps + 2);
        const mock_launch *products = &mock->recent[(launches + 6) % MOCK_RECENT];
        assert_string_equal(products->function, "gk_ozaki_igemm_wgmma");
        assert_int_equal(products->block[0], 8 * 32 + 128); /* two consumer warpgroups and the producer */
        assert_int_equal(products->grid[0], mp / 128);
        assert_int_equal(products->grid[1], np / 256);
        assert_int_equal(products->grid[2], moduli);
        assert_int_equal(products->shared, 4 * 128 * (128 + 256) + 1024 + 128); /* 4 slots of 128 k */
        /* the ints in the low 4 of each parameter's 8 bytes */
        assert_true((uint32_t)products->params[0] == mp && (uint32_t)products->params[1] == np &&
                    (uint32_t)products->params[2] == kp);
        const mock_tensor_map *a = &mock->maps[maps % MOCK_MAPS], *b = &mock->maps[(maps + 1) % MOCK_MAPS];
        assert_true(products->params[3] == a->address && products->params[4] == b->address);
        assert_int_equal(a->rank, 3);
        assert_int_equal(a->data_type, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
        assert_int_equal(a->swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
        assert_int_equal(a->dims[0], kp / 4);
        assert_int_equal(a->dims[1], mp);
        assert_int_equal(a->dims[2], moduli);
        assert_int_equal(a->strides[0], kp);
        assert_int_equal(a->strides[1], mp * kp);
        assert_int_equal(a->box[0], 32);
        assert_int_equal(a->box[1], 128);
        assert_int_equal(a->box[2], 1);
        assert_int_equal(b->dims[0], kp / 4);
        assert_int_equal(b->dims[1], np);
        assert_int_equal(b->strides[1], np * kp);
        assert_int_equal(b->box[1], 256);
        assert_int_equal(a->address % 16, 0);
        assert_int_equal(b->address % 16, 0);
    }
    unsetenv("GEMMKIT_OZAKI_MODULI");
    mock->expected_params = 0;
    const gemmkit_status served = gemmkit_sgemm_buffers(ctx, &by_policy, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                                        GEMMKIT_NO_TRANS, m, n, k, 1.0f, d, 0, m, d, 40000, k, 0.0f,
                                                        d, 80000, m);
    if (served != GEMMKIT_SUCCESS) fail_msg("%s\n%s", gemmkit_last_error_message(), gemmkit_last_build_log());
    assert_null(strstr(mock->last.function, "ozaki"));
    assert_non_null(strstr(mock->last.function, "wgmma"));
    gemmkit_buffer_destroy(d);
    gemmkit_context_destroy(ctx);
}

/* A device newer than NVRTC knows gets PTX, which the driver compiles. */
static void test_newer_device_gets_ptx(void **state)
{
    (void)state;
    require_mock();
    mock->cc_major = 99;
    mock->cc_minor = 0;
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_CUDA, "mock"), GEMMKIT_SUCCESS);
    int ptx = mock->ptx_loaded;
    gk_sgemm_case kase = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 33, 17, 9, 1.0f, 0.0f, 0, 0, 0};
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    gk_check_result result;
    /* The mock does not run kernels, so only the status matters here. */
    assert_int_equal(gk_check_run(ctx, NULL, kase, &rng, 0, &result), GEMMKIT_SUCCESS);
    assert_int_equal(mock->ptx_loaded, ptx + 1);
    gemmkit_context_destroy(ctx);
    mock->cc_major = 0;
}

/* Out-of-core on the CUDA backend: a memory limit the operands exceed tiles
 * the call, whose panels and C tiles move by cuMemcpy2DAsync. Kernels do not
 * run on the mock, so with beta != 0 each C tile goes up and comes back as it
 * was: C equals its old values, gaps between columns included. */
static void test_tiled_copies(void **state)
{
    (void)state;
    require_mock();
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_CUDA, "mock"), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_context_set_memory_limit(ctx, 16 << 10), GEMMKIT_SUCCESS);
    enum { M = 45, N = 38, K = 30, LDC = 50 };
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    float a[M * K], b[K * N], c[LDC * N], before[LDC * N];
    gk_fill_random(&rng, a, M * K);
    gk_fill_random(&rng, b, K * N);
    gk_fill_random(&rng, c, LDC * N);
    memcpy(before, c, sizeof c);
    const gemmkit_options options = {.kernel = "direct", .params = "TS=16,WPT=2"};
    const int copies = mock->copies_2d, launches = mock->launches;
    gemmkit_status status = gemmkit_sgemm_ex(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, M, N,
                                             K, 1.0f, a, M, b, N, 0.5f, c, LDC);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s", gemmkit_last_error_message());
    assert_true(mock->launches - launches > 4); /* several tiles or K chunks */
    assert_true(mock->copies_2d - copies > 3 * 4);
    assert_memory_equal(c, before, sizeof c);
    gemmkit_context_destroy(ctx);
}

/* Large copies of pageable memory go through the device's page-locked ring
 * (cuda_staging.c): the bytes arrive, at offsets, and the ring is made once
 * per device handle and freed with it. */
static void test_staged_buffer_copies(void **state)
{
    (void)state;
    require_mock();
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_CUDA, "mock"), GEMMKIT_SUCCESS);
    const size_t count = ((size_t)40 << 20) / sizeof(float) + 3; /* over 16 MiB (staged), more than a 32 MiB half */
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    float *host = malloc(count * sizeof *host), *back = malloc(count * sizeof *back);
    assert_non_null(host);
    assert_non_null(back);
    gk_fill_random(&rng, host, count);
    gemmkit_buffer *buffer = NULL;
    assert_int_equal(gemmkit_buffer_create(ctx, count + 9, &buffer), GEMMKIT_SUCCESS);
    const int rings = mock->host_allocations;
    assert_int_equal(gemmkit_buffer_write(ctx, buffer, 9, count, host), GEMMKIT_SUCCESS);
    assert_int_equal(mock->host_allocations, rings + 1);
    gk_fill_value(back, count, NAN);
    assert_int_equal(gemmkit_buffer_read(ctx, buffer, 9, count, back), GEMMKIT_SUCCESS);
    assert_memory_equal(back, host, count * sizeof *host);
    assert_int_equal(mock->host_allocations, rings + 1); /* the same ring again */
    gemmkit_buffer_destroy(buffer);
    gemmkit_context_destroy(ctx);
    assert_int_equal(mock->host_allocations, rings);
    free(host);
    free(back);
}

#ifdef GK_MOCK_LIBCUDA
/* The slabs of a staged 2-D copy, with a ring of 1000-byte halves: rows that
 * fit several to a half, rows cut into pieces, a single row, and a pitch
 * wider than the rows on both sides; the bytes between rows are not touched. */
static void test_staged_rectangles(void **state)
{
    (void)state;
    require_mock();
    const gk_cu_api *cu = NULL;
    assert_int_equal(gk_cu_load(&cu), GEMMKIT_SUCCESS);
    CUcontext context = NULL;
    assert_int_equal(cu->cuDevicePrimaryCtxRetain(&context, 0), CUDA_SUCCESS);
    assert_int_equal(cu->cuCtxPushCurrent(context), CUDA_SUCCESS);
    CUstream stream = NULL;
    assert_int_equal(cu->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    gk_cuda_staging ring = {.chunk = 1000};
    assert_int_equal(gk_cuda_staging_ready(cu, &ring), 1);
    const gk_rect shapes[] = {
        {96, 37, 8, 100, 104},    /* ten rows a half, a short last slab */
        {2500, 3, 0, 2600, 2504}, /* each row in three pieces */
        {4321, 1, 16, 0, 0},      /* one long row */
        {1000, 5, 4, 1000, 1000}, /* exactly one row a half */
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const gk_rect *r = &shapes[i];
        const size_t host_pitch = r->height > 1 ? r->host_pitch : r->width;
        const size_t device_pitch = r->height > 1 ? r->device_pitch : r->width;
        const size_t host_bytes = host_pitch * r->height, device_bytes = r->device_offset + device_pitch * r->height;
        unsigned char *host = malloc(host_bytes), *back = malloc(host_bytes);
        CUdeviceptr device = 0;
        assert_int_equal(cu->cuMemAlloc(&device, device_bytes), CUDA_SUCCESS);
        unsigned char *dev = (unsigned char *)(uintptr_t)device; /* mock device memory is host memory */
        for (size_t b = 0; b < host_bytes; b++) host[b] = (unsigned char)(b * 7 + i);
        memset(dev, 0xAB, device_bytes);
        memset(back, 0xCD, host_bytes);
        assert_int_equal(gk_cuda_staged_copy(cu, stream, &ring, device + r->device_offset, r, host, 1), CUDA_SUCCESS);
        for (size_t j = 0; j < r->height; j++) {
            assert_memory_equal(dev + r->device_offset + j * device_pitch, host + j * host_pitch, r->width);
            for (size_t b = r->width; b < device_pitch && j + 1 < r->height; b++)
                assert_int_equal(dev[r->device_offset + j * device_pitch + b], 0xAB);
        }
        assert_int_equal(gk_cuda_staged_copy(cu, stream, &ring, device + r->device_offset, r, back, 0), CUDA_SUCCESS);
        for (size_t j = 0; j < r->height; j++) {
            assert_memory_equal(back + j * host_pitch, host + j * host_pitch, r->width);
            for (size_t b = r->width; b < host_pitch; b++) assert_int_equal(back[j * host_pitch + b], 0xCD);
        }
        assert_int_equal(cu->cuMemFree(device), CUDA_SUCCESS);
        free(host);
        free(back);
    }
    gk_cuda_staging_free(cu, &ring);
    assert_null(ring.ring);
    cu->cuStreamDestroy(stream);
    CUcontext popped = NULL;
    cu->cuCtxPopCurrent(&popped);
    cu->cuDevicePrimaryCtxRelease(0);
}
#endif

/* Everything created was destroyed, and no driver call ran without the context current. */
static void test_everything_released(void **state)
{
    (void)state;
    require_mock();
    assert_int_equal(mock->allocations, 0);
    assert_int_equal(mock->modules, 0);
    assert_int_equal(mock->streams, 0);
    assert_int_equal(mock->events, 0);
    assert_int_equal(mock->host_allocations, 0);
    assert_int_equal(mock->context_refs, 0);
    assert_int_equal(mock->calls_without_context, 0);
    assert_true(mock->pushes > 0);
}

int main(void)
{
#ifdef GK_MOCK_LIBCUDA
    mock = mock_cuda_load(GK_MOCK_LIBCUDA);
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_info),
        cmocka_unit_test(test_copies_build_and_launch),
        cmocka_unit_test(test_dynamic_local_memory),
        cmocka_unit_test(test_newer_device_gets_ptx),
        cmocka_unit_test(test_3xtf32_split_by_waves),
        cmocka_unit_test(test_tensor_maps),
        cmocka_unit_test(test_ozaki_tensor_maps),
        cmocka_unit_test(test_tiled_copies),
        cmocka_unit_test(test_staged_buffer_copies),
#ifdef GK_MOCK_LIBCUDA
        cmocka_unit_test(test_staged_rectangles),
#endif
        cmocka_unit_test(test_everything_released),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
