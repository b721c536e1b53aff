/* `gemmkit tune --calibrate` (tune.h, tune_calibrate.h): the cost model's constants measured on this device.
 * First the device's: the copy bandwidth (a large no-transpose somatcopy between gemmkit buffers, the fastest of
 * several) and a launch's device time (a 1x1x1 SGEMM naming `direct`, the median of many). Then per line the model
 * chooses among: device times (options.total_ms: every launch of the call, as the model predicts them) at shapes
 * designed to pin RATE, OCC and BWEFF and at random ones, the line's split-K counts where the model weighs them,
 * each the fastest of --repeat after a warm-up; gk_cost_fit_line fits the constants. The cost:* lines are saved
 * for the device by name, each as soon as it is measured, through the same atomic save as every tune line (a
 * calibration stopped midway keeps what it fitted). --lines fits only the lines it names (a new tuned line calibrated
 * without timing the others again), their cost:* lines replaced and every other one kept. Timings only: tune and
 * verify check the kernels' results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "check.h"
#include "cli.h"
#include "tune.h"
#include "dispatch_model.h"
#include "tune_calibrate.h"

#define COPY_FLOATS_GPU ((int64_t)64 << 20) /* 256 MiB: far past any cache */
#define COPY_FLOATS_CPU ((int64_t)2 << 20)  /* 8 MiB: PoCL copies with the CPU's cores */
#define COPY_ROWS 1024
#define COPY_RUNS 9
#define LAUNCH_RUNS 31
#define MAX_SPLIT_TIMINGS 4 /* per line: a few split counts beside its unsplit timings */
#define SPLITS_PER_SHAPE 2
#define MAX_TIMINGS (GK_CALIBRATE_MAX_SHAPES + MAX_SPLIT_TIMINGS)

/* A, B and C of every timing, grown to the largest shape so far; random inputs (no NaN, no denormals). */
typedef struct operands {
    gemmkit_context *ctx;
    gemmkit_buffer *buffer[3];
    size_t floats[3];
    gk_rng rng;
} operands;

static gemmkit_status ensure(operands *o, int which, size_t floats)
{
    if (o->floats[which] >= floats) return GEMMKIT_SUCCESS;
    gemmkit_buffer_destroy(o->buffer[which]);
    o->buffer[which] = NULL;
    o->floats[which] = 0;
    float *host = malloc(floats * sizeof *host);
    if (!host) return GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    gk_fill_random(&o->rng, host, floats);
    gemmkit_status status = gemmkit_buffer_create(o->ctx, floats, &o->buffer[which]);
    if (status == GEMMKIT_SUCCESS) status = gemmkit_buffer_write(o->ctx, o->buffer[which], 0, floats, host);
    free(host);
    if (status == GEMMKIT_SUCCESS) o->floats[which] = floats;
    return status;
}

static void release(operands *o)
{
    for (int i = 0; i < 3; i++) gemmkit_buffer_destroy(o->buffer[i]);
}

/* Device times (ms, options.total_ms) of `runs` calls, column-major, op(A) and op(B) transposed as `orientation`
 * says (gk_cost_orientation's index: 0 NN, 1 NT, 2 TN, 3 TT), tight, A and B from element `offset` of their
 * buffers, beta 0, after one warm-up (which also builds the program); the fastest, or the median when median is
 * set; < 0 when a call fails. */
static double time_call(operands *o, const char *kernel, const char *params, int64_t m, int64_t n, int64_t k,
                        int orientation, size_t offset, int runs, int median)
{
    const int trans_a = orientation >= 2, trans_b = orientation & 1;
    if (ensure(o, 0, offset + (size_t)(m * k)) != GEMMKIT_SUCCESS ||
        ensure(o, 1, offset + (size_t)(k * n)) != GEMMKIT_SUCCESS || ensure(o, 2, (size_t)(m * n)) != GEMMKIT_SUCCESS)
        return -1.0;
    double total = 0.0, ms[64]; /* LAUNCH_RUNS and tune's --repeat are at most 64 */
    if (runs > 64) runs = 64;
    const gemmkit_options options = {.kernel = kernel, .params = params, .total_ms = &total};
    for (int r = -1; r < runs; r++) {
        if (gemmkit_sgemm_buffers(o->ctx, &options, GEMMKIT_COL_MAJOR, trans_a ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS,
                                  trans_b ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, m, n, k, 1.0f, o->buffer[0], offset,
                                  trans_a ? k : m, o->buffer[1], offset, trans_b ? n : k, 0.0f, o->buffer[2], 0,
                                  m) != GEMMKIT_SUCCESS)
            return -1.0;
        if (r >= 0) ms[r] = total;
    }
    const gk_bench_stats stats = gk_bench_stats_of(ms, runs);
    return median ? stats.median : stats.min;
}

static double time_oriented(operands *o, const char *kernel, const char *params, int64_t m, int64_t n, int64_t k,
                            int orientation, int runs, int median)
{
    return time_call(o, kernel, params, m, n, k, orientation, 0, runs, median);
}

static double time_sgemm(operands *o, const char *kernel, const char *params, int64_t m, int64_t n, int64_t k,
                         int runs, int median)
{
    return time_oriented(o, kernel, params, m, n, k, 0, runs, median);
}

/* A share of the float4 rate from an aligned and a scalar timing (both > 0, else 0 after a message naming `what`
 * that failed), kept within 0.05..1. */
static double share_of(double aligned, double scalar, double share, const char *what)
{
    if (!(aligned > 0.0) || !(scalar > 0.0)) {
        fprintf(stderr, "gemmkit tune: timing xgemm-direct's %s failed: %s\n", what, gemmkit_last_error_message());
        return 0.0;
    }
    return share < 0.05 ? 0.05 : share > 1.0 ? 1.0 : share;
}

/* SCALAR_C (cost_model.h): how much longer xgemm-direct takes to store a C of side^2 floats (K = 4, where storing C
 * is the call; side: scalar_side) when C's columns are not whole float4s (M and its leading dimension side + 2)
 * than when they are, per float; 0 after a message where a timing fails. */
static int64_t scalar_side(const gemmkit_device_info *info) { return info->is_gpu ? 8192 : 512; }

static double measure_scalar_c(operands *o, const gemmkit_device_info *info)
{
    const int64_t side = scalar_side(info);
    const double aligned = time_sgemm(o, "xgemm-direct", NULL, side, side, 4, COPY_RUNS, 0);
    const double scalar = time_sgemm(o, "xgemm-direct", NULL, side + 2, side, 4, COPY_RUNS, 0);
    return share_of(aligned, scalar, aligned / scalar * (double)(side + 2) / (double)side, "stores");
}

/* SCALAR_AB (cost_model.h): the share of xgemm-direct's rate left per operand it loads a float at a time, from a
 * side^3 product (side: scalar_ab_side) with A and B one float past 16-byte alignment against the same product
 * aligned: the square root of the two times' ratio; 0 after a message where a timing fails. */
static int64_t scalar_ab_side(const gemmkit_device_info *info) { return info->is_gpu ? 2048 : 256; }

static double measure_scalar_ab(operands *o, const gemmkit_device_info *info)
{
    const int64_t side = scalar_ab_side(info);
    const double aligned = time_call(o, "xgemm-direct", NULL, side, side, side, 0, 0, COPY_RUNS, 0);
    const double scalar = time_call(o, "xgemm-direct", NULL, side, side, side, 0, 1, COPY_RUNS, 0);
    return share_of(aligned, scalar, sqrt(aligned / scalar), "loads");
}

/* The copy bandwidth (GB/s, bytes read and written) of the fastest of COPY_RUNS no-transpose somatcopies between
 * two buffers (the copy kernel omatcopy's policy runs), a launch's device time (us): the median of LAUNCH_RUNS
 * 1x1x1 SGEMMs naming direct, whose plan is that one launch, and SCALAR_C. 0, or -1 after a message. */
static int measure_device(operands *o, const gemmkit_device_info *info, gk_cost_constants *device)
{
    const int64_t floats = info->is_gpu ? COPY_FLOATS_GPU : COPY_FLOATS_CPU, cols = floats / COPY_ROWS;
    gemmkit_buffer *to = NULL;
    gemmkit_status status = ensure(o, 0, (size_t)floats);
    if (status == GEMMKIT_SUCCESS) status = gemmkit_buffer_create(o->ctx, (size_t)floats, &to);
    double total = 0.0, best = INFINITY;
    const gemmkit_options options = {.total_ms = &total};
    for (int r = -1; r < COPY_RUNS && status == GEMMKIT_SUCCESS; r++) {
        status = gemmkit_somatcopy_buffers(o->ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, COPY_ROWS, cols,
                                           1.0f, o->buffer[0], 0, COPY_ROWS, to, 0, COPY_ROWS);
        if (r >= 0 && total < best) best = total;
    }
    gemmkit_buffer_destroy(to);
    if (status != GEMMKIT_SUCCESS || !(best > 0.0)) {
        gk_cli_report("timing the device's copy", status);
        return -1;
    }
    device->copy_gbs = 2.0 * (double)floats * sizeof(float) / (best * 1e6);
    const double launch_ms = time_sgemm(o, "direct", NULL, 1, 1, 1, LAUNCH_RUNS, 1);
    if (!(launch_ms > 0.0)) {
        fprintf(stderr, "gemmkit tune: timing a launch (1x1x1 direct) failed: %s\n", gemmkit_last_error_message());
        return -1;
    }
    device->launch_us = launch_ms * 1000.0;
    device->scalar_c = measure_scalar_c(o, info);
    if (!(device->scalar_c > 0.0)) return -1;
    device->scalar_ab = measure_scalar_ab(o, info);
    if (!(device->scalar_ab > 0.0)) return -1;
    char copy[32], launch[32], scalar_c[32], scalar_ab[32];
    gk_calibrate_number(device->copy_gbs, copy, sizeof copy);
    gk_calibrate_number(device->launch_us, launch, sizeof launch);
    gk_calibrate_number(device->scalar_c, scalar_c, sizeof scalar_c);
    gk_calibrate_number(device->scalar_ab, scalar_ab, sizeof scalar_ab);
    printf("device: copy %s GB/s (%lld x %lld floats, no transpose, fastest of %d), launch %s us (1x1x1 direct, "
           "median of %d), C stored by floats at %s of its float4 rate (xgemm-direct, %lld^2 x 4), A and B loaded "
           "by floats at %s each (xgemm-direct, %lld^3)\n",
           copy, (long long)COPY_ROWS, (long long)cols, COPY_RUNS, launch, LAUNCH_RUNS, scalar_c,
           (long long)scalar_side(info), scalar_ab, (long long)scalar_ab_side(info));
    return 0;
}

/* One line's timings and their fit. */
typedef struct line_result {
    gk_cost_line fitted;
    double rms; /* < 0: not fitted */
    int timings;
    gk_cost_sample samples[MAX_TIMINGS];
    const char *why[MAX_TIMINGS];
    const gk_kernel_def *run[MAX_TIMINGS]; /* the kernel each ran (the split-K build where splits > 1) */
    gk_config config[MAX_TIMINGS];
    double orientation_rms[4]; /* each orientation's fit, < 0 where not timed */
} line_result;

/* A timing of time_oriented's calls as the model sees it: tight, alpha 1, beta 0, so every operand stored
 * untransposed is usable in place; columns whose leading dimension is no multiple of 4 are not float4s. */
static gk_cost_sample sample_of(const gk_calibrate_shape *z, const gk_config *config, int orientation, int splits,
                                double ms)
{
    const int trans_a = orientation >= 2, trans_b = orientation & 1;
    const int64_t lda = trans_a ? z->k : z->m, ldb = trans_b ? z->n : z->k;
    const unsigned storage = (trans_a ? 0 : GK_COST_IN_PLACE_A) | (trans_b ? 0 : GK_COST_IN_PLACE_B) |
                             GK_COST_IN_PLACE_C | (z->m % 4 ? GK_COST_SCALAR_C : 0) |
                             (lda % 4 ? GK_COST_SCALAR_A : 0) | (ldb % 4 ? GK_COST_SCALAR_B : 0);
    const int packed = gk_kernel_packs_operands(config->def);
    return (gk_cost_sample){.problem = {z->m, z->n, z->k, 0, storage, trans_a, trans_b}, .splits = splits,
                            .measured_ms = ms, .packed = packed, .packs_b = gk_cost_packs_b(config->def),
                            .split_def = splits > 1 ? gk_model_split_build(config->def) : NULL,
                            .loads_vec_a = !packed && (config->def->defines & GK_DEFINE_VEC_A),
                            .loads_vec_b = !packed && (config->def->defines & GK_DEFINE_VEC_B)};
}

static void add_sample(line_result *r, const gk_calibrate_shape *z, const gk_config *config, int splits, double ms)
{
    gk_cost_sample *s = &r->samples[r->timings];
    *s = sample_of(z, config, z->orientation, splits, ms);
    if (gk_config_geometry(config, z->m, z->n, z->k, &s->geometry) != GEMMKIT_SUCCESS) return;
    r->why[r->timings] = z->why;
    r->run[r->timings] = config->def;
    r->config[r->timings++] = *config;
}

/* The line's split-K runs at shape z that the model weighs (its candidates there, cheapest first), at most
 * SPLITS_PER_SHAPE of them, timed and added. */
static void time_splits(operands *o, const gk_calibrate_line *line, const gk_calibrate_shape *z, int repeat,
                        gk_sgemm_candidate *candidates, line_result *r, int *split_timings)
{
    const int count = gk_calibrate_candidates_at(o->ctx, z, candidates, GK_SGEMM_MAX_CANDIDATES);
    for (int c = 0, here = 0; c < count && here < SPLITS_PER_SHAPE && *split_timings < MAX_SPLIT_TIMINGS &&
                              r->timings < MAX_TIMINGS;
         c++) {
        const gk_sgemm_candidate *cand = &candidates[c];
        if (cand->splits <= 1 || !cand->choice.def || strcmp(cand->line, line->name) != 0) continue;
        const double ms =
            time_oriented(o, cand->choice.def->name, cand->params, z->m, z->n, z->k, z->orientation, repeat, 0);
        (*split_timings)++;
        here++;
        if (ms > 0.0) add_sample(r, z, &cand->choice.config, cand->splits, ms);
        else fprintf(stderr, "  %s with %d slices at %lldx%lldx%lld failed: %s\n", line->name, cand->splits,
                     (long long)z->m, (long long)z->n, (long long)z->k, gemmkit_last_error_message());
    }
}

/* gk_calibrate_weighs for one line: whether it is among the model's candidates at z. */
typedef struct weighing {
    gemmkit_context *ctx;
    const char *line;
    gk_sgemm_candidate *candidates;
    int orientation; /* the line's (gk_calibrate_line.orientation): the shapes' */
} weighing;

static int weighs(void *data, const gk_calibrate_shape *shape)
{
    const weighing *w = data;
    gk_calibrate_shape z = *shape;
    z.orientation = w->orientation;
    const int count = gk_calibrate_candidates_at(w->ctx, &z, w->candidates, GK_SGEMM_MAX_CANDIDATES);
    for (int i = 0; i < count; i++)
        if (strcmp(w->candidates[i].line, w->line) == 0) return 1;
    return 0;
}

/* The line's NT, TN and TT factors (a kernel that reads the operands as stored): timed unsplit at its first two
 * designed shapes and its last one, each fitted with the constants of its own orientation held (NN, or the one its
 * shapes were timed in, whose factor stays 1). */
static void calibrate_orientations(operands *o, const gemmkit_device_info *info, const gk_cost_constants *device,
                                   const gk_calibrate_line *line, const gk_calibrate_shape *shapes, int count,
                                   int repeat, line_result *r)
{
    const int picks[] = {0, 1, count - 1};
    for (int t = 1; t < 4; t++) {
        if (t == line->orientation) continue;
        gk_cost_sample samples[3];
        int timed = 0;
        for (int i = 0; i < 3; i++) {
            if (picks[i] < 0 || picks[i] >= count || (i > 0 && picks[i] <= picks[i - 1])) continue;
            const gk_calibrate_shape *z = &shapes[picks[i]];
            const double ms = time_oriented(o, line->def->name, line->params, z->m, z->n, z->k, t, repeat, 0);
            if (ms <= 0.0) continue;
            samples[timed] = sample_of(z, &line->config, t, 1, ms);
            if (gk_config_geometry(&line->config, z->m, z->n, z->k, &samples[timed].geometry) == GEMMKIT_SUCCESS)
                timed++;
        }
        r->orientation_rms[t] = gk_cost_fit_orientation(device, info, samples, timed, t, &r->fitted);
    }
}

/* Times one line until deadline_ms (0: none; at least GK_CALIBRATE_MIN_SHAPES shapes) and fits its constants. */
static void calibrate_line(operands *o, const gemmkit_device_info *info, const gk_cost_constants *device,
                           const gk_calibrate_line *line, const gk_calibrate_shape *pool, int pool_count,
                           int repeat, double deadline_ms, gk_sgemm_candidate *candidates, line_result *r)
{
    memset(r, 0, sizeof *r);
    r->rms = -1.0;
    gk_geometry g;
    gk_calibrate_shape shapes[GK_CALIBRATE_MAX_SHAPES];
    if (gk_calibrate_tiles(info, &line->config, &g) != GEMMKIT_SUCCESS) return;
    weighing w = {o->ctx, line->name, candidates, line->orientation};
    const int count = gk_calibrate_design(info, &g, pool, pool_count, weighs, &w, shapes, GK_CALIBRATE_MAX_SHAPES);
    for (int i = 0; i < count; i++) shapes[i].orientation = line->orientation;
    const double start = gk_bench_now_ms();
    int split_timings = 0;
    for (int i = 0; i < count && r->timings < MAX_TIMINGS; i++) {
        const double now = gk_bench_now_ms();
        /* Stop before a shape that would end past the deadline, as the average one so far. */
        if (i >= GK_CALIBRATE_MIN_SHAPES && deadline_ms > 0.0 && now + (now - start) / i > deadline_ms) break;
        const gk_calibrate_shape *z = &shapes[i];
        const double ms = time_oriented(o, line->def->name, line->params, z->m, z->n, z->k, z->orientation, repeat, 0);
        if (ms > 0.0) add_sample(r, z, &line->config, 1, ms);
        else fprintf(stderr, "  %s at %lldx%lldx%lld failed: %s\n", line->name, (long long)z->m, (long long)z->n,
                     (long long)z->k, gemmkit_last_error_message());
        time_splits(o, line, z, repeat, candidates, r, &split_timings);
    }
    snprintf(r->fitted.name, sizeof r->fitted.name, "%s", line->name);
    r->fitted.rate_gflops = info->peak_gflops * 0.25;
    r->fitted.occupancy = GK_COST_DEFAULT_OCC;
    r->fitted.bw_efficiency = GK_COST_DEFAULT_BWEFF;
    if (r->timings > 0) r->rms = gk_cost_fit_line(device, info, r->samples, r->timings, &r->fitted);
    if (r->rms >= 0.0) gk_cost_fit_sum(device, info, r->samples, r->timings, &r->fitted);
    for (int t = 1; t < 4; t++) r->orientation_rms[t] = -1.0;
    if (r->rms >= 0.0 && !gk_kernel_packs_operands(line->def))
        calibrate_orientations(o, info, device, line, shapes, count, repeat, r);
}

/* Each timing against what the fitted constants predict. */
static void print_timings(const gemmkit_device_info *info, const gk_cost_constants *device, const line_result *r)
{
    gk_cost_constants with = *device;
    with.lines[0] = r->fitted;
    with.count = 1;
    for (int i = 0; i < r->timings; i++) {
        const gk_cost_sample *s = &r->samples[i];
        const double predicted = gk_cost_predict(&with, info, &r->config[i], &s->geometry, r->fitted.name, 0.0,
                                                 &s->problem, s->splits, NULL);
        char shape[64]; /* as bench --sizes writes it: ":TN" where not NN */
        const int used = snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)s->problem.m,
                                  (long long)s->problem.n, (long long)s->problem.k);
        if (s->problem.trans_a || s->problem.trans_b)
            snprintf(shape + used, sizeof shape - (size_t)used, ":%c%c", s->problem.trans_a ? 'T' : 'N',
                     s->problem.trans_b ? 'T' : 'N');
        printf("      %-20s %-12s %-26s slices %-3d %10.4f ms, predicted %10.4f ms\n", shape, r->why[i],
               r->run[i]->name, s->splits, s->measured_ms, predicted);
    }
}

/* Saves one line (the device's where line is NULL) into path as soon as it is measured, so that a calibration cut
 * short keeps what it fitted (every save atomic); 0, or -1 after a message. */
static int save_line(const char *path, const gemmkit_device_info *info, const gk_cost_constants *device,
                     const gk_cost_line *line)
{
    gk_tuning_entry e;
    if (line) gk_calibrate_line_entry(info, line, &e);
    else gk_calibrate_device_entry(info, device, &e);
    const gemmkit_status status = gk_tuning_save(path, &e);
    if (status == GEMMKIT_SUCCESS) return 0;
    gk_cli_report("saving the constants", status);
    return -1;
}

/* The random pool and the lines, or an exit status after a message; *lines 0 when the model chooses nowhere. */
static int plan(gemmkit_context *ctx, const gemmkit_device_info *info, uint64_t seed, gk_calibrate_shape *pool,
                gk_calibrate_line *lines, int *line_count)
{
    if (gk_calibrate_random_shapes(info, seed, GK_CALIBRATE_POOL, pool) < 0) {
        fprintf(stderr, "gemmkit tune: no random shapes from seed %llu\n", (unsigned long long)seed);
        return GK_EXIT_FAILED;
    }
    *line_count = gk_calibrate_lines(ctx, pool, GK_CALIBRATE_POOL, lines, GK_COST_MAX_LINES);
    if (*line_count < 0) {
        fprintf(stderr, "gemmkit tune: out of memory\n");
        return GK_EXIT_FAILED;
    }
    printf("seed %llu: each line also times the first %d shapes of `gemmkit bench --sizes random:%d:%llu` at which "
           "the model weighs it (M, N, K as drawn, NN, the longest edge halved down to this device's size)\n",
           (unsigned long long)seed, GK_CALIBRATE_RANDOM, GK_CALIBRATE_POOL, (unsigned long long)seed);
    printf("lines the model chooses among here:");
    for (int i = 0; i < *line_count; i++) printf(" %s", lines[i].name);
    printf("%s\n", *line_count ? "" : " none");
    return GK_EXIT_OK;
}

/* Whether the first len characters of name are the whole of line's name. */
static int is_named(const char *name, size_t len, const char *line)
{
    return strlen(line) == len && strncmp(name, line, len) == 0;
}

/* The next name of a --lines list ("a,b": "a", then "b"), *list moved past it and its comma: its length, 0 at the
 * end (tune_args.c refuses empty names). */
static size_t next_name(const char **list, const char **name)
{
    const size_t len = strcspn(*list, ",");
    *name = *list;
    *list += len + ((*list)[len] == ',');
    return len;
}

/* A --lines name the model does not choose among here: bad usage, naming it and the lines there are. */
static int unknown_line(const char *name, size_t len, const gk_calibrate_line *lines, int count)
{
    char known[GK_COST_MAX_LINES * (sizeof lines->name + 1)] = "";
    size_t used = 0;
    for (int i = 0; i < count && used < sizeof known; i++)
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? " " : "", lines[i].name);
    fflush(stdout); /* the lines printed so far before the message, where both go to one log */
    return gk_cli_usage_error("tune", "--lines: the cost model chooses among no line \"%.*s\" on this device; its "
                                      "lines here: %s", (int)len, name, count ? known : "none");
}

/* --lines: keeps the named lines in the model's order (a name given twice is fitted once) and says which; an unknown
 * name is bad usage, found before anything is timed or saved. GK_EXIT_OK or GK_EXIT_USAGE. */
static int select_lines(const char *list, gk_calibrate_line *lines, int *count)
{
    const char *rest = list, *name;
    for (size_t len; (len = next_name(&rest, &name)) > 0;) {
        int known = 0;
        for (int i = 0; i < *count && !known; i++) known = is_named(name, len, lines[i].name);
        if (!known) return unknown_line(name, len, lines, *count);
    }
    int kept = 0;
    for (int i = 0; i < *count; i++)
        if (gk_cli_listed(list, lines[i].name)) lines[kept++] = lines[i];
    *count = kept;
    printf("calibrating only:");
    for (int i = 0; i < kept; i++) printf(" %s", lines[i].name);
    printf("\n");
    return GK_EXIT_OK;
}

/* Times and fits every line within --max-time, each saved into path (NULL: not saved) once fitted; the exit status
 * (a line without a fit, or a failed save, fails it). */
static int calibrate_lines(operands *o, const gemmkit_device_info *info, const gk_cost_constants *device,
                           const gk_calibrate_line *lines, int count, const gk_calibrate_shape *pool,
                           const gk_tune_args *args, double end_ms, const char *path, line_result *results)
{
    gk_sgemm_candidate *candidates = malloc(GK_SGEMM_MAX_CANDIDATES * sizeof *candidates);
    if (!candidates) {
        fprintf(stderr, "gemmkit tune: out of memory\n");
        return GK_EXIT_FAILED;
    }
    int code = GK_EXIT_OK;
    for (int i = 0; i < count; i++) {
        const double now = gk_bench_now_ms();
        const double deadline = end_ms > 0.0 ? now + (end_ms - now) / (count - i) : 0.0; /* this line's share */
        line_result *r = &results[i];
        calibrate_line(o, info, device, &lines[i], pool, GK_CALIBRATE_POOL, args->repeat, deadline, candidates, r);
        if (r->rms < 0.0) {
            printf("  %-28s no timing ran: not saved\n", lines[i].name);
            code = GK_EXIT_FAILED;
            continue;
        }
        char params[160];
        gk_calibrate_line_params(&r->fitted, params, sizeof params);
        printf("  %-28s %-44s rms log error %.3f over %d timings\n", lines[i].name, params, r->rms, r->timings);
        if (args->verbose) print_timings(info, device, r);
        fflush(stdout);
        if (path && save_line(path, info, device, &r->fitted) != 0) {
            code = GK_EXIT_FAILED;
            path = NULL; /* one message; the lines after it are still fitted and printed */
        }
    }
    free(candidates);
    return code;
}

int gk_tune_calibrate(const gk_cli *cli, const gk_tune_args *args, const char *path)
{
    if (args->show) return gk_calibrate_show(cli, path, args->seed);
    const double start_ms = gk_bench_now_ms();
    const double end_ms = args->max_seconds > 0.0 ? start_ms + args->max_seconds * 1000.0 : 0.0;
    gemmkit_context *ctx = gk_cli_open(cli);
    if (!ctx) return GK_EXIT_FAILED;
    gemmkit_device_info info;
    gemmkit_context_device_info(ctx, &info);
    printf("calibrating the cost model on %s | %s (%s, %d compute units); each timing the fastest of %d after a "
           "warm-up\n",
           info.platform, info.name, info.backend, info.compute_units, args->repeat);
    operands o = {.ctx = ctx};
    gk_rng_seed(&o.rng, args->seed);
    gk_calibrate_shape *pool = malloc(GK_CALIBRATE_POOL * sizeof *pool);
    gk_calibrate_line *lines = malloc(GK_COST_MAX_LINES * sizeof *lines);
    line_result *results = malloc(GK_COST_MAX_LINES * sizeof *results);
    gk_cost_constants *device = calloc(1, sizeof *device);
    int count = 0, saved = 0, code = pool && lines && results && device ? GK_EXIT_OK : GK_EXIT_FAILED;
    if (code != GK_EXIT_OK) fprintf(stderr, "gemmkit tune: out of memory\n");
    if (code == GK_EXIT_OK) code = plan(ctx, &info, args->seed, pool, lines, &count);
    if (code == GK_EXIT_OK && args->lines) code = select_lines(args->lines, lines, &count);
    if (code == GK_EXIT_OK && measure_device(&o, &info, device) != 0)
        code = GK_EXIT_FAILED;
    if (code == GK_EXIT_OK) {
        device->calibrated = 1;
        if (count == 0)
            printf("note: the cost model chooses nowhere on this device (no candidate rows for its class in the "
                   "policy): only the device's constants are measured\n");
        /* Saved as measured, the device's line first: an interrupted calibration keeps the lines it fitted. A
         * line without a fit fails the command; the others are still saved. */
        saved = path && save_line(path, &info, device, NULL) == 0;
        if (path && !saved) code = GK_EXIT_FAILED;
        const int lines_code = calibrate_lines(&o, &info, device, lines, count, pool, args, end_ms,
                                               saved ? path : NULL, results);
        if (code == GK_EXIT_OK) code = lines_code;
        printf("calibrated in %.1f s\n", (gk_bench_now_ms() - start_ms) / 1000.0);
        if (!path) printf("not saved (--no-save)\n");
    }
    release(&o);
    gemmkit_context_destroy(ctx);
    if (saved) {
        char read_buffer[1024];
        const char *read = gk_tuning_path(read_buffer, sizeof read_buffer);
        printf("saved to %s; used by new contexts on this device%s%s\n", path,
               read && strcmp(read, path) == 0 ? "" : " when GEMMKIT_TUNING_DB=", read && strcmp(read, path) == 0 ? "" : path);
        /* What a program now gets: the file read back by a new context, as --show prints it. */
        if (gk_calibrate_show(cli, path, args->seed) != GK_EXIT_OK) code = GK_EXIT_FAILED;
    }
    free(pool);
    free(lines);
    free(results);
    free(device);
    return code;
}
