/* Strided batched SGEMM (gemmkit_sgemm_strided_batched[_buffers]) and the
 * per-matrix variant (gemmkit_sgemm_batched_buffers) on fresh random inputs,
 * every matrix against the float64 reference with the float32 bound, C
 * poisoned with NaN when beta == 0 and the gaps between C matrices checked
 * unchanged: batch counts 0, 1, 2 and 1000, broadcast (stride 0), tight and
 * gapped strides, every transpose and layout, offsets, alpha/beta, each
 * kernel (batched-small, xgemm-direct-batched, the per-matrix plain plan);
 * and the errors, with nothing written. Few distinct shapes: PoCL compiles
 * batched-small once per shape, transpose pair, dense flags and parameters.
 * batched-small's two paths per operand (float4 copies of a dense batch, the
 * general element-wise one), each named by the build a fresh context made;
 * its parameters at the registry's extremes; the sizes the policy sends it;
 * and its local memory, as the device's compiler reports it, against the
 * registry's formula. xgemm-direct-batched's cp.async ring at every stage
 * count. */
#include <math.h>

#include "check_batched.h"
#include "context.h" /* the context's program cache: which build of batched-small a call used */
#include "gemmkit_cl.h"
#include "kernel_config.h"
#include "test_choices.h"
#include "test_local_memory.h"
#include "test_support.h"

static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};

/* Small tiles for xgemm-direct-batched keep PoCL quick. */
static const gemmkit_options small_kernel = {.kernel = "batched-small"};
static const gemmkit_options tiled = {.kernel = "xgemm-direct-batched", .params = "TSM=32,TSN=32,TSK=8,WPTM=4,WPTN=4"};
static const gemmkit_options per_matrix = {.kernel = "direct"};

static void assert_batch_ok_on(gemmkit_context *ctx, const gemmkit_options *options, gk_batched_case c)
{
    gk_check_result r;
    const gemmkit_status status = gk_check_batched_run(ctx, options, c, &test_rng, 1e7, &r);
    if (status != GEMMKIT_SUCCESS || !r.passed) {
        char text[256];
        gk_batched_describe(&c, text, sizeof text);
        print_error("%s kernel=%s (GEMMKIT_SEED=%llu): %s\n", text, options && options->kernel ? options->kernel
                    : "default", (unsigned long long)test_seed, r.message);
    }
    assert_int_equal(status, GEMMKIT_SUCCESS);
    assert_true(r.passed);
}

static void assert_batch_ok(const gemmkit_options *options, gk_batched_case c)
{
    assert_batch_ok_on(test_ctx, options, c);
}

static gk_sgemm_case make(gemmkit_layout l, int a, int b, int64_t m, int64_t n, int64_t k, float alpha, float beta)
{
    return (gk_sgemm_case){l, transposes[a], transposes[b], m, n, k, alpha, beta, 0, 0, 0};
}

/* The library's choice, each kernel by name, every transpose and layout, batch 2 with gaps. */
static void test_kernels_transposes_layouts(void **state)
{
    (void)state;
    const gemmkit_options *kernels[] = {NULL, &small_kernel, &tiled, &per_matrix};
    for (size_t q = 0; q < 4; q++)
        for (int l = 0; l < 2; l++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    gk_batched_case c = gk_batched_tight(make(layouts[l], a, b, 7, 5, 6, 1.5f, -0.5f), 2);
                    c.stride_a += 3, c.stride_b += 1, c.stride_c += 5; /* gaps */
                    assert_batch_ok(kernels[q], c);
                    c.one.beta = 0.0f; /* NaN-poisoned C must not be read */
                    assert_batch_ok(kernels[q], c);
                }
}

/* Counts 0 and 1; 1000 tiny matrices; tight strides. */
static void test_batch_counts(void **state)
{
    (void)state;
    const int64_t counts[] = {0, 1, 2, 1000};
    for (size_t i = 0; i < 4; i++) {
        assert_batch_ok(NULL, gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 0, 8, 8, 8, 1.0f, 0.0f), counts[i]));
        assert_batch_ok(&small_kernel, gk_batched_tight(make(GEMMKIT_ROW_MAJOR, 1, 0, 7, 5, 6, 1.0f, 0.5f), counts[i]));
    }
    assert_batch_ok(&tiled, gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 1, 7, 5, 6, 0.5f, 1.0f), 1000));
}

/* Stride 0 broadcasts A or B to every product. */
static void test_broadcast(void **state)
{
    (void)state;
    const gemmkit_options *kernels[] = {&small_kernel, &tiled, &per_matrix};
    for (size_t q = 0; q < 3; q++)
        for (int l = 0; l < 2; l++) {
            gk_batched_case c = gk_batched_tight(make(layouts[l], 0, 1, 7, 5, 6, 1.0f, 0.0f), 5);
            c.stride_a = 0;
            assert_batch_ok(kernels[q], c);
            c.stride_a = c.stride_b, c.stride_b = 0;
            c.stride_a = gk_batched_tight(c.one, 1).stride_a;
            assert_batch_ok(kernels[q], c);
        }
}

/* Medium sizes (several tiles of the tiled kernel, edges inside tiles), leading dimensions with gaps, alpha/beta. */
static void test_medium_and_alpha_beta(void **state)
{
    (void)state;
    gk_batched_case c = gk_batched_tight(make(GEMMKIT_COL_MAJOR, 1, 0, 45, 67, 33, -1.25f, 2.0f), 3);
    c.one.lda = 40, c.one.ldb = 35, c.one.ldc = 50;
    c = gk_batched_tight(c.one, 3);
    c.stride_c += 7;
    assert_batch_ok(&tiled, c);
    assert_batch_ok(NULL, c);
    static const float values[][2] = {{0.0f, 0.5f}, {0.0f, 0.0f}, {1.0f, 1.0f}, {-2.0f, 0.0f}};
    for (int v = 0; v < 4; v++) {
        gk_batched_case s = gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 0, 8, 8, 8, values[v][0], values[v][1]), 3);
        assert_batch_ok(&small_kernel, s);
        assert_batch_ok(&tiled, s);
    }
    /* k == 0: C = beta * C for every matrix */
    assert_batch_ok(NULL, gk_batched_tight(make(GEMMKIT_ROW_MAJOR, 0, 0, 6, 4, 0, 1.0f, 0.5f), 3));
}

/* Buffers: each operand's batch at an offset; the rest of each buffer unchanged. */
static void run_buffers_case_on(gemmkit_context *ctx, const gemmkit_options *options, gk_batched_case c,
                                const size_t off[3])
{
    gk_case_complete(&c.one);
    size_t e[3];
    gk_batched_extents(&c, &e[0], &e[1], &e[2]);
    float *host[3], *res = NULL;
    gemmkit_buffer *dev[3];
    for (int i = 0; i < 3; i++) {
        host[i] = malloc((off[i] + e[i] + 4) * sizeof(float));
        assert_non_null(host[i]);
        gk_fill_random(&test_rng, host[i], off[i] + e[i] + 4);
    }
    gk_batched_fill(&c, &test_rng, host[0] + off[0], host[1] + off[1], host[2] + off[2]);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(gemmkit_buffer_create(ctx, off[i] + e[i] + 4, &dev[i]), GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_write(ctx, dev[i], 0, off[i] + e[i] + 4, host[i]), GEMMKIT_SUCCESS);
    }
    const gk_sgemm_case *g = &c.one;
    assert_int_equal(gemmkit_sgemm_strided_batched_buffers(ctx, options, g->layout, g->trans_a, g->trans_b, g->m,
                                                           g->n, g->k, g->alpha, dev[0], off[0], g->lda, c.stride_a,
                                                           dev[1], off[1], g->ldb, c.stride_b, g->beta, dev[2], off[2],
                                                           g->ldc, c.stride_c, c.batch),
                     GEMMKIT_SUCCESS);
    const size_t nc = off[2] + e[2] + 4;
    res = malloc(nc * sizeof(float));
    assert_non_null(res);
    assert_int_equal(gemmkit_buffer_read(ctx, dev[2], 0, nc, res), GEMMKIT_SUCCESS);
    assert_memory_equal(res, host[2], off[2] * sizeof(float));
    assert_memory_equal(res + off[2] + e[2], host[2] + off[2] + e[2], 4 * sizeof(float));
    gk_check_result r;
    gk_check_batched(&c, host[0] + off[0], host[1] + off[1], host[2] + off[2], res + off[2], 1e7, &test_rng, &r);
    if (!r.passed) print_error("seed %llu: %s\n", (unsigned long long)test_seed, r.message);
    assert_true(r.passed);
    for (int i = 0; i < 3; i++) {
        gemmkit_buffer_destroy(dev[i]);
        free(host[i]);
    }
    free(res);
}

static void run_buffers_case(const gemmkit_options *options, gk_batched_case c, const size_t off[3])
{
    run_buffers_case_on(test_ctx, options, c, off);
}

/* xgemm-direct-batched's cp.async ring (every ASYNC_STAGES choice of its row; plain copies on PoCL) on one matrix
 * per grid z: edges in M, N and K (K shorter than a tile and than the ring), every transpose and layout, gaps
 * (scalar copies) and float4-aligned leading dimensions and strides (16-byte copies), NaN-poisoned C, a broadcast
 * A, offsets inside buffers. */
static void tiled_ring_cases(const char *params, const gk_config *config, void *data)
{
    (void)config, (void)data;
    const gemmkit_options o = {.kernel = "xgemm-direct-batched", .params = params};
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                gk_batched_case c = gk_batched_tight(make(layouts[l], a, b, 37, 45, 29, 1.5f, -0.5f), 3);
                c.stride_a += 3, c.stride_b += 1, c.stride_c += 5;
                assert_batch_ok(&o, c);
                c.one.beta = 0.0f;
                assert_batch_ok(&o, c);
                gk_sgemm_case aligned = make(layouts[l], a, b, 37, 45, 9, 0.5f, 2.0f); /* 2 K steps of 8 */
                aligned.lda = aligned.ldb = aligned.ldc = 48;
                c = gk_batched_tight(aligned, 3);
                c.stride_c += 4;
                assert_batch_ok(&o, c);
                c = gk_batched_tight(make(layouts[l], a, b, 7, 5, 6, 1.0f, 0.0f), 2); /* K under one step */
                c.stride_a = 0;
                assert_batch_ok(&o, c);
            }
    size_t unaligned[3] = {3, 11, 7}, offsets[3] = {4, 8, 12};
    gk_batched_case c = gk_batched_tight(make(GEMMKIT_COL_MAJOR, 1, 0, 33, 21, 17, 0.5f, 2.0f), 3);
    run_buffers_case(&o, c, unaligned);
    c.one.beta = 0.0f;
    run_buffers_case(&o, c, offsets);
}

static void test_tiled_ring(void **state)
{
    (void)state;
    const gk_kernel_def *def = gk_kernel_find(tiled.kernel);
    assert_non_null(def);
    assert_true(test_each_choice_of(def, tiled.params, "ASYNC_STAGES", tiled_ring_cases, NULL) >= 3); /* 0 and rings */
}

/* Tiles that are no power of two (24 x 24: a 24^3 batch in whole tiles, 36 work-items a group) and CUDA's
 * MIN_GROUPS (the plain work-group size on PoCL): the ring's cases above, then whole 24^3 tiles and their edges. */
static void test_tiled_24_and_min_groups(void **state)
{
    (void)state;
    static const char *params[] = {"TSM=24,TSN=24,TSK=12,WPTM=4,WPTN=4", "TSM=24,TSN=24,TSK=24,WPTM=4,WPTN=4,MIN_GROUPS=16",
                                   "TSM=32,TSN=32,TSK=16,WPTM=4,WPTN=4,MIN_GROUPS=16"};
    for (size_t p = 0; p < sizeof params / sizeof *params; p++) {
        tiled_ring_cases(params[p], NULL, NULL);
        const gemmkit_options o = {.kernel = "xgemm-direct-batched", .params = params[p]};
        for (int l = 0; l < 2; l++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    assert_batch_ok(&o, gk_batched_tight(make(layouts[l], a, b, 24, 24, 24, 1.0f, 0.0f), 5));
                    assert_batch_ok(&o, gk_batched_tight(make(layouts[l], a, b, 25, 23, 26, -1.5f, 0.5f), 3));
                }
    }
}

/* The tiles the GPUs' batched policy takes by the lengths of C's edges (builtin.tsv's sm_90 lines: 16 x 64, 64 x 16,
 * 32 x 64, 64 x 32, and 64 x 128 with 4 x 8 per work-item): each with an edge of C shorter than its tile beside one
 * longer, every transpose and layout, beta = 0 on a NaN-poisoned C, gaps between the matrices, offsets in buffers. */
static void test_tiles_by_edges(void **state)
{
    (void)state;
    static const char *params[] = {"TSM=16,TSN=64,TSK=32,WPTM=4,WPTN=4", "TSM=64,TSN=16,TSK=32,WPTM=4,WPTN=4",
                                   "TSM=32,TSN=64,TSK=16,WPTM=4,WPTN=4", "TSM=64,TSN=32,TSK=16,WPTM=4,WPTN=4",
                                   "TSM=64,TSN=128,TSK=16,WPTM=4,WPTN=8"};
    for (size_t p = 0; p < sizeof params / sizeof *params; p++) {
        const gemmkit_options o = {.kernel = "xgemm-direct-batched", .params = params[p]};
        for (int l = 0; l < 2; l++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    gk_batched_case c = gk_batched_tight(make(layouts[l], a, b, 7, 133, 37, 1.5f, -0.5f), 3);
                    c.stride_a += 3, c.stride_c += 5;
                    assert_batch_ok(&o, c);
                    assert_batch_ok(&o, gk_batched_tight(make(layouts[l], a, b, 70, 13, 45, 1.0f, 0.0f), 2));
                }
        size_t offsets[3] = {3, 11, 7};
        run_buffers_case(&o, gk_batched_tight(make(GEMMKIT_COL_MAJOR, 1, 0, 29, 150, 17, 0.5f, 2.0f), 3), offsets);
    }
}

static void test_buffers_with_offsets(void **state)
{
    (void)state;
    size_t unaligned[3] = {3, 11, 7}, aligned[3] = {4, 8, 12};
    const gemmkit_options *kernels[] = {&small_kernel, &tiled, &per_matrix};
    for (size_t q = 0; q < 3; q++)
        for (int l = 0; l < 2; l++) {
            gk_batched_case c = gk_batched_tight(make(layouts[l], 1, 1, 7, 5, 6, 0.5f, 2.0f), 4);
            c.stride_c += 2;
            run_buffers_case(kernels[q], c, unaligned);
            c.one.beta = 0.0f;
            run_buffers_case(kernels[q], c, aligned);
        }
}

/* Per-matrix offsets, alpha and beta: matrices in any order, one A shared. */
static void test_per_matrix_offsets(void **state)
{
    (void)state;
    enum { COUNT = 4 };
    gk_sgemm_case one = make(GEMMKIT_ROW_MAJOR, 0, 1, 7, 5, 6, 1.0f, 0.0f);
    gk_case_complete(&one);
    size_t ea, eb, ec;
    gk_case_extents(&one, &ea, &eb, &ec);
    const size_t na = 2 * ea + 3, nb = COUNT * eb + 1, nc = COUNT * (ec + 2) + 1;
    float *a = malloc(na * 4), *b = malloc(nb * 4), *c0 = malloc(nc * 4), *res = malloc(nc * 4);
    assert_true(a && b && c0 && res);
    gk_fill_random(&test_rng, a, na);
    gk_fill_random(&test_rng, b, nb);
    gk_fill_random(&test_rng, c0, nc);
    const size_t off_a[COUNT] = {3, ea + 3, 3, ea + 3}, off_b[COUNT] = {1, 1 + 2 * eb, 1 + eb, 1 + 3 * eb};
    const size_t off_c[COUNT] = {1 + 3 * (ec + 2), 1, 1 + (ec + 2), 1 + 2 * (ec + 2)};
    const float alphas[COUNT] = {1.0f, -0.5f, 2.0f, 0.0f}, betas[COUNT] = {0.0f, 1.5f, 0.0f, -1.0f};
    for (int z = 0; z < COUNT; z++)
        if (betas[z] == 0.0f) gk_fill_value(c0 + off_c[z], ec, NAN);
    gemmkit_buffer *da, *db, *dc;
    assert_int_equal(gemmkit_buffer_create(test_ctx, na, &da), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, nb, &db), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, nc, &dc), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, da, 0, na, a), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, db, 0, nb, b), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, dc, 0, nc, c0), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_sgemm_batched_buffers(test_ctx, NULL, one.layout, one.trans_a, one.trans_b, one.m, one.n,
                                                   one.k, alphas, da, off_a, one.lda, db, off_b, one.ldb, betas, dc,
                                                   off_c, one.ldc, COUNT),
                     GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_read(test_ctx, dc, 0, nc, res), GEMMKIT_SUCCESS);
    char *covered = calloc(nc, 1);
    assert_non_null(covered);
    for (int z = 0; z < COUNT; z++) {
        gk_sgemm_case cz = one;
        cz.alpha = alphas[z], cz.beta = betas[z];
        gk_check_result r;
        gk_check_sgemm(&cz, a + off_a[z], b + off_b[z], c0 + off_c[z], res + off_c[z], &r);
        if (!r.passed) print_error("matrix %d (seed %llu): %s\n", z, (unsigned long long)test_seed, r.message);
        assert_true(r.passed);
        memset(covered + off_c[z], 1, ec);
    }
    for (size_t i = 0; i < nc; i++)
        if (!covered[i]) assert_memory_equal(&res[i], &c0[i], sizeof(float));
    /* Overlapping C matrices are refused, nothing written. */
    const size_t overlap[COUNT] = {1, 1 + ec - 1, 1 + 2 * (ec + 2), 1 + 3 * (ec + 2)};
    assert_int_equal(gemmkit_sgemm_batched_buffers(test_ctx, NULL, one.layout, one.trans_a, one.trans_b, one.m, one.n,
                                                   one.k, alphas, da, off_a, one.lda, db, off_b, one.ldb, betas, dc,
                                                   overlap, one.ldc, COUNT),
                     GEMMKIT_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(gemmkit_last_error_message(), "overlap"));
    assert_int_equal(gemmkit_sgemm_batched_buffers(test_ctx, NULL, one.layout, one.trans_a, one.trans_b, one.m, one.n,
                                                   one.k, alphas, da, off_a, one.lda, db, NULL, one.ldb, betas, dc,
                                                   off_c, one.ldc, COUNT),
                     GEMMKIT_ERROR_NULL_POINTER);
    const size_t too_far[COUNT] = {1, nb, 1 + eb, 1 + 3 * eb}; /* matrix 1 reads B (alpha != 0) */
    assert_int_equal(gemmkit_sgemm_batched_buffers(test_ctx, NULL, one.layout, one.trans_a, one.trans_b, one.m, one.n,
                                                   one.k, alphas, da, off_a, one.lda, db, too_far, one.ldb, betas, dc,
                                                   off_c, one.ldc, COUNT),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    float *after = malloc(nc * 4);
    assert_non_null(after);
    assert_int_equal(gemmkit_buffer_read(test_ctx, dc, 0, nc, after), GEMMKIT_SUCCESS);
    assert_memory_equal(after, res, nc * sizeof(float));
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    gemmkit_buffer_destroy(dc);
    free(a), free(b), free(c0), free(res), free(covered), free(after);
}

/* Bad arguments: the status, the argument named, C unchanged. */
static void test_errors_write_nothing(void **state)
{
    (void)state;
    float a[64], b[64], c[200], before[200];
    gk_fill_random(&test_rng, a, 64);
    gk_fill_random(&test_rng, b, 64);
    gk_fill_random(&test_rng, c, 200);
    memcpy(before, c, sizeof c);
    const gemmkit_layout col = GEMMKIT_COL_MAJOR;
    const gemmkit_transpose N = GEMMKIT_NO_TRANS;
#define CALL(layout, m, lda, sa, sb, sc, count)                                                                      \
    gemmkit_sgemm_strided_batched(test_ctx, NULL, layout, N, N, m, 4, 4, 1.0f, a, lda, sa, b, 4, sb, 0.0f, c, 4, sc, \
                                  count)
    struct {
        gemmkit_status status;
        gemmkit_status got;
        const char *word;
    } cases[] = {
        {GEMMKIT_ERROR_INVALID_SIZE, CALL(col, 4, 4, 16, 16, 16, -1), "batch_count"},
        {GEMMKIT_ERROR_INVALID_ARGUMENT, CALL(col, 4, 4, 16, 16, 15, 3), "overlap"},
        {GEMMKIT_ERROR_INVALID_ARGUMENT, CALL(col, 4, 4, 16, 16, 0, 2), "stride_c"},
        {GEMMKIT_ERROR_INVALID_ARGUMENT, CALL(col, 4, 4, -1, 16, 16, 2), "stride_a"},
        {GEMMKIT_ERROR_INVALID_ARGUMENT, CALL(col, 4, 4, 16, -16, 16, 2), "stride_b"},
        /* SGEMM's checks come first, in BLAS order */
        {GEMMKIT_ERROR_INVALID_SIZE, CALL(col, -4, 4, 16, 16, 16, -1), "m = -4"},
        {GEMMKIT_ERROR_INVALID_LEADING_DIM, CALL(col, 4, 3, -1, 16, 16, 2), "lda"},
        {GEMMKIT_ERROR_INVALID_LAYOUT, CALL((gemmkit_layout)7, 4, 4, 16, 16, 16, 2), "layout"},
    };
#undef CALL
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(cases[i].got, cases[i].status);
        assert_memory_equal(c, before, sizeof c);
    }
    /* The message of the last call names its argument. */
    assert_non_null(strstr(gemmkit_last_error_message(), "layout"));
    assert_int_equal(gemmkit_sgemm_strided_batched(test_ctx, NULL, col, N, N, 4, 4, 4, 1.0f, a, 4, 16, b, 4, 16, 0.0f,
                                                   c, 4, 16, -2),
                     GEMMKIT_ERROR_INVALID_SIZE);
    assert_non_null(strstr(gemmkit_last_error_message(), "batch_count = -2"));
    assert_int_equal(gemmkit_sgemm_strided_batched(test_ctx, NULL, col, N, N, 4, 4, 4, 1.0f, NULL, 4, 16, b, 4, 16,
                                                   0.0f, c, 4, 16, 2),
                     GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_sgemm_strided_batched(test_ctx, NULL, col, N, N, 4, 4, 4, 1.0f, a, 4, 16, b, 4, 16, 0.0f,
                                                   NULL, 4, 16, 2),
                     GEMMKIT_ERROR_NULL_POINTER);
    assert_int_equal(gemmkit_sgemm_strided_batched(NULL, NULL, col, N, N, 4, 4, 4, 1.0f, a, 4, 16, b, 4, 16, 0.0f,
                                                   c, 4, 16, 2),
                     GEMMKIT_ERROR_NULL_POINTER);
    /* batch 0 and m == 0 are no-ops, NULLs allowed; stride 0 for C with one matrix is fine */
    assert_int_equal(gemmkit_sgemm_strided_batched(test_ctx, NULL, col, N, N, 4, 4, 4, 1.0f, NULL, 4, 16, NULL, 4, 16,
                                                   0.0f, NULL, 4, 0, 0),
                     GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_sgemm_strided_batched(test_ctx, NULL, col, N, N, 0, 4, 4, 1.0f, NULL, 4, 16, NULL, 4, 16,
                                                   0.0f, NULL, 4, 0, 5),
                     GEMMKIT_SUCCESS);
    /* a kernel of another routine */
    const gemmkit_options transpose = {.kernel = "transpose-fast"};
    assert_int_equal(gemmkit_sgemm_strided_batched(test_ctx, &transpose, col, N, N, 4, 4, 4, 1.0f, a, 4, 16, b, 4, 16,
                                                   0.0f, c, 4, 16, 2),
                     GEMMKIT_ERROR_UNKNOWN_KERNEL);
    assert_memory_equal(c, before, sizeof c);

    /* Buffers too small for the batch (matrix 0 fits), nothing written. */
    gemmkit_buffer *da, *db, *dc;
    assert_int_equal(gemmkit_buffer_create(test_ctx, 64, &da), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, 64, &db), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, 200, &dc), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, dc, 0, 200, c), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, da, 0, 64, a), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, db, 0, 64, b), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_sgemm_strided_batched_buffers(test_ctx, NULL, col, N, N, 4, 4, 4, 1.0f, da, 0, 4, 16, db,
                                                           0, 4, 16, 0.0f, dc, 0, 4, 16, 5),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_non_null(strstr(gemmkit_last_error_message(), "buffer A"));
    assert_int_equal(gemmkit_sgemm_strided_batched_buffers(test_ctx, NULL, col, N, N, 4, 4, 4, 1.0f, da, 0, 4, 0, db,
                                                           0, 4, 0, 0.0f, dc, 10, 4, 16, 13),
                     GEMMKIT_ERROR_BUFFER_TOO_SMALL);
    assert_non_null(strstr(gemmkit_last_error_message(), "buffer C"));
    float after[200];
    assert_int_equal(gemmkit_buffer_read(test_ctx, dc, 0, 200, after), GEMMKIT_SUCCESS);
    assert_memory_equal(after, before, sizeof after);
    /* Broadcasting both inputs fits any count; C's 12 matrices of 16 do. */
    assert_int_equal(gemmkit_sgemm_strided_batched_buffers(test_ctx, NULL, col, N, N, 4, 4, 4, 1.0f, da, 0, 4, 0, db,
                                                           0, 4, 0, 0.0f, dc, 8, 4, 16, 12),
                     GEMMKIT_SUCCESS);
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    gemmkit_buffer_destroy(dc);
}

/* ---- batched-small: dense and general paths, parameters, sizes, local memory ---- */

/* The build options of the one batched_small.cl program ctx holds. */
static const char *batched_small_build(const gemmkit_context *ctx)
{
    static char options[1024];
    int count = 0;
    for (const gk_program_entry *e = ctx->programs; e; e = e->next)
        if (strcmp(e->source_file, "library/batched_small.cl") == 0)
            gk_defines_text(e->defines, e->define_count, options, sizeof options), count++;
    assert_int_equal(count, 1);
    return options;
}

/* One call of batched-small in a fresh context (host arrays, or buffers at offsets `off`), checked against the
 * reference; the one build it made must have taken the dense path for exactly the operands flagged (the caller's
 * A, B, C: a row-major call runs as C^T = B^T A^T, its A as the kernel's B). */
static void assert_paths(gk_batched_case c, const size_t *off, int dense_a, int dense_b, int dense_c)
{
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    if (off) run_buffers_case_on(ctx, &small_kernel, c, off);
    else assert_batch_ok_on(ctx, &small_kernel, c);
    const int row = c.one.layout == GEMMKIT_ROW_MAJOR;
    char expected[96];
    snprintf(expected, sizeof expected, "-DDENSE_A=%d -DDENSE_B=%d -DDENSE_C=%d", row ? dense_b : dense_a,
             row ? dense_a : dense_b, dense_c);
    const char *build = batched_small_build(ctx);
    if (!strstr(build, expected)) {
        char text[256];
        gk_batched_describe(&c, text, sizeof text);
        print_error("%s: built with \"%s\", expected \"%s\"\n", text, build, expected);
    }
    assert_non_null(strstr(build, expected));
    gemmkit_context_destroy(ctx);
}

/* Each operand's path: dense (float4 copies) where its batch is one aligned run, the general path where a
 * leading dimension, a stride (gap, broadcast) or an offset breaks it, each operand on its own. */
static void test_dense_and_general_paths(void **state)
{
    (void)state;
    /* Tight 8^3 batches, every transpose and layout, beta = 0 (NaN in C) and not; 1000 = 62 work-groups of 16
     * and one of 8. */
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                const float beta = (a ^ b) ? 0.5f : 0.0f;
                assert_paths(gk_batched_tight(make(layouts[l], a, b, 8, 8, 8, 1.0f, beta), 1000), NULL, 1, 1, 1);
            }
    assert_paths(gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 0, 16, 16, 16, -1.5f, 2.0f), 100), NULL, 1, 1, 1);
    /* Dense blocks whose float4 cross columns (rows not a multiple of 4): A 6x2 (B 2x3, C 6x3 no float4 runs);
     * B^T 6x2 (A 3x2, C 3x6 not); A^T 4x3, B 4x8, C 3x8. */
    assert_paths(gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 0, 6, 3, 2, 1.0f, 0.0f), 33), NULL, 1, 0, 0);
    assert_paths(gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 1, 3, 6, 2, 1.0f, 0.0f), 33), NULL, 0, 1, 0);
    assert_paths(gk_batched_tight(make(GEMMKIT_COL_MAJOR, 1, 0, 3, 8, 4, 0.5f, -1.0f), 33), NULL, 1, 1, 1);
    /* Odd sizes: nothing tiles into float4. */
    assert_paths(gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 0, 7, 5, 6, 1.0f, 0.0f), 33), NULL, 0, 0, 0);

    /* A leading dimension above the rows (strides still multiples of 4): that operand only goes general. */
    gk_sgemm_case one = make(GEMMKIT_COL_MAJOR, 0, 0, 8, 8, 8, 1.0f, 0.0f);
    one.lda = 12;
    assert_paths(gk_batched_tight(one, 100), NULL, 0, 1, 1);
    one = make(GEMMKIT_ROW_MAJOR, 0, 0, 8, 8, 8, 1.0f, 0.0f);
    one.lda = 12; /* row-major: the kernel's B */
    assert_paths(gk_batched_tight(one, 100), NULL, 0, 1, 1);
    one = make(GEMMKIT_COL_MAJOR, 1, 1, 8, 8, 8, 1.0f, 1.0f);
    one.ldc = 12;
    assert_paths(gk_batched_tight(one, 100), NULL, 1, 1, 0);
    /* Strides above the matrix (gaps of 4 and 8 floats; C's gaps must stay untouched). */
    gk_batched_case c = gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 0, 8, 8, 8, 1.0f, 0.0f), 100);
    c.stride_b += 4;
    assert_paths(c, NULL, 1, 0, 1);
    c = gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 1, 8, 8, 8, 2.0f, 0.5f), 100);
    c.stride_c += 8;
    assert_paths(c, NULL, 1, 1, 0);
    /* Broadcasts: stride 0 is never dense. */
    c = gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 0, 8, 8, 8, 1.0f, 0.0f), 100);
    c.stride_a = 0;
    assert_paths(c, NULL, 0, 1, 1);
    c = gk_batched_tight(make(GEMMKIT_COL_MAJOR, 1, 0, 8, 8, 8, 1.0f, 0.0f), 100);
    c.stride_b = 0;
    assert_paths(c, NULL, 1, 0, 1);

    /* Buffers at offsets: multiples of 4 keep the dense path, others do not (per operand). */
    const size_t aligned[3] = {4, 8, 12}, mixed[3] = {4, 2, 9}, unaligned[3] = {1, 3, 7};
    for (int l = 0; l < 2; l++) {
        c = gk_batched_tight(make(layouts[l], l, 0, 8, 8, 8, 1.0f, 0.0f), 50);
        assert_paths(c, aligned, 1, 1, 1);
        assert_paths(c, unaligned, 0, 0, 0);
        c.one.beta = -0.5f;
        assert_paths(c, mixed, 1, 0, 0);
    }
}

/* batched-small's parameters at the registry's extremes: the smallest and largest ELEMS, one C element and a
 * whole 8x8 C per work-item, 32 and 1024 work-items, on dense, general and mixed batches; 999 matrices leave the
 * last work-group part full. */
static void test_small_parameter_extremes(void **state)
{
    (void)state;
    static const char *const params[] = {"ELEMS=256,RM=1,RN=1", "ELEMS=256,RM=1,RN=8", "ELEMS=4096,RM=8,RN=8",
                                         "ELEMS=4096,RM=4,RN=1"};
    for (size_t p = 0; p < sizeof params / sizeof params[0]; p++) {
        const gemmkit_options options = {.kernel = "batched-small", .params = params[p]};
        assert_batch_ok(&options, gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 0, 8, 8, 8, 1.0f, 0.0f), 999));
        assert_batch_ok(&options, gk_batched_tight(make(GEMMKIT_ROW_MAJOR, 1, 0, 16, 16, 16, -1.0f, 0.5f), 99));
        gk_batched_case c = gk_batched_tight(make(GEMMKIT_COL_MAJOR, 1, 1, 7, 5, 6, 1.5f, 0.0f), 999);
        c.stride_c += 3; /* general everywhere */
        if (p % 2) c = gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 1, 6, 3, 2, 1.0f, 2.0f), 999); /* A dense only */
        assert_batch_ok(&options, c);
    }
    /* Several micro-tiles per work-item before a dense C's block goes through local memory: 32^3 with 256
     * work-items of one element (4 each), 3x8 with RM = 4 (not a divisor: 1) and 1024 work-items. */
    const gemmkit_options one_each = {.kernel = "batched-small", .params = params[0]};
    assert_batch_ok(&one_each, gk_batched_tight(make(GEMMKIT_COL_MAJOR, 0, 0, 32, 32, 32, 1.0f, 0.0f), 9));
    const gemmkit_options wide = {.kernel = "batched-small", .params = params[3]};
    assert_batch_ok(&wide, gk_batched_tight(make(GEMMKIT_COL_MAJOR, 1, 0, 3, 8, 4, 1.0f, -1.0f), 999));
    /* Whole columns per work-item (RM = M): a dense C straight from the registers as float4, with beta, with
     * several columns (RN) and micro-tiles per work-item; and the same shape through a gap (general). */
    static const struct {
        const char *params;
        int64_t m, n, k;
    } columns[] = {{"ELEMS=1024,RM=8,RN=1", 8, 8, 8}, {"ELEMS=512,RM=8,RN=2", 8, 8, 5}, {"ELEMS=256,RM=4,RN=1", 4, 12, 5},
                   {"ELEMS=1024,RM=8,RN=4", 8, 16, 3}};
    for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++) {
        const gemmkit_options o = {.kernel = "batched-small", .params = columns[i].params};
        gk_batched_case c = gk_batched_tight(make(GEMMKIT_COL_MAJOR, (int)(i & 1), 0, columns[i].m, columns[i].n,
                                                  columns[i].k, 1.25f, i % 2 ? 0.0f : -0.5f), 333);
        assert_batch_ok(&o, c);
        c.stride_c += 4;
        assert_batch_ok(&o, c);
    }
}

/* Sizes the policy sends batched-small (GPUs: M, N <= 16, K <= 32; CPUs: all three up to 32), tight (dense where
 * they tile into float4) and with a gap after every C; 37 matrices (a part-full last work-group). With the
 * default parameters each fits 48 KiB of local memory, so these run on GPUs too. */
static void test_small_policy_sizes(void **state)
{
    (void)state;
    static const int64_t sizes[][3] = {{1, 1, 1},   {1, 16, 32}, {16, 1, 32},  {2, 2, 32},   {16, 16, 32},
                                       {13, 11, 7}, {12, 12, 12}, {16, 16, 1}, {3, 32, 5},   {32, 32, 32}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const int t = (int)(i % 4);
        gk_batched_case c = gk_batched_tight(make(GEMMKIT_COL_MAJOR, t & 1, t >> 1, sizes[i][0], sizes[i][1],
                                                  sizes[i][2], 1.0f, i % 2 ? 0.5f : 0.0f), 37);
        assert_batch_ok(&small_kernel, c);
        c.stride_c += 1;
        assert_batch_ok(&small_kernel, c);
    }
}

/* The registry's local_mem_bytes is batched-small's __local declaration exactly, as the device's OpenCL compiler
 * reports it (CL_KERNEL_LOCAL_MEM_SIZE), for either transpose and dense flag; and tile_m is its matrices per
 * work-group (the grid). On the OpenCL backend only. */
static void test_small_local_memory_is_the_registry_formula(void **state)
{
    (void)state;
    const gk_kernel_def *def = gk_kernel_find("batched-small");
    static const int64_t sizes[][3] = {{8, 8, 8}, {16, 16, 16}, {16, 16, 32}, {1, 1, 32},
                                       {7, 5, 6}, {32, 32, 32}, {2, 16, 3},   {16, 16, 1}};
    static const char *const params[] = {"ELEMS=256,RM=1,RN=1", "ELEMS=4096,RM=8,RN=8", "ELEMS=1024,RM=2,RN=2",
                                         "ELEMS=4096,RM=4,RN=1"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (size_t j = 0; j < 2; j++) {
            const char *p = params[(i + j) % 4];
            gk_config config;
            assert_int_equal(gk_config_resolve(def, p, &config), GEMMKIT_SUCCESS);
            gk_geometry g;
            assert_int_equal(gk_config_geometry(&config, sizes[i][0], sizes[i][1], sizes[i][2], &g), GEMMKIT_SUCCESS);
            assert_true(g.local_mem_bytes <= 48 * 1024);
            char problem[160];
            const int v = (int)(i + j);
            snprintf(problem, sizeof problem,
                     "-DSIZE_M=%lld -DSIZE_N=%lld -DSIZE_K=%lld -DTRANS_A=%d -DTRANS_B=%d -DDENSE_A=%d -DDENSE_B=%d "
                     "-DDENSE_C=%d", (long long)sizes[i][0], (long long)sizes[i][1],
                     (long long)sizes[i][2], v & 1, (v >> 1) & 1, v & 1, v & 1, (v >> 2) & 1);
            assert_local_memory_is_registry(def, &config, problem, sizes[i][0], sizes[i][1], sizes[i][2]);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_transposes_layouts), cmocka_unit_test(test_batch_counts),
        cmocka_unit_test(test_broadcast),                  cmocka_unit_test(test_medium_and_alpha_beta),
        cmocka_unit_test(test_buffers_with_offsets),       cmocka_unit_test(test_per_matrix_offsets),
        cmocka_unit_test(test_errors_write_nothing),       cmocka_unit_test(test_dense_and_general_paths),
        cmocka_unit_test(test_small_parameter_extremes),   cmocka_unit_test(test_small_policy_sizes),
        cmocka_unit_test(test_small_local_memory_is_the_registry_formula), cmocka_unit_test(test_tiled_ring),
        cmocka_unit_test(test_tiled_24_and_min_groups),    cmocka_unit_test(test_tiles_by_edges),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
