/* The per-device tuning database: saving, replacing and loading entries, and
 * a context picking up the parameters tuned for its device. */
#include <stdlib.h>
#include <unistd.h>

#include "context.h"
#include "test_support.h"
#include "sgemm.h"
#include "tuning.h"

static char db_path[64];

static int make_db_path(void **state)
{
    (void)state;
    snprintf(db_path, sizeof db_path, "/tmp/gemmkit-tuning-%d/db.tsv", (int)getpid());
    setenv("GEMMKIT_TUNING_DB", db_path, 1);
    return test_setup_context(state);
}

static int remove_db(void **state)
{
    unlink(db_path);
    return test_teardown_context(state);
}

static gk_tuning_entry entry_for(const gemmkit_device_info *info, const char *kernel, const char *params)
{
    gk_tuning_entry e = {0};
    snprintf(e.backend, sizeof e.backend, "%s", info->backend);
    snprintf(e.device, sizeof e.device, "%s", info->name);
    snprintf(e.kernel, sizeof e.kernel, "%s", kernel);
    snprintf(e.params, sizeof e.params, "%s", params);
    e.gflops = 123.4;
    snprintf(e.date, sizeof e.date, "2026-11-22");
    return e;
}

static void test_save_replace_load(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    gk_tuning_entry e = entry_for(&info, "xgemm", "TSM=64,TSN=64,TSK=8,WPTM=4,WPTN=4");
    assert_int_equal(gk_tuning_save(db_path, &e), GEMMKIT_SUCCESS);
    gk_tuning_entry other = entry_for(&info, "direct", "TS=8,WPT=2");
    assert_int_equal(gk_tuning_save(db_path, &other), GEMMKIT_SUCCESS);
    /* Saving the same device and kernel again replaces the line. */
    e = entry_for(&info, "xgemm", "TSM=64,TSN=32,TSK=8,WPTM=4,WPTN=4");
    assert_int_equal(gk_tuning_save(db_path, &e), GEMMKIT_SUCCESS);
    gk_tuning_set set;
    gk_tuning_load(&info, &set);
    assert_string_equal(gk_tuning_params(&set, "xgemm"), "TSM=64,TSN=32,TSK=8,WPTM=4,WPTN=4");
    assert_string_equal(gk_tuning_params(&set, "direct"), "TS=8,WPT=2");
    /* Another device's lines are ignored. */
    gemmkit_device_info elsewhere = info;
    snprintf(elsewhere.name, sizeof elsewhere.name, "some other device");
    gk_tuning_load(&elsewhere, &set);
    assert_null(gk_tuning_params(&set, "direct"));
}

static void test_new_context_uses_tuned_parameters(void **state)
{
    (void)state;
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    assert_string_equal(gk_tuning_params(&ctx->tuned, "xgemm"), "TSM=64,TSN=32,TSK=8,WPTM=4,WPTN=4");
    gemmkit_context_destroy(ctx);
    /* A tuned kernel still computes the right thing, and so does a stale entry. */
    gemmkit_options options = {.kernel = "xgemm"};
    assert_case_ok(&options, (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 70, 90, 50, 1.0f, 0.5f,
                                             0, 0, 0});
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    gk_tuning_entry stale = entry_for(&info, "xgemm", "NO_SUCH_PARAM=3");
    assert_int_equal(gk_tuning_save(db_path, &stale), GEMMKIT_SUCCESS);
    gk_tuning_load(&info, &test_ctx->tuned);
    assert_case_ok(&options, (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 130, 64, 40, 1.0f,
                                             0.0f, 0, 0, 0});
}

/* A "KERNEL/small" line serves problems that the main tiles would spread
 * over fewer work-groups than the device has compute units. */
static void test_small_problems_use_the_small_entry(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    gk_sgemm_choice big = gk_sgemm_default_kernel(test_ctx, 512, 512, 512);
    assert_non_null(big.def);
    char key[64];
    snprintf(key, sizeof key, "%s/small", big.def->name);
    gk_tuning_entry e = entry_for(&info, key, big.def == gk_kernel_find("xgemm") ? "TSM=32,TSN=32,TSK=8,WPTM=4,WPTN=4"
                                                                           : "TW=32,TH=8,TK=8");
    assert_int_equal(gk_tuning_save(db_path, &e), GEMMKIT_SUCCESS);
    gk_tuning_load(&info, &test_ctx->tuned);
    const int units = test_ctx->info.compute_units;
    test_ctx->info.compute_units = 100000; /* every problem now leaves units idle */
    gk_sgemm_choice small = gk_sgemm_default_kernel(test_ctx, 512, 512, 512);
    assert_ptr_equal(small.def, big.def);
    assert_non_null(small.params);
    assert_string_equal(small.params, e.params);
    gemmkit_options options = {0};
    assert_case_ok(&options, (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 200, 150, 120, 1.0f,
                                             0.0f, 0, 0, 0});
    test_ctx->info.compute_units = 1; /* and now none does */
    assert_null(gk_sgemm_default_kernel(test_ctx, 512, 512, 512).params);
    test_ctx->info.compute_units = units;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_replace_load),
        cmocka_unit_test(test_new_context_uses_tuned_parameters),
        cmocka_unit_test(test_small_problems_use_the_small_entry),
    };
    return cmocka_run_group_tests(tests, make_db_path, remove_db);
}
