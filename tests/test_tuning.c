/* The per-device tuning database: saving, replacing and loading entries, and
 * a context picking up the parameters tuned for its device; a database that
 * cannot hurt (bad lines and files cost a warning, never the kernel), and
 * saves that neither lose lines nor leave a broken file. */
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "context.h"
#include "dispatch_model.h"
#include "test_choices.h"
#include "test_fake_device.h"
#include "test_support.h"
#include "sgemm.h"
#include "tuning.h"

static char db_dir[48], db_path[64], lock_path[72];

static int make_db_path(void **state)
{
    (void)state;
    snprintf(db_dir, sizeof db_dir, "/tmp/gemmkit-tuning-%d", (int)getpid());
    snprintf(db_path, sizeof db_path, "%s/db.tsv", db_dir);
    snprintf(lock_path, sizeof lock_path, "%s.lock", db_path);
    mkdir(db_dir, 0755);
    setenv("GEMMKIT_TUNING_DB", db_path, 1);
    return test_setup_context(state);
}

static int remove_db(void **state)
{
    unlink(db_path);
    unlink(lock_path);
    rmdir(db_dir);
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
    gk_tuning_entry e = entry_for(&info, "xgemm", "TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16");
    assert_int_equal(gk_tuning_save(db_path, &e), GEMMKIT_SUCCESS);
    gk_tuning_entry other = entry_for(&info, "direct", "TS=8,WPT=2");
    assert_int_equal(gk_tuning_save(db_path, &other), GEMMKIT_SUCCESS);
    /* Saving the same device and kernel again replaces the line. */
    e = entry_for(&info, "xgemm", "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8");
    assert_int_equal(gk_tuning_save(db_path, &e), GEMMKIT_SUCCESS);
    gk_tuning_set set;
    gk_tuning_load(&info, NULL, &set);
    assert_string_equal(gk_tuning_params(&set, "xgemm"), "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8");
    assert_string_equal(gk_tuning_params(&set, "direct"), "TS=8,WPT=2");
    /* Another device's lines are ignored. */
    gemmkit_device_info elsewhere = info;
    snprintf(elsewhere.name, sizeof elsewhere.name, "some other device");
    gk_tuning_load(&elsewhere, NULL, &set);
    assert_null(gk_tuning_params(&set, "direct"));
}

static void test_new_context_uses_tuned_parameters(void **state)
{
    (void)state;
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    assert_string_equal(gk_tuning_params(&ctx->tuned, "xgemm"), "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8");
    gemmkit_context_destroy(ctx);
    /* A tuned kernel still computes the right thing, and so does a stale entry. */
    gemmkit_options options = {.kernel = "xgemm"};
    assert_case_ok(&options, (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 70, 90, 50, 1.0f, 0.5f,
                                             0, 0, 0});
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    gk_tuning_entry stale = entry_for(&info, "xgemm", "NO_SUCH_PARAM=3");
    assert_int_equal(gk_tuning_save(db_path, &stale), GEMMKIT_SUCCESS);
    gk_tuning_load(&info, NULL, &test_ctx->tuned);
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
    big.def = gk_model_unsplit(big.def); /* a GPU's model may run the split-K build; the line is its kernel's */
    char key[64];
    snprintf(key, sizeof key, "%s/small", big.def->name);
    gk_tuning_entry e = entry_for(&info, key, !strncmp(big.def->name, "xgemm", 5) ? "TSM=32,TSN=32,TSK=8,WPTM=4,WPTN=4"
                                                                                 : "TW=32,TH=8,TK=8");
    assert_int_equal(gk_tuning_save(db_path, &e), GEMMKIT_SUCCESS);
    gk_tuning_load(&info, NULL, &test_ctx->tuned);
    const int units = test_ctx->info.compute_units;
    /* Twice as many units as the kernel's own tiles give work-groups (its line, not the variant the device's
     * units chose above): the small row holds, not the tiny one (a quarter). */
    gk_config own;
    assert_int_equal(gk_context_resolve(test_ctx, big.def, NULL, &own), GEMMKIT_SUCCESS);
    gk_geometry g;
    assert_int_equal(gk_config_geometry(&own, 512, 512, 512, &g), GEMMKIT_SUCCESS);
    test_ctx->info.compute_units = (int)(2 * ((512 + g.tile_m - 1) / g.tile_m) * ((512 + g.tile_n - 1) / g.tile_n));
    /* Where the cost model chooses (the GPUs' candidate rows), the line is one of its candidates, run if cheapest;
     * elsewhere the variant row takes it. */
    gk_sgemm_problem p = {.m = 512, .n = 512, .k = 512, .alpha = 1.0f};
    p.a.ld = p.b.ld = p.c.ld = 512;
    static gk_sgemm_candidate candidates[GK_SGEMM_MAX_CANDIDATES];
    const int count = gk_sgemm_candidates_for(test_ctx, &p, candidates, GK_SGEMM_MAX_CANDIDATES);
    if (count > 0) {
        int found = 0;
        for (int i = 0; i < count; i++) found |= strcmp(candidates[i].line, key) == 0;
        assert_true(found);
        test_ctx->info.compute_units = units;
        return;
    }
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

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* The most specific line wins: device name, then "arch:", then "vendor:"
 * (the start of the vendor string, any case); at equal specificity the
 * user's file beats the built-in one, whatever the order of levels. */
static void test_lookup_levels(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    snprintf(info.backend, sizeof info.backend, "opencl");
    snprintf(info.name, sizeof info.name, "level-test device");
    snprintf(info.vendor, sizeof info.vendor, "NVIDIA Corporation");
    const char text[] = "opencl\tvendor:nvidia\tdirect\tTS=8,WPT=1\t1\t2026-01-01\n"
                        "opencl\tarch:sm_90\tdirect\tTS=8,WPT=2\t1\t2026-01-01\n"
                        "opencl\tvendor:NVIDIA\txgemm\tTSM=32,TSN=32,TSK=8,WPTM=4,WPTN=4\t1\t2026-01-01\n"
                        "opencl\tlevel-test device\tcopy-fast\tTILE=32\t1\t2026-01-01\n"
                        "opencl\tarch:sm_90\tcopy-fast\tTILE=64\t1\t2026-01-01\n"
                        "opencl\tvendor:AMD\tlecture-copy\tTILE_DIM=32\t1\t2026-01-01\n"
                        "cuda\tlevel-test device\tlecture-copy\tTILE_DIM=32\t1\t2026-01-01\n";
    write_file(db_path, text, sizeof text - 1);
    gk_tuning_set set;
    gk_tuning_load(&info, "sm_90", &set);
    assert_string_equal(set.warnings, "");
    assert_string_equal(gk_tuning_params(&set, "direct"), "TS=8,WPT=2");
    assert_int_equal(gk_tuning_find(&set, "direct")->level, GK_TUNING_ARCH);
    /* The built-in xgemm line is sm_90's (measured on the H200, for every sm_90 device): it beats the user's
     * vendor line, which is less specific. */
    assert_int_equal(gk_tuning_find(&set, "xgemm")->level, GK_TUNING_ARCH);
    assert_true(gk_tuning_find(&set, "xgemm")->builtin);
    assert_string_equal(gk_tuning_params(&set, "copy-fast"), "TILE=32");
    assert_null(gk_tuning_params(&set, "lecture-copy"));
    /* Architecture unknown: the "arch:" lines do not match. */
    gk_tuning_load(&info, "", &set);
    assert_string_equal(gk_tuning_params(&set, "direct"), "TS=8,WPT=1");
    assert_int_equal(gk_tuning_find(&set, "direct")->level, GK_TUNING_VENDOR);
    assert_string_equal(gk_tuning_params(&set, "xgemm"), "TSM=32,TSN=32,TSK=8,WPTM=4,WPTN=4");
    assert_int_equal(gk_config_value(gk_tuning_config(&set, "xgemm"), "TSM", 0), 32);

    /* Against the built-in lines (sm_90's, measured on the H200): a user's vendor line does not beat them, a
     * user's device line does. */
    snprintf(info.name, sizeof info.name, "NVIDIA H200");
    const char *builtin_xgemm = "TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16,SWIZZLE=16";
    gk_tuning_load(&info, "sm_90", &set);
    if (!gk_tuning_params(&set, "xgemm")) skip_because("this device cannot run the H200's xgemm line");
    assert_string_equal(gk_tuning_params(&set, "xgemm"), builtin_xgemm);
    const char mine[] = "opencl\tNVIDIA H200\txgemm\tTSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8\t1\t2026-01-01\n";
    write_file(db_path, mine, sizeof mine - 1);
    gk_tuning_load(&info, "sm_90", &set);
    assert_string_equal(gk_tuning_params(&set, "xgemm"), "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8");
}

/* A blas-threshold line (the BLAS drop-in's measured threshold) is a setting,
 * not a kernel: loaded, matched at the same levels, read back as a number;
 * a bad value is a warning, and the drop-in's default applies. */
static void test_blas_threshold_lines(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    snprintf(info.backend, sizeof info.backend, "opencl");
    snprintf(info.name, sizeof info.name, "threshold-test device");
    snprintf(info.vendor, sizeof info.vendor, "Some Vendor");
    const char text[] = "opencl\tvendor:some\tblas-threshold\tWORK=1000\t1\t2026-01-01\n"
                        "opencl\tthreshold-test device\tblas-threshold\tWORK=2097152\t5.5\t2026-01-01\n"
                        "cuda\tthreshold-test device\tblas-threshold\tWORK=7\t1\t2026-01-01\n";
    write_file(db_path, text, sizeof text - 1);
    gk_tuning_set set;
    gk_tuning_load(&info, NULL, &set);
    assert_string_equal(set.warnings, "");
    double work = -1.0;
    int builtin = 1;
    assert_int_equal(gk_tuning_blas_threshold(&set, &work, &builtin), 1);
    assert_true(work == 2097152.0);
    assert_int_equal(builtin, 0);
    assert_null(gk_tuning_config(&set, "blas-threshold")->def); /* no kernel behind it */
    assert_true(gk_tuning_blas_threshold_lowest() == 7.0);    /* any device's line */
    /* Another device of the vendor: the vendor line. */
    snprintf(info.name, sizeof info.name, "another device");
    gk_tuning_load(&info, NULL, &set);
    assert_int_equal(gk_tuning_blas_threshold(&set, &work, NULL), 1);
    assert_true(work == 1000.0);
    /* "inf": never the device; any case. */
    const char never[] = "opencl\tanother device\tblas-threshold\tWORK=Inf\t1\t2026-01-01\n";
    write_file(db_path, never, sizeof never - 1);
    gk_tuning_load(&info, NULL, &set);
    assert_int_equal(gk_tuning_blas_threshold(&set, &work, NULL), 1);
    assert_true(isinf(work));
    /* Malformed values: one warning each, no line (the lowest is the built-in lines' alone). */
    write_file(db_path, "", 0);
    const double builtin_lowest = gk_tuning_blas_threshold_lowest();
    const char *bad[] = {"WORK=lots", "WORK=-5", "WORK=nan", "WORK=", "TSM=64", "WORK=12abc"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char line[256];
        int len = snprintf(line, sizeof line, "opencl\tanother device\tblas-threshold\t%s\t1\t2026-01-01\n", bad[i]);
        write_file(db_path, line, (size_t)len);
        gk_tuning_load(&info, NULL, &set);
        char expected[256];
        snprintf(expected, sizeof expected, "gemmkit: tuning database %s:1: blas-threshold %s: ", db_path, bad[i]);
        if (!strstr(set.warnings, expected)) print_error("warnings \"%s\" lack \"%s\"\n", set.warnings, expected);
        assert_non_null(strstr(set.warnings, expected));
        assert_non_null(strstr(set.warnings, "; using the drop-in's default threshold\n"));
        assert_int_equal(gk_tuning_blas_threshold(&set, &work, NULL), 0);
        assert_true(gk_tuning_blas_threshold_lowest() == builtin_lowest);
    }
    /* Through the public call, on a context of the real device. */
    gemmkit_context_device_info(test_ctx, &info);
    char line[512];
    int len = snprintf(line, sizeof line, "%s\t%s\tblas-threshold\tWORK=4096\t1\t2026-01-01\n", info.backend,
                       info.name);
    write_file(db_path, line, (size_t)len);
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    const char *source = NULL;
    assert_int_equal(gemmkit_context_blas_threshold(ctx, &work, &source), 1);
    assert_true(work == 4096.0);
    assert_string_equal(source, "tuning database");
    assert_string_equal(gemmkit_context_warnings(ctx), "");
    assert_true(gemmkit_blas_threshold_lowest() == 4096.0);
    gemmkit_context_destroy(ctx);
    assert_int_equal(gemmkit_context_blas_threshold(NULL, &work, NULL), 0);
    write_file(db_path, "", 0);
}

/* The whole file as a string (NULs and all are not expected here). */
static char *read_text(const char *path)
{
    char *text = NULL, why[256];
    size_t len = 0;
    assert_int_equal(gk_tuning_read_file(path, &text, &len, why, sizeof why), 0);
    return text;
}

static int count_of(const char *haystack, const char *needle)
{
    int n = 0;
    for (const char *p = haystack; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* Parameters the fast kernel cannot run with on any device of today (a
 * work-group or local memory far beyond every limit). */
static const char *unusable_params(const gk_kernel_def *def)
{
    /* xgemm's tiles; xgemm-direct has the same (a GPU's cost model may run it at 4096^3) */
    if (strcmp(def->name, "xgemm") == 0 || strcmp(def->name, "xgemm-direct") == 0)
        return "TSM=4096,TSN=4096,TSK=4096,WPTM=64,WPTN=64";
    assert_string_equal(def->name, "lecture-6-one-block-shared");
    return "TW=100000,TH=16,TK=16";
}

/* One unusable line must not send the dispatch to another (slow) kernel:
 * the same kernel runs with its registry defaults, and the context says why. */
static void test_unusable_line_keeps_the_kernel_with_defaults(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    const gk_kernel_def *fast = gk_sgemm_fast_kernel(test_ctx, 4096);
    assert_non_null(fast);
    /* What the kernel runs with when the user's file says nothing: the registry
     * defaults, or a built-in line for this device (the H200 has one). */
    write_file(db_path, "# a comment\n", 12);
    gemmkit_context *plain = NULL;
    assert_int_equal(gemmkit_context_create(&plain, NULL), GEMMKIT_SUCCESS);
    gk_config without_line;
    assert_int_equal(gk_context_resolve(plain, fast, NULL, &without_line), GEMMKIT_SUCCESS);
    const int builtin_line = gk_tuning_params(&plain->tuned, fast->name) != NULL;
    gemmkit_context_destroy(plain);

    char text[1024];
    int len = snprintf(text, sizeof text, "# a comment\n%s\t%s\t%s\t%s\t13.3\t2026-11-22\n", info.backend, info.name,
                       fast->name, unusable_params(fast));
    write_file(db_path, text, (size_t)len);

    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    /* Large enough that the dispatch takes the main line, not a GPU's "/small" one. Where the cost model chooses
     * (the GPUs' candidate rows), the kernel's main line stays among its candidates, as it was without the file;
     * elsewhere the dispatch runs it. */
    gk_sgemm_problem p = {.m = 4096, .n = 4096, .k = 4096, .alpha = 1.0f};
    p.a.ld = p.b.ld = p.c.ld = 4096;
    static gk_sgemm_candidate candidates[GK_SGEMM_MAX_CANDIDATES];
    const int count = gk_sgemm_candidates_for(ctx, &p, candidates, GK_SGEMM_MAX_CANDIDATES);
    int weighed = 0;
    for (int i = 0; i < count; i++)
        weighed |= candidates[i].splits == 1 && candidates[i].choice.def == fast &&
                   strcmp(candidates[i].line, fast->name) == 0 &&
                   strcmp(candidates[i].choice.config.options, without_line.options) == 0;
    if (count > 0) {
        assert_true(weighed);
    } else {
        gk_sgemm_choice choice = gk_sgemm_default_kernel(ctx, 4096, 4096, 4096);
        assert_ptr_equal(choice.def, fast);
        assert_null(choice.params);
    }
    gk_config used;
    assert_int_equal(gk_context_resolve(ctx, fast, NULL, &used), GEMMKIT_SUCCESS);
    assert_string_equal(used.options, without_line.options);
    char expected[512];
    snprintf(expected, sizeof expected, "gemmkit: tuning database %s:2: %s %s: ", db_path, fast->name,
             unusable_params(fast));
    const char *warnings = gemmkit_context_warnings(ctx);
    assert_non_null(strstr(warnings, expected));
    assert_non_null(strstr(warnings, builtin_line ? "; using the earlier line for this kernel\n"
                                                  : "; using the registry defaults\n"));
    assert_int_equal(count_of(warnings, "\n"), 1); /* once per context */
    gemmkit_context_destroy(ctx);
    gemmkit_options options = {0};
    assert_case_ok(&options, (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 256, 256, 256,
                                             1.0f, 0.0f, 0, 0, 0});
}

/* One parameter choice as a line of the H200's database: loaded, as the registry resolves it. */
static void small_line_loads(const char *params, const gk_config *config, void *data)
{
    (void)data;
    const gemmkit_device_info gpu = device(1);
    const gk_tuning_entry line = entry_for(&gpu, "batched-small", params);
    gk_tuned t;
    char why[256] = "";
    if (gk_tuning_check_entry(&line, &gpu, &t, why, sizeof why) != 0)
        print_error("batched-small %s refused: %s\n", params, why);
    assert_int_equal(gk_tuning_check_entry(&line, &gpu, &t, why, sizeof why), 0);
    assert_string_equal(t.config.options, config->options);
}

/* Every parameter choice of the tiny batched kernel that its constraints allow makes a line that a 48 KiB,
 * 1024-work-item GPU loads: its local memory (whole matrices) is checked at a size the kernel serves, not at
 * 1024^3, where no line of it would fit; a line its constraints refuse still warns. */
static void test_batched_small_lines_load(void **state)
{
    (void)state;
    const gemmkit_device_info gpu = device(1);
    const gk_kernel_def *def = gk_kernel_find("batched-small");
    assert_non_null(def);
    const int usable = test_each_choice(def, small_line_loads, NULL);
    assert_true(usable >= 40);
    const gk_tuning_entry wide = entry_for(&gpu, def->name, "ELEMS=4096,RM=1,RN=1"); /* 4096 work-items */
    gk_tuned t;
    char why[256] = "";
    assert_int_equal(gk_tuning_check_entry(&wide, &gpu, &t, why, sizeof why), -1);
    assert_non_null(strstr(why, "ELEMS / (RM * RN)"));
}

/* Loads the database at path and asserts a warning holds `what`. */
static void assert_load_warns(const char *path, const char *what)
{
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    setenv("GEMMKIT_TUNING_DB", path, 1);
    gk_tuning_set set;
    gk_tuning_load(&info, NULL, &set);
    setenv("GEMMKIT_TUNING_DB", db_path, 1);
    if (!strstr(set.warnings, what)) print_error("warnings \"%s\" lack \"%s\"\n", set.warnings, what);
    assert_non_null(strstr(set.warnings, what));
}

/* Files that are no database are named with the line (or the reason) instead of ignored without a word. */
static void test_malformed_databases_warn(void **state)
{
    (void)state;
    char expected[512];
    const char noise[] = "\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\t\x9c\xff\n\x03\x00\x3e\x00";
    write_file(db_path, noise, sizeof noise - 1);
    snprintf(expected, sizeof expected, "tuning database %s:1: a NUL byte: not a text file; ignoring it and 1 more",
             db_path);
    assert_load_warns(db_path, expected);

    const char spaces[] = "# written by hand\nopencl NVIDIA H200 xgemm TSM=64 100.0 2026-01-01\n";
    write_file(db_path, spaces, sizeof spaces - 1);
    snprintf(expected, sizeof expected, "tuning database %s:2: fields separated by spaces; the database separates "
             "them by tabs; ignoring the line\n", db_path);
    assert_load_warns(db_path, expected);

    const char bad_score[] = "opencl\tdev\txgemm\tTSM=64\tfast\t2026-01-01\n";
    write_file(db_path, bad_score, sizeof bad_score - 1);
    snprintf(expected, sizeof expected, "tuning database %s:1: score \"fast\" is not a number", db_path);
    assert_load_warns(db_path, expected);

    char dir[96];
    snprintf(dir, sizeof dir, "%s.d", db_path);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(expected, sizeof expected, "tuning database %s: is a directory; not using it\n", dir);
    assert_load_warns(dir, expected);
    rmdir(dir);

    /* Unreadable for a reason even root meets: a path through a regular file. */
    char beyond[96];
    snprintf(beyond, sizeof beyond, "%s/db.tsv", db_path);
    snprintf(expected, sizeof expected, "tuning database %s: Not a directory; not using it\n", beyond);
    assert_load_warns(beyond, expected);
}

/* A malformed line costs itself only: the lines after it still count. */
static void test_lines_after_a_bad_one_still_load(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    char text[1024];
    int len = snprintf(text, sizeof text, "opencl NVIDIA H200 xgemm TSM=64\n%s\t%s\tdirect\tTS=8,WPT=2\t1.0\t2026-01-01\n",
                       info.backend, info.name);
    write_file(db_path, text, (size_t)len);
    gk_tuning_set set;
    gk_tuning_load(&info, NULL, &set);
    assert_non_null(gk_tuning_params(&set, "direct"));
    assert_string_equal(gk_tuning_params(&set, "direct"), "TS=8,WPT=2");
    assert_non_null(strstr(set.warnings, ":1: fields separated by spaces"));
}

static void test_unreadable_database_warns(void **state)
{
    (void)state;
    if (geteuid() == 0) skip_because("root reads files whatever their mode");
    write_file(db_path, "# nothing\n", 10);
    assert_int_equal(chmod(db_path, 0), 0);
    char expected[512];
    snprintf(expected, sizeof expected, "tuning database %s: Permission denied; not using it\n", db_path);
    assert_load_warns(db_path, expected);
    chmod(db_path, 0644);
}

/* Before any `gemmkit tune` there is no file: that is normal, not a warning. */
static void test_missing_database_is_silent(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    assert_string_equal(gemmkit_context_warnings(ctx), "");
    gemmkit_context_destroy(ctx);
}

/* A file whose last line has no newline keeps that line, and so do comments and other devices' lines. */
static void test_save_keeps_every_other_line(void **state)
{
    (void)state;
    const char old[] = "# my notes\nopencl\tanother device\txgemm\tTSM=64\t1.0\t2026-01-01\nnot a database line\n"
                       "opencl\tanother device\tdirect\tTS=8\t2.0\t2026-01-02";
    write_file(db_path, old, sizeof old - 1);
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    gk_tuning_entry e = entry_for(&info, "direct", "TS=8,WPT=2");
    assert_int_equal(gk_tuning_save(db_path, &e), GEMMKIT_SUCCESS);
    char expected[1024];
    snprintf(expected, sizeof expected, "%s\n%s\t%s\tdirect\tTS=8,WPT=2\t123.4\t2026-11-22\n", old, info.backend,
             info.name);
    char *text = read_text(db_path);
    assert_string_equal(text, expected);
    free(text);
}

/* Saves by several processes at once each keep their entry (no lost update). */
static void test_concurrent_saves_keep_every_entry(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    enum { WRITERS = 3, SAVES = 30 };
    pid_t pids[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
        pids[w] = fork();
        assert_true(pids[w] >= 0);
        if (pids[w] == 0) {
            for (int i = 0; i < SAVES; i++) {
                char kernel[32];
                snprintf(kernel, sizeof kernel, "writer-%d-%d", w, i);
                gk_tuning_entry e = entry_for(&info, kernel, "A=1");
                if (gk_tuning_save(db_path, &e) != GEMMKIT_SUCCESS) _exit(1);
            }
            _exit(0);
        }
    }
    for (int w = 0; w < WRITERS; w++) {
        int status = 0;
        assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    char *text = read_text(db_path);
    for (int w = 0; w < WRITERS; w++) {
        for (int i = 0; i < SAVES; i++) {
            char line[64];
            snprintf(line, sizeof line, "\twriter-%d-%d\tA=1\t", w, i);
            if (!strstr(text, line)) print_error("lost \"%s\"\n", line + 1);
            assert_non_null(strstr(text, line));
        }
    }
    assert_int_equal(count_of(text, "\n"), 1 + WRITERS * SAVES);
    free(text);
}

/* No "<db>.tmp.*" file is left in the database's folder. */
static void assert_no_temporary_files(void)
{
    const char *dir = db_dir;
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ".tmp.")) print_error("left behind: %s/%s\n", dir, e->d_name);
    rewinddir(d);
    for (struct dirent *e; (e = readdir(d));) assert_null(strstr(e->d_name, ".tmp."));
    closedir(d);
}

/* Ctrl-C at any moment of a save leaves the old file or the new one, whole. */
static void test_interrupted_saves_leave_a_whole_file(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    const char mine[] = "# my notes\nopencl\tanother device\txgemm\tTSM=64\t1.0\t2026-01-01\n";
    write_file(db_path, mine, sizeof mine - 1);
    gk_tuning_entry e = entry_for(&info, "direct", "TS=8,WPT=1");
    assert_int_equal(gk_tuning_save(db_path, &e), GEMMKIT_SUCCESS);
    srand((unsigned)time(NULL));
    for (int round = 0; round < 40; round++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            for (int i = 0;; i++) {
                gk_tuning_entry next = entry_for(&info, "direct", i % 2 ? "TS=8,WPT=1" : "TS=16,WPT=2");
                gk_tuning_save(db_path, &next);
            }
        }
        struct timespec pause = {0, (200 + rand() % 3000) * 1000L};
        nanosleep(&pause, NULL);
        kill(pid, SIGINT);
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status));
        char *text = read_text(db_path);
        if (strncmp(text, mine, sizeof mine - 1) != 0 || count_of(text, "\tdirect\tTS=") != 1 ||
            count_of(text, "\n") != 3)
            print_error("round %d left:\n%s\n", round, text);
        assert_memory_equal(text, mine, sizeof mine - 1);
        assert_int_equal(count_of(text, "\tdirect\tTS="), 1);
        assert_int_equal(count_of(text, "\n"), 3);
        free(text);
        assert_no_temporary_files();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_replace_load),
        cmocka_unit_test(test_new_context_uses_tuned_parameters),
        cmocka_unit_test(test_small_problems_use_the_small_entry),
        cmocka_unit_test(test_unusable_line_keeps_the_kernel_with_defaults),
        cmocka_unit_test(test_lookup_levels),
        cmocka_unit_test(test_blas_threshold_lines),
        cmocka_unit_test(test_batched_small_lines_load),
        cmocka_unit_test(test_malformed_databases_warn),
        cmocka_unit_test(test_lines_after_a_bad_one_still_load),
        cmocka_unit_test(test_unreadable_database_warns),
        cmocka_unit_test(test_missing_database_is_silent),
        cmocka_unit_test(test_save_keeps_every_other_line),
        cmocka_unit_test(test_concurrent_saves_keep_every_entry),
        cmocka_unit_test(test_interrupted_saves_leave_a_whole_file),
    };
    return cmocka_run_group_tests(tests, make_db_path, remove_db);
}
