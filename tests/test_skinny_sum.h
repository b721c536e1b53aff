/* The skinny kernels' split-K builds sum their partials in the same launch (GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM: each
 * tile's last slice to arrive, up to the row's sum_splits slices): shared by test_skinny_splitk.c (skinny.cl) and
 * test_skinny_dot.c (skinny_dot.cl). Against the float64 reference with fresh random inputs and C NaN-poisoned when
 * beta == 0; the plan is one step with the kernel's sum_here set; two calls give the same bits and a call after
 * another still sums (each launch leaves its counters at zero); past the cap, past GK_TILE_COUNTS tiles and in a
 * caller's workspace the plan's reduction step sums instead. Needs test_ctx (test_splitk_checks.h first). */
#ifndef GK_TEST_SKINNY_SUM_H
#define GK_TEST_SKINNY_SUM_H

#include "context.h"
#include "registry.h"
#include "test_plan_of.h"

/* The kernel's sum_here argument (its last) in the plan's first step. */
static inline int skinny_sum_here(const gk_plan *plan)
{
    const gk_binding *b = &plan->steps[0].binding;
    assert_true(b->arg_count > 0 && b->args[b->arg_count - 1].kind == GK_ARG_INT);
    return b->args[b->arg_count - 1].value.i;
}

/* The plan of an m x n x k call on split-K kernel `kernel` with `params`: `splits` slices along the grid's z, one
 * step whose kernel sums them (sum_here 1), or the kernel (sum_here 0) and one reduction step. */
static inline void assert_skinny_plan(const char *kernel, const char *params, int64_t m, int64_t n, int64_t k,
                                      int splits, int sums_in_kernel)
{
    const gemmkit_options o = {.kernel = kernel, .params = params};
    gk_plan plan;
    plan_of(m, n, k, &o, &plan);
    assert_int_equal(plan.steps[0].binding.global[2], splits);
    assert_int_equal(skinny_sum_here(&plan), sums_in_kernel);
    assert_int_equal(plan.count, sums_in_kernel ? 1 : 2);
    if (!sums_in_kernel) assert_int_equal(count_steps(&plan, "reduce") + count_steps(&plan, "reduce-deep"), 1);
}

static inline gk_sgemm_case skinny_sum_case(int layout, int a, int b, int64_t m, int64_t n, int64_t k, float alpha,
                                            float beta)
{
    return (gk_sgemm_case){layout ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR, a ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS,
                           b ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, m, n, k, alpha, beta, 0, 0, 0};
}

/* 2, 5, 33 slices and the cap (the row's sum_splits) summed in the kernel, the last slice shorter than the others: `small` rows of C
 * (skinny_n: columns) by 45, every transpose and layout with tight and padded leading dimensions, alpha/beta and
 * NaN-poisoned C with beta 0; each case twice in a row (the second call sums only if the first left its counters at
 * zero); two calls on the same inputs give the same bits. */
static inline void assert_sums_many_slices(const char *kernel, const char *lanes, int skinny_n, int64_t small)
{
    const gk_kernel_def *def = gk_kernel_find(kernel);
    assert_non_null(def);
    const int counts[] = {2, 5, 33, def->sum_splits};
    assert_int_equal(def->contract, GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM);
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        const int splits = counts[i];
        const int64_t k = 9 * splits - 3; /* slices of 9 (8 at 2), the last shorter */
        const int64_t m = skinny_n ? 45 : small, n = skinny_n ? small : 45;
        char params[200];
        snprintf(params, sizeof params, "%s%sSPLITS=%d", lanes ? lanes : "", lanes ? "," : "", splits);
        const gemmkit_options o = {.kernel = kernel, .params = params};
        assert_skinny_plan(kernel, params, m, n, k, splits, 1);
        for (int l = 0; l < 2; l++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    gk_sgemm_case c = skinny_sum_case(l, a, b, m, n, k, 1.0f, 0.0f);
                    assert_case_ok(&o, c);
                    assert_case_ok(&o, c);
                    c.alpha = -1.25f, c.beta = 0.5f;
                    c.lda = (l ? (a ? m : k) : (a ? k : m)) + 3;
                    c.ldb = (l ? (b ? k : n) : (b ? n : k)) + 5;
                    c.ldc = (l ? n : m) + 7;
                    assert_case_ok(&o, c);
                }
        float *pa = malloc((size_t)(m * k) * sizeof *pa), *pb = malloc((size_t)(k * n) * sizeof *pb);
        float *c1 = malloc((size_t)(m * n) * sizeof *c1), *c2 = malloc((size_t)(m * n) * sizeof *c2);
        assert_true(pa && pb && c1 && c2);
        gk_fill_random(&test_rng, pa, (size_t)(m * k));
        gk_fill_random(&test_rng, pb, (size_t)(k * n));
        splitk_run(&o, m, n, k, pa, pb, c1);
        splitk_run(&o, m, n, k, pa, pb, c2);
        assert_memory_equal(c1, c2, (size_t)(m * n) * sizeof *c1);
        for (int64_t e = 0; e < m * n; e++) assert_true(isfinite(c1[e])); /* every result written */
        free(pa), free(pb), free(c1), free(c2);
    }
}

/* Where the kernel does not sum, the same build stores its partials and the reduction step sums them: one slice
 * past the cap (reduce-deep), more tiles than the context has counters (`one_result`: parameters of one result per
 * work-group; reduce), and a caller's workspace (planned dry: the workspace is CUDA's, run on a GPU by
 * tests/gpu/). */
static inline void assert_reduction_step_where_not_summed(const char *kernel, const char *lanes,
                                                          const char *one_result, int skinny_n)
{
    const gk_kernel_def *def = gk_kernel_find(kernel);
    assert_non_null(def);
    const int cap = def->sum_splits;
    assert_true(gk_split_sums_in_kernel(def, cap, GK_TILE_COUNTS));
    assert_false(gk_split_sums_in_kernel(def, cap + 1, 1) || gk_split_sums_in_kernel(def, 2, GK_TILE_COUNTS + 1));
    const int64_t small = 5, large = 45, m = skinny_n ? large : small, n = skinny_n ? small : large;
    /* cap + 1 slices of 2, the last of 1 */
    char past_cap[200];
    snprintf(past_cap, sizeof past_cap, "%s,SPLITS=%d", lanes, cap + 1);
    const gemmkit_options deep = {.kernel = kernel, .params = past_cap};
    assert_skinny_plan(kernel, past_cap, m, n, 2 * cap + 1, cap + 1, 0);
    for (int a = 0; a < 2; a++) {
        assert_case_ok(&deep, skinny_sum_case(0, a, !a, m, n, 2 * cap + 1, 1.0f, 0.0f));
        assert_case_ok(&deep, skinny_sum_case(1, a, a, m, n, 2 * cap + 1, 0.5f, 2.0f));
    }
    /* 2 x 8200 results, a tile each: 16400 tiles */
    char tiny[200];
    snprintf(tiny, sizeof tiny, "%s,SPLITS=3", one_result);
    const gemmkit_options many = {.kernel = kernel, .params = tiny};
    const int64_t wide_m = skinny_n ? 8200 : 2, wide_n = skinny_n ? 2 : 8200;
    assert_skinny_plan(kernel, tiny, wide_m, wide_n, 30, 3, 0);
    assert_case_ok(&many, skinny_sum_case(0, 0, 0, wide_m, wide_n, 30, 1.0f, 0.0f));
    assert_case_ok(&many, skinny_sum_case(0, 1, 1, wide_m, wide_n, 30, -0.75f, 1.5f));
    /* the same 5 slices that sum in the kernel are summed by a step in a caller's workspace */
    char five[200];
    snprintf(five, sizeof five, "%s,SPLITS=5", lanes);
    assert_skinny_plan(kernel, five, m, n, 45, 5, 1);
    gk_workspace_begin(test_ctx, 1);
    assert_skinny_plan(kernel, five, m, n, 45, 5, 0);
    gk_workspace_end(test_ctx);
    assert_skinny_plan(kernel, five, m, n, 45, 5, 1);
}

#endif
