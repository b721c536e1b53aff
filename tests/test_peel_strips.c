/* A peeled call's strips where the cost model's cheapest choice for a strip would need scratch (a packing
 * kernel or a split-K build, whose buffers the main block's steps hold): the strip runs on the model's cheapest
 * candidate that reads the operands in place, rather than the whole call going unpeeled. The model chooses
 * here (candidate rows for every device class, put in front of the built-in table by GEMMKIT_POLICY); the
 * skinny kernels' cost lines are made slow so that the packed xgemm is the strips' cheapest candidate. Every
 * plan is also run and checked against the float64 reference (fresh random inputs, C poisoned with NaN where
 * beta == 0, every transpose, both layouts, odd leading dimensions and offsets). */
#include "context.h"
#include "cost_model.h"
#include "plan.h"
#include "sgemm.h"
#include "test_device_case.h"
#include "test_plan_of.h"
#include "test_policy_file.h"

static const char policy_rows[] =
    "gemm\tpeel\tany\t32\t(M % 32 > 0 && M % 32 <= 16) || (N % 32 > 0 && N % 32 <= 16)\n"
    "gemm\tcandidate\tany\tskinny-m\tM <= 16\n"
    "gemm\tcandidate\tany\tskinny-n\tN <= 16\n"
    "gemm\tcandidate\tany\txgemm\t1\n";

static char policy_path[] = "/tmp/gemmkit-test-peel-strips-XXXXXX";

/* The model's own choice for a strip of this shape (its first candidate), on test_ctx. */
static const char *strip_choice(int64_t m, int64_t n, int64_t k)
{
    const gk_sgemm_problem strip = {.m = m, .n = n, .k = k, .math = GK_MATH_FP32};
    return gk_sgemm_default_kernel_for(test_ctx, &strip).def->name;
}

static void check_calls(int64_t m, int64_t n)
{
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                const int odd = (a + b + l) % 2;
                gk_sgemm_case c = {l ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR, a ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS,
                                   b ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, m, n, 45, odd ? -0.75f : 1.5f,
                                   odd ? 0.5f : 0.0f, 0, 0, 0};
                gk_case_complete(&c);
                c.lda += 1 + odd;
                c.ldb += 3;
                c.ldc += odd;
                run_device_case(NULL, (device_case){c, 3 * (size_t)odd, 5, 2 * (size_t)odd}, 0);
            }
}

/* The skinny kernels made far slower in the context's cost lines (added where the device has none). */
static void slow_skinny_lines(void)
{
    gk_cost_constants *cost = &test_ctx->tuned.cost;
    const char *names[] = {"skinny-m", "skinny-n"};
    for (int i = 0; i < 2; i++) {
        gk_cost_line *line = (gk_cost_line *)gk_cost_find(cost, names[i]);
        if (!line) {
            assert_true(cost->count < GK_COST_MAX_LINES);
            line = &cost->lines[cost->count++];
            *line = (gk_cost_line){.occupancy = 1, .bw_efficiency = 1};
            snprintf(line->name, sizeof line->name, "%s", names[i]);
        }
        line->rate_gflops = 1e-3;
        line->bw_efficiency = 1e-6;
    }
}

/* As the model has them, the strips' cheapest choices are the skinny kernels: peeled as before. */
static void test_strips_on_their_cheapest_choice(void **state)
{
    (void)state;
    gk_plan plan;
    assert_string_equal(strip_choice(1, 64, 45), "skinny-m");
    plan_of(65, 70, 45, NULL, &plan);
    assert_int_equal(count_steps(&plan, "xgemm"), 1);
    assert_int_equal(count_steps(&plan, "skinny-n"), 1);
    assert_int_equal(count_steps(&plan, "skinny-m"), 1);
    check_calls(65, 70);
}

/* With the skinny kernels far slower, the model's cheapest choice for a strip is the packed xgemm, which needs
 * scratch: the strips run on the skinny kernels all the same (the cheapest in-place candidates), and the main
 * block stays on xgemm; before, such a call ran whole, its partial tiles included. Shapes no earlier test
 * planned (the context memoises decisions). */
static void test_strips_in_place_when_the_cheapest_is_not(void **state)
{
    (void)state;
    static gk_cost_constants kept;
    kept = test_ctx->tuned.cost;
    slow_skinny_lines();
    assert_string_equal(strip_choice(3, 96, 47), "xgemm");
    gk_plan plan;
    plan_of(99, 99, 47, NULL, &plan);
    assert_int_equal(count_steps(&plan, "skinny-n"), 1);
    assert_int_equal(count_steps(&plan, "skinny-m"), 1);
    assert_string_equal(plan.steps[plan.count - 2].config.def->name, "skinny-n");
    assert_string_equal(plan.steps[plan.count - 1].config.def->name, "skinny-m");
    check_calls(97, 102);
    test_ctx->tuned.cost = kept;
}

int main(void)
{
    if (use_policy_rows(policy_rows, policy_path)) return 1; /* before anything parses the policy */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strips_on_their_cheapest_choice),
        cmocka_unit_test(test_strips_in_place_when_the_cheapest_is_not),
    };
    const int failed = cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
    unlink(policy_path);
    return failed;
}
