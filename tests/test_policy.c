/* The per-device policy as data (src/kernels/tuning/policy.tsv): the built-in
 * table is whole (every row parses, names a kernel that exists, and its
 * condition evaluates); it chooses exactly what the rules in code chose
 * before it (kept below as the reference) for every shape of a grid on a
 * GPU-like and a CPU-like device; and a broken table costs warnings and
 * rows, never a crash or a wrong-operation kernel. No device is needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "batched.h"
#include "policy.h"
#include "sgemm.h"
#include "transpose.h"
#include "tuning.h"
#include "test_fake_device.h"

/* ---- The rules as code had them before the policy table (commit 29b5d39's dispatch.c and routine_omatcopy.c). */

typedef struct old_choice {
    const gk_kernel_def *def;
    const char *params;
    gk_config config;
} old_choice;

static old_choice old_resolve(const gk_tuning_set *tuned, const gk_kernel_def *def, const char *params)
{
    old_choice c = {def, params, {0}};
    const char *text = params ? params : gk_tuning_params(tuned, def->name);
    if (!text || gk_config_resolve(def, text, &c.config) != GEMMKIT_SUCCESS)
        assert_int_equal(gk_config_resolve(def, NULL, &c.config), GEMMKIT_SUCCESS);
    return c;
}

static old_choice old_default_kernel(const gemmkit_device_info *info, const gk_tuning_set *tuned, int64_t m, int64_t n,
                                     int64_t k)
{
    old_choice direct = old_resolve(tuned, gk_kernel_find("direct"), NULL);
    /* Added after the old rules (issue 13): on GPUs an edge of C at most 16 (the other above 16) runs skinny-m or
     * skinny-n, and K at most 16 (both edges above 16) small-k, with their tuned or default parameters, whatever
     * their blocks would pad. */
    const char *in_place = !info->is_gpu ? NULL
                           : m <= 16 && n > 16 ? "skinny-m"
                           : n <= 16 && m > 16 ? "skinny-n"
                           : k <= 16 && m > 16 && n > 16 ? "small-k"
                                                          : NULL;
    if (in_place && k >= 4 * (m + n)) {
        /* Added later (issue 35, 2026-11-27): not where their own tiles give fewer work-groups than compute units
         * while K is long (K >= 4 (M + N)): split-K in place instead. */
        const old_choice own = old_resolve(tuned, gk_kernel_find(in_place), NULL);
        gk_geometry og;
        if (gk_config_geometry(&own.config, m, n, k, &og) == GEMMKIT_SUCCESS &&
            (m + og.tile_m - 1) / og.tile_m * ((n + og.tile_n - 1) / og.tile_n) < info->compute_units)
            in_place = NULL;
    }
    if (in_place) {
        /* Added later (issue 13, 2026-11-24): their "/strip" line, where the device has one, when their own tiles
         * give under two work-groups per compute unit. */
        old_choice skinny = old_resolve(tuned, gk_kernel_find(in_place), NULL);
        char strip_key[80];
        snprintf(strip_key, sizeof strip_key, "%s/strip", in_place);
        const char *strip = gk_tuning_params(tuned, strip_key);
        gk_geometry sg;
        gk_config strip_config;
        if (strip && gk_config_geometry(&skinny.config, m, n, k, &sg) == GEMMKIT_SUCCESS &&
            (m + sg.tile_m - 1) / sg.tile_m * ((n + sg.tile_n - 1) / sg.tile_n) < 2 * info->compute_units &&
            gk_config_resolve(skinny.def, strip, &strip_config) == GEMMKIT_SUCCESS) {
            skinny.params = strip;
            skinny.config = strip_config;
        }
        return skinny;
    }
    /* Added after the old rules (issue 13): on GPUs, below 2^33 multiply-adds or with an edge of C at most 32,
     * xgemm-direct (no packing). */
    const gk_kernel_def *fast_def = gk_kernel_find(info->is_gpu ? "xgemm" : "lecture-6-one-block-shared");
    if (info->is_gpu && ((double)m * (double)n * (double)k < 8589934592.0 || m <= 32 || n <= 32))
        fast_def = gk_kernel_find("xgemm-direct");
    old_choice fast = old_resolve(tuned, fast_def, NULL);
    gk_config config = fast.config;
    gk_geometry g;
    if (gk_config_geometry(&config, m, n, k, &g) != GEMMKIT_SUCCESS) return direct;
    /* Added after the old rules (issue 13, 2026-11-23): on GPUs a "KERNEL/long-k" line, where the device has one,
     * serves few tiles (by the kernel's own) and a long K, before the narrow and small rules. */
    char long_key[80];
    snprintf(long_key, sizeof long_key, "%s/long-k", fast_def->name);
    const char *long_k = gk_tuning_params(tuned, long_key);
    const int64_t own_groups = (m + g.tile_m - 1) / g.tile_m * ((n + g.tile_n - 1) / g.tile_n);
    if (info->is_gpu && long_k && own_groups * 2 <= info->compute_units && k >= 4 * (m + n) &&
        gk_config_resolve(fast_def, long_k, &config) == GEMMKIT_SUCCESS &&
        gk_config_geometry(&config, m, n, k, &g) == GEMMKIT_SUCCESS) {
        fast.params = long_k;
        fast.config = config;
        return fast;
    }
    /* Added after the old rules (issue 13): a "KERNEL/narrow-n" or "KERNEL/narrow-m" line, where the device
     * has one, serves results at most 32 columns or rows wide (and 8 times as long), before the "/small" rule. */
    const char *narrow = n <= 32 && m >= 8 * n ? "narrow-n" : m <= 32 && n >= 8 * m ? "narrow-m" : NULL;
    char small_key[80];
    snprintf(small_key, sizeof small_key, "%s/%s", fast_def->name, narrow ? narrow : "small");
    if (narrow && !gk_tuning_params(tuned, small_key)) {
        narrow = NULL;
        snprintf(small_key, sizeof small_key, "%s/small", fast_def->name);
    }
    const char *small = gk_tuning_params(tuned, small_key);
    const int64_t groups = (m + g.tile_m - 1) / g.tile_m * ((n + g.tile_n - 1) / g.tile_n);
    /* Added after the old rules (issue 13): also when the last wave of tiles is under three quarters full. */
    const int64_t cus = info->compute_units, waves = (groups + cus - 1) / cus;
    /* Added later (issue 13, 2026-11-24): a "KERNEL/tiny" line, where the device has one, when the kernel's own
     * tiles give at most a quarter as many work-groups as compute units (after the narrow rules, before /small). */
    char tiny_key[80];
    snprintf(tiny_key, sizeof tiny_key, "%s/tiny", fast_def->name);
    const char *tiny = narrow ? NULL : gk_tuning_params(tuned, tiny_key);
    if (info->is_gpu && tiny && groups * 4 <= cus && gk_config_resolve(fast_def, tiny, &config) == GEMMKIT_SUCCESS &&
        gk_config_geometry(&config, m, n, k, &g) == GEMMKIT_SUCCESS) {
        fast.params = tiny;
        fast.config = config;
    } else if (small && (narrow || groups < cus || groups * 4 < waves * cus * 3) && gk_config_resolve(fast_def, small, &config) == GEMMKIT_SUCCESS &&
        gk_config_geometry(&config, m, n, k, &g) == GEMMKIT_SUCCESS) {
        fast.params = small;
        fast.config = config;
    }
    const double work = (double)m * (double)n * (double)k;
    const double padded = (double)gk_round_up(m, g.tile_m) * (double)gk_round_up(n, g.tile_n) *
                          (double)gk_round_up(k, g.k_multiple);
    /* Since issue 13 only kernels on packed operands fall back. */
    const int packed = fast_def->contract != GK_CONTRACT_GEMM_DIRECT;
    if (packed && (work < 262144.0 || padded > 1.5 * work)) return direct;
    return fast;
}

/* ---- The split-K rows, added after those rules (a separate expectation): on GPUs, where the fast kernel's
 * tiles give GROUPS * 2 <= CUS and K >= 4 (M + N), its split-K build (xgemm-splitk, xgemm-direct-splitk) with
 * the same tiles and SPLITS = min(ceil(4 CUS / GROUPS), 128, K / 256, 2 K / max(M, N)) rounded down to a power
 * of two, at least 2 where K >= 512; and (mid sizes, narrow results) xgemm-direct's where GROUPS < 9 CUS and
 * K >= 768. */
static old_choice with_split(const gemmkit_device_info *info, old_choice c, int64_t m, int64_t n, int64_t k)
{
    gk_geometry g;
    const char *split_name = !strcmp(c.def->name, "xgemm") ? "xgemm-splitk"
                             : !strcmp(c.def->name, "xgemm-direct") ? "xgemm-direct-splitk"
                                                                   : NULL;
    if (!info->is_gpu || !split_name ||
        gk_config_geometry(&c.config, m, n, k, &g) != GEMMKIT_SUCCESS)
        return c;
    const int64_t groups = (m + g.tile_m - 1) / g.tile_m * ((n + g.tile_n - 1) / g.tile_n);
    int64_t splits = (4 * info->compute_units + groups - 1) / groups;
    splits = splits < 128 ? splits : 128;
    splits = splits < k / 256 ? splits : k / 256;
    splits = splits < 2 * k / (m > n ? m : n) ? splits : 2 * k / (m > n ? m : n);
    int64_t power = 1;
    while (power * 2 <= splits) power *= 2;
    splits = power < 2 && k >= 512 ? 2 : power;
    const int long_k = groups * 2 <= info->compute_units && k >= 4 * (m + n);
    const int mid = !strcmp(split_name, "xgemm-direct-splitk") && groups < 9 * info->compute_units && k >= 768;
    if (!(long_k || mid) || splits < 2) return c;
    char params[160]; /* the parameters the two kernels share: the tiles and the ring */
    snprintf(params, sizeof params, "TSM=%d,TSN=%d,TSK=%d,WPTM=%d,WPTN=%d,ASYNC_STAGES=%d,SPLITS=%d",
             gk_config_value(&c.config, "TSM", 0), gk_config_value(&c.config, "TSN", 0),
             gk_config_value(&c.config, "TSK", 0), gk_config_value(&c.config, "WPTM", 0),
             gk_config_value(&c.config, "WPTN", 0), gk_config_value(&c.config, "ASYNC_STAGES", 0), (int)splits);
    old_choice split = {gk_kernel_find(split_name), c.params, {0}};
    assert_int_equal(gk_config_resolve(split.def, params, &split.config), GEMMKIT_SUCCESS);
    return split;
}

static const char *old_omatcopy_kernel(const gemmkit_device_info *info, const gk_transpose_problem *p)
{
    if (!p->trans) return "copy-fast";
    if (!info->is_gpu) return "lecture-transpose-naive";
    const int64_t starts = (int64_t)p->a.offset | p->a.ld | (int64_t)p->b.offset | p->b.ld;
    return starts % 32 == 0 ? "transpose-fast" : "transpose-aligned";
}

/* ---- Devices. */

static char db_path[64];

static int setup(void **state)
{
    (void)state;
    snprintf(db_path, sizeof db_path, "/tmp/gemmkit-policy-%d.tsv", (int)getpid());
    setenv("GEMMKIT_TUNING_DB", db_path, 1);
    setenv("GEMMKIT_QUIET", "1", 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(db_path);
    return 0;
}

static void write_db(const char *text)
{
    FILE *f = fopen(db_path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* ---- The built-in table. */

static void test_builtin_policy_is_whole(void **state)
{
    (void)state;
    const char *text = gk_kernel_source("tuning/policy.tsv");
    assert_non_null(text);
    const gk_policy *policy = gk_policy_builtin();
    if (policy->warnings[0]) print_error("%s", policy->warnings);
    assert_string_equal(policy->warnings, "");
    /* Every row that is not a comment or blank became a rule. */
    int rows = 0;
    for (const char *p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
        const char *start = p + strspn(p, " \t");
        if (*start && *start != '\n' && *start != '#') rows++;
    }
    assert_int_equal(policy->count, rows);
    for (int i = 0; i < policy->count; i++) {
        const gk_policy_rule *r = &policy->rules[i];
        if (r->step == GK_STEP_VARIANT || r->step == GK_STEP_ROUTE || r->step == GK_STEP_COPY_A ||
            r->step == GK_STEP_COPY_B || r->step == GK_STEP_PEEL)
            continue; /* no kernel: a variant, a place, a copy, a multiple */
        if (strcmp(r->routine, "gemm_batched") == 0 && strcmp(r->choice, GK_POLICY_PER_MATRIX) == 0) {
            assert_null(r->kernel); /* one plain SGEMM plan per matrix */
            continue;
        }
        const gk_kernel_def *def = gk_kernel_find(r->choice);
        assert_non_null(def);
        assert_ptr_equal(r->kernel, def); /* found once, when the row was parsed */
        if (strcmp(r->routine, "gemm") == 0) assert_int_equal(gk_kernel_op(def), GK_OP_SGEMM);
        if (strcmp(r->routine, "gemm_batched") == 0) assert_int_equal(gk_kernel_op(def), GK_OP_SGEMM_BATCHED);
    }
    /* Each routine ends every device class with a rule that always holds. */
    for (int gpu = 0; gpu < 2; gpu++) {
        gemmkit_device_info info = device(gpu);
        gk_transpose_problem odd = {1, 7, 9, 1.0f, {NULL, 3, 11}, {NULL, 5, 13}};
        assert_non_null(gk_omatcopy_choose(policy, &info, &odd));
    }
}

static void assert_same_gemm(const gk_policy *policy, const gemmkit_device_info *info, const gk_tuning_set *tuned,
                             int64_t m, int64_t n, int64_t k)
{
    old_choice want = with_split(info, old_default_kernel(info, tuned, m, n, k), m, n, k);
    gk_sgemm_choice got = gk_sgemm_choose(policy, info, tuned, m, n, k);
    if (got.def != want.def || strcmp(got.config.options, want.config.options) != 0 ||
        (got.params == NULL) != (want.params == NULL))
        print_error("%s, %d CUs, %lld x %lld x %lld: policy %s (%s) against %s (%s)\n", info->name,
                    info->compute_units, (long long)m, (long long)n, (long long)k, got.def ? got.def->name : "-",
                    got.config.options, want.def->name, want.config.options);
    assert_ptr_equal(got.def, want.def);
    assert_string_equal(got.config.options, want.config.options);
    assert_memory_equal(got.config.values, want.config.values, sizeof got.config.values);
    if (want.params) assert_string_equal(got.params, want.params);
    else assert_null(got.params);
}

/* Sizes around every threshold: tiles (8 .. 128), 64^3 work, idle compute units. */
static const int64_t sizes[] = {1, 2, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 192, 255, 256, 257,
                                384, 511, 512, 513, 640, 1000, 1024, 1025, 1536, 2048, 2049, 4096, 8192};
#define SIZE_COUNT (int)(sizeof sizes / sizeof sizes[0])

static void assert_grid(const gemmkit_device_info *info, const gk_tuning_set *tuned)
{
    const gk_policy *policy = gk_policy_builtin();
    for (int i = 0; i < SIZE_COUNT; i++)
        for (int j = 0; j < SIZE_COUNT; j++)
            for (int l = 0; l < SIZE_COUNT; l++) assert_same_gemm(policy, info, tuned, sizes[i], sizes[j], sizes[l]);
}

/* The H200's built-in lines (main and /small), and a device with none. */
static void test_gemm_choice_unchanged_on_gpus(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    assert_non_null(gk_tuning_params(&tuned, "xgemm/small"));
    assert_grid(&info, &tuned);
    info.compute_units = 16; /* fewer units: the /small line serves fewer shapes */
    assert_grid(&info, &tuned);
    gemmkit_device_info untuned = info;
    snprintf(untuned.name, sizeof untuned.name, "another GPU");
    snprintf(untuned.vendor, sizeof untuned.vendor, "Another Vendor");
    gk_tuning_load(&untuned, NULL, &tuned);
    assert_int_equal(tuned.count, 0);
    assert_grid(&untuned, &tuned);
}

/* The tensor-core modes take the /small line only where the main tiles leave compute units idle (their /small
 * lines ran at ~0.6x the main line's rate on the H200), not for a short last wave as fp32 does. */
static void test_small_variant_in_tensor_modes(void **state)
{
    (void)state;
    gemmkit_device_info info = device(1);
    write_db("opencl\tNVIDIA H200\txgemm-3xtf32/small\tWARPS_M=2,WARPS_N=2,MI=2,NI=4,TSK=16,SPLIT=1\t1\t2026-01-01\n");
    gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    if (tuned.warnings[0]) print_error("%s", tuned.warnings);
    const char *small = gk_tuning_params(&tuned, "xgemm-3xtf32/small");
    assert_non_null(small);
    /* The main line's 256 x 64 tiles: 1024^3 64 work-groups (under 132 units), 1500^3 144 (a last wave of 12). */
    const gk_sgemm_choice few = gk_sgemm_choose_math(gk_policy_builtin(), &info, &tuned, 1024, 1024, 1024, GK_MATH_3XTF32);
    const gk_sgemm_choice short_wave =
        gk_sgemm_choose_math(gk_policy_builtin(), &info, &tuned, 1500, 1500, 1500, GK_MATH_3XTF32);
    assert_non_null(few.def);
    assert_string_equal(few.def->name, "xgemm-3xtf32");
    assert_non_null(few.params);
    assert_string_equal(few.params, small);
    assert_non_null(short_wave.def);
    /* the main tiles, over K-slices (policy.tsv's split row for under 1.5 tiles per unit) */
    assert_string_equal(short_wave.def->name, "xgemm-3xtf32-splitk");
    assert_true(short_wave.params == NULL || strcmp(short_wave.params, small) != 0);
    unlink(db_path);
}

/* The mma.sync kernels' "/trans-a" lines (policy.tsv's trans-a variant) for a call whose A is K-contiguous,
 * in the tensor-core modes from 2^30 multiply-adds: the built-in H200 lines, chosen by the call's orientation,
 * which the shape-only choice (an NN call) never takes. */
static void test_trans_a_variant(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    const char *const kernels[] = {"xgemm-3xtf32", "xgemm-tf32"};
    const gk_math maths[] = {GK_MATH_3XTF32, GK_MATH_TF32};
    for (int i = 0; i < 2; i++) {
        char variant[64];
        snprintf(variant, sizeof variant, "%s/trans-a", kernels[i]);
        const char *line = gk_tuning_params(&tuned, variant);
        assert_non_null(line);
        for (int trans_a = 0; trans_a < 2; trans_a++)
            for (int trans_b = 0; trans_b < 2; trans_b++)
                for (int64_t n = 512; n <= 4096; n *= 8) {
                    const gk_sgemm_problem p = {.trans_a = trans_a, .trans_b = trans_b, .m = n, .n = n, .k = n,
                                                .math = maths[i]};
                    const gk_sgemm_choice c = gk_sgemm_choose_for(gk_policy_builtin(), &info, &tuned, &p);
                    assert_non_null(c.def);
                    assert_string_equal(c.def->name, kernels[i]);
                    const int variant_expected = trans_a && n == 4096; /* 512^3 is under 2^30 */
                    assert_int_equal(c.params != NULL && strcmp(c.params, line) == 0, variant_expected);
                }
        /* The shape-only choice is an NN call's. */
        const gk_sgemm_choice nn = gk_sgemm_choose_math(gk_policy_builtin(), &info, &tuned, 4096, 4096, 4096, maths[i]);
        assert_true(nn.params == NULL || strcmp(nn.params, line) != 0);
    }
}

/* A CPU with no tuning, then with main and /small lines for its kernel. */
static void test_gemm_choice_unchanged_on_cpus(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info info = device(0);
    gk_tuning_set tuned;
    gk_tuning_load(&info, NULL, &tuned);
    assert_grid(&info, &tuned);
    write_db("opencl\tcpu-test-device\tlecture-6-one-block-shared\tTW=64,TH=8,TK=8\t1\t2026-01-01\n"
             "opencl\tcpu-test-device\tlecture-6-one-block-shared/small\tTW=16,TH=8,TK=16\t1\t2026-01-01\n");
    gk_tuning_load(&info, NULL, &tuned);
    if (tuned.warnings[0]) print_error("%s", tuned.warnings);
    assert_int_equal(tuned.count, 2);
    info.compute_units = 64;
    assert_grid(&info, &tuned);
}

static void test_omatcopy_choice_unchanged(void **state)
{
    (void)state;
    const gk_policy *policy = gk_policy_builtin();
    static const int64_t offsets[] = {0, 1, 4, 31, 32, 33, 64, 96, 100};
    static const int64_t lds[] = {1, 4, 31, 32, 33, 64, 100, 128, 1000, 1024};
    const int no = (int)(sizeof offsets / sizeof offsets[0]), nl = (int)(sizeof lds / sizeof lds[0]);
    for (int gpu = 0; gpu < 2; gpu++) {
        gemmkit_device_info info = device(gpu);
        for (int trans = 0; trans < 2; trans++)
            for (int oa = 0; oa < no; oa++)
                for (int la = 0; la < nl; la++)
                    for (int ob = 0; ob < no; ob++)
                        for (int lb = 0; lb < nl; lb++) {
                            gk_transpose_problem p = {trans, 1, 1, 1.0f, {NULL, (size_t)offsets[oa], lds[la]},
                                                      {NULL, (size_t)offsets[ob], lds[lb]}};
                            const char *got = gk_omatcopy_choose(policy, &info, &p)->name;
                            assert_string_equal(got, old_omatcopy_kernel(&info, &p));
                            assert_int_equal(gk_kernel_op(gk_kernel_find(got)), trans ? GK_OP_TRANSPOSE : GK_OP_COPY);
                        }
    }
}

/* ---- A broken table: warnings naming the line, the row left out, a safe choice. */

static void test_broken_policy_warns_and_falls_back(void **state)
{
    (void)state;
    gk_policy policy;
    gk_policy_parse("bad.tsv",
                    "# comment\n"
                    "gemm\tkernel\tgpu\tno-such-kernel\t1\n"
                    "gemm\tkernel\tgpu\txgemm\tM >\n"
                    "gemm\tkernel\tgpu\txgemm\tUNKNOWN_NAME > 3\n"
                    "gemm\tkernel\ttoaster\txgemm\t1\n"
                    "gemm\tsometimes\tgpu\txgemm\t1\n"
                    "blas3\tkernel\tgpu\txgemm\t1\n"
                    "omatcopy\tvariant\tgpu\tsmall\t1\n"
                    "gemm kernel gpu xgemm 1\n"
                    "gemm\tkernel\tgpu\tscale\t1\n"
                    "gemm\tkernel\tgpu\txgemm\t1 / (M - 512)\n"
                    "gemm\tpeel\tgpu\t1\t1\n"
                    "gemm\tpeel\tgpu\t128x\t1\n"
                    "gemm_batched\tpeel\tgpu\t128\t1\n",
                    &policy);
    static const char *const expected[] = {
        "bad.tsv:2: no kernel named \"no-such-kernel\"",  "bad.tsv:3: condition: expected a number",
        "bad.tsv:4: condition: unknown name 'UNKNOWN_NAME'", "bad.tsv:5: unknown device class \"toaster\"",
        "bad.tsv:6: unknown step \"sometimes\"",           "bad.tsv:7: unknown routine \"blas3\"",
        "bad.tsv:8: routine omatcopy has only kernel rows", "bad.tsv:9: 1 tab-separated field(s)",
        "bad.tsv:10: no kernel named \"scale\"",
        "bad.tsv:12: peel \"1\": want a multiple from 2", "bad.tsv:13: peel \"128x\": want a multiple from 2",
        "bad.tsv:14: routine gemm_batched has only kernel and variant rows",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        if (!strstr(policy.warnings, expected[i])) print_error("\"%s\" lacks \"%s\"\n", policy.warnings, expected[i]);
        assert_non_null(strstr(policy.warnings, expected[i]));
    }
    /* The one row that parses divides by zero at M = 512: there it does not hold. */
    assert_int_equal(policy.count, 1);
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned = {0};
    gk_sgemm_choice choice = gk_sgemm_choose(&policy, &info, &tuned, 512, 512, 512);
    assert_ptr_equal(choice.def, gk_kernel_find("direct"));
    assert_null(choice.params);
    gk_transpose_problem p = {1, 64, 64, 1.0f, {NULL, 0, 64}, {NULL, 0, 64}};
    assert_string_equal(gk_omatcopy_choose(&policy, &info, &p)->name, "lecture-transpose-naive");
    p.trans = 0;
    assert_string_equal(gk_omatcopy_choose(&policy, &info, &p)->name, "lecture-copy");
}

/* The shapes of issue 13 on the H200 (132 SMs, its built-in lines): split-K for the long-K ones with few tiles,
 * never for large squares or short K. */
/* Issue 13's skinny shapes on the H200: the narrow tiles of its built-in lines, not direct. */
static void test_narrow_variants(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    /* Their tiles over two K-slices (the mid-size split row). */
    gk_sgemm_choice wide = gk_sgemm_choose(gk_policy_builtin(), &info, &tuned, 16384, 32, 16384);
    assert_string_equal(wide.def->name, "xgemm-direct-splitk");
    assert_int_equal(gk_config_value(&wide.config, "TSN", 0), 32);
    assert_int_equal(gk_config_value(&wide.config, "SPLITS", 0), 2);
    gk_sgemm_choice tall = gk_sgemm_choose(gk_policy_builtin(), &info, &tuned, 32, 16384, 16384);
    assert_string_equal(tall.def->name, "xgemm-direct-splitk");
    assert_int_equal(gk_config_value(&tall.config, "TSM", 0), 32);
    assert_int_equal(gk_config_value(&tall.config, "SPLITS", 0), 2);
    /* 16 columns would still be padded to 32: twice the work, so the matrix-vector-like kernel. */
    assert_string_equal(gk_sgemm_choose(gk_policy_builtin(), &info, &tuned, 16384, 16, 16384).def->name, "skinny-n");
    /* Without such lines (a CPU, or another GPU), the rules as before. */
    gemmkit_device_info cpu = device(0);
    gk_tuning_load(&cpu, NULL, &tuned);
    assert_string_equal(gk_sgemm_choose(gk_policy_builtin(), &cpu, &tuned, 4096, 32, 4096).def->name,
                        "lecture-6-one-block-shared");
}

static void test_split_k_for_few_tiles_and_long_k(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    static const struct {
        int64_t m, n, k;
        const char *kernel;
        int splits;
    } cases[] = {
        {256, 256, 65536, "xgemm-direct-splitk", 32},  /* 16 tiles of xgemm-direct/small's 64 x 64: 4 x 132 / 16 -> 32 */
        {128, 128, 131072, "xgemm-direct-splitk", 128}, /* 4 tiles: 132 slices, capped */
        {256, 256, 131072, "xgemm-splitk", 32},        /* 2^33 multiply-adds: xgemm (packed), its split-K build */
        {256, 256, 1024, "xgemm-direct-splitk", 4}, /* K short against M + N, but 16 tiles: the mid-size row, K / 256 */
        {256, 256, 700, "xgemm-direct", 0},     /* K under 768: the tiles as they are */
        {999, 999, 999, "xgemm-direct-splitk", 2}, /* 256 tiles: 2 slices (the mid-size row) */
        {1500, 1500, 1500, "xgemm-direct-splitk", 2},
        {2049, 2049, 2049, "xgemm", 0},        /* above 2^33 multiply-adds: packed, no mid-size row */
        {32, 4096, 4096, "xgemm-direct-splitk", 2}, /* narrow: its own tiles, two slices */
        {16384, 32, 16384, "xgemm-direct-splitk", 2}, /* four would fit the units better: capped by 2 K / M */
        {64, 64, 512, "xgemm-direct-splitk", 2}, /* one tile, two slices of 256 */
        {4096, 4096, 4096, "xgemm", 0},
        {8192, 8192, 128, "xgemm", 0},          /* 4096 tiles */
        {1024, 1024, 65536, "xgemm", 0},        /* 256 tiles fill the SMs */
        {16, 16, 65536, "xgemm-direct-splitk", 128}, /* in place: no padding copies to fall back from */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gk_sgemm_choice got = gk_sgemm_choose(gk_policy_builtin(), &info, &tuned, cases[i].m, cases[i].n, cases[i].k);
        if (!got.def || strcmp(got.def->name, cases[i].kernel) != 0)
            print_error("%lld x %lld x %lld: %s, want %s\n", (long long)cases[i].m, (long long)cases[i].n,
                        (long long)cases[i].k, got.def ? got.def->name : "-", cases[i].kernel);
        assert_string_equal(got.def->name, cases[i].kernel);
        if (cases[i].splits) assert_int_equal(gk_config_value(&got.config, "SPLITS", -1), cases[i].splits);
    }
    /* CPUs: no split row, whatever the shape. */
    gemmkit_device_info cpu = device(0);
    gk_tuning_load(&cpu, NULL, &tuned);
    gk_sgemm_choice got = gk_sgemm_choose(gk_policy_builtin(), &cpu, &tuned, 256, 256, 65536);
    assert_string_equal(got.def->name, "lecture-6-one-block-shared");
    /* A split row naming a kernel that is not the strided build of the choice does not apply. */
    gk_policy policy;
    gk_policy_parse("split.tsv", "gemm\tkernel\tgpu\txgemm\t1\ngemm\tsplit\tgpu\tdirect\t1\n", &policy);
    assert_string_equal(policy.warnings, "");
    gk_tuning_load(&info, "sm_90", &tuned);
    got = gk_sgemm_choose(&policy, &info, &tuned, 256, 256, 65536);
    assert_string_equal(got.def->name, "xgemm");
}

/* Issue 13's 2x8192x8192 and 8192x8192x2 on GPUs: the kernels for a small edge and for a short K, in both
 * orientations and at the edges of their conditions; neighbours keep their kernels; CPUs keep theirs. */
static void test_small_edge_and_short_k_kernels(void **state)
{
    (void)state;
    unlink(db_path);
    static const struct {
        int64_t m, n, k;
        const char *kernel;
    } cases[] = {
        {2, 8192, 8192, "skinny-m"},   {8192, 2, 8192, "skinny-n"},   {8192, 8192, 2, "small-k"},
        {1, 4096, 4096, "skinny-m"},   {16, 16384, 16384, "skinny-m"}, {4096, 1, 4096, "skinny-n"},
        {1, 17, 1, "skinny-m"},        /* tiny, yet no padding to amortise: stays */
        {8192, 8192, 1, "small-k"},    {8192, 8192, 16, "small-k"},   {17, 17, 16, "small-k"},
        {2, 8192, 2, "skinny-m"},      /* a small edge wins over a short K */
        {16, 16, 65536, "xgemm-direct-splitk"}, /* both edges small: neither skinny kernel; split-K in place */
        {1, 29, 140727, "xgemm-direct-splitk"}, /* small C, long K: the skinny kernel's 2 work-groups, split-K instead */
        {134, 7, 648554, "xgemm-direct-splitk"},
        {17, 16384, 16384, "xgemm-direct-splitk"}, /* narrow-m's 32 rows in place (two K-slices): no fallback */
        {32, 16384, 16384, "xgemm-direct-splitk"}, /* the narrow tiles, two K-slices */
        {8192, 8192, 17, "xgemm-direct"},   {8192, 8192, 128, "xgemm"},    {4096, 4096, 4096, "xgemm"},
    };
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gk_sgemm_choice got = gk_sgemm_choose(gk_policy_builtin(), &info, &tuned, cases[i].m, cases[i].n, cases[i].k);
        if (!got.def || strcmp(got.def->name, cases[i].kernel) != 0)
            print_error("%lld x %lld x %lld: %s, want %s\n", (long long)cases[i].m, (long long)cases[i].n,
                        (long long)cases[i].k, got.def ? got.def->name : "-", cases[i].kernel);
        assert_string_equal(got.def->name, cases[i].kernel);
        gk_config defaults;
        if (strcmp(cases[i].kernel, "direct") != 0 && strncmp(cases[i].kernel, "xgemm", 5) != 0) {
            /* The registry's parameters, or (under two work-groups per compute unit) the "/strip" line. */
            char strip_key[80];
            snprintf(strip_key, sizeof strip_key, "%s/strip", cases[i].kernel);
            assert_int_equal(gk_config_resolve(got.def, got.params, &defaults), GEMMKIT_SUCCESS);
            assert_string_equal(got.config.options, defaults.options);
            if (got.params) assert_string_equal(got.params, gk_tuning_params(&tuned, strip_key));
        }
    }
    gemmkit_device_info cpu = device(0);
    gk_tuning_load(&cpu, NULL, &tuned);
    static const int64_t shapes[][3] = {{2, 8192, 8192}, {8192, 2, 8192}, {8192, 8192, 2}, {16, 1024, 1024}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const char *name = gk_sgemm_choose(gk_policy_builtin(), &cpu, &tuned, shapes[i][0], shapes[i][1], shapes[i][2]).def->name;
        assert_true(strcmp(name, "skinny-m") && strcmp(name, "skinny-n") && strcmp(name, "small-k"));
    }
}

/* Huge shapes neither overflow (the sanitizer build would stop) nor change the choice. */
static void test_huge_shapes_do_not_overflow(void **state)
{
    (void)state;
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned = {0};
    const int64_t big = INT32_MAX;
    gk_sgemm_choice choice = gk_sgemm_choose(gk_policy_builtin(), &info, &tuned, big, big, big);
    assert_ptr_equal(choice.def, gk_kernel_find("xgemm"));
    int64_t value = 0;
    char error[128];
    gk_variables vars = {0};
    gk_variables_set(&vars, "W", INT64_MAX / 2 + 1);
    assert_int_equal(gk_expr_eval("W * 2", &vars, &value, error, sizeof error), -1);
    assert_non_null(strstr(error, "integer overflow"));
    assert_int_equal(gk_expr_eval("W + W", &vars, &value, error, sizeof error), -1);
    assert_int_equal(gk_expr_eval("99999999999999999999", &vars, &value, error, sizeof error), -1);
    assert_int_equal(gk_expr_eval("W + W / 2", &vars, &value, error, sizeof error), 0);
}

/* tune's description of the fast kernel's scope comes from the fallback row's note. */
/* Host-array routes: the CPU BLAS on CPU devices, the tiler for large calls on GPUs. */
typedef struct route_case {
    int64_t m, n, k;
} route_case;

static int route_case_variables(const gk_policy_rule *rule, int64_t *values, void *data)
{
    (void)rule;
    const route_case *c = data;
    values[GK_GEMM_M] = c->m;
    values[GK_GEMM_N] = c->n;
    values[GK_GEMM_K] = c->k;
    values[GK_GEMM_WORK] = c->m * c->n * c->k;
    values[GK_GEMM_CUS] = 132;
    return 1;
}

static const char *route_of(int is_gpu, int64_t m, int64_t n, int64_t k)
{
    route_case c = {m, n, k};
    const gk_policy_rule *r = gk_policy_first(gk_policy_builtin(), GK_ROUTINE_GEMM, GK_STEP_ROUTE, is_gpu, route_case_variables, &c);
    return r ? r->choice : "device";
}

/* ---- Copy rows: an operand of a kernel that reads them as stored laid out again first. */

/* One question to the copy rows: the operands as stored, the arithmetic, the device class, the answer. */
typedef struct copy_case {
    int trans_a, trans_b;
    int64_t lda;
    size_t offset_b;
    int64_t ldb;
    gk_math math;
    int gpu, operand_b;
    gk_policy_copy expected;
} copy_case;

static void test_copy_rows(void **state)
{
    (void)state;
    gk_policy policy;
    gk_policy_parse("copies.tsv",
                    "gemm\tkernel\tgpu\txgemm-direct\t1\n"
                    "gemm\tcopy-a\tgpu\tk-major\t!TRANS_A && MATH == 0\n"
                    "gemm\tcopy-b\tgpu\tk-major\tTRANS_B && WORK >= 1000000\n"
                    "gemm\tcopy-b\tgpu\taligned\t!ALIGNED_B && !PACKED\n"
                    "gemm\tcopy-b\tany\tsideways\t1\n"
                    "gemm\tcopy-a\tgpu\txgemm\t1\n"
                    "gemm\tcopy-a\tcpu\taligned\tALIGNED_A\n",
                    &policy);
    assert_non_null(strstr(policy.warnings, "copies.tsv:5: unknown copy \"sideways\" (k-major, aligned)"));
    assert_non_null(strstr(policy.warnings, "copies.tsv:6: unknown copy \"xgemm\""));
    assert_int_equal(policy.count, 5);
    const gemmkit_device_info devices[2] = {device(0), device(1)};
    gk_config direct, packed;
    assert_int_equal(gk_config_resolve(gk_kernel_find("xgemm-direct"), NULL, &direct), GEMMKIT_SUCCESS);
    assert_int_equal(gk_config_resolve(gk_kernel_find("xgemm"), NULL, &packed), GEMMKIT_SUCCESS);
    static const copy_case cases[] = {
        /* A on GPUs: the first row, by its transpose and the call's arithmetic. */
        {0, 0, 1000, 0, 800, GK_MATH_FP32, 1, 0, GK_COPY_KMAJOR},
        {1, 0, 1000, 0, 800, GK_MATH_FP32, 1, 0, GK_COPY_NONE},
        {0, 0, 1000, 0, 800, GK_MATH_3XTF32, 1, 0, GK_COPY_NONE},
        /* B on GPUs: K-contiguous and aligned, nothing; N-contiguous, k-major; an odd ld or offset, aligned. */
        {0, 0, 1000, 0, 800, GK_MATH_FP32, 1, 1, GK_COPY_NONE},
        {0, 1, 1000, 0, 800, GK_MATH_FP32, 1, 1, GK_COPY_KMAJOR},
        {0, 0, 1000, 0, 801, GK_MATH_FP32, 1, 1, GK_COPY_ALIGNED},
        {0, 0, 1000, 2, 800, GK_MATH_FP32, 1, 1, GK_COPY_ALIGNED},
        /* CPUs: their one row reads ALIGNED_A. */
        {0, 0, 1000, 0, 800, GK_MATH_FP32, 0, 0, GK_COPY_ALIGNED},
        {0, 0, 1001, 0, 800, GK_MATH_FP32, 0, 0, GK_COPY_NONE},
        {0, 1, 1000, 0, 801, GK_MATH_FP32, 0, 1, GK_COPY_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const copy_case *c = &cases[i];
        const gk_sgemm_problem p = {.trans_a = c->trans_a, .trans_b = c->trans_b, .m = 1000, .n = 900, .k = 800,
                                    .a = {NULL, 0, c->lda}, .b = {NULL, c->offset_b, c->ldb}, .math = c->math};
        const gk_policy_copy got = gk_sgemm_copy_choose(&policy, &devices[c->gpu], &direct, &p, c->operand_b);
        if (got != c->expected) print_error("case %zu: copy %d, expected %d\n", i, (int)got, (int)c->expected);
        assert_int_equal(got, c->expected);
        /* A packed kernel's configuration: !PACKED fails, and this table's other rows would hold alike. */
        if (c->operand_b && c->trans_b == 0 && c->expected == GK_COPY_ALIGNED && c->gpu)
            assert_int_equal(gk_sgemm_copy_choose(&policy, &devices[1], &packed, &p, 1), GK_COPY_NONE);
    }
}

/* The built-in table's copies: in the tensor-core modes, from 2^30 multiply-adds on GPUs, an N-contiguous or
 * unaligned B K-major and an unaligned A aligned; from 2^36 an M-contiguous A K-major for a configuration that
 * reads A through a descriptor (A_DESC); fp32 calls, smaller products and CPUs as stored. */
static void test_builtin_copy_rows(void **state)
{
    (void)state;
    const gemmkit_device_info devices[2] = {device(0), device(1)};
    gk_config configs[2];
    assert_int_equal(gk_config_resolve(gk_kernel_find("xgemm-wgmma-3xtf32"), NULL, &configs[0]), GEMMKIT_SUCCESS);
    assert_int_equal(gk_config_resolve(gk_kernel_find("xgemm-wgmma-tf32"), "A_DESC=2", &configs[1]), GEMMKIT_SUCCESS);
    static const struct {
        int desc, trans_a, trans_b;
        int64_t n, lda, ldb;
        gk_math math;
        int gpu, operand_b;
        gk_policy_copy expected;
    } cases[] = {
        {0, 0, 1, 1024, 1024, 1024, GK_MATH_3XTF32, 1, 1, GK_COPY_KMAJOR},
        {0, 0, 0, 1024, 1024, 1024, GK_MATH_3XTF32, 1, 1, GK_COPY_NONE},
        {0, 0, 0, 1024, 1024, 1025, GK_MATH_TF32, 1, 1, GK_COPY_KMAJOR},
        {0, 0, 0, 1024, 1025, 1024, GK_MATH_TF32, 1, 0, GK_COPY_ALIGNED},
        {0, 0, 0, 1024, 1024, 1024, GK_MATH_TF32, 1, 0, GK_COPY_NONE},
        {0, 0, 1, 1024, 1025, 1024, GK_MATH_FP32, 1, 1, GK_COPY_NONE},
        {0, 0, 0, 1024, 1025, 1024, GK_MATH_FP32, 1, 0, GK_COPY_NONE},
        {0, 0, 1, 1023, 1023, 1023, GK_MATH_3XTF32, 1, 1, GK_COPY_NONE}, /* just under 2^30 */
        {0, 0, 1, 1024, 1024, 1024, GK_MATH_3XTF32, 0, 1, GK_COPY_NONE},
        /* A by descriptor: an M-contiguous A K-major from 4096^3; a K-contiguous one as stored, or aligned. */
        {1, 0, 0, 4096, 4096, 4096, GK_MATH_TF32, 1, 0, GK_COPY_KMAJOR},
        {1, 0, 0, 4095, 4095, 4095, GK_MATH_TF32, 1, 0, GK_COPY_ALIGNED},
        {1, 1, 0, 4096, 4096, 4096, GK_MATH_TF32, 1, 0, GK_COPY_NONE},
        {1, 1, 0, 4096, 4097, 4096, GK_MATH_TF32, 1, 0, GK_COPY_ALIGNED},
        {1, 0, 0, 2048, 2048, 2048, GK_MATH_TF32, 1, 0, GK_COPY_NONE},
        {0, 0, 0, 4096, 4096, 4096, GK_MATH_TF32, 1, 0, GK_COPY_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const gk_sgemm_problem p = {.trans_a = cases[i].trans_a, .trans_b = cases[i].trans_b, .m = cases[i].n,
                                    .n = cases[i].n, .k = cases[i].n, .a = {NULL, 0, cases[i].lda},
                                    .b = {NULL, 0, cases[i].ldb}, .math = cases[i].math};
        const gk_policy_copy got = gk_sgemm_copy_choose(gk_policy_builtin(), &devices[cases[i].gpu],
                                                        &configs[cases[i].desc], &p, cases[i].operand_b);
        if (got != cases[i].expected) print_error("case %zu: copy %d, expected %d\n", i, (int)got, (int)cases[i].expected);
        assert_int_equal(got, cases[i].expected);
    }
}

static void test_routes(void **state)
{
    (void)state;
    assert_string_equal(route_of(0, 64, 64, 64), "host-blas");
    assert_string_equal(route_of(0, 8192, 8192, 8192), "host-blas");
    assert_string_equal(route_of(1, 1024, 1024, 1024), "device");
    assert_string_equal(route_of(1, 2048, 2048, 2048), "tiled");
    assert_string_equal(route_of(1, 32768, 32768, 32768), "tiled");
}

static void test_scope_from_the_policy(void **state)
{
    (void)state;
    const char *scope = gk_sgemm_fast_kernel_scope();
    assert_non_null(strstr(scope, "64^3 multiply-adds"));
    assert_non_null(strstr(scope, "(which run direct)"));
}

/* Batched SGEMM (issue 16's table): tiny matrices several per work-group, medium ones on the strided
 * tiles, matrices that fill a GPU alone one plain plan each (GPUs only). */
static void test_batched_choice(void **state)
{
    (void)state;
    static const struct {
        int64_t n, batch;
        const char *gpu, *cpu; /* NULL: one plain SGEMM plan per matrix */
    } cases[] = {
        {8, 100000, "batched-small", "batched-small"},
        {16, 10000, "batched-small", "batched-small"},
        {32, 10000, "xgemm-direct-batched", "batched-small"},
        {64, 10000, "xgemm-direct-batched", "xgemm-direct-batched"},
        {128, 1000, "xgemm-direct-batched", "xgemm-direct-batched"},
        {512, 100, "xgemm-direct-batched", "xgemm-direct-batched"},
        {2048, 16, "xgemm-direct-batched", "xgemm-direct-batched"},
        {4096, 4, NULL, "xgemm-direct-batched"},
    };
    for (int gpu = 0; gpu < 2; gpu++) {
        gemmkit_device_info info = device(gpu);
        gk_tuning_set tuned = {0};
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            const int64_t n = cases[i].n;
            const gk_batched_choice c = gk_batched_choose(gk_policy_builtin(), &info, &tuned, n, n, n, cases[i].batch);
            const char *want = gpu ? cases[i].gpu : cases[i].cpu;
            if (!want) assert_null(c.def);
            else {
                assert_non_null(c.def);
                assert_string_equal(c.def->name, want);
            }
        }
        /* A tiny result but a long K: the tiles. */
        const gk_batched_choice c = gk_batched_choose(gk_policy_builtin(), &info, &tuned, 8, 8, 100000, 10);
        assert_string_equal(c.def->name, "xgemm-direct-batched");
        /* Up to K = 32 even the tiniest results fit batched-small in 48 KiB (fewer matrices a work-group). */
        static const int64_t tiny[][3] = {{2, 2, 32}, {1, 16, 32}, {16, 1, 32}, {16, 16, 32}};
        for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; i++) {
            const gk_batched_choice t =
                gk_batched_choose(gk_policy_builtin(), &info, &tuned, tiny[i][0], tiny[i][1], tiny[i][2], 100000);
            assert_non_null(t.def);
            assert_string_equal(t.def->name, "batched-small");
        }
    }
}

/* The H200's tuned lines: xgemm-direct-batched's variants by shape, its own line between them. */
static void test_batched_variants(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    static const struct {
        int64_t n, batch, tsm;
    } cases[] = {{32, 10000, 32}, {20, 100, 32}, {64, 10000, 64}, {512, 100, 64}, {1024, 64, 128}, {2048, 16, 128}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int64_t n = cases[i].n;
        const gk_batched_choice c = gk_batched_choose(gk_policy_builtin(), &info, &tuned, n, n, n, cases[i].batch);
        assert_string_equal(c.def->name, "xgemm-direct-batched");
        assert_int_equal(gk_config_value(&c.config, "TSM", 0), cases[i].tsm);
    }
    /* A 32-column result with a long M is no tiny matrix: the kernel's own line. */
    const gk_batched_choice c = gk_batched_choose(gk_policy_builtin(), &info, &tuned, 512, 32, 512, 100);
    assert_int_equal(gk_config_value(&c.config, "TSM", 0), 64);
    /* batched-small: whole columns (RM = 8) at 8 x 8, its own line (2 x 4) at 16 x 16 and 7 x 8. */
    static const struct {
        int64_t m, n, k, rm;
    } small[] = {{8, 8, 8, 8}, {8, 4, 32, 8}, {16, 16, 16, 2}, {7, 8, 8, 2}, {8, 16, 8, 2}};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        const gk_batched_choice b =
            gk_batched_choose(gk_policy_builtin(), &info, &tuned, small[i].m, small[i].n, small[i].k, 100000);
        assert_string_equal(b.def->name, "batched-small");
        assert_int_equal(gk_config_value(&b.config, "RM", 0), small[i].rm);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_policy_is_whole),
        cmocka_unit_test(test_gemm_choice_unchanged_on_gpus),
        cmocka_unit_test(test_gemm_choice_unchanged_on_cpus),
        cmocka_unit_test(test_omatcopy_choice_unchanged),
        cmocka_unit_test(test_broken_policy_warns_and_falls_back),
        cmocka_unit_test(test_narrow_variants),
        cmocka_unit_test(test_split_k_for_few_tiles_and_long_k),
        cmocka_unit_test(test_small_edge_and_short_k_kernels),
        cmocka_unit_test(test_huge_shapes_do_not_overflow),
        cmocka_unit_test(test_scope_from_the_policy),
        cmocka_unit_test(test_batched_choice),
        cmocka_unit_test(test_batched_variants),
        cmocka_unit_test(test_routes),
        cmocka_unit_test(test_copy_rows),
        cmocka_unit_test(test_builtin_copy_rows),
        cmocka_unit_test(test_small_variant_in_tensor_modes),
        cmocka_unit_test(test_trans_a_variant),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
