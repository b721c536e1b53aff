/* The policy's peel rows end to end (GEMMKIT_POLICY, set before the first
 * call, puts rows in front of the built-in table): M and N cut down to a
 * multiple of 32, the edges of 1-16 rows or columns past it planned as strips
 * on the skinny kernels beside the main block on the packed xgemm, against
 * the float64 reference with fresh random inputs and C poisoned with NaN
 * where beta == 0, for every transpose and layout, odd leading dimensions,
 * offsets inside larger buffers and alpha/beta; the plans' steps are those
 * the rows ask for, and shapes they do not fit (an edge of 17, no main block,
 * a kernel named) run whole. */
#include "plan.h"
#include "sgemm.h"
#include "test_device_case.h"
#include "test_plan_of.h"
#include "test_policy_file.h"

/* The skinny kernels are GPU rows in the built-in table; here they serve every device, so that PoCL plans
 * what a GPU does. */
static const char policy_rows[] =
    "gemm\tpeel\tany\t32\t(M % 32 > 0 && M % 32 <= 16) || (N % 32 > 0 && N % 32 <= 16)\n"
    "gemm\tkernel\tany\tskinny-m\tM <= 16 && N > 16\n"
    "gemm\tkernel\tany\tskinny-n\tN <= 16 && M > 16\n"
    "gemm\tkernel\tany\txgemm\t1\n";
/* M x N (column-major; a row-major call swaps them): both edges; one edge; 16 rows cut; 16 rows cut beside 17
 * columns (not cut); a main block 20 rows high. */
static const int64_t shapes[][2] = {{65, 70}, {96, 33}, {48, 64}, {80, 81}, {20, 97}};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};
static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};

static char policy_path[] = "/tmp/gemmkit-test-peel-XXXXXX";

static void test_peeled_calls_compute_the_product(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int l = 0; l < 2; l++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    const int odd = (a + b + l) % 2;
                    gk_sgemm_case c = {layouts[l], transposes[a], transposes[b], shapes[s][0], shapes[s][1], 45,
                                       odd ? -0.75f : 1.5f, odd ? 0.5f : 0.0f, 0, 0, 0};
                    gk_case_complete(&c);
                    c.lda += 1 + odd;
                    c.ldb += 3;
                    c.ldc += odd;
                    run_device_case(NULL, (device_case){c, 3 * (size_t)odd, 5, 2 * (size_t)odd}, 0);
                }
}

/* xgemm on the main block, then the right strip on skinny-n and the bottom one on skinny-m, each once. */
static void test_plans_have_the_strips(void **state)
{
    (void)state;
    gk_plan plan;
    plan_of(65, 70, 45, NULL, &plan);
    assert_int_equal(count_steps(&plan, "xgemm"), 1);
    assert_int_equal(count_steps(&plan, "skinny-n"), 1);
    assert_int_equal(count_steps(&plan, "skinny-m"), 1);
    assert_string_equal(plan.steps[plan.count - 2].config.def->name, "skinny-n");
    assert_string_equal(plan.steps[plan.count - 1].config.def->name, "skinny-m");
    assert_int_equal(plan.steps[plan.count - 1].binding.global[0] > 0, 1);
    /* One edge alone: one strip. */
    plan_of(96, 33, 45, NULL, &plan);
    assert_int_equal(count_steps(&plan, "skinny-n"), 1);
    assert_int_equal(count_steps(&plan, "skinny-m"), 0);
    plan_of(80, 64, 45, NULL, &plan);
    assert_int_equal(count_steps(&plan, "skinny-m"), 1);
    assert_int_equal(count_steps(&plan, "skinny-n"), 0);
}

/* Edges of 17 and up, whole multiples, no main block and named kernels or parameters: no strips. */
static void test_other_calls_run_whole(void **state)
{
    (void)state;
    gk_plan plan;
    const int64_t whole[][2] = {{81, 81}, {64, 96}};
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
        plan_of(whole[i][0], whole[i][1], 45, NULL, &plan);
        assert_int_equal(count_steps(&plan, "xgemm"), 1);
        assert_int_equal(count_steps(&plan, "skinny-m") + count_steps(&plan, "skinny-n"), 0);
    }
    /* 10 x 97: no main block under the 10 rows; the whole call is one skinny-m step. */
    plan_of(10, 97, 45, NULL, &plan);
    assert_int_equal(plan.count, 1);
    assert_int_equal(count_steps(&plan, "skinny-m"), 1);
    const gemmkit_options named = {.kernel = "xgemm"}, params = {.params = "TSM=64"};
    plan_of(65, 70, 45, &named, &plan);
    assert_int_equal(count_steps(&plan, "skinny-m") + count_steps(&plan, "skinny-n"), 0);
    plan_of(65, 70, 45, &params, &plan);
    assert_int_equal(count_steps(&plan, "skinny-m") + count_steps(&plan, "skinny-n"), 0);
}

/* The built-in row: H200-sized calls just past a multiple of 128, on GPUs only. */
static void test_builtin_row(void **state)
{
    (void)state;
    gk_policy builtin;
    gk_policy_parse("builtin", gk_kernel_source("tuning/policy.tsv"), &builtin);
    assert_string_equal(builtin.warnings, "");
    gemmkit_device_info gpu = {.is_gpu = 1, .compute_units = 132}, cpu = {.is_gpu = 0, .compute_units = 2};
    gk_sgemm_problem p = {.m = 2049, .n = 2049, .k = 2049, .math = GK_MATH_FP32};
    assert_int_equal(gk_sgemm_peel_choose(&builtin, &gpu, &p), 128);
    assert_int_equal(gk_sgemm_peel_choose(&builtin, &cpu, &p), 0);
    p.math = GK_MATH_3XTF32; /* the tensor-core modes too (their strips in fp32) */
    assert_int_equal(gk_sgemm_peel_choose(&builtin, &gpu, &p), 128);
    p.math = GK_MATH_FP32;
    p.m = p.n = 2048; /* whole tiles */
    assert_int_equal(gk_sgemm_peel_choose(&builtin, &gpu, &p), 0);
    p.m = p.n = 4095; /* an edge of 127 */
    assert_int_equal(gk_sgemm_peel_choose(&builtin, &gpu, &p), 0);
    p.m = 4096;
    p.n = 4097;
    assert_int_equal(gk_sgemm_peel_choose(&builtin, &gpu, &p), 128);
    p.m = p.n = p.k = 1025; /* below 2^33 multiply-adds: xgemm-direct's bounds-checked tiles */
    assert_int_equal(gk_sgemm_peel_choose(&builtin, &gpu, &p), 0);
}

int main(void)
{
    if (use_policy_rows(policy_rows, policy_path)) return 1; /* before anything parses the policy */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_peeled_calls_compute_the_product),
        cmocka_unit_test(test_plans_have_the_strips),
        cmocka_unit_test(test_other_calls_run_whole),
        cmocka_unit_test(test_builtin_row),
    };
    const int failed = cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
    unlink(policy_path);
    return failed;
}
