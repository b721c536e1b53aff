/* xgemm-direct (xgemm's tiles reading the operands as stored, edge tiles
 * bounds-checked, alpha/beta in the kernel) by name, against the float64
 * reference with fresh random inputs, C poisoned with NaN when beta == 0:
 * sizes that end inside a tile and inside a K step, every transpose and
 * layout, leading dimensions and offsets that allow float4 access (VEC_*)
 * and ones that do not, alpha/beta, and each tile shape the H200's tuning
 * lines use; the cp.async ring (ASYNC_STAGES) at every choice of the registry
 * row, bit for bit the register prefetch's sums, and the local memory of every
 * ring in every build of the file against the registry's formula. The
 * policy's choice of it is in test_policy.c. */
#include "test_choices.h"
#include "test_device_case.h"
#include "test_local_memory.h"

static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};

/* Small tiles keep PoCL fast; the others are the tuned shapes (128x128, narrow, small, mid-n, mid-m, thin-n and
 * thin-m). */
#define SMALL "TSM=32,TSN=32,TSK=8,WPTM=4,WPTN=4"
#define THIN_N "TSM=64,TSN=16,TSK=32,WPTM=4,WPTN=4"
#define THIN_M "TSM=16,TSN=64,TSK=32,WPTM=4,WPTN=4"
static const char *const tile_shapes[] = {
    SMALL,
    "TSM=64,TSN=64,TSK=4,WPTM=8,WPTN=8",
    "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8",
    "TSM=128,TSN=32,TSK=32,WPTM=8,WPTN=4",
    "TSM=32,TSN=128,TSK=32,WPTM=4,WPTN=8",
    "TSM=128,TSN=64,TSK=16,WPTM=4,WPTN=8",
    "TSM=64,TSN=128,TSK=16,WPTM=4,WPTN=8",
    THIN_N,
    THIN_M,
    "TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16",
};
#define SHAPES (sizeof tile_shapes / sizeof tile_shapes[0])

static gemmkit_options direct(const char *params) { return (gemmkit_options){.kernel = "xgemm-direct", .params = params}; }

static gk_sgemm_case make(gemmkit_layout l, int a, int b, int64_t m, int64_t n, int64_t k, float alpha, float beta)
{
    return (gk_sgemm_case){l, transposes[a], transposes[b], m, n, k, alpha, beta, 0, 0, 0};
}

static void test_sizes_ending_inside_tiles(void **state)
{
    (void)state;
    /* 1 and 2 (less than a float4), primes, one past a tile, exact tiles, K shorter than a K step. */
    static const int64_t sizes[][3] = {{1, 1, 1},     {2, 3, 5},      {7, 13, 17},   {33, 65, 9},  {64, 32, 64},
                                       {129, 33, 31}, {97, 130, 103}, {3, 200, 250}, {200, 3, 250}, {150, 140, 2}};
    for (size_t s = 0; s < SHAPES; s++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            const gemmkit_options o = direct(tile_shapes[s]);
            assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 0, sizes[i][0], sizes[i][1], sizes[i][2], 1.0f, 0.0f));
        }
}

/* Each transpose reads its operand in the other order (K-contiguous tiles are
 * written transposed into local memory); leading dimensions multiples of 4
 * (float4 loads) and not. */
static void test_all_transposes_layouts_and_leading_dimensions(void **state)
{
    (void)state;
    /* 32x32, 64x64 with TSK 16 and the main 128x128 (each build takes PoCL seconds); every shape runs the sizes above. */
    static const size_t shapes[] = {0, 2, SHAPES - 1};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const size_t s = shapes[i];
        const gemmkit_options o = direct(tile_shapes[s]);
        for (int l = 0; l < 2; l++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    gk_sgemm_case c = make(layouts[l], a, b, 67, 45, 83, 1.25f, -0.5f);
                    assert_case_ok(&o, c);
                    c.beta = 0.0f; /* C poisoned with NaN: it must not be read */
                    assert_case_ok(&o, c);
                    c.lda = 100, c.ldb = 96, c.ldc = 72; /* multiples of 4, with gaps that must stay unchanged */
                    assert_case_ok(&o, c);
                    c.lda = 101, c.ldb = 97, c.ldc = l ? 47 : 70; /* not multiples of 4 */
                    c.beta = 2.0f;
                    assert_case_ok(&o, c);
                    assert_case_ok(&o, make(layouts[l], a, b, 128, 64, 96, 1.0f, 0.0f)); /* whole tiles */
                }
    }
}

/* The thin tiles (an edge of 16) on results of a 9-16 edge, in every transpose and layout, whole and over K-slices
 * (the split build sums 3 slices in the kernel, 9 in its reduction step); beta = 0 with NaN in C. */
static void test_thin_tiles(void **state)
{
    (void)state;
    static const char *const thin[][2] = {{THIN_N, THIN_N ",SPLITS=3"}, {THIN_M, THIN_M ",SPLITS=9"}};
    for (int t = 0; t < 2; t++)
        for (int split = 0; split < 2; split++) {
            const gemmkit_options o = {.kernel = split ? "xgemm-direct-splitk" : "xgemm-direct", .params = thin[t][split]};
            for (int l = 0; l < 2; l++)
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++) {
                        assert_case_ok(&o, make(layouts[l], a, b, t ? 13 : 203, t ? 203 : 13, 301, 1.0f, 0.0f));
                        assert_case_ok(&o, make(layouts[l], a, b, t ? 16 : 131, t ? 131 : 16, 300, -0.75f, 1.5f));
                    }
        }
}

static void test_alpha_beta(void **state)
{
    (void)state;
    static const float values[] = {0.0f, 1.0f, -2.5f, 0.5f};
    const gemmkit_options o = direct(SMALL);
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 1, 37, 29, 33, values[a], values[b]));
            assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 1, 0, 64, 64, 16, values[a], values[b]));
        }
    assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 0, 20, 30, 0, 1.0f, 0.5f)); /* K == 0: C = beta * C */
}

/* Offsets inside buffers: unaligned (3, 11, 7) and multiples of 4 (float4 access). */
static void test_offsets_in_buffers(void **state)
{
    (void)state;
    static const int64_t offsets[][3] = {{3, 11, 7}, {4, 8, 12}};
    for (size_t s = 0; s < SHAPES; s += SHAPES - 1)
        for (int f = 0; f < 2; f++)
            for (int l = 0; l < 2; l++)
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++) {
                        const gemmkit_options o = direct(tile_shapes[s]);
                        device_case d = {make(layouts[l], a, b, 37, 22, 45, 0.5f, 2.0f), offsets[f][0], offsets[f][1],
                                         offsets[f][2]};
                        d.c.lda = 48, d.c.ldb = 48, d.c.ldc = 40;
                        run_device_case(&o, d, 0);
                        d.c.beta = 0.0f;
                        d.c.ldc = 52;
                        run_device_case(&o, d, 0);
                    }
}

/* Larger than a few tiles each way with a partial last row and column of tiles. */
static void test_many_tiles(void **state)
{
    (void)state;
    const gemmkit_options o = direct(SMALL);
    assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 0, 301, 257, 123, 1.0f, 0.0f));
    assert_case_ok(&o, make(GEMMKIT_ROW_MAJOR, 1, 1, 257, 301, 77, -1.0f, 1.0f));
}

/* One call on host arrays: C = alpha op(A) op(B) + beta C on the given inputs (c0: C before), into out. */
static void run_on(const char *params, const gk_sgemm_case *c, const float *a, const float *b, const float *c0,
                   float *out, size_t ec)
{
    const gemmkit_options o = direct(params);
    memcpy(out, c0, ec * sizeof *out);
    assert_int_equal(gemmkit_sgemm_ex(test_ctx, &o, c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k, c->alpha, a,
                                      c->lda, b, c->ldb, c->beta, out, c->ldc),
                     GEMMKIT_SUCCESS);
}

/* The ring only changes how tiles reach local memory, not the sums: the same bits as the register prefetch
 * (ASYNC_STAGES=0 with the same tiles) on the same fresh inputs. */
static void assert_same_bits_as_prefetch(const char *params, const char *tiles, gk_sgemm_case c)
{
    gk_case_complete(&c);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    float *a = malloc(ea * sizeof *a), *b = malloc(eb * sizeof *b), *c0 = malloc(ec * sizeof *c0);
    float *ring = malloc(ec * sizeof *ring), *prefetch = malloc(ec * sizeof *prefetch);
    assert_true(a && b && c0 && ring && prefetch);
    gk_fill_random(&test_rng, a, ea);
    gk_fill_random(&test_rng, b, eb);
    gk_fill_random(&test_rng, c0, ec);
    char zero[160];
    snprintf(zero, sizeof zero, "%s,ASYNC_STAGES=0", tiles);
    run_on(params, &c, a, b, c0, ring, ec);
    run_on(zero, &c, a, b, c0, prefetch, ec);
    if (memcmp(ring, prefetch, ec * sizeof *ring) != 0)
        print_error("%s and %s differ at %lldx%lldx%lld (seed %llu)\n", params, zero, (long long)c.m, (long long)c.n,
                    (long long)c.k, (unsigned long long)test_seed);
    assert_memory_equal(ring, prefetch, ec * sizeof *ring);
    free(a), free(b), free(c0), free(ring), free(prefetch);
}

/* The cases of one ring (params: tiles and ASYNC_STAGES) with a K step of tsk: every transpose and layout; edges in
 * M, N and K; K under one step and K of fewer steps than the ring holds; leading dimensions that allow float4
 * (16-byte copies) and not (4-byte copies, also every K-contiguous operand); offsets inside buffers, aligned and
 * not; alpha/beta, NaN-poisoned C with beta = 0; and the same bits as the register prefetch. */
static void ring_cases(const char *params, const char *tiles, int64_t tsk)
{
    const gemmkit_options o = direct(params);
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                gk_sgemm_case c = make(layouts[l], a, b, 67, 45, 10 * tsk + 3, 1.25f, -0.5f);
                assert_case_ok(&o, c);
                c.beta = 0.0f; /* C poisoned with NaN: it must not be read */
                assert_case_ok(&o, c);
                c.lda = 12 * tsk, c.ldb = 12 * tsk, c.ldc = 72; /* multiples of 4: float4 copies */
                assert_case_ok(&o, c);
                assert_case_ok(&o, make(layouts[l], a, b, 37, 29, tsk - 1, 0.5f, 1.0f));     /* under one K step */
                assert_case_ok(&o, make(layouts[l], a, b, 70, 33, tsk + 1, -1.0f, 0.75f));   /* two steps */
                assert_case_ok(&o, make(layouts[l], a, b, 64, 64, 2 * tsk, 1.0f, 0.0f));     /* whole tiles */
                assert_same_bits_as_prefetch(params, tiles, make(layouts[l], a, b, 67, 45, 5 * tsk + 1, 1.5f, 0.5f));
                c = make(layouts[l], a, b, 68, 44, 6 * tsk, 1.0f, -1.0f);
                c.lda = c.ldb = c.ldc = 12 * tsk;
                assert_same_bits_as_prefetch(params, tiles, c);
            }
    static const int64_t offsets[][3] = {{3, 11, 7}, {4, 8, 12}};
    for (int f = 0; f < 2; f++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                device_case d = {make(GEMMKIT_COL_MAJOR, a, b, 37, 22, 4 * tsk + 5, 0.5f, 2.0f), offsets[f][0],
                                 offsets[f][1], offsets[f][2]};
                d.c.lda = d.c.ldb = 8 * tsk, d.c.ldc = 40;
                run_device_case(&o, d, 0);
                d.c.beta = 0.0f;
                run_device_case(&o, d, 0);
            }
    static const float values[] = {0.0f, 1.0f, -2.5f};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 1, 37, 29, 3 * tsk, values[a], values[b]));
}

typedef struct ring_tiles {
    const char *tiles;
    int64_t tsk;
} ring_tiles;

static void each_ring(const char *params, const gk_config *config, void *data)
{
    (void)config;
    const ring_tiles *t = data;
    ring_cases(params, t->tiles, t->tsk);
}

/* The cp.async ring (ASYNC_STAGES: every choice of the registry row; plain copies on PoCL, in the ring's order) at
 * the small tiles and at the H200's 64 x 64 (999^3's). */
static void test_async_stages(void **state)
{
    (void)state;
    const gk_kernel_def *def = gk_kernel_find("xgemm-direct");
    assert_non_null(def);
    static const ring_tiles tiles[] = {{SMALL, 8}, {"TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8", 16}};
    for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; i++)
        assert_true(test_each_choice_of(def, tiles[i].tiles, "ASYNC_STAGES", each_ring, (void *)&tiles[i]) >= 3);
}

/* Several tiles of C per work-group (TPG), the ring running across them: the ring's cases at TPG 2 and 3 (N of 22-68
 * over tiles 32 wide: groups of one, two and three tiles, the last cut by N), each ring size; K = 0 with the line
 * named (the plan's scale step: no GEMM kernel runs without A and B, so the kernel need not handle it). */
static void test_tiles_per_group(void **state)
{
    (void)state;
    static const char *const rings[] = {SMALL ",ASYNC_STAGES=2,TPG=2", SMALL ",ASYNC_STAGES=3,TPG=3",
                                        SMALL ",ASYNC_STAGES=4,TPG=2"};
    for (size_t i = 0; i < sizeof rings / sizeof rings[0]; i++) {
        ring_cases(rings[i], SMALL, 8);
        const gemmkit_options o = direct(rings[i]);
        assert_case_ok(&o, make(GEMMKIT_COL_MAJOR, 0, 0, 45, 100, 0, 1.0f, 0.5f)); /* C = beta C */
        assert_case_ok(&o, make(GEMMKIT_ROW_MAJOR, 1, 0, 33, 161, 17, -1.0f, 0.0f));
    }
    const gemmkit_options refused = direct(SMALL ",ASYNC_STAGES=0,TPG=2"); /* the register prefetch multiplies one */
    float x[4] = {0};
    assert_int_equal(gemmkit_sgemm_ex(test_ctx, &refused, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2,
                                      1, 1.0f, x, 2, x, 1, 0.0f, x, 2),
                     GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
}

/* One ring size's local memory (the walk's params) in each row that builds xgemm_direct.cl, at each op(A), op(B). */
static void local_memory_of(const char *params, const gk_config *config, void *data)
{
    (void)params;
    const gk_kernel_def *def = data;
    for (int v = 0; v < 4; v++) {
        char problem[96];
        snprintf(problem, sizeof problem, "-DTRANS_A=%d -DTRANS_B=%d -DVEC_A=%d -DVEC_B=%d -DVEC_C=%d", v & 1,
                 (v >> 1) & 1, v == 1, v == 2, v == 3);
        assert_local_memory_is_registry(def, config, problem, 100, 100, 100);
    }
}

/* The registry's local_mem_bytes, which the library checks against the device's local memory, is the kernel's
 * declaration at every ring size (ASYNC_STAGES choice), in every build of the file (plain, SPLITK, STRIDED), as
 * the device's compiler reports it. On the OpenCL backend only. */
static void test_local_memory_is_the_registry_formula(void **state)
{
    (void)state;
    static const char *const tiles[] = {SMALL, "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8"};
    int rows = 0;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (strcmp(def->source, "library/xgemm_direct.cl") != 0) continue;
        rows++;
        for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++)
            assert_true(test_each_choice_of(def, tiles[t], "ASYNC_STAGES", local_memory_of, (void *)def) >= 3);
    }
    assert_int_equal(rows, 3);
}

static void test_bad_parameters_are_refused(void **state)
{
    (void)state;
    float x[4] = {0};
    static const char *const params[] = {"TSK=6", "WPTM=6", "TSM=128,WPTM=16,TSN=32,WPTN=4,TSK=4", "ASYNC_STAGES=1",
                                         "ASYNC_STAGES=5"};
    for (size_t p = 0; p < sizeof params / sizeof params[0]; p++) {
        const gemmkit_options o = direct(params[p]);
        assert_int_equal(gemmkit_sgemm_ex(test_ctx, &o, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2, 1,
                                          1.0f, x, 2, x, 1, 0.0f, x, 2),
                         GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_ending_inside_tiles),
        cmocka_unit_test(test_all_transposes_layouts_and_leading_dimensions),
        cmocka_unit_test(test_thin_tiles),
        cmocka_unit_test(test_alpha_beta),
        cmocka_unit_test(test_offsets_in_buffers),
        cmocka_unit_test(test_many_tiles),
        cmocka_unit_test(test_async_stages),
        cmocka_unit_test(test_tiles_per_group),
        cmocka_unit_test(test_local_memory_is_the_registry_formula),
        cmocka_unit_test(test_bad_parameters_are_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
