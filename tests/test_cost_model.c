/* The cost model's arithmetic (src/core/cost_model.h) on a described H200, no device opened and no policy read: the
 * fit recovers the constants that generated its samples; a prediction grows with K; packing costs launches and
 * copies that a kernel reading the operands in place does not; split-K adds its reduction. (Its choice among the
 * policy's candidates and the database's cost lines: tests/test_policy.c.)
 * GK_DUMP_SHAPE=MxNxK[:TT] prints that shape's candidates (column-major, tight, op(A) and op(B) as the letters say)
 * on the H200's built-in lines, the CUDA ones with GK_DUMP_BACKEND=cuda, beta 1 with GK_DUMP_BETA set (a look at
 * the model, not a check). GK_DUMP_FILE=PATH does it for every "MxNxK TRANS LAYOUT" line of PATH (the first columns
 * of `bench --candidates-out`'s table; row-major swapped as the library does) as tab-separated rows, on the lines of
 * the device GK_DUMP_DEVICE names (default the H200): bench/model_replay.py replays timed candidates with them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dispatch_model.h"
#include "policy.h"
#include "sgemm.h"
#include "tuning.h"
#include "test_fake_device.h"

static gk_sgemm_problem problem(int64_t m, int64_t n, int64_t k, int trans_a, int trans_b)
{
    gk_sgemm_problem p = {0};
    p.m = m, p.n = n, p.k = k, p.trans_a = trans_a, p.trans_b = trans_b, p.alpha = 1, p.beta = 0;
    return p;
}

static gk_sgemm_candidate candidates[GK_SGEMM_MAX_CANDIDATES];

/* problem() stored tightly: C's columns float4s where 4 | M. */
static gk_sgemm_problem tight_problem(int64_t m, int64_t n, int64_t k, int trans_a, int trans_b)
{
    gk_sgemm_problem p = problem(m, n, k, trans_a, trans_b);
    p.a.ld = trans_a ? k : m, p.b.ld = trans_b ? n : k, p.c.ld = m;
    return p;
}

static void dump(const gemmkit_device_info *info, const gk_tuning_set *tuned, const char *shape)
{
    long long m, n, k;
    char trans[3] = "NN";
    if (sscanf(shape, "%lldx%lldx%lld:%2s", &m, &n, &k, trans) < 3) return;
    gk_sgemm_problem p = tight_problem(m, n, k, trans[0] == 'T', trans[1] == 'T');
    p.beta = getenv("GK_DUMP_BETA") ? 1 : 0;
    const int count = gk_sgemm_candidates(gk_policy_builtin(), info, tuned, &p, candidates, GK_SGEMM_MAX_CANDIDATES);
    for (int i = 0; i < count; i++)
        printf("%-22s %-24s s=%-3d %9.4f ms (kernel %.4f copies %.4f launches %d)\n", candidates[i].choice.def->name,
               candidates[i].line, candidates[i].splits, candidates[i].predicted_ms, candidates[i].parts.kernel_ms,
               candidates[i].parts.copies_ms, candidates[i].parts.launches);
}

/* Each "MxNxK TRANS LAYOUT" line of path: its candidates as rows of shape, trans, layout, kernel, line, splits and
 * predicted ms. A row-major call is the column-major C^T = op(B)^T op(A)^T (routine_gemm.c). */
static void dump_file(const gemmkit_device_info *info, const gk_tuning_set *tuned, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        long long m, n, k;
        char trans[3], layout[4];
        if (sscanf(line, "%lldx%lldx%lld %2s %3s", &m, &n, &k, trans, layout) != 5) continue;
        const int row = !strcmp(layout, "row"), ta = trans[0] == 'T', tb = trans[1] == 'T';
        const gk_sgemm_problem p = row ? tight_problem(n, m, k, tb, ta) : tight_problem(m, n, k, ta, tb);
        const int count = gk_sgemm_candidates(gk_policy_builtin(), info, tuned, &p, candidates, GK_SGEMM_MAX_CANDIDATES);
        for (int i = 0; i < count; i++)
            printf("%lldx%lldx%lld\t%s\t%s\t%s\t%s\t%d\t%.6g\n", m, n, k, trans, layout,
                   candidates[i].choice.def->name, candidates[i].line, candidates[i].splits, candidates[i].predicted_ms);
    }
    fclose(f);
}

static void test_dump_if_asked(void **state)
{
    (void)state;
    const char *shape = getenv("GK_DUMP_SHAPE"), *file = getenv("GK_DUMP_FILE");
    if (!shape && !file) return;
    gemmkit_device_info info = device(1);
    const char *backend = getenv("GK_DUMP_BACKEND"); /* "cuda": the CUDA lines */
    if (backend) snprintf(info.backend, sizeof info.backend, "%s", backend);
    const char *name = getenv("GK_DUMP_DEVICE"); /* "NVIDIA H100 80GB HBM3": that device's own lines too */
    if (name) snprintf(info.name, sizeof info.name, "%s", name);
    static gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    if (shape) dump(&info, &tuned, shape);
    if (file) dump_file(&info, &tuned, file);
}

/* ---- The model alone. */

/* Copies at 3000 GB/s, launches of 3 us, and one line "line" with the given constants. */
static gk_cost_constants constants_with(double rate, double occupancy, double bw_efficiency)
{
    gk_cost_constants c = {.copy_gbs = 3000.0, .launch_us = 3.0, .calibrated = 1, .count = 1};
    c.lines[0] = (gk_cost_line){"line", rate, occupancy, bw_efficiency, {0}, 0, 0};
    return c;
}

static gk_config config_of(const char *kernel, const char *params)
{
    gk_config config;
    assert_non_null(gk_kernel_find(kernel));
    assert_int_equal(gk_config_resolve(gk_kernel_find(kernel), params, &config), GEMMKIT_SUCCESS);
    return config;
}

static double predict_in_place(const gk_cost_constants *c, const gk_config *config, int64_t m, int64_t n, int64_t k,
                               int beta, unsigned in_place, int splits, gk_cost_parts *parts)
{
    const gemmkit_device_info info = device(1);
    gk_geometry g;
    assert_int_equal(gk_config_geometry(config, m, n, k, &g), GEMMKIT_SUCCESS);
    const gk_cost_problem p = {m, n, k, beta, in_place, 0, 0};
    return gk_cost_predict(c, &info, config, &g, "line", 0, &p, splits, parts);
}

static double predict(const gk_cost_constants *c, const gk_config *config, int64_t m, int64_t n, int64_t k, int beta,
                      int splits, gk_cost_parts *parts)
{
    return predict_in_place(c, config, m, n, k, beta, 0, splits, parts);
}

/* Tiles of three sizes on the operands as stored, and the packed kernel's main tiles. */
static const struct {
    const char *kernel, *params;
} configs[] = {
    {"xgemm-direct", "TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16"},
    {"xgemm-direct", "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8"},
    {"xgemm-direct", "TSM=32,TSN=32,TSK=32,WPTM=4,WPTN=4"},
    {"xgemm", "TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16"},
};
#define CONFIG_COUNT (int)(sizeof configs / sizeof configs[0])

/* Runs of every kind: compute-bound (large products), bound by latency (fewer work-groups than compute units
 * times OCC), memory-bound (a short K, a skinny edge), over K-slices and with C read (beta). */
static const struct {
    int64_t m, n, k;
    int splits, beta;
} runs[] = {
    {4096, 4096, 4096, 1, 0},   {2048, 2048, 2048, 1, 1}, {8192, 8192, 1024, 1, 0},  {128, 128, 16384, 1, 0},
    {256, 256, 65536, 1, 0},    {256, 256, 65536, 8, 0},  {128, 128, 131072, 32, 0}, {1024, 1024, 8192, 4, 1},
    {8192, 8192, 16, 1, 0},     {8192, 8192, 2, 1, 1},    {16384, 16, 16384, 1, 0},  {64, 64, 1000000, 128, 0},
    {512, 512, 512, 1, 0},      {1500, 1500, 1500, 2, 0},
};
#define RUN_COUNT (int)(sizeof runs / sizeof runs[0])

/* Samples of one configuration generated with the true constants, then fitted: the constants come back within 5%
 * and the samples' RMS log error is under 0.01. */
static void assert_fit_recovers(const gk_cost_line *truth, int first_config, int last_config)
{
    const gemmkit_device_info info = device(1);
    const gk_cost_constants c = constants_with(truth->rate_gflops, truth->occupancy, truth->bw_efficiency);
    gk_cost_sample samples[CONFIG_COUNT * RUN_COUNT] = {0};
    int count = 0;
    for (int i = first_config; i <= last_config; i++) {
        const gk_config config = config_of(configs[i].kernel, configs[i].params);
        for (int r = 0; r < RUN_COUNT; r++) {
            gk_cost_sample *s = &samples[count++];
            s->problem = (gk_cost_problem){runs[r].m, runs[r].n, runs[r].k, runs[r].beta, 0, 0, 0};
            s->splits = runs[r].splits;
            assert_int_equal(gk_config_geometry(&config, runs[r].m, runs[r].n, runs[r].k, &s->geometry),
                             GEMMKIT_SUCCESS);
            s->packed = gk_kernel_packs_operands(config.def);
            s->measured_ms = predict(&c, &config, runs[r].m, runs[r].n, runs[r].k, runs[r].beta, runs[r].splits, NULL);
        }
    }
    gk_cost_line fitted = {"line", 1000.0, 1.0, 0.1, {0}, 0, 0};
    const double error = gk_cost_fit_line(&c, &info, samples, count, &fitted);
    const double rate_error = fabs(fitted.rate_gflops / truth->rate_gflops - 1);
    const double occ_error = fabs(fitted.occupancy / truth->occupancy - 1);
    /* Where memory binds only a little, BWEFF moves a prediction only a little: what must hold is that the fitted
     * constants predict every sample within 2%. */
    double eff_error = 0;
    gk_cost_constants refit = c;
    refit.lines[0] = fitted;
    for (int i = 0; i < count; i++) {
        const gk_cost_sample *x = &samples[i];
        const gk_config config = config_of(configs[first_config + i / RUN_COUNT].kernel,
                                           configs[first_config + i / RUN_COUNT].params);
        const double again = predict(&refit, &config, x->problem.m, x->problem.n, x->problem.k,
                                     x->problem.beta_nonzero, x->splits, NULL);
        eff_error = fmax(eff_error, fabs(again / x->measured_ms - 1) * 2.5);
    }
    /* A truth with its own work-group cost (GOK) is fitted as closely; the GOK found need not be the truth's where
     * these few shapes cannot tell it from RATE and OCC (the predictions are what must hold). */
    const double truth_gok = truth->group_overhead_k > 0 ? truth->group_overhead_k : GK_COST_GROUP_OVERHEAD_K;
    if (!(error >= 0 && error < 0.01) || rate_error > 0.05 || occ_error > 0.05 || eff_error > 0.05)
        fail_msg("configs %d-%d: fitted RATE %.1f OCC %.3f BWEFF %.4f GOK %.1f (RMS log error %.5f), true %.1f %.3f "
                 "%.4f %.1f",
                 first_config, last_config, fitted.rate_gflops, fitted.occupancy, fitted.bw_efficiency,
                 fitted.group_overhead_k, error, truth->rate_gflops, truth->occupancy, truth->bw_efficiency, truth_gok);
    /* No samples, or one without a time: no fit. */
    assert_true(gk_cost_fit_line(&c, &info, samples, 0, &fitted) < 0);
    samples[0].measured_ms = 0;
    assert_true(gk_cost_fit_line(&c, &info, samples, count, &fitted) < 0);
}

static void test_fit_recovers_its_constants(void **state)
{
    (void)state;
    static const gk_cost_line truths[] = {
        {"line", 31000.0, 3.0, 0.62, {0}, 0, 0},
        {"line", 12000.0, 6.5, 0.35, {0}, 16, 0},
        {"line", 48000.0, 1.5, 0.9, {0}, 0, 0},
    };
    for (size_t t = 0; t < sizeof truths / sizeof truths[0]; t++) {
        for (int i = 0; i < CONFIG_COUNT; i++) assert_fit_recovers(&truths[t], i, i); /* one configuration each */
        assert_fit_recovers(&truths[t], 0, CONFIG_COUNT - 1);                        /* all together */
    }
}

/* More K never costs less: unsplit and over K-slices, compute- and memory-bound, with or without C read; doubling
 * a long K costs more. */
static void test_prediction_grows_with_k(void **state)
{
    (void)state;
    const gk_cost_constants c = constants_with(30000, 2, 0.6);
    static const int64_t edges[][2] = {{4096, 4096}, {128, 128}, {8192, 16}, {1, 29}, {1000, 3000}};
    for (int i = 0; i < CONFIG_COUNT; i++) {
        const gk_config config = config_of(configs[i].kernel, configs[i].params);
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
            for (int splits = 1; splits <= 16; splits *= 4)
                for (int beta = 0; beta < 2; beta++) {
                    const int64_t m = edges[e][0], n = edges[e][1];
                    double previous = 0;
                    for (int64_t k = 256 * splits; k <= 2000000; k += k / 3 + 1) {
                        const double ms = predict(&c, &config, m, n, k, beta, splits, NULL);
                        if (!(ms >= previous) || !(predict(&c, &config, m, n, 2 * k, beta, splits, NULL) > ms))
                            fail_msg("%s %s, %lld x %lld x %lld over %d: %.6g ms after %.6g", configs[i].kernel,
                                     configs[i].params, (long long)m, (long long)n, (long long)k, splits, ms, previous);
                        previous = ms;
                    }
                }
    }
}

/* Packing: the copies of A and B before the kernel and of C after it, each a launch and bytes at the copy
 * bandwidth; the kernel reading the operands as stored has neither. */
static void test_packing_costs_launches_and_copies(void **state)
{
    (void)state;
    const gk_cost_constants c = constants_with(30000, 2, 0.6);
    const gk_config direct = config_of("xgemm-direct", configs[0].params);
    const gk_config packed = config_of("xgemm", configs[0].params);
    static const int64_t shapes[][3] = {{4096, 4096, 4096}, {1000, 1000, 1000}, {8192, 8192, 2}, {20000, 48, 12000}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        gk_cost_parts d, p;
        predict(&c, &direct, shapes[i][0], shapes[i][1], shapes[i][2], 0, 1, &d);
        predict(&c, &packed, shapes[i][0], shapes[i][1], shapes[i][2], 0, 1, &p);
        assert_int_equal(d.launches, 1);
        assert_true(p.launches > d.launches);
        assert_true(p.launch_ms > d.launch_ms);
        assert_true(d.copies_ms == 0 && p.copies_ms > 0);
        /* At least A, B and C once through the copy bandwidth: 3000 GB/s is 3e6 bytes per ms. */
        const double bytes = 4.0 * (double)(shapes[i][0] * shapes[i][2] + shapes[i][2] * shapes[i][1] +
                                            shapes[i][0] * shapes[i][1]);
        assert_true(p.copies_ms >= bytes / 3e9);
    }
}

/* An orientation's factor scales a kernel on the operands as stored (not a packing one), and fits back from
 * samples made with it, the line's other constants held. */
static void test_orientation_scales_and_fits_back(void **state)
{
    (void)state;
    gk_cost_constants c = constants_with(30000, 2, 0.6);
    c.lines[0].orientation[2] = 0.55; /* TN */
    const gemmkit_device_info info = device(1);
    const gk_config direct = config_of("xgemm-direct", configs[1].params);
    const gk_config packed = config_of("xgemm", configs[0].params);
    static const int64_t shapes[][3] = {{4096, 4096, 4096}, {700, 900, 2000}, {8192, 16, 8192}};
    gk_cost_sample samples[3] = {0};
    for (int i = 0; i < 3; i++) {
        gk_geometry g;
        assert_int_equal(gk_config_geometry(&direct, shapes[i][0], shapes[i][1], shapes[i][2], &g), GEMMKIT_SUCCESS);
        const gk_cost_problem nn = {shapes[i][0], shapes[i][1], shapes[i][2], 0, 0, 0, 0};
        gk_cost_problem tn = nn, nt = nn;
        tn.trans_a = 1, nt.trans_b = 1;
        const double nn_ms = gk_cost_predict(&c, &info, &direct, &g, "line", 0, &nn, 1, NULL);
        const double tn_ms = gk_cost_predict(&c, &info, &direct, &g, "line", 0, &tn, 1, NULL);
        assert_true(tn_ms > nn_ms * 1.2);
        assert_true(gk_cost_predict(&c, &info, &direct, &g, "line", 0, &nt, 1, NULL) == nn_ms); /* NT: none given */
        gk_geometry pg;
        assert_int_equal(gk_config_geometry(&packed, shapes[i][0], shapes[i][1], shapes[i][2], &pg), GEMMKIT_SUCCESS);
        assert_true(gk_cost_predict(&c, &info, &packed, &pg, "line", 0, &tn, 1, NULL) ==
                    gk_cost_predict(&c, &info, &packed, &pg, "line", 0, &nn, 1, NULL));
        samples[i] = (gk_cost_sample){.problem = tn, .splits = 1, .geometry = g, .measured_ms = tn_ms};
    }
    gk_cost_line fitted = c.lines[0];
    fitted.orientation[2] = 0;
    assert_true(gk_cost_fit_orientation(&c, &info, samples, 3, 2, &fitted) < 0.02);
    assert_true(fabs(fitted.orientation[2] / 0.55 - 1) < 0.03);
}

/* As plan_packed: operands stored as the packed kernel reads them (its tiles dividing them, tight, C with alpha 1
 * and beta 0) are not copied; xgemm reads B as N x K, so B is copied whatever its storage; nothing is skipped
 * where the tiles do not divide the shape, nor C's unpacking over K-slices. */
static void test_packing_skips_operands_in_place(void **state)
{
    (void)state;
    const gk_cost_constants c = constants_with(30000, 2, 0.6);
    const gk_config packed = config_of("xgemm", configs[0].params);
    const unsigned all = GK_COST_IN_PLACE_A | GK_COST_IN_PLACE_B | GK_COST_IN_PLACE_C;
    gk_cost_parts copied, in_place;
    const double copied_ms = predict_in_place(&c, &packed, 4096, 4096, 4096, 0, 0, 1, &copied);
    const double in_place_ms = predict_in_place(&c, &packed, 4096, 4096, 4096, 0, all, 1, &in_place);
    assert_int_equal(copied.launches, 4);
    assert_int_equal(in_place.launches, 2); /* B's copy and the kernel */
    assert_true(in_place_ms < copied_ms && in_place.copies_ms < copied.copies_ms);
    /* B alone: 4096^2 floats read and written. */
    assert_true(fabs(in_place.copies_ms - 2.0 * 4.0 * 4096 * 4096 / 3e9) < 1e-9);
    predict_in_place(&c, &packed, 4096, 4096, 4096, 0, GK_COST_IN_PLACE_C, 1, &in_place);
    assert_int_equal(in_place.launches, 3);
    predict_in_place(&c, &packed, 1000, 1000, 1000, 0, all, 1, &in_place);
    assert_int_equal(in_place.launches, 4);
    const gk_config sliced = config_of("xgemm-splitk", configs[0].params);
    predict_in_place(&c, &sliced, 256, 256, 65536, 0, all, 8, &in_place);
    assert_int_equal(in_place.launches, 3); /* B, the slices, the reduction */
}

/* Split-K: a kernel on the operands as stored gets copies that grow with the slices' partials, and a reduction
 * launch past the slices its tiles' last slices sum in the kernel (xgemm-direct-splitk: up to 4); the packed
 * kernel's reduction replaces its unpacking (no more launches, more copies). Few tiles and a long K: the kernel's
 * own time falls with the slices. */
static void test_splits_add_a_reduction(void **state)
{
    (void)state;
    const gk_cost_constants c = constants_with(30000, 2, 0.6);
    static const int64_t shapes[][3] = {{128, 128, 131072}, {1024, 1024, 8192}, {64, 64, 1000000}, {4096, 4096, 4096}};
    for (int i = 0; i < CONFIG_COUNT; i++) {
        const gk_config config = config_of(configs[i].kernel, configs[i].params);
        const int packed = gk_kernel_packs_operands(config.def);
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            const int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            gk_cost_parts whole, previous;
            predict(&c, &config, m, n, k, 0, 1, &whole);
            previous = whole;
            gk_geometry g;
            assert_int_equal(gk_config_geometry(&config, m, n, k, &g), GEMMKIT_SUCCESS);
            const int64_t tiles = (m + g.tile_m - 1) / g.tile_m * ((n + g.tile_n - 1) / g.tile_n);
            for (int splits = 2; splits <= 32; splits *= 2) {
                gk_cost_parts split;
                predict(&c, &config, m, n, k, 0, splits, &split);
                const int reduction_step = !gk_split_sums_in_kernel(gk_model_split_build(config.def), splits, tiles);
                if (!packed) assert_int_equal(reduction_step, splits > GK_SUM_IN_KERNEL_SPLITS || tiles > GK_TILE_COUNTS);
                assert_int_equal(split.launches, whole.launches + (packed ? 0 : reduction_step));
                assert_true(split.copies_ms > previous.copies_ms);
                previous = split;
            }
        }
        gk_cost_parts whole, split;
        predict(&c, &config, 128, 128, 131072, 0, 1, &whole);
        predict(&c, &config, 128, 128, 131072, 0, 64, &split);
        assert_true(split.kernel_ms * 8 < whole.kernel_ms);
    }
}

/* The skinny kernels' split-K builds sum their partials in the kernel up to their sum_splits (more than
 * xgemm-direct-splitk's): one launch there, the reduction's second launch past it (the model weighs up to
 * GK_MODEL_MAX_SPLITS). */
static void test_skinny_splits_sum_in_the_kernel(void **state)
{
    (void)state;
    const gk_cost_constants c = constants_with(30000, 2, 0.6);
    static const struct {
        const char *kernel;
        int64_t m, n;
    } rows[] = {{"skinny-m", 4, 2048}, {"skinny-n", 2048, 4}, {"skinny-m-dot", 4, 2048}, {"skinny-n-dot", 2048, 4}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const gk_config config = config_of(rows[i].kernel, NULL);
        const gk_kernel_def *split = gk_model_split_build(config.def);
        assert_true(split && split->contract == GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM);
        assert_true(split->sum_splits > GK_SUM_IN_KERNEL_SPLITS && split->sum_splits < GK_MODEL_MAX_SPLITS);
        gk_cost_parts whole, sliced;
        predict(&c, &config, rows[i].m, rows[i].n, 1 << 20, 0, 1, &whole);
        assert_int_equal(whole.launches, 1);
        for (int splits = 2; splits <= GK_MODEL_MAX_SPLITS; splits *= 2) {
            predict(&c, &config, rows[i].m, rows[i].n, 1 << 20, 0, splits, &sliced);
            assert_int_equal(sliced.launches, splits <= split->sum_splits ? 1 : 2);
        }
    }
}

/* SUM: a split that sums its partials in the kernel costs SUM per slice more (its tiles' last slices add the
 * partials after the others are done); unsplit and the reduction step's runs cost the same as without. The
 * calibration's fit finds SUM again from such runs. */
static void test_in_kernel_sum_costs_a_tail_per_slice(void **state)
{
    (void)state;
    const gemmkit_device_info info = device(1);
    gk_cost_constants plain = constants_with(30000, 2, 0.6), summing = plain;
    summing.lines[0].sum_slice_us = 3.0;
    const gk_config config = config_of("xgemm-direct", "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8");
    const gk_kernel_def *split = gk_model_split_build(config.def);
    gk_cost_sample samples[8];
    int count = 0;
    static const int64_t shapes[][3] = {{300, 500, 3000}, {1500, 900, 1200}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int splits = 1; splits <= 8; splits *= 2) {
            const int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            gk_cost_parts without, with;
            predict(&plain, &config, m, n, k, 0, splits, &without);
            const double ms = predict(&summing, &config, m, n, k, 0, splits, &with);
            const int here = splits > 1 && gk_split_sums_in_kernel(split, splits, 1);
            assert_int_equal(here, splits > 1 && splits <= GK_SUM_IN_KERNEL_SPLITS);
            assert_true(fabs(with.kernel_ms - without.kernel_ms - (here ? splits * 3.0e-3 : 0.0)) < 1e-12);
            assert_int_equal(with.launches, without.launches);
            if (!here) continue;
            gk_cost_sample *x = &samples[count++];
            *x = (gk_cost_sample){.problem = {m, n, k, 0, 0, 0, 0}, .splits = splits, .split_def = split,
                                  .measured_ms = ms};
            assert_int_equal(gk_config_geometry(&config, m, n, k, &x->geometry), GEMMKIT_SUCCESS);
        }
    assert_true(count >= 2);
    gk_cost_line fitted = plain.lines[0];
    assert_true(gk_cost_fit_sum(&plain, &info, samples, count, &fitted) < 0.01);
    assert_true(fabs(fitted.sum_slice_us / 3.0 - 1) < 0.01); /* the fit's grid is 2% apart */
    /* No sample that summed in the kernel: nothing to fit, SUM left as it was. */
    samples[0].splits = 1;
    fitted.sum_slice_us = 0.5;
    assert_true(gk_cost_fit_sum(&plain, &info, samples, 1, &fitted) < 0);
    assert_true(fitted.sum_slice_us == 0.5);
}

/* A kernel that stores float4s of C, met with a C it cannot (GK_COST_SCALAR_C), costs SCALAR_C's share of its
 * bandwidth on C's stores: where they are the call (K = 1) and nowhere else; one that stores floats anyway
 * (small-k) costs the same either way, as does a device without the constant. */
static void test_scalar_c_slows_float4_stores(void **state)
{
    (void)state;
    gk_cost_constants c = constants_with(300000, 2, 0.9); /* arithmetic far below the stores of C at K = 1 */
    c.scalar_c = 0.45;
    const gk_config direct = config_of("xgemm-direct", NULL), small_k = config_of("small-k", NULL);
    const double aligned = predict_in_place(&c, &direct, 31286, 3825, 1, 0, 0, 1, NULL);
    const double scalar = predict_in_place(&c, &direct, 31286, 3825, 1, 0, GK_COST_SCALAR_C, 1, NULL);
    assert_true(scalar > 2.0 * aligned && scalar < 2.3 * aligned);
    assert_true(predict_in_place(&c, &small_k, 31286, 3825, 1, 0, GK_COST_SCALAR_C, 1, NULL) ==
                predict_in_place(&c, &small_k, 31286, 3825, 1, 0, 0, 1, NULL));
    const double square = predict_in_place(&c, &direct, 4096, 4096, 4096, 0, 0, 1, NULL);
    assert_true(predict_in_place(&c, &direct, 4096, 4096, 4096, 0, GK_COST_SCALAR_C, 1, NULL) == square);
    c.scalar_c = 0;
    assert_true(predict_in_place(&c, &direct, 31286, 3825, 1, 0, GK_COST_SCALAR_C, 1, NULL) == aligned);
}

/* A kernel that loads A and B as float4s where their columns allow (xgemm-direct), met with columns that do not
 * (GK_COST_SCALAR_A, _B), runs at SCALAR_AB's share of its rate per such operand: a compute-bound product takes
 * 1 / SCALAR_AB as long with one, its square with both. A packing kernel (xgemm) reads its own aligned copies:
 * the same time either way, as is a device without the constant. */
static void test_scalar_operands_slow_float4_loads(void **state)
{
    (void)state;
    gk_cost_constants c = constants_with(30000, 2, 0.6);
    c.scalar_ab = 0.8;
    const gk_config direct = config_of("xgemm-direct", NULL), packed = config_of("xgemm", NULL);
    gk_cost_parts aligned, one, both;
    predict_in_place(&c, &direct, 8192, 8192, 8192, 0, 0, 1, &aligned);
    predict_in_place(&c, &direct, 8192, 8192, 8192, 0, GK_COST_SCALAR_B, 1, &one);
    predict_in_place(&c, &direct, 8192, 8192, 8192, 0, GK_COST_SCALAR_A | GK_COST_SCALAR_B, 1, &both);
    assert_true(fabs(one.kernel_ms * 0.8 / aligned.kernel_ms - 1.0) < 1e-9);
    assert_true(fabs(both.kernel_ms * 0.64 / aligned.kernel_ms - 1.0) < 1e-9);
    assert_true(predict_in_place(&c, &packed, 8192, 8192, 8192, 0, GK_COST_SCALAR_A | GK_COST_SCALAR_B, 1, NULL) ==
                predict_in_place(&c, &packed, 8192, 8192, 8192, 0, 0, 1, NULL));
    c.scalar_ab = 0;
    assert_true(predict_in_place(&c, &direct, 8192, 8192, 8192, 0, GK_COST_SCALAR_A, 1, NULL) ==
                predict_in_place(&c, &direct, 8192, 8192, 8192, 0, 0, 1, NULL));
}

/* A kernel whose loop computes whole steps of K (xgemm-direct: TSK) is charged a whole step for a K of 1; one that
 * stops at K (small-k) only its K. */
static void test_short_k_costs_a_whole_loop_step(void **state)
{
    (void)state;
    const gk_cost_constants c = constants_with(30000, 2, 0.9);
    const gk_config direct = config_of("xgemm-direct", "TSK=32"), small_k = config_of("small-k", NULL);
    gk_cost_parts one, step;
    predict(&c, &direct, 4096, 4096, 1, 0, 1, &one);
    predict(&c, &direct, 4096, 4096, 32, 0, 1, &step);
    assert_true(one.kernel_ms >= 0.99 * step.kernel_ms);
    gk_cost_parts k1, k8;
    predict(&c, &small_k, 4096, 4096, 1, 0, 1, &k1);
    predict(&c, &small_k, 4096, 4096, 8, 0, 1, &k8);
    assert_true(k1.kernel_ms <= k8.kernel_ms);
}

/* Memory waits on latency as arithmetic does: a memory-bound kernel split into one work-group per compute unit
 * (132 slices of one 64-row block) moves its bytes slower than four per unit do, by the line's OCC; many per unit
 * reach its bandwidth. */
static void test_few_groups_draw_less_bandwidth(void **state)
{
    (void)state;
    const gk_cost_constants c = constants_with(1e7, 2, 0.9); /* arithmetic far below the bytes */
    const gk_config stream = config_of("skinny-n-splitk", "MR=4,LC=32,LK=8,NB=2,KU=8,PF=1");
    gk_cost_parts one, four, many;
    predict(&c, &stream, 62, 1, 903856, 0, 132, &one);
    predict(&c, &stream, 62, 1, 903856, 0, 4 * 132, &four);
    predict(&c, &stream, 62, 1, 903856, 0, 32 * 132, &many);
    assert_true(one.kernel_ms > 1.6 * four.kernel_ms && one.kernel_ms < 2.0 * four.kernel_ms);
    const double bytes_ms = 4.0 * (63.0 * 903856 + 64.0 * 32 * 132) / (3000e6 * 0.9); /* A, B, the partials */
    assert_true(many.kernel_ms > bytes_ms && many.kernel_ms < 1.01 * bytes_ms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_recovers_its_constants),
        cmocka_unit_test(test_prediction_grows_with_k),
        cmocka_unit_test(test_packing_costs_launches_and_copies),
        cmocka_unit_test(test_packing_skips_operands_in_place),
        cmocka_unit_test(test_orientation_scales_and_fits_back),
        cmocka_unit_test(test_splits_add_a_reduction),
        cmocka_unit_test(test_skinny_splits_sum_in_the_kernel),
        cmocka_unit_test(test_in_kernel_sum_costs_a_tail_per_slice),
        cmocka_unit_test(test_scalar_c_slows_float4_stores),
        cmocka_unit_test(test_scalar_operands_slow_float4_loads),
        cmocka_unit_test(test_short_k_costs_a_whole_loop_step),
        cmocka_unit_test(test_few_groups_draw_less_bandwidth),
        cmocka_unit_test(test_dump_if_asked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
