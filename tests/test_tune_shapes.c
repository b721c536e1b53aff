/* The variants' representative shapes (src/kernels/tuning/shapes.tsv), what
 * `gemmkit tune --variant NAME` times: the built-in table is whole and
 * agrees with the policy (every variant row has shapes on GPUs and CPUs,
 * each row's shapes give one kernel through the kernel rows, and on the
 * H200 with its built-in lines the dispatch takes that kernel's
 * KERNEL/VARIANT line at every one of them); a broken row costs a warning
 * and the row. No device is needed. */
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

/* On the H200, each GPU row: one kernel at all its shapes, and the dispatch
 * takes its built-in KERNEL/VARIANT line there (the lines tune would replace). */
static void test_gpu_shapes_run_their_variant_on_the_h200(void **state)
{
    (void)state;
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    const gk_tune_shapes *table = gk_tune_shapes_builtin();
    int rows = 0;
    for (int i = 0; i < table->count; i++) {
        const gk_tune_shapes_row *row = &table->rows[i];
        if (row->device == GK_CLASS_CPU || row->count == 0) continue; /* no shapes: not tune's */
        rows++;
        const int64_t *first = row->shapes[0];
        const gk_kernel_def *def = gk_sgemm_choose_kernel(gk_policy_builtin(), &info, &tuned, first[0], first[1],
                                                          first[2]);
        assert_non_null(def);
        char line[160];
        snprintf(line, sizeof line, "%s/%s", def->name, row->variant);
        const gk_tuned *variant = gk_tuning_find(&tuned, line);
        assert_non_null(variant);
        for (int s = 0; s < row->count; s++) {
            const int64_t *shape = row->shapes[s];
            assert_ptr_equal(gk_sgemm_choose_kernel(gk_policy_builtin(), &info, &tuned, shape[0], shape[1], shape[2]),
                             def);
            gk_sgemm_choice c = gk_sgemm_choose(gk_policy_builtin(), &info, &tuned, shape[0], shape[1], shape[2]);
            if (!c.def || strcmp(c.def->source, def->source) != 0 || c.params != variant->line.params)
                print_error("%s at %lldx%lldx%lld: %s (%s)\n", line, (long long)shape[0], (long long)shape[1],
                            (long long)shape[2], c.def ? c.def->name : "-", c.params ? c.params : "no variant line");
            /* The variant's tiles, on the kernel or on its split-K build (the same source: mid sizes split K). */
            assert_non_null(c.def);
            assert_string_equal(c.def->source, def->source);
            assert_ptr_equal(c.params, variant->line.params);
        }
    }
    assert_int_equal(rows, 6);
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

/* The kernel step alone: what gk_sgemm_fast_kernel gave squares, now at any shape. */
static void test_kernel_step_at_a_shape(void **state)
{
    (void)state;
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    const gk_policy *policy = gk_policy_builtin();
    assert_string_equal(gk_sgemm_choose_kernel(policy, &info, &tuned, 4096, 4096, 4096)->name, "xgemm");
    assert_string_equal(gk_sgemm_choose_kernel(policy, &info, &tuned, 1024, 1024, 1024)->name, "xgemm-direct");
    assert_string_equal(gk_sgemm_choose_kernel(policy, &info, &tuned, 16384, 16, 16384)->name, "skinny-n");
    /* Before split-K replaces it (by its own split build): the kernel rows' choice for 256 x 256 x 65536. */
    assert_string_equal(gk_sgemm_choose_kernel(policy, &info, &tuned, 256, 256, 65536)->name, "xgemm-direct");
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
