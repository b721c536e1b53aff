/* The policy's copy rows end to end (GEMMKIT_POLICY, set before the first
 * call, replaces the built-in table with rows that copy by the size): an
 * operand of xgemm-direct copied K-major, outer (M or N contiguous) or to an aligned leading dimension
 * before the kernel, against the float64 reference with fresh random inputs
 * and C poisoned with NaN where beta == 0, for every transpose and layout,
 * odd and aligned leading dimensions, offsets inside larger buffers and
 * alpha/beta; the caller's A and B are never written; a kernel the caller
 * names runs without copies; a policy file that cannot be read leaves the
 * built-in table and says so. */
#include "test_device_case.h"
#include "test_fake_device.h"
#include "test_policy_file.h"
#include "tuning.h"

/* The problem's M (= N here, whatever the layout) picks the copies:
 * 37 both K-major, 53 both aligned, 61 B K-major alone, 43 both outer, 29 none; K = 600
 * runs xgemm-direct's split-K build (slices of K, then the reduction). */
static const char policy_rows[] =
    "gemm\tkernel\tany\txgemm-direct\t1\n"
    "gemm\tcopy-a\tany\tk-major\tM == 37\n"
    "gemm\tcopy-a\tany\taligned\tM == 53\n"
    "gemm\tcopy-b\tany\tk-major\tM == 37 || M == 61\n"
    "gemm\tcopy-b\tany\taligned\tM == 53\n"
    "gemm\tcopy-a\tany\touter\tM == 43\n"
    "gemm\tcopy-b\tany\touter\tM == 43\n"
    "gemm\tsplit\tany\txgemm-direct-splitk\tK == 600\n";
static const int64_t sizes[] = {37, 53, 61, 43, 29};
static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};
static const gemmkit_layout layouts[] = {GEMMKIT_COL_MAJOR, GEMMKIT_ROW_MAJOR};

static char policy_path[] = "/tmp/gemmkit-test-policy-XXXXXX";

/* Every copy, transpose and layout; leading dimensions one and four past the rows (odd, and aligned where
 * the rows are a multiple of four); offsets 0 and 3; beta 0 (C poisoned) and 0.5; split-K (NN and TT). */
static void test_copies_compute_the_product(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int l = 0; l < 2; l++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++)
                    for (int pad = 1; pad <= 4; pad += 3) {
                        const int64_t n = sizes[s], k = pad == 4 && a == b ? 600 : 45;
                        gk_sgemm_case c = {layouts[l], transposes[a], transposes[b], n, n, k,
                                           1.5f, pad == 1 ? 0.0f : 0.5f, 0, 0, 0};
                        gk_case_complete(&c);
                        c.lda += pad;
                        c.ldb += pad;
                        c.ldc += pad;
                        const size_t offset = pad == 1 ? 3 : 0;
                        run_device_case(NULL, (device_case){c, offset, offset, offset}, 0);
                    }
}

/* The copies go to scratch buffers: the caller's operands stay as they were. */
static void test_operands_are_not_written(void **state)
{
    (void)state;
    for (size_t s = 0; s < 4; s++) { /* the sizes that copy */
        const int64_t n = sizes[s], k = 45, ld = n + 1;
        const size_t count = (size_t)(ld * k);
        float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b), *back = malloc(count * sizeof *back);
        assert_non_null(a);
        assert_non_null(b);
        assert_non_null(back);
        gk_fill_random(&test_rng, a, count);
        gk_fill_random(&test_rng, b, count);
        gemmkit_buffer *da, *db, *dc;
        assert_int_equal(gemmkit_buffer_create(test_ctx, count, &da), GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_create(test_ctx, count, &db), GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_create(test_ctx, (size_t)(n * n), &dc), GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_write(test_ctx, da, 0, count, a), GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_write(test_ctx, db, 0, count, b), GEMMKIT_SUCCESS);
        /* A is n x k (ld n + 1), B is op(B) = B^T with B n x k stored (ld n + 1): NT. */
        assert_int_equal(gemmkit_sgemm_buffers(test_ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, n, n,
                                               k, 1.0f, da, 0, ld, db, 0, ld, 0.0f, dc, 0, n),
                         GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_read(test_ctx, da, 0, count, back), GEMMKIT_SUCCESS);
        assert_memory_equal(back, a, count * sizeof *a);
        assert_int_equal(gemmkit_buffer_read(test_ctx, db, 0, count, back), GEMMKIT_SUCCESS);
        assert_memory_equal(back, b, count * sizeof *b);
        gemmkit_buffer_destroy(da);
        gemmkit_buffer_destroy(db);
        gemmkit_buffer_destroy(dc);
        free(a);
        free(b);
        free(back);
    }
}

/* Where a row holds the plan has a step before the kernel: the call's device time exceeds the kernel's. NT
 * leaves the outer copies (43) only the alignment to mend: their ld is odd there. */
static void test_copies_are_planned(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const int64_t n = sizes[s], k = 45, ld = n == 43 ? n + 2 : n + 1;
        gemmkit_buffer *da, *db, *dc;
        assert_int_equal(gemmkit_buffer_create(test_ctx, (size_t)(ld * k), &da), GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_create(test_ctx, (size_t)(ld * k), &db), GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_create(test_ctx, (size_t)(n * n), &dc), GEMMKIT_SUCCESS);
        float *ones = malloc((size_t)(ld * k) * sizeof *ones);
        assert_non_null(ones);
        gk_fill_random(&test_rng, ones, (size_t)(ld * k));
        assert_int_equal(gemmkit_buffer_write(test_ctx, da, 0, (size_t)(ld * k), ones), GEMMKIT_SUCCESS);
        assert_int_equal(gemmkit_buffer_write(test_ctx, db, 0, (size_t)(ld * k), ones), GEMMKIT_SUCCESS);
        double kernel_ms = -1.0, total_ms = -1.0;
        const gemmkit_options timed = {.kernel_ms = &kernel_ms, .total_ms = &total_ms};
        assert_int_equal(gemmkit_sgemm_buffers(test_ctx, &timed, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, n,
                                               n, k, 1.0f, da, 0, ld, db, 0, ld, 0.0f, dc, 0, n),
                         GEMMKIT_SUCCESS);
        assert_true(kernel_ms > 0.0);
        if (n == 29) assert_true(total_ms == kernel_ms); /* one step */
        else assert_true(total_ms > kernel_ms);
        gemmkit_buffer_destroy(da);
        gemmkit_buffer_destroy(db);
        gemmkit_buffer_destroy(dc);
        free(ones);
    }
}

/* A named kernel: the operands as given, with and without the rows' sizes (host arrays). */
static void test_named_kernel_without_copies(void **state)
{
    (void)state;
    const gemmkit_options named = {.kernel = "xgemm-direct"};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_TRANS, sizes[s], sizes[s], 45, 1.0f, 0.0f, 0, 0, 0};
        assert_case_ok(&named, c);
        assert_case_ok(NULL, c);
    }
}

/* The table in use is the file's (the context's warnings would name a row it could not use). */
static void test_the_file_is_the_policy(void **state)
{
    (void)state;
    assert_null(strstr(gemmkit_context_warnings(test_ctx), "policy"));
}

/* The built-in tuning lines of variants the file has no row for (the H200's xgemm/small, ...) are unused
 * without warnings, which would otherwise fill every context's warnings on that GPU. */
static void test_builtin_variant_lines_unused_quietly(void **state)
{
    (void)state;
    const gemmkit_device_info h200 = device(1);
    gk_tuning_set tuned;
    gk_tuning_load(&h200, "sm_90", &tuned);
    if (tuned.warnings[0]) print_error("%s", tuned.warnings);
    assert_string_equal(tuned.warnings, "");
    assert_null(gk_tuning_params(&tuned, "xgemm/small"));
    assert_non_null(gk_tuning_params(&tuned, "xgemm"));
}

int main(void)
{
    if (use_policy_rows(policy_rows, policy_path)) return 1; /* before anything parses the policy */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copies_compute_the_product),
        cmocka_unit_test(test_operands_are_not_written),
        cmocka_unit_test(test_copies_are_planned),
        cmocka_unit_test(test_named_kernel_without_copies),
        cmocka_unit_test(test_the_file_is_the_policy),
        cmocka_unit_test(test_builtin_variant_lines_unused_quietly),
    };
    const int failed = cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
    unlink(policy_path);
    return failed;
}
