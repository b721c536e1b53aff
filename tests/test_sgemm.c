/* The public SGEMM on host arrays: shapes, layouts, transposes, alpha/beta,
 * leading dimensions, against the reference with fresh random inputs. */
#include "test_support.h"

static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};

static gk_sgemm_case make_case(gemmkit_layout layout, gemmkit_transpose ta, gemmkit_transpose tb, int64_t m,
                               int64_t n, int64_t k, float alpha, float beta)
{
    gk_sgemm_case c = {layout, ta, tb, m, n, k, alpha, beta, 0, 0, 0};
    return c;
}

static void test_one_by_one(void **state)
{
    (void)state;
    assert_case_ok(NULL, make_case(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 1, 1, 1, 1.0f, 0.0f));
}

static void test_all_transposes_both_layouts(void **state)
{
    (void)state;
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++)
                assert_case_ok(NULL, make_case(layouts[l], transposes[a], transposes[b], 67, 45, 83, 1.25f, -0.5f));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_by_one),
        cmocka_unit_test(test_all_transposes_both_layouts),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
