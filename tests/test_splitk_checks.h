/* What every split-K kernel owes (test_splitk.c for xgemm-splitk,
 * test_direct_splitk.c for xgemm-direct-splitk): the partials are summed in a
 * fixed order, so the same inputs give the same bits; one slice is the
 * kernel it splits (same tiles, same K order), bit for bit; and bad
 * parameters are refused before anything runs. */
#ifndef GK_TEST_SPLITK_CHECKS_H
#define GK_TEST_SPLITK_CHECKS_H

#include "test_device_case.h"

/* One call on host arrays: C (m x n, column-major, NaN-poisoned) from a (m x k) and b (k x n). */
static inline void splitk_run(const gemmkit_options *o, int64_t m, int64_t n, int64_t k, const float *a,
                              const float *b, float *c)
{
    for (int64_t i = 0; i < m * n; i++) c[i] = NAN;
    assert_int_equal(gemmkit_sgemm_ex(test_ctx, o, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, m, n, k, 1.0f,
                                      a, m, b, k, 0.0f, c, m),
                     GEMMKIT_SUCCESS);
}

/* split (with `tiles` and 9 slices) twice gives the same bits; with one slice, what whole gives with `tiles`. */
static inline void assert_deterministic_and_one_slice_is(const char *split, const char *whole, const char *tiles)
{
    const int64_t m = 67, n = 45, k = 1500;
    float *a = malloc((size_t)(m * k) * sizeof *a), *b = malloc((size_t)(k * n) * sizeof *b);
    float *c1 = malloc((size_t)(m * n) * sizeof *c1), *c2 = malloc((size_t)(m * n) * sizeof *c2);
    assert_true(a && b && c1 && c2);
    gk_fill_random(&test_rng, a, (size_t)(m * k));
    gk_fill_random(&test_rng, b, (size_t)(k * n));
    char nine[160], one[160];
    snprintf(nine, sizeof nine, "%s,SPLITS=9", tiles);
    snprintf(one, sizeof one, "%s,SPLITS=1", tiles);
    const gemmkit_options sliced = {.kernel = split, .params = nine};
    splitk_run(&sliced, m, n, k, a, b, c1);
    splitk_run(&sliced, m, n, k, a, b, c2);
    assert_memory_equal(c1, c2, (size_t)(m * n) * sizeof *c1);
    const gemmkit_options single = {.kernel = split, .params = one}, unsplit = {.kernel = whole, .params = tiles};
    splitk_run(&single, m, n, k, a, b, c1);
    splitk_run(&unsplit, m, n, k, a, b, c2);
    assert_memory_equal(c1, c2, (size_t)(m * n) * sizeof *c1);
    free(a);
    free(b);
    free(c1);
    free(c2);
}

/* m x n x k (m, n <= 40, k <= 448) on gemmkit buffers at element offsets past float4 alignment and on it, every
 * transpose, leading dimensions 448 and 40, alpha 0.5 and beta 2, then beta 0 (C poisoned: not read). */
static inline void assert_offset_cases(const gemmkit_options *o, int64_t m, int64_t n, int64_t k)
{
    static const int64_t offsets[][3] = {{3, 11, 7}, {4, 8, 12}};
    static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};
    for (int f = 0; f < 2; f++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                device_case d = {{GEMMKIT_COL_MAJOR, transposes[a], transposes[b], m, n, k, 0.5f, 2.0f, 0, 0, 0},
                                 offsets[f][0], offsets[f][1], offsets[f][2]};
                d.c.lda = 448, d.c.ldb = 448, d.c.ldc = 40;
                run_device_case(o, d, 0);
                d.c.beta = 0.0f;
                run_device_case(o, d, 0);
            }
}

/* Each of `params` on kernel: GEMMKIT_ERROR_INVALID_KERNEL_PARAMS. */
static inline void assert_params_refused(const char *kernel, const char *const *params, size_t count)
{
    float x[4] = {0};
    for (size_t p = 0; p < count; p++) {
        const gemmkit_options o = {.kernel = kernel, .params = params[p]};
        assert_int_equal(gemmkit_sgemm_ex(test_ctx, &o, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2, 1,
                                          1.0f, x, 2, x, 1, 0.0f, x, 2),
                         GEMMKIT_ERROR_INVALID_KERNEL_PARAMS);
    }
}

#endif
