/* The BLAS drop-in entry points sgemm_, cblas_sgemm and their 64-bit twins
 * sgemm_64_, cblas_sgemm_64: every transpose and layout on the CPU (the CPU
 * BLAS the process has, and gemmkit's own threaded loop) and on the device
 * (chosen with GEMMKIT_BLAS_THRESHOLD), alpha/beta, beta == 0 over NaN, quick
 * returns, and each illegal argument reported through this program's own
 * xerbla_ and cblas_xerbla (the drop-in defines none of its own). */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "blas_dropin.h"
#include "check.h"

/* ---- the application's error handlers, as a BLAS user would write them */

static int xerbla_calls, xerbla_info;
static char xerbla_name[16];

void xerbla_(const char *srname, const int *info, size_t len)
{
    size_t n = len < sizeof xerbla_name - 1 ? len : sizeof xerbla_name - 1;
    memcpy(xerbla_name, srname, n);
    while (n > 0 && xerbla_name[n - 1] == ' ') n--; /* Fortran strings are blank-padded */
    xerbla_name[n] = '\0';
    xerbla_info = *info;
    xerbla_calls++;
}

static int cblas_xerbla_calls, cblas_xerbla_pos;
static char cblas_xerbla_rout[32];

void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    (void)form;
    snprintf(cblas_xerbla_rout, sizeof cblas_xerbla_rout, "%s", rout);
    cblas_xerbla_pos = p;
    cblas_xerbla_calls++;
}

static void reset_handlers(void)
{
    xerbla_calls = xerbla_info = 0;
    xerbla_name[0] = '\0';
    cblas_xerbla_calls = cblas_xerbla_pos = 0;
    cblas_xerbla_rout[0] = '\0';
}

/* ---- running one case */

static gk_rng rng;
static uint64_t seed;

typedef enum { VIA_F77, VIA_CBLAS, VIA_F77_64, VIA_CBLAS_64 } entry_point;
static const char *const entry_names[] = {"sgemm_", "cblas_sgemm", "sgemm_64_", "cblas_sgemm_64"};

static char f77_char(gemmkit_transpose t, int lower)
{
    char c = t == GEMMKIT_NO_TRANS ? 'N' : t == GEMMKIT_TRANS ? 'T' : 'C';
    return lower ? (char)(c - 'A' + 'a') : c;
}

static void call_entry(entry_point via, const gk_sgemm_case *c, const float *a, const float *b, float *res)
{
    if (via == VIA_CBLAS) {
        cblas_sgemm(c->layout, c->trans_a, c->trans_b, (int)c->m, (int)c->n, (int)c->k, c->alpha, a, (int)c->lda, b,
                    (int)c->ldb, c->beta, res, (int)c->ldc);
    } else if (via == VIA_CBLAS_64) {
        cblas_sgemm_64(c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k, c->alpha, a, c->lda, b, c->ldb, c->beta,
                       res, c->ldc);
    } else if (via == VIA_F77_64) {
        char ta = f77_char(c->trans_a, 0), tb = f77_char(c->trans_b, 1);
        sgemm_64_(&ta, &tb, &c->m, &c->n, &c->k, &c->alpha, a, &c->lda, b, &c->ldb, &c->beta, res, &c->ldc);
    } else {
        /* Lower-case flags for odd sizes: the reference accepts both cases. */
        int lower = (int)(c->m & 1);
        char ta = f77_char(c->trans_a, lower), tb = f77_char(c->trans_b, lower);
        int m = (int)c->m, n = (int)c->n, k = (int)c->k, lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
        sgemm_(&ta, &tb, &m, &n, &k, &c->alpha, a, &lda, b, &ldb, &c->beta, res, &ldc);
    }
}

/* Fresh random inputs, C poisoned with NaN when beta == 0, leading-dimension
 * gaps when `gap`; the result is checked against the reference. */
static void run_case(entry_point via, gk_sgemm_case c, int gap)
{
    gk_case_complete(&c);
    if (gap) {
        c.lda += 3;
        c.ldb += 1;
        c.ldc += 2;
    }
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    float *a = malloc((ea + 1) * sizeof *a), *b = malloc((eb + 1) * sizeof *b);
    float *c0 = malloc((ec + 1) * sizeof *c0), *res = malloc((ec + 1) * sizeof *res);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c0);
    assert_non_null(res);
    gk_fill_random(&rng, a, ea);
    gk_fill_random(&rng, b, eb);
    gk_fill_random(&rng, c0, ec);
    if (c.beta == 0.0f)
        for (int64_t j = 0; j < c.n; j++)
            for (int64_t i = 0; i < c.m; i++)
                c0[c.layout == GEMMKIT_ROW_MAJOR ? i * c.ldc + j : j * c.ldc + i] = NAN;
    memcpy(res, c0, ec * sizeof *res);
    reset_handlers();
    call_entry(via, &c, a, b, res);
    gk_check_result result;
    gk_check_sgemm(&c, a, b, c0, res, &result);
    if (!result.passed || xerbla_calls || cblas_xerbla_calls)
        print_error("%s %s %d/%d m=%lld n=%lld k=%lld alpha=%g beta=%g lda=%lld ldb=%lld ldc=%lld threshold=%s "
                    "(GEMMKIT_SEED=%llu): %s\n",
                    entry_names[via], c.layout == GEMMKIT_ROW_MAJOR ? "row" : "col",
                    (int)c.trans_a, (int)c.trans_b, (long long)c.m, (long long)c.n, (long long)c.k, c.alpha, c.beta,
                    (long long)c.lda, (long long)c.ldb, (long long)c.ldc, getenv("GEMMKIT_BLAS_THRESHOLD"),
                    (unsigned long long)seed, result.message);
    assert_true(result.passed);
    assert_int_equal(xerbla_calls, 0);
    assert_int_equal(cblas_xerbla_calls, 0);
    free(a);
    free(b);
    free(c0);
    free(res);
}

static const gemmkit_transpose transposes[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS, GEMMKIT_CONJ_TRANS};
static const int64_t shapes[][3] = {{1, 1, 1}, {2, 3, 4},   {5, 1, 7},    {1, 6, 3},   {7, 5, 3},
                                    {9, 8, 1}, {17, 33, 9}, {31, 29, 40}, {36, 12, 25}};

/* Every transpose pair, all four entry points and both layouts, tiny and ~300 sizes. */
static void all_combinations(void)
{
    for (int ta = 0; ta < 3; ta++)
        for (int tb = 0; tb < 3; tb++) {
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                gk_sgemm_case c = {GEMMKIT_COL_MAJOR, transposes[ta], transposes[tb], shapes[s][0], shapes[s][1],
                                   shapes[s][2], 1.0f, 0.0f, 0, 0, 0};
                run_case(VIA_F77, c, (int)(s & 1));
                run_case(VIA_F77_64, c, (int)(s & 2));
                c.alpha = -0.75f;
                c.beta = 1.5f;
                run_case(VIA_CBLAS, c, (int)(s & 2));
                run_case(VIA_CBLAS_64, c, (int)(s & 1));
                c.layout = GEMMKIT_ROW_MAJOR;
                run_case(VIA_CBLAS, c, (int)(s & 1));
                run_case(VIA_CBLAS_64, c, (int)(s & 2));
            }
            if (tb == 2 || ta == 2) continue; /* 'C' is 'T' for real data: the large sizes once each */
            gk_sgemm_case big = {GEMMKIT_COL_MAJOR, transposes[ta], transposes[tb], 300, 257, 311, 1.25f, -0.5f, 0, 0, 0};
            run_case(VIA_F77, big, 1);
            run_case(VIA_F77_64, big, 0);
            big.layout = GEMMKIT_ROW_MAJOR;
            big.beta = 0.0f;
            run_case(VIA_CBLAS, big, 0);
            run_case(VIA_CBLAS_64, big, 1);
        }
}

static void test_cpu_path_every_combination(void **state)
{
    (void)state;
    setenv("GEMMKIT_BLAS_THRESHOLD", "1e30", 1);
    gk_blas_stats before, after;
    gk_blas_get_stats(&before);
    all_combinations();
    gk_blas_get_stats(&after);
    assert_int_equal(after.device_calls, before.device_calls);
    assert_true(after.cpu_calls > before.cpu_calls);
}

/* gemmkit's own loop, which serves CPU calls when the process has no CPU
 * BLAS: every transpose pair, beta over NaN and not, on 1 to 3 threads (one
 * per online CPU with 0), sizes that split unevenly between the threads. */
static void test_own_cpu_loop(void **state)
{
    (void)state;
    static const int64_t sizes[][3] = {{1, 1, 1}, {17, 33, 9}, {70, 3, 40}, {5, 130, 66}, {300, 257, 311}};
    for (int threads = 0; threads <= 3; threads++)
        for (int ta = 0; ta < 2; ta++)
            for (int tb = 0; tb < 2; tb++)
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                    gk_sgemm_case c = {GEMMKIT_COL_MAJOR, transposes[ta], transposes[tb], sizes[s][0], sizes[s][1],
                                       sizes[s][2], 0.75f, (s & 1) ? 0.0f : -1.25f, 0, 0, 0};
                    gk_case_complete(&c);
                    c.lda += (int64_t)s;
                    c.ldc += 1;
                    size_t ea, eb, ec;
                    gk_case_extents(&c, &ea, &eb, &ec);
                    float *a = malloc(ea * sizeof *a), *b = malloc(eb * sizeof *b), *c0 = malloc(ec * sizeof *c0),
                          *res = malloc(ec * sizeof *res);
                    assert_true(a && b && c0 && res);
                    gk_fill_random(&rng, a, ea);
                    gk_fill_random(&rng, b, eb);
                    if (c.beta == 0.0f) gk_fill_value(c0, ec, NAN);
                    else gk_fill_random(&rng, c0, ec);
                    memcpy(res, c0, ec * sizeof *res);
                    gk_blas_cpu_sgemm(ta, tb, c.m, c.n, c.k, c.alpha, a, c.lda, b, c.ldb, c.beta, res, c.ldc, threads);
                    gk_check_result result;
                    gk_check_sgemm(&c, a, b, c0, res, &result);
                    if (!result.passed)
                        print_error("own loop, %d threads, %d/%d %lldx%lldx%lld (GEMMKIT_SEED=%llu): %s\n", threads,
                                    ta, tb, (long long)c.m, (long long)c.n, (long long)c.k, (unsigned long long)seed,
                                    result.message);
                    assert_true(result.passed);
                    free(a);
                    free(b);
                    free(c0);
                    free(res);
                }
}

static void test_device_path_every_combination(void **state)
{
    (void)state;
    setenv("GEMMKIT_BLAS_THRESHOLD", "0", 1);
    gk_blas_stats before, after;
    gk_blas_get_stats(&before);
    all_combinations();
    gk_blas_get_stats(&after);
    assert_int_equal(after.fallbacks, before.fallbacks);
    assert_int_equal(after.cpu_calls, before.cpu_calls);
    assert_true(after.device_calls > before.device_calls);
}

/* Calls below the threshold stay on the CPU, those at or above go to the device. */
static void test_threshold_splits_calls(void **state)
{
    (void)state;
    setenv("GEMMKIT_BLAS_THRESHOLD", "1000", 1);
    gk_blas_stats s0, s1, s2;
    gk_blas_get_stats(&s0);
    gk_sgemm_case small = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 9, 10, 11, 1.0f, 0.5f, 0, 0, 0};
    run_case(VIA_F77, small, 0); /* 990 multiply-adds */
    gk_blas_get_stats(&s1);
    assert_int_equal(s1.cpu_calls, s0.cpu_calls + 1);
    gk_sgemm_case large = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 10, 10, 10, 1.0f, 0.5f, 0, 0, 0};
    run_case(VIA_F77, large, 0); /* 1000 */
    gk_blas_get_stats(&s2);
    assert_int_equal(s2.device_calls, s1.device_calls + 1);
}

/* With the default threshold, a large call goes to a GPU, but not to a CPU
 * device such as PoCL (the drop-in's own loop serves it instead). A device
 * with a measured line (builtin.tsv has some for GPUs) follows its line. */
static void test_default_threshold_uses_gpus_only(void **state)
{
    (void)state;
    unsetenv("GEMMKIT_BLAS_THRESHOLD");
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(ctx, &info), GEMMKIT_SUCCESS);
    double line = 0.0;
    const int measured = gemmkit_context_blas_threshold(ctx, &line, NULL);
    gemmkit_context_destroy(ctx);
    const int small_on_device = measured && 990000.0 >= line;
    const int large_on_device = measured ? 1000000.0 >= line : info.is_gpu;
    gk_blas_stats s0, s1, s2;
    gk_blas_get_stats(&s0);
    gk_sgemm_case small = {GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 99, 100, 100, 1.0f, 0.0f, 0, 0, 0};
    run_case(VIA_CBLAS, small, 0); /* 990000 < 1e6 */
    gk_blas_get_stats(&s1);
    if (small_on_device)
        assert_int_equal(s1.device_calls, s0.device_calls + 1);
    else
        assert_int_equal(s1.cpu_calls, s0.cpu_calls + 1);
    gk_sgemm_case large = {GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 100, 100, 100, 1.0f, 0.0f, 0, 0, 0};
    run_case(VIA_CBLAS, large, 0);
    gk_blas_get_stats(&s2);
    if (large_on_device)
        assert_int_equal(s2.device_calls, s1.device_calls + 1);
    else
        assert_int_equal(s2.cpu_calls, s1.cpu_calls + 1);
}

static void test_alpha_beta_values(void **state)
{
    (void)state;
    static const float alphas[] = {1.0f, -0.5f, 2.5f, 0.0f};
    static const float betas[] = {0.0f, 1.0f, -1.5f, 0.25f};
    const char *thresholds[] = {"1e30", "0"};
    for (int t = 0; t < 2; t++) {
        setenv("GEMMKIT_BLAS_THRESHOLD", thresholds[t], 1);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 23, 19, 14, alphas[i], betas[j],
                                   0, 0, 0};
                run_case(VIA_F77, c, 1);
                c.layout = GEMMKIT_ROW_MAJOR;
                run_case(VIA_CBLAS, c, 0);
            }
    }
}

/* beta == 0: C is written, never read, even where it holds NaN. */
static void test_beta_zero_ignores_nan(void **state)
{
    (void)state;
    const char *thresholds[] = {"1e30", "0"};
    for (int t = 0; t < 2; t++) {
        setenv("GEMMKIT_BLAS_THRESHOLD", thresholds[t], 1);
        enum { M = 6, N = 5, K = 4 };
        float a[M * K], b[K * N], c[M * N];
        gk_fill_random(&rng, a, M * K);
        gk_fill_random(&rng, b, K * N);
        gk_fill_value(c, M * N, NAN);
        cblas_sgemm(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N, K, 1.0f, a, M, b, K, 0.0f, c, M);
        for (int i = 0; i < M * N; i++) assert_false(isnan(c[i]));
        /* alpha == 0 too: C becomes exactly zero, A and B are not read. */
        gk_fill_value(c, M * N, NAN);
        cblas_sgemm(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N, K, 0.0f, NULL, M, NULL, K, 0.0f, c, M);
        for (int i = 0; i < M * N; i++) assert_true(c[i] == 0.0f);
    }
}

/* Nothing to do: nothing is read or written, and no pointer is touched. */
static void test_quick_returns(void **state)
{
    (void)state;
    setenv("GEMMKIT_BLAS_THRESHOLD", "0", 1);
    float c[4] = {NAN, 1.0f, 2.0f, 3.0f}, keep[4];
    memcpy(keep, c, sizeof c);
    float one = 1.0f, zero = 0.0f, two = 2.0f;
    int m0 = 0, n0 = 0, k0 = 0, two_i = 2, one_i = 1;
    gk_blas_stats before, after;
    gk_blas_get_stats(&before);
    reset_handlers();
    sgemm_("N", "N", &m0, &two_i, &two_i, &one, NULL, &one_i, NULL, &two_i, &two, NULL, &one_i); /* m == 0 */
    sgemm_("T", "N", &two_i, &n0, &two_i, &one, NULL, &two_i, NULL, &two_i, &two, NULL, &two_i); /* n == 0 */
    sgemm_("N", "T", &two_i, &two_i, &two_i, &zero, NULL, &two_i, NULL, &two_i, &one, c, &two_i); /* alpha 0, beta 1 */
    sgemm_("N", "N", &two_i, &two_i, &k0, &one, NULL, &two_i, NULL, &one_i, &one, c, &two_i);    /* k 0, beta 1 */
    cblas_sgemm(GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 0, 2, 2, 1.0f, NULL, 2, NULL, 2, 2.0f, NULL, 2);
    cblas_sgemm(GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 2, 2, 0, 1.0f, NULL, 2, NULL, 2, 1.0f, c, 2);
    gk_blas_get_stats(&after);
    assert_int_equal(after.quick_returns, before.quick_returns + 6);
    assert_int_equal(after.cpu_calls + after.device_calls, before.cpu_calls + before.device_calls);
    assert_memory_equal(c, keep, sizeof c);
    assert_int_equal(xerbla_calls + cblas_xerbla_calls, 0);
    /* k == 0 with beta != 1 scales C and reads neither A nor B. */
    float d[4] = {1.0f, -2.0f, 3.0f, -4.0f};
    sgemm_("N", "N", &two_i, &two_i, &k0, &one, NULL, &two_i, NULL, &one_i, &two, d, &two_i);
    assert_true(d[0] == 2.0f && d[1] == -4.0f && d[2] == 6.0f && d[3] == -8.0f);
}

/* ---- illegal arguments */

typedef struct f77_args {
    char ta, tb;
    int m, n, k, lda, ldb, ldc;
} f77_args;

/* Calls sgemm_ with `args` on a NaN-filled C and checks the report and that C
 * is untouched. */
static void expect_f77_error(f77_args args, int position)
{
    float a[64], b[64], c[64], keep[64];
    gk_fill_random(&rng, a, 64);
    gk_fill_random(&rng, b, 64);
    gk_fill_random(&rng, c, 64);
    c[0] = NAN;
    memcpy(keep, c, sizeof c);
    float alpha = 1.0f, beta = 0.0f;
    reset_handlers();
    sgemm_(&args.ta, &args.tb, &args.m, &args.n, &args.k, &alpha, a, &args.lda, b, &args.ldb, &beta, c, &args.ldc);
    if (xerbla_info != position)
        print_error("sgemm_(%c, %c, %d, %d, %d, lda=%d, ldb=%d, ldc=%d): xerbla_ got %d, expected %d\n", args.ta,
                    args.tb, args.m, args.n, args.k, args.lda, args.ldb, args.ldc, xerbla_info, position);
    assert_int_equal(xerbla_calls, 1);
    assert_int_equal(xerbla_info, position);
    assert_string_equal(xerbla_name, "SGEMM");
    assert_int_equal(cblas_xerbla_calls, 0);
    assert_memory_equal(c, keep, sizeof c);
}

static void test_f77_illegal_arguments(void **state)
{
    (void)state;
    setenv("GEMMKIT_BLAS_THRESHOLD", "0", 1);
    /* A legal call: M=4 x N=3, K=2, A is 4x2 (lda 4), B 2x3 (ldb 2), C 4x3 (ldc 4). */
    const f77_args ok = {'N', 'N', 4, 3, 2, 4, 2, 4};
    f77_args x;
    x = ok; x.ta = 'X'; expect_f77_error(x, 1);
    x = ok; x.ta = ' '; expect_f77_error(x, 1);
    x = ok; x.tb = 'Y'; expect_f77_error(x, 2);
    x = ok; x.m = -1; expect_f77_error(x, 3);
    x = ok; x.n = -1; expect_f77_error(x, 4);
    x = ok; x.k = -1; expect_f77_error(x, 5);
    x = ok; x.lda = 3; expect_f77_error(x, 8);
    x = ok; x.ta = 'T'; x.lda = 1; expect_f77_error(x, 8); /* A^T stored K x M: lda >= K = 2 */
    x = ok; x.ldb = 1; expect_f77_error(x, 10);
    x = ok; x.tb = 't'; x.ldb = 2; expect_f77_error(x, 10); /* B^T stored N x K: ldb >= N = 3 */
    x = ok; x.ldc = 3; expect_f77_error(x, 13);
    x = ok; x.m = 0; x.lda = 0; expect_f77_error(x, 8); /* max(1, 0) */
    x = ok; x.m = 0; x.ldc = 0; x.lda = 1; expect_f77_error(x, 13);
    /* The first bad argument in the reference order wins. */
    x = ok; x.tb = 'Q'; x.m = -1; x.ldc = 0; expect_f77_error(x, 2);
    x = ok; x.n = -2; x.k = -1; x.lda = 0; expect_f77_error(x, 4);
    x = ok; x.lda = 1; x.ldb = 1; x.ldc = 1; expect_f77_error(x, 8);
}

/* The 64-bit entry points read 64-bit integers: sizes past 2^31 are checked
 * as such (a 32-bit reading would see m = 0, a quick return), and errors
 * reach the same handlers with the same positions. */
static void test_ilp64_arguments(void **state)
{
    (void)state;
    float a[16], b[16], c[16], keep[16];
    gk_fill_random(&rng, a, 16);
    gk_fill_random(&rng, b, 16);
    gk_fill_random(&rng, c, 16);
    memcpy(keep, c, sizeof c);
    const float alpha = 1.0f, beta = 0.5f;
    const int64_t huge = (int64_t)1 << 32, two = 2, four = 4;
    reset_handlers();
    sgemm_64_("N", "N", &huge, &two, &two, &alpha, a, &four, b, &two, &beta, c, &four);
    assert_int_equal(xerbla_calls, 1);
    assert_int_equal(xerbla_info, 8); /* lda = 4 < m = 2^32 */
    assert_string_equal(xerbla_name, "SGEMM");
    const int64_t minus = -1;
    reset_handlers();
    sgemm_64_("N", "N", &two, &two, &minus, &alpha, a, &four, b, &two, &beta, c, &four);
    assert_int_equal(xerbla_info, 5);
    reset_handlers();
    cblas_sgemm_64(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, huge, 2, 2, 1.0f, a, 2, b, 2, 0.5f, c, 2);
    assert_int_equal(cblas_xerbla_calls, 1);
    assert_int_equal(cblas_xerbla_pos, 9); /* lda = 2 < m = 2^32 */
    assert_string_equal(cblas_xerbla_rout, "cblas_sgemm_64");
    reset_handlers();
    cblas_sgemm_64(GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2, 2, 2, 1.0f, a, huge, b, 2, 0.5f, c, 1);
    assert_int_equal(cblas_xerbla_pos, 14); /* a legal lda of 2^32, then ldc = 1 < n = 2 */
    assert_memory_equal(c, keep, sizeof c);
}

typedef struct cblas_args {
    int layout, ta, tb, m, n, k, lda, ldb, ldc;
} cblas_args;

static void expect_cblas_error(cblas_args args, int position)
{
    float a[64], b[64], c[64], keep[64];
    gk_fill_random(&rng, a, 64);
    gk_fill_random(&rng, b, 64);
    gk_fill_random(&rng, c, 64);
    c[1] = NAN;
    memcpy(keep, c, sizeof c);
    reset_handlers();
    cblas_sgemm((gemmkit_layout)args.layout, (gemmkit_transpose)args.ta, (gemmkit_transpose)args.tb, args.m, args.n,
                args.k, 1.0f, a, args.lda, b, args.ldb, 0.5f, c, args.ldc);
    if (cblas_xerbla_pos != position)
        print_error("cblas_sgemm(%d, %d, %d, %d, %d, %d, lda=%d, ldb=%d, ldc=%d): cblas_xerbla got %d, expected %d\n",
                    args.layout, args.ta, args.tb, args.m, args.n, args.k, args.lda, args.ldb, args.ldc,
                    cblas_xerbla_pos, position);
    assert_int_equal(cblas_xerbla_calls, 1);
    assert_int_equal(cblas_xerbla_pos, position);
    assert_string_equal(cblas_xerbla_rout, "cblas_sgemm");
    assert_int_equal(xerbla_calls, 0);
    assert_memory_equal(c, keep, sizeof c);
}

static void test_cblas_illegal_arguments(void **state)
{
    (void)state;
    setenv("GEMMKIT_BLAS_THRESHOLD", "0", 1);
    /* M=4, N=3, K=2. Column-major: lda >= 4, ldb >= 2, ldc >= 4.
     * Row-major: lda >= K = 2, ldb >= N = 3, ldc >= N = 3. */
    const cblas_args col = {102, 111, 111, 4, 3, 2, 4, 2, 4}, row = {101, 111, 111, 4, 3, 2, 2, 3, 3};
    cblas_args x;
    x = col; x.layout = 100; expect_cblas_error(x, 1);
    x = col; x.layout = 0; x.ta = 5; expect_cblas_error(x, 1);
    x = col; x.ta = 114; expect_cblas_error(x, 2);
    x = row; x.ta = 110; expect_cblas_error(x, 2);
    x = col; x.tb = 0; expect_cblas_error(x, 3);
    x = row; x.tb = 'N'; expect_cblas_error(x, 3);
    x = col; x.ta = 1; x.tb = 1; expect_cblas_error(x, 2);
    x = col; x.m = -1; expect_cblas_error(x, 4);
    x = row; x.m = -1; expect_cblas_error(x, 4);
    x = col; x.n = -1; expect_cblas_error(x, 5);
    x = row; x.n = -1; expect_cblas_error(x, 5);
    x = col; x.k = -1; expect_cblas_error(x, 6);
    x = row; x.k = -1; expect_cblas_error(x, 6);
    x = col; x.lda = 3; expect_cblas_error(x, 9);
    x = row; x.lda = 1; expect_cblas_error(x, 9);
    x = row; x.ta = 112; x.lda = 3; expect_cblas_error(x, 9); /* A^T row-major is K x M: lda >= M = 4 */
    x = col; x.ldb = 1; expect_cblas_error(x, 11);
    x = row; x.ldb = 2; expect_cblas_error(x, 11);
    x = row; x.tb = 113; x.ldb = 1; expect_cblas_error(x, 11); /* B^T row-major is N x K: ldb >= K = 2 */
    x = col; x.ldc = 3; expect_cblas_error(x, 14);
    x = row; x.ldc = 2; expect_cblas_error(x, 14);
    /* Reference order: column-major tests M before N and lda before ldb;
     * row-major tests the transposed problem, so N before M, ldb before lda. */
    x = col; x.m = -1; x.n = -1; expect_cblas_error(x, 4);
    x = row; x.m = -1; x.n = -1; expect_cblas_error(x, 5);
    x = col; x.lda = 1; x.ldb = 1; expect_cblas_error(x, 9);
    x = row; x.lda = 1; x.ldb = 1; expect_cblas_error(x, 11);
    x = row; x.k = -1; x.m = -3; expect_cblas_error(x, 4);
    x = col; x.k = -1; x.ldc = 0; x.ta = 999; expect_cblas_error(x, 2);
}

/* ---- threads: the shared context is created once, calls from many threads */

typedef struct thread_job {
    int index;
    int ok;
} thread_job;

static void *thread_main(void *arg)
{
    thread_job *job = arg;
    gk_rng local;
    gk_rng_seed(&local, seed + (uint64_t)job->index * 7919u);
    enum { M = 40, N = 33, K = 27 };
    float a[M * K], b[K * N], c[M * N], ref[M * N];
    job->ok = 1;
    for (int rep = 0; rep < 4; rep++) {
        gk_fill_random(&local, a, M * K);
        gk_fill_random(&local, b, K * N);
        gk_fill_value(c, M * N, NAN);
        cblas_sgemm(GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N, K, 1.0f, a, K, b, N, 0.0f, c, N);
        gemmkit_sgemm_reference(GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N, K, 1.0f, a, K, b, N, 0.0f,
                                ref, N);
        for (int i = 0; i < M * N; i++)
            if (!(fabsf(c[i] - ref[i]) <= 1e-4f * (float)K)) job->ok = 0;
    }
    return NULL;
}

static void test_threads_share_the_device(void **state)
{
    (void)state;
    setenv("GEMMKIT_BLAS_THRESHOLD", "0", 1);
    enum { THREADS = 4 };
    pthread_t threads[THREADS];
    thread_job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t].index = t;
        assert_int_equal(pthread_create(&threads[t], NULL, thread_main, &jobs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        assert_true(jobs[t].ok);
    }
}

static int setup(void **state)
{
    (void)state;
    seed = gk_rng_fresh_seed();
    gk_rng_seed(&rng, seed);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* Threads first, so that they race to create the shared context. */
        cmocka_unit_test(test_threads_share_the_device),
        cmocka_unit_test(test_cpu_path_every_combination),
        cmocka_unit_test(test_own_cpu_loop),
        cmocka_unit_test(test_device_path_every_combination),
        cmocka_unit_test(test_threshold_splits_calls),
        cmocka_unit_test(test_default_threshold_uses_gpus_only),
        cmocka_unit_test(test_alpha_beta_values),
        cmocka_unit_test(test_beta_zero_ignores_nan),
        cmocka_unit_test(test_quick_returns),
        cmocka_unit_test(test_f77_illegal_arguments),
        cmocka_unit_test(test_cblas_illegal_arguments),
        cmocka_unit_test(test_ilp64_arguments),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
