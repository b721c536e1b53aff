/* The variants' representative shapes (src/kernels/tuning/shapes.tsv), what
 * `gemmkit tune --variant NAME` times: the built-in table is whole and
 * agrees with the policy (every variant row has shapes on GPUs and CPUs;
 * on a CPU each row's shapes give one kernel through the kernel rows; on the
 * H200 with its built-in lines one kernel's KERNEL/VARIANT line is among the
 * cost model's candidates at every one of them); a broken row costs a
 * warning and the row. No device is needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "policy.h"
#include "sgemm.h"
#include "tune_shapes.h"
#include "tuning.h"
#include "test_fake_device.h"

static int setup(void **state)
{
    (void)state;
    /* Only the built-in lines: no user's database. */
    setenv("GEMMKIT_TUNING_DB", "/nonexistent/gemmkit-test-tune-shapes.tsv", 1);
    setenv("GEMMKIT_QUIET", "1", 1);
    return 0;
}

static void test_builtin_table_is_whole(void **state)
{
    (void)state;
    const gk_tune_shapes *table = gk_tune_shapes_builtin();
    if (table->warnings[0]) print_error("%s", table->warnings);
    assert_string_equal(table->warnings, "");
    assert_true(table->count >= 8);
    const gk_policy *policy = gk_policy_builtin();
    /* Every SGEMM variant the policy has, on both device classes (`tune --variant` tunes those; the batched
     * routine's variant lines come from bench measurements); every row names one of them. */
    for (int i = 0; i < policy->count; i++) {
        const gk_policy_rule *r = &policy->rules[i];
        if (r->step != GK_STEP_VARIANT || strcmp(r->routine, "gemm") != 0) continue;
        for (int gpu = 0; gpu < 2; gpu++) assert_non_null(gk_tune_shapes_find(table, r->routine, r->choice, gpu));
    }
    for (int i = 0; i < table->count; i++) {
        assert_true(gk_policy_has_variant(policy, table->rows[i].routine, table->rows[i].variant));
        if (table->rows[i].count == 0) assert_true(table->rows[i].note[0]); /* says where its lines come from */
    }
    /* The orientation variant has no shapes: tune times NN calls. */
    const gk_tune_shapes_row *trans_a = gk_tune_shapes_find(table, "gemm", "trans-a", 1);
    assert_non_null(trans_a);
    assert_int_equal(trans_a->count, 0);
}

/* Whether a GPU candidate row of the policy runs def and holds at m x n x k (an NN call). */
static int candidate_row_holds(const gk_policy *policy, const gemmkit_device_info *info, const gk_kernel_def *def,
                               int64_t m, int64_t n, int64_t k)
{
    int64_t values[GK_POLICY_MAX_VARIABLES] = {0};
    values[GK_GEMM_M] = m, values[GK_GEMM_N] = n, values[GK_GEMM_K] = k;
    values[GK_GEMM_WORK] = gk_policy_product(m, n, k);
    values[GK_GEMM_CUS] = info->compute_units;
    values[GK_GEMM_ALIGNED_A] = values[GK_GEMM_ALIGNED_B] = 1;
    for (int i = policy->first[GK_ROUTINE_GEMM][GK_STEP_CANDIDATE]; i >= 0; i = policy->rules[i].next) {
        const gk_policy_rule *r = &policy->rules[i];
        if (r->kernel == def && r->device != GK_CLASS_CPU && gk_policy_holds(policy, r, values)) return 1;
    }
    return 0;
}

static gk_sgemm_candidate candidates[GK_SGEMM_MAX_CANDIDATES];

/* The cost model's candidates at m x n x k (an NN call). */
static int candidates_at(const gemmkit_device_info *info, const gk_tuning_set *tuned, const int64_t *shape)
{
    const gk_sgemm_problem p = {.m = shape[0], .n = shape[1], .k = shape[2], .alpha = 1.0f};
    const int count = gk_sgemm_candidates(gk_policy_builtin(), info, tuned, &p, candidates, GK_SGEMM_MAX_CANDIDATES);
    assert_true(count > 0);
    return count;
}

/* On the H200, each fp32 GPU row: the cost model chooses among every tuned line of the candidate rows' kernels, so
 * the row's lines (the built-in "KERNEL/VARIANT" lines tune would replace) must be among its candidates at the
 * row's shapes, whatever the constants make of them: one kernel's line at all of them. */
static void test_gpu_shapes_run_their_variant_on_the_h200(void **state)
{
    (void)state;
    gemmkit_device_info info = device(1);
    static gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    const gk_policy *policy = gk_policy_builtin();
    const gk_tune_shapes *table = gk_tune_shapes_builtin();
    int rows = 0;
    for (int i = 0; i < table->count; i++) {
        const gk_tune_shapes_row *row = &table->rows[i];
        if (row->device == GK_CLASS_CPU || row->count == 0) continue; /* no shapes: not tune's */
        rows++;
        int lines = 0, everywhere = 0;
        for (int r = policy->first[GK_ROUTINE_GEMM][GK_STEP_CANDIDATE]; r >= 0; r = policy->rules[r].next) {
            const gk_kernel_def *def = policy->rules[r].kernel;
            char line[160];
            snprintf(line, sizeof line, "%s/%s", def->name, row->variant);
            if (policy->rules[r].device == GK_CLASS_CPU || !gk_tuning_find(&tuned, line)) continue;
            lines++;
            int served = 0;
            for (int s = 0; s < row->count; s++) {
                const int count = candidates_at(&info, &tuned, row->shapes[s]);
                int listed = 0;
                for (int c = 0; c < count; c++) listed |= !strcmp(candidates[c].line, line);
                served += listed;
            }
            everywhere += served == row->count;
        }
        if (lines == 0 || everywhere == 0)
            print_error("variant %s: %d line(s) of candidate kernels, %d a candidate at all its shapes\n", row->variant,
                        lines, everywhere);
        assert_true(lines > 0);
        assert_true(everywhere > 0);
    }
    assert_int_equal(rows, 8);
}

/* On a CPU, each CPU row's shapes give one kernel (the one tune tunes). */
static void test_cpu_shapes_give_one_kernel(void **state)
{
    (void)state;
    gemmkit_device_info info = device(0);
    gk_tuning_set tuned;
    gk_tuning_load(&info, NULL, &tuned);
    const gk_tune_shapes *table = gk_tune_shapes_builtin();
    for (int i = 0; i < table->count; i++) {
        const gk_tune_shapes_row *row = &table->rows[i];
        if (row->device == GK_CLASS_GPU || row->count == 0) continue;
        const gk_kernel_def *def = NULL;
        for (int s = 0; s < row->count; s++) {
            const int64_t *shape = row->shapes[s];
            const gk_kernel_def *k = gk_sgemm_choose_kernel(gk_policy_builtin(), &info, &tuned, shape[0], shape[1],
                                                            shape[2]);
            assert_non_null(k);
            if (!def) def = k;
            assert_ptr_equal(k, def);
        }
    }
}

/* The kernel whose lines serve a shape (what `tune` tunes there: gk_sgemm_fast_kernel at squares): on GPUs the cost
 * model's choice as the kernel of its candidate row (a split-K build's unsplit kernel), whose row holds there (the
 * skinny kernels for an edge of at most 16, small-k for K at most 16: allowed there, never required); on CPUs the
 * kernel rows'. */
static void test_kernel_step_at_a_shape(void **state)
{
    (void)state;
    gemmkit_device_info info = device(1);
    static gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    const gk_policy *policy = gk_policy_builtin();
    static const int64_t shapes[][3] = {
        {4096, 4096, 4096}, {1024, 1024, 1024}, {512, 512, 512},     {16384, 16, 16384}, {16, 16384, 16384},
        {256, 256, 65536},  {64, 64, 1000000},  {2, 8192, 8192},     {8192, 2, 8192},    {8192, 8192, 2},
        {1, 2049, 2049},    {2048, 1, 2049},    {2049, 16, 2049},    {1, 1, 1},          {16, 16, 16},
        {8192, 24, 8192},   {1, 29, 140727},    {20000, 48, 12000}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int64_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        const gk_kernel_def *def = gk_sgemm_choose_kernel(policy, &info, &tuned, m, n, k);
        const gk_sgemm_choice choice = gk_sgemm_choose(policy, &info, &tuned, m, n, k);
        assert_non_null(def);
        assert_non_null(choice.def);
        if (gk_kernel_slices_k(def) || strcmp(def->source, choice.def->source) != 0 ||
            (!gk_kernel_slices_k(choice.def) && def != choice.def) || !candidate_row_holds(policy, &info, def, m, n, k))
            fail_msg("%lldx%lldx%lld: kernel %s, the model's choice %s", (long long)m, (long long)n, (long long)k,
                     def->name, choice.def->name);
        assert_true(strcmp(def->name, "skinny-m") || m <= 16);
        assert_true(strcmp(def->name, "skinny-n") || n <= 16);
        assert_true(strcmp(def->name, "small-k") || k <= 16);
        /* Its lines are candidates there. */
        const int count = candidates_at(&info, &tuned, shapes[i]);
        int lines = 0;
        for (int c = 0; c < count; c++) lines += candidates[c].splits == 1 && !strcmp(candidates[c].line, def->name);
        assert_int_equal(lines, 1);
    }
    /* Where the model runs skinny-n (its lines' loads made to reach the whole copy bandwidth, the other lines at
     * their defaults: half of it), skinny-n is the kernel, though it shares skinny-m's source. */
    tuned.cost.count = 0;
    tuned.cost.lines[tuned.cost.count++] = (gk_cost_line){"skinny-n", 60000, 2, 1.0, {0}, 0, 0};
    tuned.cost.lines[tuned.cost.count++] = (gk_cost_line){"skinny-n/strip", 60000, 2, 1.0, {0}, 0, 0};
    assert_string_equal(gk_sgemm_choose(policy, &info, &tuned, 16384, 16, 16384).def->name, "skinny-n");
    assert_string_equal(gk_sgemm_choose_kernel(policy, &info, &tuned, 16384, 16, 16384)->name, "skinny-n");
    /* CPUs: the kernel rows' kernel, whatever the shape. */
    gemmkit_device_info cpu = device(0);
    gk_tuning_load(&cpu, NULL, &tuned);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int64_t *shape = shapes[i];
        const gk_kernel_def *def = gk_sgemm_choose_kernel(policy, &cpu, &tuned, shape[0], shape[1], shape[2]);
        assert_non_null(def);
        assert_string_equal(def->name, "lecture-6-one-block-shared");
    }
}

static void test_broken_rows_warn(void **state)
{
    (void)state;
    gk_tune_shapes table;
    gk_tune_shapes_parse("t.tsv",
                         "# comment\n"
                         "gemm\tsmall\tgpu\t64x64x64,32x16x8\tok\n"
                         "gemm\tsmall\ttpu\t64x64x64\n"          /* line 3: class */
                         "gemm\tsmall\tcpu\t64x64\n"             /* line 4: two sizes */
                         "gemm\tsmall\tcpu\t64x0x64\n"           /* line 5: a zero */
                         "gemm\tsmall\tcpu\t1x1x1,2x2x2,3x3x3,4x4x4,5x5x5\n" /* line 6: five shapes */
                         "gemm\tsmall\n"                         /* line 7: fields */
                         "gemm\tsmall\tcpu\t8x8x8,\n"            /* line 8: a trailing comma */
                         "gemm\tnarrow-n\tany\t1024x32x1024\n",
                         &table);
    assert_int_equal(table.count, 2);
    for (int line = 3; line <= 8; line++) {
        char where[32];
        snprintf(where, sizeof where, "t.tsv:%d:", line);
        assert_non_null(strstr(table.warnings, where));
    }
    const gk_tune_shapes_row *small = gk_tune_shapes_find(&table, "gemm", "small", 1);
    assert_non_null(small);
    assert_int_equal(small->count, 2);
    assert_int_equal(small->shapes[1][0], 32);
    assert_int_equal(small->shapes[1][1], 16);
    assert_int_equal(small->shapes[1][2], 8);
    assert_null(gk_tune_shapes_find(&table, "gemm", "small", 0)); /* only broken CPU rows */
    assert_non_null(gk_tune_shapes_find(&table, "gemm", "narrow-n", 0));
    assert_non_null(gk_tune_shapes_find(&table, "gemm", "narrow-n", 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_table_is_whole),
        cmocka_unit_test(test_gpu_shapes_run_their_variant_on_the_h200),
        cmocka_unit_test(test_cpu_shapes_give_one_kernel),
        cmocka_unit_test(test_kernel_step_at_a_shape),
        cmocka_unit_test(test_broken_rows_warn),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
