/* Out-of-place transposition and scaled copy (gemmkit_somatcopy): every
 * registered variant, odd sizes, leading dimensions, offsets, both layouts,
 * N and T, alpha values, zero sizes, bad inputs, the fast kernels at every
 * alignment of offsets and leading dimensions, and the SGEMM packing built
 * on the same kernels. Fresh random A, NaN-poisoned B, exact comparison. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_transpose.h"
#include "context.h"
#include "registry.h"
#include "test_support.h"
#include "transpose.h"

static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};
static const float alphas[] = {1.0f, 0.0f, -2.5f};

/* Runs a case and fails the test, with the seed, on a mismatch or an unexpected status. */
static void expect_case(const gemmkit_options *options, gk_omatcopy_case c, int buffers, gemmkit_status expected)
{
    gk_check_result result;
    gemmkit_status status = gk_check_omatcopy_run(test_ctx, options, c, buffers, &test_rng, &result);
    if (status != expected || !result.passed) {
        char text[256];
        gk_omatcopy_describe(&c, text, sizeof text);
        print_error("%s via %s, kernel=%s params=%s (GEMMKIT_SEED=%llu): expected %s, got %s: %s\n", text,
                    buffers ? "buffers" : "host arrays", options && options->kernel ? options->kernel : "default",
                    options && options->params ? options->params : "-", (unsigned long long)test_seed,
                    gemmkit_strerror(expected), gemmkit_strerror(status), result.message);
    }
    assert_int_equal(status, expected);
    assert_true(result.passed);
}

static gk_omatcopy_case make(gemmkit_layout layout, int trans, int64_t rows, int64_t cols, float alpha)
{
    gk_omatcopy_case c = {layout, trans ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, rows, cols, alpha, 0, 0, 0, 0};
    return c;
}

static int is_variant(const gk_kernel_def *def)
{
    return (gk_kernel_op(def) == GK_OP_TRANSPOSE || gk_kernel_op(def) == GK_OP_COPY) && !gk_kernel_is_helper(def);
}

/* Every variant: odd, tall, wide, tile-multiple and tiny shapes, with and
 * without gaps and offsets, both layouts, every alpha. */
static void test_every_variant(void **state)
{
    (void)state;
    static const int64_t shapes[][2] = {{1, 1}, {67, 45}, {130, 17}, {19, 141}, {128, 64}};
    int variants = 0;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (!is_variant(def)) continue;
        variants++;
        const gemmkit_options options = {.kernel = def->name};
        const int trans = gk_kernel_op(def) == GK_OP_TRANSPOSE;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int l = 0; l < 2; l++)
                for (int a = 0; a < 3; a++) {
                    gk_omatcopy_case c = make(layouts[l], trans, shapes[s][0], shapes[s][1], alphas[a]);
                    if (s % 2) { /* gaps and offsets on every other shape */
                        gk_omatcopy_complete(&c);
                        c.lda += 3;
                        c.ldb += 5;
                        c.offset_a = 11;
                        c.offset_b = 2;
                    }
                    expect_case(&options, c, 1, GEMMKIT_SUCCESS);
                }
    }
    assert_true(variants >= 7);
}

/* The fast kernels' code paths: wide and scalar accesses on either side,
 * edge tiles, several tiles per work-group (GROUPS=1 stacks them even on
 * small matrices), every work-group order, other widths and tiles. */
static void test_fast_paths(void **state)
{
    (void)state;
    static const char *transpose_params[] = {
        NULL,           "GROUPS=1",         "GROUPS=1,TILES=3",    "ORDER=1",     "ORDER=2,BAND=2,GROUPS=1,TILES=2",
        "VW=2",         "VW=1,BLOCK_ROWS=4", "TILE=32,BLOCK_ROWS=8", "ORDER=2,BAND=3", "ORDER=2,MIN_GROUPS=5",
    };
    static const char *copy_params[] = {NULL,     "GROUPS=1", "GROUPS=1,TILES=3", "VW=2", "VW=1", "TILE=32,BLOCK_ROWS=32",
                                        "GROUPS=1,TILES=3,COPY_PREFETCH=1", "VW=1,GROUPS=1,TILES=2,COPY_PREFETCH=1",
                                        "COPY_PREFETCH=1,MIN_GROUPS=4"};
    /* lda/ldb slack and offsets: aligned to 4 (wide) or not (scalar), mixed. */
    static const int64_t layouts_of_memory[][4] = {{0, 0, 0, 0}, {4, 8, 4, 0}, {1, 0, 0, 3}, {0, 3, 8, 4}, {4, 4, 1, 2}};
    static const int64_t shapes[][2] = {{256, 192}, {203, 131}, {64, 320}, {321, 66}};
    for (int op = 0; op < 2; op++) {
        const char **params = op ? copy_params : transpose_params;
        const size_t count = op ? sizeof copy_params / sizeof *copy_params
                                : sizeof transpose_params / sizeof *transpose_params;
        for (size_t p = 0; p < count; p++) {
            const gemmkit_options options = {.kernel = op ? "copy-fast" : "transpose-fast", .params = params[p]};
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (size_t m = 0; m < sizeof layouts_of_memory / sizeof layouts_of_memory[0]; m++) {
                    gk_omatcopy_case c = make(GEMMKIT_COL_MAJOR, !op, shapes[s][0], shapes[s][1], -2.5f);
                    gk_omatcopy_complete(&c);
                    c.lda += layouts_of_memory[m][0];
                    c.ldb += layouts_of_memory[m][1];
                    c.offset_a = (size_t)layouts_of_memory[m][2];
                    c.offset_b = (size_t)layouts_of_memory[m][3];
                    expect_case(&options, c, 1, GEMMKIT_SUCCESS);
                }
        }
    }
}

/* A leading dimension at least tight whose remainder mod 4 is want. */
static int64_t ld_with_remainder(int64_t tight, int64_t want) { return tight + ((want - tight) % 4 + 4) % 4; }

/* The fast kernels' wide accesses at every alignment: each misalignment 0..3 of
 * offA, lda, offB and ldb (all 256 combinations), with sizes around the tile
 * edges, both layouts and several alphas; then every pair of those sizes. The
 * harness checks B exactly and that B's gaps and surroundings are untouched. */
static void test_fast_misalignments(void **state)
{
    (void)state;
    static const int64_t sizes[] = {1, 3, 63, 64, 65, 129};
    enum { NS = sizeof sizes / sizeof sizes[0] };
    static const float some_alphas[] = {1.0f, -2.5f, 0.75f, 0.0f};
    static const char *params[] = {NULL, "GROUPS=1,TILES=3", "VW=2,TILE=32,BLOCK_ROWS=8", "VW=1",
                                   "GROUPS=1,TILES=2,COPY_PREFETCH=1"};
    for (int op = 0; op < 2; op++)
        for (size_t p = 0; p < sizeof params / sizeof *params; p++) {
            if (!op && params[p] && strstr(params[p], "COPY_PREFETCH")) continue; /* the copy's parameter only */
            const gemmkit_options options = {.kernel = op ? "copy-fast" : "transpose-fast", .params = params[p]};
            /* Every combination of the four remainders, sizes and layouts rotating. */
            for (int m = 0; m < 256; m++) {
                gk_omatcopy_case c = make(layouts[(m / 7) % 2], !op, sizes[m % NS], sizes[(m / NS) % NS],
                                          some_alphas[(m / 3) % 4]);
                gk_omatcopy_complete(&c);
                c.offset_a = (size_t)(m & 3) + 4 * (size_t)(m % 3);
                c.lda = ld_with_remainder(c.lda, (m >> 2) & 3);
                c.offset_b = (size_t)((m >> 4) & 3);
                c.ldb = ld_with_remainder(c.ldb, (m >> 6) & 3);
                expect_case(&options, c, 1, GEMMKIT_SUCCESS);
            }
            /* Every pair of sizes, each with some misalignment of everything. */
            for (int i = 0; i < NS * NS; i++) {
                gk_omatcopy_case c = make(layouts[i % 2], !op, sizes[i % NS], sizes[i / NS], -2.5f);
                gk_omatcopy_complete(&c);
                c.offset_a = (size_t)(1 + i % 3);
                c.lda = ld_with_remainder(c.lda, 1 + (i / 3) % 3);
                c.offset_b = (size_t)(3 - i % 4);
                c.ldb = ld_with_remainder(c.ldb, (i / 2) % 4);
                expect_case(&options, c, 1, GEMMKIT_SUCCESS);
            }
        }
}

/* The host-array entry point with the library's default kernels. */
static void test_host_arrays(void **state)
{
    (void)state;
    for (int l = 0; l < 2; l++)
        for (int t = 0; t < 2; t++)
            for (int a = 0; a < 3; a++) {
                expect_case(NULL, make(layouts[l], t, 83, 57, alphas[a]), 0, GEMMKIT_SUCCESS);
                gk_omatcopy_case c = make(layouts[l], t, 70, 129, alphas[a]);
                gk_omatcopy_complete(&c);
                c.lda += 2;
                c.ldb += 9; /* the gaps must come back unchanged */
                expect_case(NULL, c, 0, GEMMKIT_SUCCESS);
            }
    gk_omatcopy_case conj = make(GEMMKIT_COL_MAJOR, 1, 33, 65, 0.5f);
    conj.trans = GEMMKIT_CONJ_TRANS; /* the same as T for real data */
    expect_case(NULL, conj, 0, GEMMKIT_SUCCESS);
    expect_case(NULL, conj, 1, GEMMKIT_SUCCESS);
}

/* rows or cols = 0: success, nothing written, pointers not needed. */
static void test_zero_sizes(void **state)
{
    (void)state;
    for (int l = 0; l < 2; l++)
        for (int t = 0; t < 2; t++)
            for (int buffers = 0; buffers < 2; buffers++) {
                expect_case(NULL, make(layouts[l], t, 0, 17, 1.0f), buffers, GEMMKIT_SUCCESS);
                expect_case(NULL, make(layouts[l], t, 23, 0, -2.5f), buffers, GEMMKIT_SUCCESS);
                expect_case(NULL, make(layouts[l], t, 0, 0, 1.0f), buffers, GEMMKIT_SUCCESS);
            }
    assert_int_equal(gemmkit_somatcopy(test_ctx, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, 0, 5, 1.0f, NULL, 1, NULL, 5),
                     GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, NULL, GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, 7, 0, 1.0f,
                                               NULL, 0, 1, NULL, 0, 1),
                     GEMMKIT_SUCCESS);
}

/* alpha == 0 does not read A: B = 0 even where A would hold NaN, and A may be NULL. */
static void test_alpha_zero_ignores_a(void **state)
{
    (void)state;
    float b[12];
    gk_fill_value(b, 12, NAN);
    assert_int_equal(gemmkit_somatcopy(test_ctx, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, 3, 4, 0.0f, NULL, 3, b, 4),
                     GEMMKIT_SUCCESS);
    for (int i = 0; i < 12; i++) assert_true(b[i] == 0.0f);
    float a[6];
    gk_fill_value(a, 6, NAN);
    gk_fill_value(b, 12, NAN);
    assert_int_equal(gemmkit_somatcopy(test_ctx, GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, 2, 3, 0.0f, a, 3, b, 3),
                     GEMMKIT_SUCCESS);
    for (int i = 0; i < 6; i++) assert_true(b[i] == 0.0f);
    for (int i = 6; i < 12; i++) assert_true(isnan(b[i]));
}

/* Bad arguments that the checking harness can run: each fails with its code
 * and leaves B (and everything around it) unchanged. */
static void test_bad_arguments(void **state)
{
    (void)state;
    for (int buffers = 0; buffers < 2; buffers++) {
        gk_omatcopy_case c = make(GEMMKIT_COL_MAJOR, 1, 20, 30, 1.0f);
        c.layout = (gemmkit_layout)99;
        expect_case(NULL, c, buffers, GEMMKIT_ERROR_INVALID_LAYOUT);
        c = make(GEMMKIT_COL_MAJOR, 1, 20, 30, 1.0f);
        c.trans = (gemmkit_transpose)'T';
        expect_case(NULL, c, buffers, GEMMKIT_ERROR_INVALID_TRANSPOSE);
        c = make(GEMMKIT_ROW_MAJOR, 1, -1, 30, 1.0f);
        c.lda = c.ldb = 30;
        expect_case(NULL, c, buffers, GEMMKIT_ERROR_INVALID_SIZE);
        c = make(GEMMKIT_COL_MAJOR, 0, 20, -3, 1.0f);
        c.lda = c.ldb = 20;
        expect_case(NULL, c, buffers, GEMMKIT_ERROR_INVALID_SIZE);
        /* lda covers A's stored rows (column-major) or row length (row-major) */
        c = make(GEMMKIT_COL_MAJOR, 1, 20, 30, 1.0f);
        c.lda = 19;
        expect_case(NULL, c, buffers, GEMMKIT_ERROR_INVALID_LEADING_DIM);
        c = make(GEMMKIT_ROW_MAJOR, 0, 20, 30, 1.0f);
        c.lda = 29;
        expect_case(NULL, c, buffers, GEMMKIT_ERROR_INVALID_LEADING_DIM);
        /* ldb covers op(A): 30 x 20 when transposed */
        c = make(GEMMKIT_COL_MAJOR, 1, 20, 30, 1.0f);
        c.ldb = 20;
        expect_case(NULL, c, buffers, GEMMKIT_ERROR_INVALID_LEADING_DIM);
        c = make(GEMMKIT_ROW_MAJOR, 1, 20, 30, 1.0f);
        c.ldb = 19;
        expect_case(NULL, c, buffers, GEMMKIT_ERROR_INVALID_LEADING_DIM);
        c = make(GEMMKIT_ROW_MAJOR, 0, 20, 30, 1.0f);
        c.ldb = 29;
        expect_case(NULL, c, buffers, GEMMKIT_ERROR_INVALID_LEADING_DIM);
        c = make(GEMMKIT_COL_MAJOR, 0, 1, 1, 1.0f);
        c.lda = 0x80000000ll; /* 2^31: beyond 32-bit indexing */
        expect_case(NULL, c, buffers, GEMMKIT_ERROR_SIZE_OVERFLOW);
    }
    /* Kernel choices are checked before anything runs. */
    static const struct {
        const char *kernel, *params;
        int trans;
        gemmkit_status status;
    } bad[] = {
        {"no-such-kernel", NULL, 1, GEMMKIT_ERROR_UNKNOWN_KERNEL},
        {"lecture-copy", NULL, 1, GEMMKIT_ERROR_UNKNOWN_KERNEL},
        {"transpose-fast", NULL, 0, GEMMKIT_ERROR_UNKNOWN_KERNEL},
        {"direct", NULL, 1, GEMMKIT_ERROR_UNKNOWN_KERNEL},
        {"scale", NULL, 0, GEMMKIT_ERROR_UNKNOWN_KERNEL},
        {"transpose-fast", "VW=3", 1, GEMMKIT_ERROR_INVALID_KERNEL_PARAMS},
        {"copy-fast", "NOPE=1", 0, GEMMKIT_ERROR_INVALID_KERNEL_PARAMS},
        {"lecture-transpose-padded", "PAD=0", 1, GEMMKIT_ERROR_INVALID_KERNEL_PARAMS},
        {"lecture-transpose-naive", "TILE_DIM=64,BLOCK_ROWS=32", 1, GEMMKIT_ERROR_INVALID_KERNEL_PARAMS},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const gemmkit_options options = {.kernel = bad[i].kernel, .params = bad[i].params};
        expect_case(&options, make(GEMMKIT_COL_MAJOR, bad[i].trans, 40, 24, 1.0f), 1, bad[i].status);
    }
}

/* Bad pointers and buffers, built by hand: each fails with its code, B unchanged. */
static void test_bad_pointers_and_buffers(void **state)
{
    (void)state;
    enum { R = 6, C = 5, N = R * C };
    float a[N], b[N], b0[N];
    gk_fill_random(&test_rng, a, N);
    gk_fill_value(b0, N, NAN);
    memcpy(b, b0, sizeof b);
    assert_int_equal(gemmkit_somatcopy(NULL, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, R, C, 1.0f, a, R, b, C),
                     GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_somatcopy(test_ctx, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, R, C, 1.0f, NULL, R, b, C),
                     GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_somatcopy(test_ctx, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, R, C, 1.0f, a, R, NULL, C),
                     GEMMKIT_ERROR_NULL_POINTER);
    assert_non_null(strstr(gemmkit_last_error_message(), "B"));
    /* 65536^2 elements: beyond 32-bit indexing, refused before anything is read. */
    assert_int_equal(gemmkit_somatcopy(test_ctx, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, 65536, 65536, 1.0f, a, 65536, b,
                                       65536),
                     GEMMKIT_ERROR_SIZE_OVERFLOW);
    assert_memory_equal(b, b0, sizeof b);

    gemmkit_buffer *da = NULL, *db = NULL, *small = NULL, *shared = NULL, *foreign = NULL;
    gemmkit_context *other = NULL;
    assert_int_equal(gemmkit_buffer_create(test_ctx, N, &da), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, N, &db), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, N - 1, &small), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, 3 * N, &shared), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_context_create(&other, NULL), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(other, N, &foreign), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, da, 0, N, a), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, db, 0, N, b0), GEMMKIT_SUCCESS);

    const gemmkit_layout L = GEMMKIT_COL_MAJOR;
    const gemmkit_transpose T = GEMMKIT_TRANS;
    assert_int_equal(gemmkit_somatcopy_buffers(NULL, NULL, L, T, R, C, 1.0f, da, 0, R, db, 0, C),
                     GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, NULL, L, T, R, C, 1.0f, NULL, 0, R, db, 0, C),
                     GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, NULL, L, T, R, C, 1.0f, da, 0, R, NULL, 0, C),
                     GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, NULL, L, T, R, C, 1.0f, small, 0, R, db, 0, C),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, NULL, L, T, R, C, 1.0f, da, 0, R, small, 0, C),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, NULL, L, T, R, C, 1.0f, da, 1, R, db, 0, C),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL); /* the offset pushes A past the end */
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, NULL, L, T, R, C, 1.0f, da, 0, R, db, 0, C + 1),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL); /* a larger ldb spans more */
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, NULL, L, T, R, C, 1.0f, foreign, 0, R, db, 0, C),
                     GEMMKIT_ERROR_INVALID_ARGUMENT);
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, NULL, L, T, R, C, 1.0f, shared, 0, R, shared, N - 1, C),
                     GEMMKIT_ERROR_INVALID_ARGUMENT); /* A and B overlap */
    float check[N];
    assert_int_equal(gemmkit_buffer_read(test_ctx, db, 0, N, check), GEMMKIT_SUCCESS);
    assert_memory_equal(check, b0, sizeof check);
    /* Disjoint parts of one buffer are fine. */
    assert_int_equal(gemmkit_buffer_write(test_ctx, shared, 0, N, a), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, NULL, L, T, R, C, 1.0f, shared, 0, R, shared, N, C),
                     GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_read(test_ctx, shared, N, N, check), GEMMKIT_SUCCESS);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) assert_true(check[c + r * C] == a[r + c * R]);

    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    gemmkit_buffer_destroy(small);
    gemmkit_buffer_destroy(shared);
    gemmkit_buffer_destroy(foreign);
    gemmkit_context_destroy(other);
}

/* A kernel that fails to build reports it, with the log, and B stays as it was. */
static void test_build_failure_leaves_b(void **state)
{
    (void)state;
    gemmkit_context *fresh = NULL; /* an empty program cache, so the kernel is built now */
    assert_int_equal(gemmkit_context_create(&fresh, NULL), GEMMKIT_SUCCESS);
    gemmkit_test_inject_build_error("this is not OpenCL C;");
    for (int buffers = 0; buffers < 2; buffers++) {
        const gemmkit_options options = {.kernel = buffers ? "lecture-transpose-diagonal" : NULL};
        gk_check_result result;
        gemmkit_status status = gk_check_omatcopy_run(fresh, &options, make(GEMMKIT_COL_MAJOR, 1, 40, 33, 1.0f),
                                                      buffers, &test_rng, &result);
        assert_int_equal(status, GEMMKIT_ERROR_BUILD_FAILED);
        assert_true(result.passed); /* B unchanged */
        assert_true(gemmkit_last_build_log()[0] != '\0');
    }
    gemmkit_test_inject_build_error(NULL);
    gemmkit_context_destroy(fresh);
}

/* Device time comes back through the options; a failed or empty call reports 0. */
static void test_kernel_time(void **state)
{
    (void)state;
    gemmkit_buffer *da = NULL, *db = NULL;
    assert_int_equal(gemmkit_buffer_create(test_ctx, 64 * 48, &da), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, 64 * 48, &db), GEMMKIT_SUCCESS);
    float a[64 * 48];
    gk_fill_random(&test_rng, a, 64 * 48);
    assert_int_equal(gemmkit_buffer_write(test_ctx, da, 0, 64 * 48, a), GEMMKIT_SUCCESS);
    double kernel_ms = -1.0, total_ms = -1.0;
    gemmkit_options options = {.kernel_ms = &kernel_ms, .total_ms = &total_ms};
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, 64, 48, 1.0f,
                                               da, 0, 64, db, 0, 48),
                     GEMMKIT_SUCCESS);
    assert_true(kernel_ms > 0.0);
    assert_true(total_ms >= kernel_ms);
    assert_int_equal(gemmkit_somatcopy_buffers(test_ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, 0, 48, 1.0f,
                                               da, 0, 64, db, 0, 48),
                     GEMMKIT_SUCCESS);
    assert_true(kernel_ms == 0.0 && total_ms == 0.0);
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
}

/* The SGEMM pre-processing: op(X) into a zero-padded rows_p x cols_p buffer. */
static void test_pack_pads_with_zeros(void **state)
{
    (void)state;
    static const int64_t cases[][5] = {
        /* trans, rows, cols, rows_p, cols_p */
        {0, 37, 29, 64, 32}, {1, 37, 29, 64, 32}, {1, 64, 64, 64, 64}, {0, 5, 70, 5, 96}, {1, 70, 5, 96, 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int trans = (int)cases[i][0];
        const int64_t rows = cases[i][1], cols = cases[i][2], rows_p = cases[i][3], cols_p = cases[i][4];
        const int64_t stored_rows = trans ? cols : rows, stored_cols = trans ? rows : cols;
        const int64_t ld = stored_rows + 3, offset = 5;
        const size_t nx = (size_t)(offset + ld * stored_cols), np = (size_t)(rows_p * cols_p);
        float *x = malloc(nx * sizeof *x), *p = malloc(np * sizeof *p);
        assert_non_null(x);
        assert_non_null(p);
        gk_fill_random(&test_rng, x, nx);
        gk_fill_value(p, np, NAN);
        gemmkit_buffer *dx = NULL, *dp = NULL;
        assert_int_equal(gemmkit_buffer_create(test_ctx, nx, &dx), GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_create(test_ctx, np, &dp), GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_write(test_ctx, dx, 0, nx, x), GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_write(test_ctx, dp, 0, np, p), GEMMKIT_SUCCESS);
        const gk_matrix mx = {dx->mem, (size_t)offset, ld};
        assert_int_equal(gk_transpose_pack(test_ctx, &mx, trans, rows, cols, rows_p, cols_p, dp->mem, NULL),
                         GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_read(test_ctx, dp, 0, np, p), GEMMKIT_SUCCESS);
        for (int64_t c = 0; c < cols_p; c++)
            for (int64_t r = 0; r < rows_p; r++) {
                float want = 0.0f;
                if (r < rows && c < cols) want = trans ? x[offset + c + r * ld] : x[offset + r + c * ld];
                assert_true(p[r + c * rows_p] == want);
            }
        gemmkit_buffer_destroy(dx);
        gemmkit_buffer_destroy(dp);
        free(x);
        free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_variant),
        cmocka_unit_test(test_fast_paths),
        cmocka_unit_test(test_fast_misalignments),
        cmocka_unit_test(test_host_arrays),
        cmocka_unit_test(test_zero_sizes),
        cmocka_unit_test(test_alpha_zero_ignores_a),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_bad_pointers_and_buffers),
        cmocka_unit_test(test_build_failure_leaves_b),
        cmocka_unit_test(test_kernel_time),
        cmocka_unit_test(test_pack_pads_with_zeros),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
