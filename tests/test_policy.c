/* The per-device policy as data (src/kernels/tuning/policy.tsv): the built-in
 * table is whole (every row parses, names a kernel that exists, and its
 * condition evaluates); on a CPU-like device it chooses exactly what the rules
 * in code chose before it (kept below as the reference) for every shape of a
 * grid; the tensor-core modes and the copy, route, omatcopy and batched rows
 * choose as measured; fp32 on GPUs is the cost model's (dispatch_model.c),
 * checked by its outcomes: the choice is the cheapest of the candidates by the
 * model's own numbers, the candidates are what the candidate rows allow, and
 * under a profile of constants set here each regime runs what those numbers
 * say (the built-in constants will be measured again, so no choice of today's
 * is pinned); the cost lines of the tuning database load or warn; and a broken
 * table costs warnings and rows, never a crash or a wrong-operation kernel. No
 * device is needed. */
#include <math.h>
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
#include "dispatch_model.h"
#include "policy.h"
#include "sgemm.h"
#include "transpose.h"
#include "tuning.h"
#include "test_fake_device.h"

/* ---- The rules as code had them before the policy table (commit 29b5d39's dispatch.c and routine_omatcopy.c), as
 * they still hold on CPUs (fp32 on GPUs is the cost model's: its checks are further down). */

typedef struct old_choice {
    const gk_kernel_def *def;
    const char *params;
    gk_config config;
} old_choice;

/* def with its tuned line's parameters, else its defaults. */
static old_choice old_resolve(const gk_tuning_set *tuned, const gk_kernel_def *def)
{
    old_choice c = {def, NULL, {0}};
    const char *text = gk_tuning_params(tuned, def->name);
    if (!text || gk_config_resolve(def, text, &c.config) != GEMMKIT_SUCCESS)
        assert_int_equal(gk_config_resolve(def, NULL, &c.config), GEMMKIT_SUCCESS);
    return c;
}

/* The device's "KERNEL/VARIANT" line's parameters, or NULL. */
static const char *variant_line(const gk_tuning_set *tuned, const gk_kernel_def *def, const char *variant)
{
    char key[80];
    snprintf(key, sizeof key, "%s/%s", def->name, variant);
    return gk_tuning_params(tuned, key);
}

/* The CPU class: the lecture kernel; then, where the device has the line, its "/long-k" tiles for few tiles (by
 * its own) and a long K, its "/narrow-n" or "/narrow-m" tiles for a result at most 32 wide and 8 times as long, or
 * its "/small" tiles when its own leave compute units idle or the last wave under three quarters full (the
 * variant rows of class "any", added after the old rules, issue 13); then direct instead where the kernel packs
 * small (under 64^3 multiply-adds) or much-padded (by over half the work) problems. */
static old_choice old_default_kernel(const gemmkit_device_info *info, const gk_tuning_set *tuned, int64_t m, int64_t n,
                                     int64_t k)
{
    assert_false(info->is_gpu);
    old_choice direct = old_resolve(tuned, gk_kernel_find("direct"));
    const gk_kernel_def *fast_def = gk_kernel_find("lecture-6-one-block-shared");
    old_choice fast = old_resolve(tuned, fast_def);
    gk_geometry g;
    if (gk_config_geometry(&fast.config, m, n, k, &g) != GEMMKIT_SUCCESS) return direct;
    const int64_t cus = info->compute_units;
    const int64_t groups = (m + g.tile_m - 1) / g.tile_m * ((n + g.tile_n - 1) / g.tile_n);
    const int64_t waves = (groups + cus - 1) / cus;
    const char *variant = NULL;
    if (groups * 2 <= cus && k >= 4 * (m + n) && variant_line(tuned, fast_def, "long-k")) variant = "long-k";
    else if (n <= 32 && m >= 8 * n && variant_line(tuned, fast_def, "narrow-n")) variant = "narrow-n";
    else if (m <= 32 && n >= 8 * m && variant_line(tuned, fast_def, "narrow-m")) variant = "narrow-m";
    else if ((groups < cus || groups * 4 < waves * cus * 3) && variant_line(tuned, fast_def, "small"))
        variant = "small";
    gk_config config;
    if (variant && gk_config_resolve(fast_def, variant_line(tuned, fast_def, variant), &config) == GEMMKIT_SUCCESS &&
        gk_config_geometry(&config, m, n, k, &g) == GEMMKIT_SUCCESS) {
        fast.params = variant_line(tuned, fast_def, variant);
        fast.config = config;
    } else {
        assert_int_equal(gk_config_geometry(&fast.config, m, n, k, &g), GEMMKIT_SUCCESS); /* its own tiles again */
    }
    const double work = (double)m * (double)n * (double)k;
    const double padded = (double)gk_round_up(m, g.tile_m) * (double)gk_round_up(n, g.tile_n) *
                          (double)gk_round_up(k, g.k_multiple);
    if (work < 262144.0 || padded > 1.5 * work) return direct; /* the lecture kernel packs its operands */
    return fast;
}

static const char *old_omatcopy_kernel(const gemmkit_device_info *info, const gk_transpose_problem *p)
{
    if (!p->trans) return "copy-fast";
    if (!info->is_gpu) return "lecture-transpose-naive";
    /* B's columns on 32-byte sectors (policy.tsv; the rule was every column of A and B on 128-byte lines), and on the
     * CUDA backend at any alignment up to 2^24 elements (its build of transpose-aligned is the slower there). */
    const int64_t starts = (int64_t)p->b.offset | p->b.ld;
    const int cuda_small = !strcmp(info->backend, "cuda") && p->rows * p->cols <= 16777216;
    return starts % 8 == 0 || cuda_small ? "transpose-fast" : "transpose-aligned";
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
        if (r->step == GK_STEP_VARIANT || r->step == GK_STEP_SCOPE || r->step == GK_STEP_ROUTE ||
            r->step == GK_STEP_COPY_A || r->step == GK_STEP_COPY_B || r->step == GK_STEP_PEEL ||
            r->step == GK_STEP_MATH)
            continue; /* no kernel: a variant or its scope, a place, a copy, a multiple, a mode */
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
    old_choice want = old_default_kernel(info, tuned, m, n, k);
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

/* A CPU with no tuning, then with main and /small lines for its kernel, then with every variant line of class
 * "any" (long-k, narrow-n, narrow-m: the first whose condition holds wins, before /small). */
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
    write_db("opencl\tcpu-test-device\tlecture-6-one-block-shared\tTW=64,TH=8,TK=8\t1\t2026-01-01\n"
             "opencl\tcpu-test-device\tlecture-6-one-block-shared/small\tTW=16,TH=8,TK=16\t1\t2026-01-01\n"
             "opencl\tcpu-test-device\tlecture-6-one-block-shared/long-k\tTW=32,TH=4,TK=16\t1\t2026-01-01\n"
             "opencl\tcpu-test-device\tlecture-6-one-block-shared/narrow-n\tTW=32,TH=8,TK=8\t1\t2026-01-01\n"
             "opencl\tcpu-test-device\tlecture-6-one-block-shared/narrow-m\tTW=16,TH=4,TK=8\t1\t2026-01-01\n");
    gk_tuning_load(&info, NULL, &tuned);
    if (tuned.warnings[0]) print_error("%s", tuned.warnings);
    assert_int_equal(tuned.count, 5);
    assert_grid(&info, &tuned);
    info.compute_units = 2;
    assert_grid(&info, &tuned);
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

/* The built-in lines of a described H200 (no database of the test's), GEMMKIT_OZAKI_MODULI unset. */
static void load_builtin_lines(gemmkit_device_info *gpu, gk_tuning_set *tuned)
{
    unlink(db_path);
    gk_tuning_load(gpu, "sm_90", tuned);
    unsetenv("GEMMKIT_OZAKI_MODULI");
}

/* The built-in math row: int8x served by 3xTF32 where the Ozaki scheme's slicing and recombination outweigh its
 * products (short K, a thin edge), the scheme itself on large squares; the scheme wherever GEMMKIT_OZAKI_MODULI
 * pins it, and on CPUs, which have no TF32 kernel. */
static void test_int8x_served_by_3xtf32_where_faster(void **state)
{
    (void)state;
    gemmkit_device_info gpu = device(1), cpu = device(0);
    gk_tuning_set tuned;
    load_builtin_lines(&gpu, &tuned);
    static const int64_t served[][3] = {{36346, 9024, 50}, {2048, 2048, 2048}, {609, 32000, 8192}, {8192, 700, 8192}};
    for (size_t i = 0; i < sizeof served / sizeof served[0]; i++) {
        const gk_sgemm_choice c =
            gk_sgemm_choose_math(gk_policy_builtin(), &gpu, &tuned, served[i][0], served[i][1], served[i][2], GK_MATH_INT8X);
        assert_non_null(c.def);
        assert_int_equal(c.def->math, GK_MATH_3XTF32);
    }
    const gk_sgemm_choice scheme =
        gk_sgemm_choose_math(gk_policy_builtin(), &gpu, &tuned, 8192, 8192, 8192, GK_MATH_INT8X);
    assert_non_null(scheme.def);
    assert_int_equal(scheme.def->math, GK_MATH_INT8X);
    const gk_sgemm_choice on_cpu = gk_sgemm_choose_math(gk_policy_builtin(), &cpu, &tuned, 36346, 9024, 50, GK_MATH_INT8X);
    assert_non_null(on_cpu.def);
    assert_int_equal(on_cpu.def->math, GK_MATH_INT8X);
    setenv("GEMMKIT_OZAKI_MODULI", "9", 1);
    const gk_sgemm_choice pinned = gk_sgemm_choose_math(gk_policy_builtin(), &gpu, &tuned, 36346, 9024, 50, GK_MATH_INT8X);
    unsetenv("GEMMKIT_OZAKI_MODULI");
    assert_non_null(pinned.def);
    assert_int_equal(pinned.def->math, GK_MATH_INT8X);
    /* fp32 and 3xTF32 calls meet no math row. */
    assert_int_equal(gk_sgemm_choose_math(gk_policy_builtin(), &gpu, &tuned, 36346, 9024, 50, GK_MATH_FP32).def->math,
                     GK_MATH_FP32);
    assert_int_equal(gk_sgemm_choose_math(gk_policy_builtin(), &gpu, &tuned, 8192, 8192, 8192, GK_MATH_3XTF32).def->math,
                     GK_MATH_3XTF32);
}

/* The built-in math row for a short K: int8x and 3xTF32 served by fp32 kernels up to K = 48 on GPUs (writing C bounds
 * the product there), their own or 3xTF32's above it; TF32 keeps its mode; a pinned int8x call and CPUs keep theirs. */
static void test_short_k_served_by_fp32(void **state)
{
    (void)state;
    gemmkit_device_info gpu = device(1), cpu = device(0);
    gk_tuning_set tuned;
    load_builtin_lines(&gpu, &tuned);
    static const gk_math fp32_accurate[] = {GK_MATH_INT8X, GK_MATH_3XTF32};
    for (size_t i = 0; i < 2; i++) {
        const gk_sgemm_choice short_k =
            gk_sgemm_choose_math(gk_policy_builtin(), &gpu, &tuned, 24026, 16857, 48, fp32_accurate[i]);
        const gk_sgemm_choice longer =
            gk_sgemm_choose_math(gk_policy_builtin(), &gpu, &tuned, 24026, 16857, 49, fp32_accurate[i]);
        assert_non_null(short_k.def);
        assert_int_equal(short_k.def->math, GK_MATH_FP32);
        assert_non_null(longer.def);
        assert_int_equal(longer.def->math, GK_MATH_3XTF32);
    }
    assert_int_equal(gk_sgemm_choose_math(gk_policy_builtin(), &gpu, &tuned, 24026, 16857, 16, GK_MATH_TF32).def->math,
                     GK_MATH_TF32);
    assert_int_equal(gk_sgemm_choose_math(gk_policy_builtin(), &cpu, &tuned, 24026, 16857, 16, GK_MATH_INT8X).def->math,
                     GK_MATH_INT8X);
    setenv("GEMMKIT_OZAKI_MODULI", "auto", 1);
    const gk_sgemm_choice pinned = gk_sgemm_choose_math(gk_policy_builtin(), &gpu, &tuned, 24026, 16857, 16, GK_MATH_INT8X);
    unsetenv("GEMMKIT_OZAKI_MODULI");
    assert_non_null(pinned.def);
    assert_int_equal(pinned.def->math, GK_MATH_INT8X);
}

/* A math row whose mode has no kernel for the device leaves the call in its own mode. */
static void test_math_row_without_kernels_keeps_the_mode(void **state)
{
    (void)state;
    gk_policy policy;
    gk_policy_parse("math.tsv",
                    "gemm\tmath\tgpu\ttf32\tMATH == 3\n"
                    "gemm\tkernel\tany\tozaki-igemm\t1\n"
                    "gemm\tkernel\tgpu\txgemm\t1\n",
                    &policy);
    assert_string_equal(policy.warnings, "");
    gemmkit_device_info gpu = device(1);
    gk_tuning_set tuned = {0};
    const gk_sgemm_choice c = gk_sgemm_choose_math(&policy, &gpu, &tuned, 256, 256, 256, GK_MATH_INT8X);
    assert_non_null(c.def);
    assert_string_equal(c.def->name, "ozaki-igemm");
    gk_policy_parse("math.tsv", "gemm\tmath\tgpu\tfp32\tMATH == 3 && K < 100\n"
                                "gemm\tkernel\tany\tozaki-igemm\t1\n"
                                "gemm\tkernel\tgpu\txgemm\t1\n",
                    &policy);
    assert_string_equal(gk_sgemm_choose_math(&policy, &gpu, &tuned, 256, 256, 64, GK_MATH_INT8X).def->name, "xgemm");
    assert_string_equal(gk_sgemm_choose_math(&policy, &gpu, &tuned, 256, 256, 128, GK_MATH_INT8X).def->name,
                        "ozaki-igemm");
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


static void test_omatcopy_choice_unchanged(void **state)
{
    (void)state;
    const gk_policy *policy = gk_policy_builtin();
    static const int64_t offsets[] = {0, 1, 4, 31, 32, 33, 64, 96, 100};
    static const int64_t lds[] = {1, 4, 31, 32, 33, 64, 100, 128, 1000, 1024};
    const int no = (int)(sizeof offsets / sizeof offsets[0]), nl = (int)(sizeof lds / sizeof lds[0]);
    /* One element, and either side of CUDA's bound of 2^24 elements. */
    static const int64_t sizes[][2] = {{1, 1}, {4096, 4096}, {4097, 4096}};
    for (int kind = 0; kind < 3; kind++) { /* a CPU, a GPU through OpenCL, the same GPU through CUDA */
        gemmkit_device_info info = device(kind > 0);
        if (kind == 2) snprintf(info.backend, sizeof info.backend, "cuda");
        for (int trans = 0; trans < 2; trans++)
            for (int oa = 0; oa < no; oa++)
                for (int la = 0; la < nl; la++)
                    for (int ob = 0; ob < no; ob++)
                        for (int lb = 0; lb < nl * 3; lb++) {
                            const int64_t *size = sizes[lb / nl];
                            gk_transpose_problem p = {trans, size[0], size[1], 1.0f,
                                                      {NULL, (size_t)offsets[oa], lds[la]},
                                                      {NULL, (size_t)offsets[ob], lds[lb % nl]}};
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
                    "gemm_batched\tpeel\tgpu\t128\t1\n"
                    "gemm\tmath\tgpu\tfp64\t1\n",
                    &policy);
    static const char *const expected[] = {
        "bad.tsv:2: no kernel named \"no-such-kernel\"",  "bad.tsv:3: condition: expected a number",
        "bad.tsv:4: condition: unknown name 'UNKNOWN_NAME'", "bad.tsv:5: unknown device class \"toaster\"",
        "bad.tsv:6: unknown step \"sometimes\"",           "bad.tsv:7: unknown routine \"blas3\"",
        "bad.tsv:8: routine omatcopy has only kernel rows", "bad.tsv:9: 1 tab-separated field(s)",
        "bad.tsv:10: no kernel named \"scale\"",
        "bad.tsv:12: peel \"1\": want a multiple from 2", "bad.tsv:13: peel \"128x\": want a multiple from 2",
        "bad.tsv:14: routine gemm_batched has only kernel and variant rows",
        "bad.tsv:15: math \"fp64\": want a math mode's name",
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

/* The shapes that have kernels or split counts of their own on GPUs (issue 13's narrow, skinny, short-K and
 * long-K ones): CPUs keep the lecture kernel (no skinny, small-k or split-K kernel, no narrow tiles without such
 * lines). */
static void test_cpus_keep_their_kernel_at_gpu_shapes(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info cpu = device(0);
    gk_tuning_set tuned;
    gk_tuning_load(&cpu, NULL, &tuned);
    static const int64_t shapes[][3] = {{2, 8192, 8192},   {8192, 2, 8192},   {8192, 8192, 2},    {16, 1024, 1024},
                                        {4096, 32, 4096},  {32, 4096, 4096},  {256, 256, 65536}, {16, 16, 65536},
                                        {16384, 16, 16384}, {1, 29, 140727}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const gk_sgemm_choice c = gk_sgemm_choose(gk_policy_builtin(), &cpu, &tuned, shapes[i][0], shapes[i][1],
                                                  shapes[i][2]);
        assert_non_null(c.def);
        if (strcmp(c.def->name, "lecture-6-one-block-shared") != 0 && strcmp(c.def->name, "direct") != 0)
            fail_msg("cpu, %lld x %lld x %lld: %s", (long long)shapes[i][0], (long long)shapes[i][1],
                     (long long)shapes[i][2], c.def->name);
        assert_false(gk_kernel_slices_k(c.def));
    }
    /* The CPU class has no candidate rows: the step rows choose, with no candidate listed. */
    const gk_sgemm_problem p = {.m = 256, .n = 256, .k = 65536, .alpha = 1.0f};
    gk_sgemm_candidate list[4];
    assert_int_equal(gk_sgemm_candidates(gk_policy_builtin(), &cpu, &tuned, &p, list, 4), 0);
}

/* A table of step rows alone (no candidate rows: the model does not choose): a split row naming a kernel that is
 * not the strided build of the choice does not apply. */
static void test_split_row_needs_the_choices_build(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned;
    gk_policy policy;
    gk_policy_parse("split.tsv", "gemm\tkernel\tgpu\txgemm\t1\ngemm\tsplit\tgpu\tdirect\t1\n", &policy);
    assert_string_equal(policy.warnings, "");
    gk_tuning_load(&info, "sm_90", &tuned);
    const gk_sgemm_choice got = gk_sgemm_choose(&policy, &info, &tuned, 256, 256, 65536);
    assert_string_equal(got.def->name, "xgemm");
    const gk_sgemm_problem p = {.m = 256, .n = 256, .k = 65536, .alpha = 1.0f};
    gk_sgemm_candidate list[4];
    assert_int_equal(gk_sgemm_candidates(&policy, &info, &tuned, &p, list, 4), 0);
}

/* A copy row's copies are part of the candidates it applies to (plan_copies makes them): the kernel is predicted as
 * it then reads the operands (4096^3 TN copied "outer": as NT), plus each copy's bytes read and written at the copy
 * bandwidth and its launch; the same line without the rows predicts the stored orientation, with no copy. */
static void test_copy_rows_are_costed(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    gk_policy plain, copying;
    gk_policy_parse("plain.tsv", "gemm\tcandidate\tgpu\txgemm-direct\t1\n", &plain);
    gk_policy_parse("copying.tsv",
                    "gemm\tcandidate\tgpu\txgemm-direct\t1\n"
                    "gemm\tcopy-a\tgpu\touter\tTRANS_A && WORK >= 1000000000\n"
                    "gemm\tcopy-b\tgpu\touter\t!TRANS_B && WORK >= 1000000000\n",
                    &copying);
    assert_string_equal(plain.warnings, "");
    assert_string_equal(copying.warnings, "");
    const int64_t n = 4096;
    const gk_sgemm_problem tn = {.trans_a = 1, .m = n, .n = n, .k = n, .alpha = 1.0f, .a.ld = n, .b.ld = n, .c.ld = n};
    const gk_sgemm_problem nt = {.trans_b = 1, .m = n, .n = n, .k = n, .alpha = 1.0f, .a.ld = n, .b.ld = n, .c.ld = n};
    gk_sgemm_candidate copied[GK_SGEMM_MAX_CANDIDATES], as_nt[GK_SGEMM_MAX_CANDIDATES],
        as_tn[GK_SGEMM_MAX_CANDIDATES];
    const int count = gk_sgemm_candidates(&copying, &info, &tuned, &tn, copied, GK_SGEMM_MAX_CANDIDATES);
    assert_int_equal(gk_sgemm_candidates(&plain, &info, &tuned, &nt, as_nt, GK_SGEMM_MAX_CANDIDATES), count);
    assert_int_equal(gk_sgemm_candidates(&plain, &info, &tuned, &tn, as_tn, GK_SGEMM_MAX_CANDIDATES), count);
    const double copy_ms = gk_cost_copy_ms(&tuned.cost, 2 * 8.0 * n * n, 2);
    int unsplit = 0;
    for (int i = 0; i < count; i++) {
        if (copied[i].splits != 1) continue;
        const gk_sgemm_candidate *nt_line = NULL, *tn_line = NULL;
        for (int j = 0; j < count; j++) {
            if (as_nt[j].splits == 1 && !strcmp(as_nt[j].line, copied[i].line)) nt_line = &as_nt[j];
            if (as_tn[j].splits == 1 && !strcmp(as_tn[j].line, copied[i].line)) tn_line = &as_tn[j];
        }
        assert_non_null(nt_line);
        assert_non_null(tn_line);
        assert_true(fabs(copied[i].parts.kernel_ms - nt_line->parts.kernel_ms) <= 1e-9);
        assert_true(fabs(copied[i].predicted_ms - (nt_line->predicted_ms + copy_ms)) <= 1e-9);
        assert_int_equal(copied[i].parts.launches, nt_line->parts.launches + 2);
        assert_true(tn_line->parts.copies_ms == 0.0);
        unsplit++;
    }
    assert_true(unsplit > 0);
    /* Under the rows' size nothing is copied: the stored orientation's prediction. */
    const gk_sgemm_problem small = {.trans_a = 1, .m = 512, .n = 512, .k = 512, .alpha = 1.0f, .a.ld = 512,
                                    .b.ld = 512, .c.ld = 512};
    gk_sgemm_candidate a[GK_SGEMM_MAX_CANDIDATES], b[GK_SGEMM_MAX_CANDIDATES];
    const int small_count = gk_sgemm_candidates(&copying, &info, &tuned, &small, a, GK_SGEMM_MAX_CANDIDATES);
    assert_int_equal(gk_sgemm_candidates(&plain, &info, &tuned, &small, b, GK_SGEMM_MAX_CANDIDATES), small_count);
    for (int i = 0; i < small_count; i++) assert_true(a[i].predicted_ms == b[i].predicted_ms);
}

/* Huge shapes neither overflow (the sanitizer build would stop) nor get a kernel on packed operands, whose padded
 * copies would pass the 32-bit indices (routine_gemm.c's packed_fits). */
static void test_huge_shapes_do_not_overflow(void **state)
{
    (void)state;
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned = {0};
    const int64_t big = INT32_MAX;
    gk_sgemm_choice choice = gk_sgemm_choose(gk_policy_builtin(), &info, &tuned, big, big, big);
    assert_non_null(choice.def);
    assert_false(gk_kernel_packs_operands(choice.def));
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

/* Empty dimensions reach the choice too (the plan chooses before it sees that only C is scaled, or nothing runs):
 * the model chooses for them on a GPU without dividing by an empty K or N. */
static void test_empty_dimensions_choose(void **state)
{
    (void)state;
    gemmkit_device_info info = device(1);
    gk_tuning_set tuned = {0};
    static const int64_t shapes[][3] = {{64, 64, 0}, {0, 64, 64}, {64, 0, 64}, {0, 0, 0}, {1, 1, 0}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const gk_sgemm_choice choice =
            gk_sgemm_choose(gk_policy_builtin(), &info, &tuned, shapes[i][0], shapes[i][1], shapes[i][2]);
        assert_non_null(choice.def);
    }
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
                    "gemm\tcopy-a\tgpu\touter\tTRANS_A && MATH == 0\n"
                    "gemm\tcopy-b\tgpu\tk-major\tTRANS_B && WORK >= 1000000\n"
                    "gemm\tcopy-b\tgpu\taligned\t!ALIGNED_B && !PACKED\n"
                    "gemm\tcopy-b\tany\tsideways\t1\n"
                    "gemm\tcopy-a\tgpu\txgemm\t1\n"
                    "gemm\tcopy-a\tcpu\taligned\tALIGNED_A\n",
                    &policy);
    assert_non_null(strstr(policy.warnings, "copies.tsv:6: unknown copy \"sideways\" (k-major, aligned, outer)"));
    assert_non_null(strstr(policy.warnings, "copies.tsv:7: unknown copy \"xgemm\""));
    assert_int_equal(policy.count, 6);
    const gemmkit_device_info devices[2] = {device(0), device(1)};
    gk_config direct, packed;
    assert_int_equal(gk_config_resolve(gk_kernel_find("xgemm-direct"), NULL, &direct), GEMMKIT_SUCCESS);
    assert_int_equal(gk_config_resolve(gk_kernel_find("xgemm"), NULL, &packed), GEMMKIT_SUCCESS);
    static const copy_case cases[] = {
        /* A on GPUs: the first two rows, by its transpose and the call's arithmetic. */
        {0, 0, 1000, 0, 800, GK_MATH_FP32, 1, 0, GK_COPY_KMAJOR},
        {1, 0, 1000, 0, 800, GK_MATH_FP32, 1, 0, GK_COPY_OUTER},
        {0, 0, 1000, 0, 800, GK_MATH_3XTF32, 1, 0, GK_COPY_NONE},
        {1, 0, 1000, 0, 800, GK_MATH_3XTF32, 1, 0, GK_COPY_NONE},
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

/* A batch of 1000 of each shape runs xgemm-direct-batched with these tiles. */
typedef struct batched_tiles {
    int64_t m, n, k, tsm, tsn, wptm;
} batched_tiles;

static void assert_batched_tiles(const gemmkit_device_info *info, const gk_tuning_set *tuned, const batched_tiles *t,
                                 size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const gk_batched_choice c = gk_batched_choose(gk_policy_builtin(), info, tuned, t[i].m, t[i].n, t[i].k, 1000);
        assert_string_equal(c.def->name, "xgemm-direct-batched");
        assert_int_equal(gk_config_value(&c.config, "TSM", 0), t[i].tsm);
        assert_int_equal(gk_config_value(&c.config, "TSN", 0), t[i].tsn);
        assert_int_equal(gk_config_value(&c.config, "WPTM", 0), t[i].wptm);
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
    /* A 32-column result with a long M is no tiny matrix: 64 x 32 tiles. */
    const gk_batched_choice c = gk_batched_choose(gk_policy_builtin(), &info, &tuned, 512, 32, 512, 100);
    assert_int_equal(gk_config_value(&c.config, "TSM", 0), 64);
    assert_int_equal(gk_config_value(&c.config, "TSN", 0), 32);
    /* An edge of at most 16 beside a longer one: 16-wide tiles; of 17-32: 32 along it, 64 along the other; small
     * matrices otherwise: the /mid line (4x8 per work-item), larger ones the own line (8x8). */
    static const batched_tiles shaped[] = {{64, 8, 175, 64, 16, 4}, {7, 129, 52, 16, 64, 4}, {300, 12, 40, 64, 16, 4},
                                           {72, 26, 55, 64, 32, 4}, {26, 100, 9, 32, 64, 4}, {31, 2000, 48, 32, 64, 4},
                                           {100, 100, 100, 64, 64, 4}, {512, 512, 512, 64, 64, 8}};
    assert_batched_tiles(&info, &tuned, shaped, sizeof shaped / sizeof shaped[0]);
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
    /* CUDA's lines: 24x24 tiles for results of 17-24, 4x8 per work-item on small matrices' 64x64 tiles (H100), and
     * past those 64x128 tiles with 4x8 (H200). */
    snprintf(info.backend, sizeof info.backend, "cuda");
    gk_tuning_load(&info, "sm_90", &tuned);
    static const batched_tiles cuda[] = {{24, 24, 24, 24, 24, 4},     {20, 17, 100, 24, 24, 4},
                                         {32, 32, 32, 32, 32, 4},     {100, 100, 100, 64, 64, 4},
                                         {200, 50, 300, 64, 64, 4},   {512, 512, 512, 64, 128, 4},
                                         {2048, 2048, 2048, 64, 128, 4}};
    assert_batched_tiles(&info, &tuned, cuda, sizeof cuda / sizeof cuda[0]);
}


/* ---- fp32 on GPUs: the cost model's choice (cost_model.h, dispatch_model.c), checked by its outcomes. */

static gk_sgemm_candidate candidates[GK_SGEMM_MAX_CANDIDATES];

static gk_sgemm_problem gemm_problem(int64_t m, int64_t n, int64_t k, int trans_a, int trans_b, int beta)
{
    gk_sgemm_problem p = {0};
    p.m = m, p.n = n, p.k = k, p.trans_a = trans_a, p.trans_b = trans_b, p.alpha = 1.0f, p.beta = beta ? 1.0f : 0.0f;
    return p;
}

static const char *shape_text(const gk_sgemm_problem *p)
{
    static char text[96];
    snprintf(text, sizeof text, "%lld x %lld x %lld %c%c%s", (long long)p->m, (long long)p->n, (long long)p->k,
             p->trans_a ? 'T' : 'N', p->trans_b ? 'T' : 'N', p->beta != 0.0f ? " beta 1" : "");
    return text;
}

/* Whether a candidate row for GPUs runs def and holds at p. */
static int candidate_row_holds(const gk_policy *policy, const gemmkit_device_info *info, const gk_kernel_def *def,
                               const gk_sgemm_problem *p)
{
    int64_t values[GK_POLICY_MAX_VARIABLES] = {0};
    values[GK_GEMM_M] = p->m, values[GK_GEMM_N] = p->n, values[GK_GEMM_K] = p->k;
    values[GK_GEMM_WORK] = gk_policy_product(p->m, p->n, p->k);
    values[GK_GEMM_CUS] = info->compute_units;
    values[GK_GEMM_TRANS_A] = p->trans_a, values[GK_GEMM_TRANS_B] = p->trans_b;
    values[GK_GEMM_ALIGNED_A] = values[GK_GEMM_ALIGNED_B] = 1;
    for (int i = policy->first[GK_ROUTINE_GEMM][GK_STEP_CANDIDATE]; i >= 0; i = policy->rules[i].next) {
        const gk_policy_rule *r = &policy->rules[i];
        if (r->kernel == def && r->device != GK_CLASS_CPU && gk_policy_holds(policy, r, values)) return 1;
    }
    return 0;
}

/* The registry's split-K build of def: the kernel of its source, arithmetic and operands that slices K (found
 * once per kernel). */
static const gk_kernel_def *split_build_of(const gk_kernel_def *def)
{
    static const gk_kernel_def *known[64][2];
    static int count;
    for (int i = 0; i < count; i++)
        if (known[i][0] == def) return known[i][1];
    const gk_kernel_def *found = NULL;
    for (size_t i = 0; i < gk_kernel_count() && !found; i++) {
        const gk_kernel_def *d = gk_kernel_at(i);
        if (gk_kernel_slices_k(d) && !strcmp(d->source, def->source) && !strcmp(d->function, def->function) &&
            d->math == def->math && gk_kernel_packs_operands(d) == gk_kernel_packs_operands(def))
            found = d;
    }
    if (count < 64) known[count][0] = def, known[count++][1] = found;
    return found;
}

/* For each candidate, the unsplit candidate of the same tuning line (itself when unsplit), or -1. */
static void find_unsplit(int count, int *unsplit)
{
    int whole[GK_SGEMM_MAX_CANDIDATES], wholes = 0;
    for (int i = 0; i < count; i++)
        if (candidates[i].splits == 1) whole[wholes++] = i;
    for (int i = 0; i < count; i++) {
        unsplit[i] = -1;
        for (int w = 0; w < wholes && unsplit[i] < 0; w++)
            if (!strcmp(candidates[whole[w]].line, candidates[i].line)) unsplit[i] = whole[w];
    }
}

#define EXPECT(condition, ...)                                                                                         \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            print_error("%s, candidate %s %s splits %d (%.6g ms): ", shape, c->choice.def->name, c->line, c->splits,   \
                        c->predicted_ms);                                                                              \
            fail_msg(__VA_ARGS__);                                                                                     \
        }                                                                                                              \
    } while (0)

/* The padded operands and partials of a packed candidate within 2^31-1 floats (their copies' 32-bit indices). */
static int packed_within_indices(const gk_geometry *g, const gk_sgemm_problem *p, int splits)
{
    const int64_t mp = gk_round_up(p->m, g->tile_m), np = gk_round_up(p->n, g->tile_n);
    const int64_t kp = gk_round_up((p->k + splits - 1) / splits, g->k_multiple > 0 ? g->k_multiple : 1) * splits;
    return (double)mp * (double)kp <= INT32_MAX && (double)np * (double)kp <= INT32_MAX &&
           (double)mp * (double)np * splits <= INT32_MAX;
}

/* The model's invariants at one call, whatever its constants: the choice is the first candidate, whose predicted
 * time no other beats (each candidate's time being the model's for its configuration, line and splits); each
 * candidate a kernel of a candidate row holding there (the skinny kernels only for an edge of at most 16, small-k
 * for K at most 64), on one of its tuned lines, unsplit or over a power of two of K-slices of at least 256 on its
 * split-K build with the same tiles, every such count listed; a packed kernel only where its padded operands stay
 * within 32-bit indices. Returns the candidates' count (the list in `candidates`). */
static int check_model(const gk_policy *policy, const gemmkit_device_info *info, const gk_tuning_set *tuned,
                       const gk_sgemm_problem *p)
{
    const char *shape = shape_text(p);
    const int count = gk_sgemm_candidates(policy, info, tuned, p, candidates, GK_SGEMM_MAX_CANDIDATES);
    if (count < 1 || count >= GK_SGEMM_MAX_CANDIDATES) fail_msg("%s: %d candidates", shape, count);
    const gk_sgemm_choice choice = gk_sgemm_choose_for(policy, info, tuned, p);
    const gk_sgemm_candidate *first = &candidates[0];
    if (choice.def != first->choice.def || choice.params != first->choice.params ||
        memcmp(choice.config.values, first->choice.config.values, sizeof choice.config.values) != 0)
        fail_msg("%s: chose %s (%s), but the cheapest candidate is %s on %s (%s, %.6g ms)", shape,
                 choice.def ? choice.def->name : "-", choice.def ? choice.config.options : "",
                 first->choice.def->name, first->line, first->params, first->predicted_ms);
    assert_string_equal(choice.config.options, first->choice.config.options);
    const gk_cost_problem problem = {p->m, p->n, p->k, p->beta != 0.0f, gk_sgemm_storage(p), p->trans_a, p->trans_b};
    int unsplit[GK_SGEMM_MAX_CANDIDATES];
    unsigned split_counts[GK_SGEMM_MAX_CANDIDATES] = {0}; /* bit s: listed over 2^s slices */
    find_unsplit(count, unsplit);
    for (int i = 0; i < count; i++)
        if (unsplit[i] >= 0 && candidates[i].splits > 1 && candidates[i].splits <= GK_SPLITK_MAX_SPLITS) {
            const unsigned bit = 1u << __builtin_ctz((unsigned)candidates[i].splits);
            if (split_counts[unsplit[i]] & bit) fail_msg("%s: %s twice over %d slices", shape, candidates[i].line,
                                                         candidates[i].splits);
            split_counts[unsplit[i]] |= bit;
        }
    for (int i = 0; i < count; i++) {
        const gk_sgemm_candidate *c = &candidates[i];
        const gk_kernel_def *def = c->choice.def;
        gk_geometry g;
        EXPECT(gk_config_geometry(&c->choice.config, p->m, p->n, p->k, &g) == GEMMKIT_SUCCESS &&
                   gk_config_check_device(&c->choice.config, &g, info) == GEMMKIT_SUCCESS,
               "does not run here");
        /* Its time: the model's for it, none under the first's, in order. */
        const gk_tuned *t = gk_tuning_find(tuned, c->line);
        gk_cost_parts parts;
        const double ms = gk_cost_predict(&tuned->cost, info, &c->choice.config, &g, c->line,
                                          t ? t->line.gflops : 0.0, &problem, c->splits, &parts);
        EXPECT(fabs(ms - c->predicted_ms) <= 1e-9 * ms, "the model predicts %.9g ms for it", ms);
        EXPECT(fabs(c->parts.kernel_ms + c->parts.copies_ms + c->parts.launch_ms - c->predicted_ms) <=
                   1e-9 * c->predicted_ms && c->parts.launches == parts.launches,
               "its parts do not add up");
        EXPECT(isfinite(c->predicted_ms) && c->predicted_ms > 0, "no positive time");
        EXPECT(c->predicted_ms >= first->predicted_ms, "cheaper than the choice (%.6g ms)", first->predicted_ms);
        EXPECT(i == 0 || candidates[i - 1].predicted_ms <= c->predicted_ms, "listed after a dearer one");
        /* Its kernel: the unsplit line's, or that line's tiles on the split-K build. */
        const int j = unsplit[i];
        EXPECT(j >= 0, "no unsplit candidate of its line");
        const gk_kernel_def *base = candidates[j].choice.def;
        EXPECT(!gk_kernel_slices_k(base), "its line's unsplit candidate %s slices K", base->name);
        if (c->splits == 1) {
            EXPECT(j == i, "two unsplit candidates of one line");
        } else {
            EXPECT(c->splits >= 2 && c->splits <= GK_MODEL_MAX_SPLITS && (c->splits & (c->splits - 1)) == 0,
                   "not a power of two from 2");
            EXPECT(p->k / c->splits >= GK_SPLITK_MIN_SLICE, "slices under %d", GK_SPLITK_MIN_SLICE);
            EXPECT(gk_kernel_slices_k(def) && def == split_build_of(base), "not %s's split-K build", base->name);
            EXPECT(gk_config_value(&c->choice.config, "SPLITS", -1) == c->splits, "SPLITS=%d",
                   gk_config_value(&c->choice.config, "SPLITS", -1));
            for (int q = 0; q < GK_MAX_PARAMS && def->params[q].name; q++) {
                const int value = gk_config_value(&candidates[j].choice.config, def->params[q].name, -1);
                EXPECT(!strcmp(def->params[q].name, "SPLITS") || value < 0 || value == c->choice.config.values[q],
                       "%s=%d where its line has %d", def->params[q].name, c->choice.config.values[q], value);
            }
        }
        /* What each kernel can serve: a candidate row of it holds. */
        EXPECT(candidate_row_holds(policy, info, base, p), "no candidate row of %s holds", base->name);
        EXPECT(strcmp(base->name, "skinny-m") || p->m <= 16, "skinny-m for M above 16");
        EXPECT(strcmp(base->name, "skinny-n") || p->n <= 16, "skinny-n for N above 16");
        EXPECT(strcmp(base->name, "small-k") || p->k <= 64, "small-k for K above 64");
        /* Its line: the kernel's own, or a tuned "KERNEL/..." line of it, with that line's parameters. */
        const size_t len = strlen(base->name);
        const int own = !strcmp(c->line, base->name);
        EXPECT(own || (!strncmp(c->line, base->name, len) && c->line[len] == '/' && t && t->config.def == base),
               "not a line of %s", base->name);
        gk_config line_config;
        if (own) assert_int_equal(gk_tuning_resolve(tuned, base, &line_config), GEMMKIT_SUCCESS);
        else line_config = t->config;
        EXPECT(c->splits > 1 || !memcmp(line_config.values, c->choice.config.values, sizeof line_config.values),
               "not its line's parameters (%s)", line_config.options);
        EXPECT(own ? c->choice.params == NULL : c->choice.params == t->line.params, "params not its line's");
        if (gk_kernel_packs_operands(def))
            EXPECT(packed_within_indices(&g, p, c->splits), "packed past 2^31-1 floats");
        /* An unsplit line with a split-K build: every count from 2 whose slices hold 256 of K, up to where the
         * partials (a packed kernel's padded ones) would pass 2^31-1 floats. */
        if (c->splits == 1 && split_build_of(def)) {
            unsigned expected = 0, fits = 0;
            for (int s = 2; s <= GK_SPLITK_MAX_SPLITS && p->k / s >= GK_SPLITK_MIN_SLICE; s *= 2) {
                expected |= 1u << __builtin_ctz((unsigned)s);
                if (gk_kernel_packs_operands(def) ? packed_within_indices(&g, p, s)
                                                  : (p->m + 3) / 4 * 4 * p->n * s <= INT32_MAX)
                    fits |= 1u << __builtin_ctz((unsigned)s);
            }
            EXPECT(split_counts[i] == fits, /* all of them on the operands as stored */
                   "split counts listed 0x%x, expected 0x%x (0x%x where K allows)", split_counts[i], fits, expected);
        }
    }
    return count;
}
#undef EXPECT

/* A generator of shapes with a fixed seed (xorshift64). */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Log-uniform in [1, max]. */
static int64_t random_edge(uint64_t *state, int64_t max)
{
    const double u = (double)(next_random(state) >> 11) / 9007199254740992.0;
    const int64_t x = (int64_t)exp(u * log((double)max + 1.0));
    return x < 1 ? 1 : x > max ? max : x;
}

/* Edges around the tiles and the skinny kernels' 16, K around the split-K slice's 256 and up to a million. */
static const int64_t model_edges[] = {1, 2, 7, 15, 16, 17, 31, 32, 33, 64, 127, 128, 129, 257, 511, 1000,
                                      1024, 1500, 2048, 2049, 4096, 8192, 16384, 65536};
static const int64_t model_ks[] = {1, 2, 16, 17, 100, 255, 256, 511, 512, 1024, 4097, 65536, 140727, 1000000};

static void check_model_everywhere(const gemmkit_device_info *info, const gk_tuning_set *tuned, int random_count)
{
    const gk_policy *policy = gk_policy_builtin();
    const int edges = (int)(sizeof model_edges / sizeof model_edges[0]);
    const int ks = (int)(sizeof model_ks / sizeof model_ks[0]);
    for (int i = 0; i < edges; i++)
        for (int j = 0; j < edges; j++)
            for (int l = 0; l < ks; l++) {
                const gk_sgemm_problem p = gemm_problem(model_edges[i], model_edges[j], model_ks[l], 0, 0, 0);
                check_model(policy, info, tuned, &p);
            }
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (int r = 0; r < random_count; r++) {
        const int64_t m = random_edge(&seed, 65536), n = random_edge(&seed, 65536), k = random_edge(&seed, 1000000);
        const uint64_t bits = next_random(&seed);
        const gk_sgemm_problem p = gemm_problem(m, n, k, (int)(bits & 1), (int)(bits >> 1 & 1), (int)(bits >> 2 & 1));
        check_model(policy, info, tuned, &p);
    }
}

/* The lines the candidate rows may run on this set: each row kernel's own, and its tuned "KERNEL/..." lines. */
static int model_lines(const gk_tuning_set *tuned, const char *names[], int max)
{
    const gk_policy *policy = gk_policy_builtin();
    int count = 0;
    for (int i = policy->first[GK_ROUTINE_GEMM][GK_STEP_CANDIDATE]; i >= 0; i = policy->rules[i].next) {
        const gk_kernel_def *def = policy->rules[i].kernel;
        if (policy->rules[i].device == GK_CLASS_CPU || def->math != GK_MATH_FP32) continue;
        assert_true(count < max);
        names[count++] = def->name;
        const size_t len = strlen(def->name);
        for (int j = 0; j < tuned->count; j++) {
            const char *line = tuned->entries[j].line.kernel;
            if (!strncmp(line, def->name, len) && line[len] == '/') {
                assert_true(count < max);
                names[count++] = line;
            }
        }
    }
    return count;
}

/* An explicit profile in place of the database's constants: copies at 3000 GB/s, launches of 3 us, and every line
 * the candidate rows may run at the same RATE, OCC and BWEFF (the checks then set some lines apart). */
static void set_profile(gk_tuning_set *tuned, double rate, double occupancy, double bw_efficiency)
{
    const char *names[GK_COST_MAX_LINES];
    const int count = model_lines(tuned, names, GK_COST_MAX_LINES);
    gk_cost_constants *c = &tuned->cost;
    memset(c, 0, sizeof *c);
    c->copy_gbs = 3000.0, c->launch_us = 3.0, c->calibrated = 1;
    for (int i = 0; i < count; i++) {
        gk_cost_line *line = &c->lines[c->count++];
        snprintf(line->name, sizeof line->name, "%s", names[i]);
        line->rate_gflops = rate, line->occupancy = occupancy, line->bw_efficiency = bw_efficiency;
    }
}

static gk_cost_line *profile_line(gk_tuning_set *tuned, const char *name)
{
    gk_cost_line *line = (gk_cost_line *)gk_cost_find(&tuned->cost, name);
    if (!line) fail_msg("the profile has no line %s", name);
    return line;
}

/* The built-in H200 lines under the profile (their constants replaced). */
static void load_h200_profile(gemmkit_device_info *info, gk_tuning_set *tuned, double rate, double occupancy,
                              double bw_efficiency)
{
    unlink(db_path);
    *info = device(1);
    gk_tuning_load(info, "sm_90", tuned);
    if (tuned->warnings[0]) print_error("%s", tuned->warnings);
    assert_string_equal(tuned->warnings, "");
    set_profile(tuned, rate, occupancy, bw_efficiency);
}

/* The model's choice at p (checked against its invariants); every candidate's line has the profile's constants. */
static const gk_sgemm_candidate *model_choice(const gemmkit_device_info *info, const gk_tuning_set *tuned,
                                              const gk_sgemm_problem *p)
{
    const int count = check_model(gk_policy_builtin(), info, tuned, p);
    for (int i = 0; i < count; i++)
        if (!gk_cost_find(&tuned->cost, candidates[i].line))
            fail_msg("%s: no constants for %s", shape_text(p), candidates[i].line);
    return &candidates[0];
}

static void print_choice(const char *what, const gk_sgemm_problem *p, const gk_sgemm_candidate *c)
{
    print_error("%s at %s: chose %s on %s, %d slice(s), %.6g ms (kernel %.6g, copies %.6g, %d launches)\n", what,
                shape_text(p), c->choice.def->name, c->line, c->splits, c->predicted_ms, c->parts.kernel_ms,
                c->parts.copies_ms, c->parts.launches);
}

/* The invariants wherever the model chooses: the H200's built-in lines and constants, at 16 compute units, a GPU
 * with no lines (each kernel's defaults, rated from the device's peak), and the explicit profile. */
static void test_model_invariants(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info info = device(1);
    static gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    assert_non_null(gk_tuning_params(&tuned, "xgemm-direct/small"));
    check_model_everywhere(&info, &tuned, 3000);
    info.compute_units = 16;
    check_model_everywhere(&info, &tuned, 0);
    gemmkit_device_info untuned = device(1);
    snprintf(untuned.name, sizeof untuned.name, "another GPU");
    snprintf(untuned.vendor, sizeof untuned.vendor, "Another Vendor");
    gk_tuning_load(&untuned, NULL, &tuned);
    assert_int_equal(tuned.count, 0);
    check_model_everywhere(&untuned, &tuned, 300);
    load_h200_profile(&info, &tuned, 40000, 2, 0.6);
    check_model_everywhere(&info, &tuned, 300);
}

/* Packed operands padded past 2^31-1 floats: 46300 x 46300 x 46380 pads K to 46384 (xgemm's TSK 8), 46336 x 46384
 * floats; with K 46000 they fit, and the packed kernel is a candidate again. */
static void test_model_never_packs_past_32_bit_indices(void **state)
{
    (void)state;
    gemmkit_device_info info;
    static gk_tuning_set tuned;
    load_h200_profile(&info, &tuned, 40000, 2, 0.6);
    for (int fits = 0; fits < 2; fits++) {
        const gk_sgemm_problem p = gemm_problem(46300, 46300, fits ? 46000 : 46380, 0, 0, 0);
        const int count = check_model(gk_policy_builtin(), &info, &tuned, &p);
        int packed = 0, direct = 0;
        for (int i = 0; i < count; i++) {
            packed += gk_kernel_packs_operands(candidates[i].choice.def);
            direct += !strcmp(candidates[i].choice.def->name, "xgemm-direct");
        }
        if ((packed > 0) != fits) fail_msg("%s: %d packed candidates", shape_text(&p), packed);
        assert_true(direct > 0);
    }
}

/* A small C and a long K: unsplit, a few work-groups would hold the whole product; split-K's slices spread it
 * over the compute units, for whatever rate, occupancy and bandwidth every line shares. */
static void test_model_splits_small_c_long_k(void **state)
{
    (void)state;
    static const int64_t shapes[][3] = {{64, 64, 1000000}, {1, 29, 140727}, {16, 16, 65536}, {128, 128, 131072}};
    static const double profiles[][3] = {{40000, 2, 0.6}, {10000, 1, 0.3}, {60000, 8, 0.9}};
    gemmkit_device_info info;
    static gk_tuning_set tuned;
    for (size_t q = 0; q < sizeof profiles / sizeof profiles[0]; q++) {
        load_h200_profile(&info, &tuned, profiles[q][0], profiles[q][1], profiles[q][2]);
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            const gk_sgemm_problem p = gemm_problem(shapes[i][0], shapes[i][1], shapes[i][2], 0, 0, 0);
            const gk_sgemm_candidate *c = model_choice(&info, &tuned, &p);
            if (c->splits < 2 || !gk_kernel_slices_k(c->choice.def)) {
                print_choice("small C, long K", &p, c);
                fail_msg("not split (profile %zu)", q);
            }
        }
    }
}

/* A large square whose tiles fill whole waves of the 132 compute units (8448 = 66 x 128: 33 waves of 128 x 128
 * tiles, 132 of 64 x 64, 528 of 32 x 32): slicing K shortens no wave and adds the reduction, so no split, whatever
 * the lines' constants. */
static void test_model_keeps_large_squares_whole(void **state)
{
    (void)state;
    gemmkit_device_info info;
    static gk_tuning_set tuned;
    load_h200_profile(&info, &tuned, 40000, 2, 0.6);
    const char *names[GK_COST_MAX_LINES];
    const int lines = model_lines(&tuned, names, GK_COST_MAX_LINES);
    for (int favoured = -1; favoured < lines; favoured++) {
        set_profile(&tuned, 30000, 2, 0.6);
        if (favoured >= 0) profile_line(&tuned, names[favoured])->rate_gflops = 50000;
        const gk_sgemm_problem p = gemm_problem(8448, 8448, 8448, 0, 0, 0);
        const gk_sgemm_candidate *c = model_choice(&info, &tuned, &p);
        if (c->splits != 1) {
            print_choice("large square", &p, c);
            fail_msg("split (the line favoured: %s)", favoured >= 0 ? names[favoured] : "none");
        }
    }
}

/* A short K (8192 x 8192 x 2): memory bounds every candidate, so the one whose loads reach the most of the copy
 * bandwidth wins, whichever it is. */
static void test_model_short_k_follows_bandwidth(void **state)
{
    (void)state;
    gemmkit_device_info info;
    static gk_tuning_set tuned;
    load_h200_profile(&info, &tuned, 60000, 2, 0.2);
    const gk_sgemm_problem p = gemm_problem(8192, 8192, 2, 0, 0, 0);
    const int count = check_model(gk_policy_builtin(), &info, &tuned, &p);
    char lines[GK_SGEMM_MAX_CANDIDATES][64];
    int unsplit = 0, small_k = 0;
    for (int i = 0; i < count; i++) {
        assert_int_equal(candidates[i].splits, 1); /* K under 512: no slices of 256 */
        snprintf(lines[unsplit++], sizeof lines[0], "%s", candidates[i].line);
        small_k += !strcmp(candidates[i].choice.def->name, "small-k");
    }
    assert_int_equal(small_k, 1);
    for (int i = 0; i < unsplit; i++) {
        set_profile(&tuned, 60000, 2, 0.2);
        profile_line(&tuned, lines[i])->bw_efficiency = 0.9;
        const gk_sgemm_candidate *c = model_choice(&info, &tuned, &p);
        if (strcmp(c->line, lines[i]) != 0) {
            print_choice("short K", &p, c);
            fail_msg("%s has the highest BWEFF", lines[i]);
        }
    }
}

/* An edge of C at most 16 against wide others (matrix-vector-like products, bound by reading the large operand):
 * the skinny kernel of that edge and of the large operand's storage (skinny-m/-n where it runs along C's long edge,
 * skinny-m-dot/-n-dot where it runs along K and that edge is at least 1024) wins where its loads reach the most
 * bandwidth, and loses where another's do. */
static void test_model_skinny_edges_follow_bandwidth(void **state)
{
    (void)state;
    gemmkit_device_info info;
    static gk_tuning_set tuned;
    load_h200_profile(&info, &tuned, 60000, 2, 0.2);
    static const struct {
        int64_t m, n, k;
        int trans_a, trans_b;
        const char *kernel;
    } cases[] = {{8, 16384, 16384, 0, 1, "skinny-m"},     {1, 8192, 8192, 1, 1, "skinny-m"},
                 {16, 65536, 4096, 0, 1, "skinny-m"},     {16384, 8, 16384, 0, 0, "skinny-n"},
                 {8192, 1, 8192, 0, 1, "skinny-n"},       {65536, 16, 4096, 0, 0, "skinny-n"},
                 {8, 16384, 16384, 0, 0, "skinny-m-dot"}, {1, 8192, 8192, 1, 0, "skinny-m-dot"},
                 {16384, 8, 16384, 1, 0, "skinny-n-dot"}, {8192, 1, 8192, 1, 1, "skinny-n-dot"},
                 /* a long edge under 1024 stays on skinny.cl whatever the storage */
                 {4, 600, 13166, 0, 0, "skinny-m"},       {600, 4, 13166, 1, 0, "skinny-n"}};
    const char *names[GK_COST_MAX_LINES];
    const int lines = model_lines(&tuned, names, GK_COST_MAX_LINES);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const gk_sgemm_problem p = gemm_problem(cases[i].m, cases[i].n, cases[i].k, cases[i].trans_a,
                                                cases[i].trans_b, 0);
        const size_t len = strlen(cases[i].kernel);
        for (int skinny_best = 1; skinny_best >= 0; skinny_best--) {
            set_profile(&tuned, 60000, 2, 0.2);
            for (int l = 0; l < lines; l++) {
                const int of_skinny = !strncmp(names[l], cases[i].kernel, len) &&
                                      (names[l][len] == '\0' || names[l][len] == '/');
                if (of_skinny == skinny_best) profile_line(&tuned, names[l])->bw_efficiency = 0.9;
            }
            const gk_sgemm_candidate *c = model_choice(&info, &tuned, &p);
            /* the kernel or its split-K build */
            if ((strcmp(gk_model_unsplit(c->choice.def)->name, cases[i].kernel) == 0) != skinny_best) {
                print_choice(skinny_best ? "skinny, its BWEFF highest" : "skinny, others' BWEFF highest", &p, c);
                fail_msg("want %s%s", skinny_best ? "" : "other than ", cases[i].kernel);
            }
        }
    }
}

/* 20000 x 48 x 12000: packing A (20000 x 12000 read, written padded) moves more bytes than the whole product
 * takes at these rates, so the packed kernel loses to the direct one where their rates are close, and wins only
 * where the direct one is far slower. */
static void test_model_packing_costs_its_copies(void **state)
{
    (void)state;
    gemmkit_device_info info;
    static gk_tuning_set tuned;
    load_h200_profile(&info, &tuned, 40000, 2, 0.6);
    const char *names[GK_COST_MAX_LINES];
    const int lines = model_lines(&tuned, names, GK_COST_MAX_LINES);
    const gk_sgemm_problem p = gemm_problem(20000, 48, 12000, 0, 0, 0);
    for (int direct_slow = 0; direct_slow < 2; direct_slow++) {
        set_profile(&tuned, 40000, 2, 0.6);
        for (int l = 0; l < lines; l++)
            if (!strncmp(names[l], "xgemm", 5) && (names[l][5] == '\0' || names[l][5] == '/'))
                profile_line(&tuned, names[l])->rate_gflops = 42000; /* xgemm's lines, packed */
            else if (direct_slow)
                profile_line(&tuned, names[l])->rate_gflops = 2000;
        const gk_sgemm_candidate *c = model_choice(&info, &tuned, &p);
        if (gk_kernel_packs_operands(c->choice.def) != direct_slow) {
            print_choice(direct_slow ? "direct lines at 2 TFLOPS" : "rates within 5%", &p, c);
            fail_msg("want %s kernel", direct_slow ? "a packed" : "no packed");
        }
    }
}

/* A compute-bound shape (4096^3): the line rated far above the others runs it, whichever it is. */
static void test_model_follows_the_fastest_line(void **state)
{
    (void)state;
    gemmkit_device_info info;
    static gk_tuning_set tuned;
    load_h200_profile(&info, &tuned, 10000, 2, 0.6);
    const gk_sgemm_problem p = gemm_problem(4096, 4096, 4096, 0, 0, 0);
    const int count = check_model(gk_policy_builtin(), &info, &tuned, &p);
    char lines[GK_SGEMM_MAX_CANDIDATES][64];
    int unsplit = 0;
    for (int i = 0; i < count; i++)
        if (candidates[i].splits == 1) snprintf(lines[unsplit++], sizeof lines[0], "%s", candidates[i].line);
    assert_true(unsplit >= 2);
    for (int i = 0; i < unsplit; i++) {
        set_profile(&tuned, 10000, 2, 0.6);
        profile_line(&tuned, lines[i])->rate_gflops = 60000;
        const gk_sgemm_candidate *c = model_choice(&info, &tuned, &p);
        if (strcmp(c->line, lines[i]) != 0) {
            print_choice("compute-bound", &p, c);
            fail_msg("%s is rated 6x the others", lines[i]);
        }
    }
}

/* ---- The cost lines of the tuning database (cost_lines.c): loaded into the set's constants as written, over the
 * built-in "cost:device" line; a bad one warns, naming its line, and changes nothing. */

static void test_cost_lines_round_trip(void **state)
{
    (void)state;
    gemmkit_device_info info = device(1);
    static gk_tuning_set tuned;
    unlink(db_path);
    gk_tuning_load(&info, "sm_90", &tuned);
    const double builtin_copy = tuned.cost.copy_gbs, builtin_launch = tuned.cost.launch_us;
    static gk_cost_constants builtin_cost;
    builtin_cost = tuned.cost;
    /* The user's lines replace the built-in ones of the same names and add the others. */
    const int builtin_lines = tuned.cost.count + !gk_cost_find(&tuned.cost, "xgemm-direct/small") +
                              !gk_cost_find(&tuned.cost, "skinny-m");
    assert_true(builtin_copy > 0 && builtin_launch > 0);
    write_db("opencl\tNVIDIA H200\tcost:device\tCOPY=3123.5,LAUNCH=4.25\t0\t2026-11-28\n"
             "opencl\tNVIDIA H200\tcost:xgemm-direct/small\tRATE=21000,OCC=3.5,BWEFF=0.71\t0\t2026-11-28\n"
             "opencl\tNVIDIA H200\tcost:skinny-m\tBWEFF=0.85,RATE=900.25,OCC=8\t0\t2026-11-28\n");
    gk_tuning_load(&info, "sm_90", &tuned);
    if (tuned.warnings[0]) print_error("%s", tuned.warnings);
    assert_string_equal(tuned.warnings, "");
    assert_true(tuned.cost.calibrated);
    assert_true(tuned.cost.copy_gbs == 3123.5 && tuned.cost.launch_us == 4.25);
    assert_int_equal(tuned.cost.count, builtin_lines);
    const gk_cost_line *direct = gk_cost_find(&tuned.cost, "xgemm-direct/small");
    const gk_cost_line *skinny = gk_cost_find(&tuned.cost, "skinny-m");
    assert_non_null(direct);
    assert_non_null(skinny);
    assert_true(direct->rate_gflops == 21000 && direct->occupancy == 3.5 && direct->bw_efficiency == 0.71);
    assert_true(skinny->rate_gflops == 900.25 && skinny->occupancy == 8 && skinny->bw_efficiency == 0.85);
    /* The model predicts with them: skinny-m's candidate at 1 x 8192 x 8192 NT (B along C's long edge, skinny-m's
     * storage) as under constants written here. */
    gk_cost_constants written = {.copy_gbs = 3123.5, .launch_us = 4.25, .calibrated = 1, .count = 1};
    written.lines[0] = (gk_cost_line){"skinny-m", 900.25, 8, 0.85, {0}, 0, 0};
    const gk_sgemm_problem p = gemm_problem(1, 8192, 8192, 0, 1, 0);
    const gk_cost_problem cp = {1, 8192, 8192, 0, gk_sgemm_storage(&p), 0, 1};
    const int count = check_model(gk_policy_builtin(), &info, &tuned, &p);
    int seen = 0;
    for (int i = 0; i < count; i++)
        if (!strcmp(candidates[i].line, "skinny-m") && candidates[i].splits == 1) {
            gk_geometry g;
            assert_int_equal(gk_config_geometry(&candidates[i].choice.config, 1, 8192, 8192, &g), GEMMKIT_SUCCESS);
            const double ms = gk_cost_predict(&written, &info, &candidates[i].choice.config, &g, "skinny-m", 0, &cp, 1,
                                              NULL);
            assert_true(fabs(ms - candidates[i].predicted_ms) <= 1e-9 * ms);
            seen++;
        }
    assert_int_equal(seen, 1);

    /* Bad lines: each skipped with a warning naming it; the good line among them and the built-in device line stay. */
    static const struct {
        const char *kernel, *params, *why;
    } bad[] = {
        {"cost:xgemm", "RATE=30000,OCC=2,BWEFF=0.5,SPEED=3", "unknown constant \"SPEED\""},
        {"cost:xgemm/small", "RATE=30000,OCC=2", "missing BWEFF"},
        {"cost:xgemm-direct", "RATE=-5,OCC=2,BWEFF=0.5", "RATE: want a positive number"},
        {"cost:xgemm-direct/tiny", "RATE=100,OCC=2,BWEFF=1.5", "BWEFF above 1"},
        {"cost:skinny-n", "RATE=fast,OCC=2,BWEFF=0.5", "RATE: want a positive number"},
        {"cost:small-k", "RATE=100,OCC=0,BWEFF=0.5", "OCC: want a positive number"},
        {"cost:device", "COPY=3000", "missing LAUNCH"},
    };
    const size_t bad_count = sizeof bad / sizeof bad[0];
    char text[4096];
    size_t used = 0;
    for (size_t i = 0; i < bad_count; i++) {
        used += (size_t)snprintf(text + used, sizeof text - used, "opencl\tNVIDIA H200\t%s\t%s\t0\t2026-11-28\n",
                                 bad[i].kernel, bad[i].params);
        if (i == 3)
            used += (size_t)snprintf(text + used, sizeof text - used,
                                     "opencl\tNVIDIA H200\tcost:xgemm/narrow-n\tRATE=27000,OCC=2.5,BWEFF=0.6\t0\t"
                                     "2026-11-28\n");
    }
    write_db(text);
    gk_tuning_load(&info, "sm_90", &tuned);
    for (size_t i = 0; i < bad_count; i++) {
        char where[160];
        snprintf(where, sizeof where, "%s:%zu: %s %s: %s", db_path, i < 4 ? i + 1 : i + 2, bad[i].kernel,
                 bad[i].params, bad[i].why);
        if (!strstr(tuned.warnings, where)) print_error("warnings \"%s\" lack \"%s\"\n", tuned.warnings, where);
        assert_non_null(strstr(tuned.warnings, where));
        if (strcmp(bad[i].kernel, GK_COST_DEVICE) != 0) { /* the built-in line's constants, or none */
            const char *name = bad[i].kernel + strlen(GK_COST_PREFIX);
            const gk_cost_line *now = gk_cost_find(&tuned.cost, name), *was = gk_cost_find(&builtin_cost, name);
            assert_true(now == NULL ? was == NULL
                                    : was && now->rate_gflops == was->rate_gflops &&
                                          now->occupancy == was->occupancy && now->bw_efficiency == was->bw_efficiency);
        }
    }
    int lines = 0;
    for (const char *w = tuned.warnings; (w = strchr(w, '\n')); w++) lines++;
    assert_int_equal(lines, (int)bad_count);
    assert_true(tuned.cost.copy_gbs == builtin_copy && tuned.cost.launch_us == builtin_launch);
    assert_int_equal(tuned.cost.count, builtin_cost.count + !gk_cost_find(&builtin_cost, "xgemm/narrow-n"));
    const gk_cost_line *narrow = gk_cost_find(&tuned.cost, "xgemm/narrow-n");
    assert_non_null(narrow);
    assert_true(narrow->rate_gflops == 27000 && narrow->occupancy == 2.5 && narrow->bw_efficiency == 0.6);
    unlink(db_path);
}

/* Whether the model lists a candidate on the tuned line `line` at p. */
static int model_lists(const gk_policy *policy, const gemmkit_device_info *info, const gk_tuning_set *tuned,
                       const gk_sgemm_problem *p, const char *line)
{
    const int count = check_model(policy, info, tuned, p);
    for (int i = 0; i < count; i++)
        if (!strcmp(candidates[i].line, line)) return 1;
    return 0;
}

/* Scope rows: a tuned line whose choice has scope rows is the model's candidate only where one of them holds (here
 * xgemm-direct/mid-n kept to an edge of N up to 128 by a row added to the built-in policy); a line without any,
 * everywhere; the built-in policy alone weighs mid-n everywhere, and its ring lines (xgemm-direct/small-ring) only
 * below 2^26 multiply-adds with both edges over 16. */
static void test_scope_rows_keep_lines_to_their_shapes(void **state)
{
    (void)state;
    unlink(db_path);
    gemmkit_device_info info = device(1);
    static gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    assert_non_null(gk_tuning_find(&tuned, "xgemm-direct/mid-n"));
    const gk_sgemm_problem square = gemm_problem(3000, 3000, 3000, 0, 0, 0);
    const gk_sgemm_problem thin = gemm_problem(100000, 64, 64, 0, 0, 0);
    const gk_sgemm_problem short_k = gemm_problem(6368, 9575, 26, 1, 0, 0);
    const gk_policy *builtin = gk_policy_builtin();
    assert_true(model_lists(builtin, &info, &tuned, &square, "xgemm-direct/mid-n"));
    assert_true(model_lists(builtin, &info, &tuned, &short_k, "xgemm-direct/mid-n"));
    assert_non_null(gk_tuning_find(&tuned, "xgemm-direct/small-ring"));
    const gk_sgemm_problem small = gemm_problem(300, 200, 500, 0, 0, 0), edge = gemm_problem(16, 2000, 500, 0, 0, 0);
    assert_true(model_lists(builtin, &info, &tuned, &small, "xgemm-direct/small-ring"));
    assert_true(model_lists(builtin, &info, &tuned, &small, "xgemm-direct/small"));
    assert_false(model_lists(builtin, &info, &tuned, &square, "xgemm-direct/small-ring"));
    assert_false(model_lists(builtin, &info, &tuned, &edge, "xgemm-direct/small-ring"));

    const char *text = gk_kernel_source("tuning/policy.tsv");
    static const char scope[] = "gemm\tscope\tgpu\tmid-n\tN <= 128 && M >= 4 * N\n"
                                "gemm\tscope\tcpu\tmid-n\t1\n"; /* another class's row: no effect here */
    char *scoped_text = malloc(strlen(text) + sizeof scope);
    assert_non_null(scoped_text);
    strcpy(scoped_text, text);
    strcat(scoped_text, scope);
    static gk_policy scoped;
    gk_policy_parse("scoped.tsv", scoped_text, &scoped);
    free(scoped_text);
    assert_string_equal(scoped.warnings, "");
    assert_true(model_lists(&scoped, &info, &tuned, &thin, "xgemm-direct/mid-n"));
    assert_false(model_lists(&scoped, &info, &tuned, &square, "xgemm-direct/mid-n"));
    assert_false(model_lists(&scoped, &info, &tuned, &short_k, "xgemm-direct/mid-n"));
    assert_true(model_lists(&scoped, &info, &tuned, &square, "xgemm-direct/mid-m")); /* no scope rows */
    assert_true(model_lists(&scoped, &info, &tuned, &square, "xgemm-direct")); /* the kernel's own line */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_policy_is_whole),
        cmocka_unit_test(test_gemm_choice_unchanged_on_cpus),
        cmocka_unit_test(test_omatcopy_choice_unchanged),
        cmocka_unit_test(test_broken_policy_warns_and_falls_back),
        cmocka_unit_test(test_cpus_keep_their_kernel_at_gpu_shapes),
        cmocka_unit_test(test_split_row_needs_the_choices_build),
        cmocka_unit_test(test_copy_rows_are_costed),
        cmocka_unit_test(test_huge_shapes_do_not_overflow),
        cmocka_unit_test(test_empty_dimensions_choose),
        cmocka_unit_test(test_model_invariants),
        cmocka_unit_test(test_model_never_packs_past_32_bit_indices),
        cmocka_unit_test(test_model_splits_small_c_long_k),
        cmocka_unit_test(test_model_keeps_large_squares_whole),
        cmocka_unit_test(test_model_short_k_follows_bandwidth),
        cmocka_unit_test(test_model_skinny_edges_follow_bandwidth),
        cmocka_unit_test(test_model_packing_costs_its_copies),
        cmocka_unit_test(test_model_follows_the_fastest_line),
        cmocka_unit_test(test_scope_rows_keep_lines_to_their_shapes),
        cmocka_unit_test(test_cost_lines_round_trip),
        cmocka_unit_test(test_scope_from_the_policy),
        cmocka_unit_test(test_batched_choice),
        cmocka_unit_test(test_batched_variants),
        cmocka_unit_test(test_routes),
        cmocka_unit_test(test_copy_rows),
        cmocka_unit_test(test_builtin_copy_rows),
        cmocka_unit_test(test_small_variant_in_tensor_modes),
        cmocka_unit_test(test_int8x_served_by_3xtf32_where_faster),
        cmocka_unit_test(test_short_k_served_by_fp32),
        cmocka_unit_test(test_math_row_without_kernels_keeps_the_mode),
        cmocka_unit_test(test_trans_a_variant),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
