/* What `gemmkit tune --calibrate` times (tune_calibrate.h): the lines the cost model chooses among on a device, and
 * per line shapes that each pin one of its constants. Sizes follow the device class: a GPU's shapes fill its
 * compute units many times over in a few milliseconds; a CPU's (PoCL) are cut down so that a whole calibration
 * takes seconds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "sgemm.h"
#include "tune_calibrate.h"

typedef struct scale {
    int64_t side;        /* the probes' large edge; the lines' tiles are read at side^3 */
    int64_t k_compute;   /* K of the compute-bound shapes: long enough that the launch is small beside them */
    int64_t memory_side; /* M = N of the memory-bound shape: C alone well past the caches */
    double max_work;     /* multiply-adds of one random shape at most */
    double max_floats;   /* A + B + C of one random shape at most */
} scale;

static scale scale_of(const gemmkit_device_info *info)
{
    if (info->is_gpu) return (scale){4096, 2048, 8192, 68719476736.0 /* 2^36 */, 268435456.0 /* 2^28 */};
    return (scale){512, 256, 1024, 8388608.0 /* 2^23 */, 4194304.0 /* 2^22 */};
}

static int64_t round_up(int64_t a, int64_t b) { return b > 1 ? (a + b - 1) / b * b : a; }

/* Halves the longest edge until the shape costs what one timing should: its short edges, which put it in its
 * class (a strip, a long K), stay as drawn. */
static void cut_down(const scale *s, gk_calibrate_shape *z)
{
    for (;;) {
        const double work = (double)z->m * (double)z->n * (double)z->k;
        const double floats = (double)z->m * (double)z->k + (double)z->k * (double)z->n + (double)z->m * (double)z->n;
        if (work <= s->max_work && floats <= s->max_floats) return;
        int64_t *longest = z->m >= z->n && z->m >= z->k ? &z->m : z->n >= z->k ? &z->n : &z->k;
        *longest = (*longest + 1) / 2;
    }
}

int gk_calibrate_random_shapes(const gemmkit_device_info *info, uint64_t seed, int count, gk_calibrate_shape *out)
{
    gk_bench_size drawn[GK_CALIBRATE_POOL];
    if (count < 1 || count > GK_CALIBRATE_POOL || gk_bench_random_shapes(seed, count, drawn) != 0) return -1;
    const scale s = scale_of(info);
    for (int i = 0; i < count; i++) {
        out[i] = (gk_calibrate_shape){drawn[i].m, drawn[i].n, drawn[i].k, "random", 0};
        cut_down(&s, &out[i]);
    }
    return count;
}

int gk_calibrate_probe_shapes(const gemmkit_device_info *info, gk_calibrate_shape *out)
{
    const int64_t s = scale_of(info).side;
    /* One of each class the policy's kernel, variant and split rows tell apart: square, small, narrow N and M,
     * strips one element wide, a long K, a short K, tiny, odd sizes. */
    const gk_calibrate_shape probes[] = {
        {s, s, s, "square", 0},           {s / 4, s / 4, s / 4, "small", 0}, {s, 16, s, "narrow-n", 0},
        {16, s, s, "narrow-m", 0},        {s, 1, s, "strip", 0},             {1, s, s, "strip", 0},
        {s / 16, s / 16, 16 * s, "long-k", 0}, {s, s, 16, "short-k", 0},     {8, 8, 8, "tiny", 0},
        {s / 2 + 1, s / 2 + 3, s / 2 + 5, "odd", 0},
    };
    const int count = (int)(sizeof probes / sizeof probes[0]);
    memcpy(out, probes, sizeof probes);
    return count;
}

gemmkit_status gk_calibrate_tiles(const gemmkit_device_info *info, const gk_config *config, gk_geometry *g)
{
    const int64_t side = scale_of(info).side;
    return gk_config_geometry(config, side, side, side, g);
}

/* gx * gy == groups with gx the largest divisor at most sqrt(groups): a grid of exactly that many work-groups,
 * as square as it goes. */
static void grid_of(int64_t groups, int64_t *gx, int64_t *gy)
{
    int64_t x = (int64_t)sqrt((double)groups);
    while (x > 1 && groups % x) x--;
    *gx = x > 0 ? x : 1;
    *gy = groups / *gx;
}

/* K for a shape of M x N within the device's floats for one shape, rounded down to whole k steps (at least one). */
static int64_t k_within(const scale *s, int64_t m, int64_t n, int64_t k, int64_t k_step)
{
    const double room = (s->max_floats - (double)m * (double)n) / (double)(m + n);
    if ((double)k > room) k = (int64_t)(room > 1.0 ? room : 1.0);
    if (k_step > 1) k = k / k_step * k_step;
    return k > 0 ? k : (k_step > 1 ? k_step : 1);
}

/* The first of a purpose's arrangements at which the line is a candidate: `groups` work-groups as a square-ish
 * grid, one row of tiles, one column (strips and skinny kernels serve one edge of at most a tile), each at K = k
 * (within the device's floats) and then at K = 16 (kernels that serve a short K alone); 0 when none. */
static int arrange(const scale *s, const gk_geometry *g, int64_t groups, int64_t k, const char *why,
                   gk_calibrate_weighs weighs, void *data, gk_calibrate_shape *out)
{
    int64_t gx, gy;
    grid_of(groups > 0 ? groups : 1, &gx, &gy);
    const int64_t grids[3][2] = {{gx, gy}, {1, gx * gy}, {gx * gy, 1}};
    const int64_t ks[2] = {k, 16};
    for (int ki = 0; ki < 2; ki++)
        for (int i = 0; i < 3; i++) {
            const int64_t m = grids[i][0] * g->tile_m, n = grids[i][1] * g->tile_n;
            const int64_t k_here = k_within(s, m, n, round_up(ks[ki], g->k_multiple), g->k_multiple);
            *out = (gk_calibrate_shape){m, n, k_here, why, 0};
            if (weighs(data, out)) return 1;
        }
    return 0;
}

/* The memory-bound purpose: C of memory_side^2 elements, K a few steps, as a square, one row of tiles or one
 * column, the first at which the line is a candidate; 0 when none. */
static int arrange_memory(const scale *s, const gk_geometry *g, gk_calibrate_weighs weighs, void *data,
                          gk_calibrate_shape *out)
{
    const int64_t area = s->memory_side * s->memory_side, k = round_up(4, g->k_multiple);
    const int64_t shapes[3][2] = {{round_up(s->memory_side, g->tile_m), round_up(s->memory_side, g->tile_n)},
                                  {g->tile_m, round_up(area / g->tile_m, g->tile_n)},
                                  {round_up(area / g->tile_n, g->tile_m), g->tile_n}};
    for (int i = 0; i < 3; i++) {
        *out = (gk_calibrate_shape){shapes[i][0], shapes[i][1], k, "memory", 0};
        if (weighs(data, out)) return 1;
    }
    return 0;
}

/* The streaming purpose: one tile's edge of C against a long other edge and a long K, where reading the long
 * operand once bounds the call (matrix-vector-like products, the skinny kernels' regime), as one row of tiles or
 * one column, the first at which the line is a candidate; 0 when none. */
static int arrange_stream(const scale *s, const gk_geometry *g, gk_calibrate_weighs weighs, void *data,
                          gk_calibrate_shape *out)
{
    const int64_t side = s->memory_side;
    const int64_t shapes[2][2] = {{g->tile_m, round_up(side, g->tile_n)}, {round_up(side, g->tile_m), g->tile_n}};
    for (int i = 0; i < 2; i++) {
        const int64_t k = k_within(s, shapes[i][0], shapes[i][1], round_up(side, g->k_multiple), g->k_multiple);
        *out = (gk_calibrate_shape){shapes[i][0], shapes[i][1], k, "stream", 0};
        if (weighs(data, out)) return 1;
    }
    return 0;
}

int gk_calibrate_design(const gemmkit_device_info *info, const gk_geometry *g, const gk_calibrate_shape *pool,
                        int pool_count, gk_calibrate_weighs weighs, void *data, gk_calibrate_shape *out, int max)
{
    const scale s = scale_of(info);
    const int64_t cus = info->compute_units > 0 ? info->compute_units : 1;
    gk_calibrate_shape z;
    int used = 0;
    /* In the order that pins the constants soonest, should --max-time leave only the first few: RATE from eight
     * waves (the last one's idle units cost little whatever OCC is); OCC from one wave of one work-group per unit,
     * which takes as long as OCC work-groups per unit would (latency); BWEFF from a short K over a large C, where
     * storing C outweighs the arithmetic, and from one tile's edge over a long operand, read once; then half a
     * wave and two waves, which show where latency stops. */
    const struct {
        int64_t groups; /* work-groups; unused for the memory-bound shape */
        const char *why;
    } purposes[] = {{8 * cus, "many waves"}, {cus, "one wave"}, {0, "memory"}, {0, "stream"},
                    {cus / 2, "half a wave"}, {2 * cus, "two waves"}};
    for (size_t i = 0; i < sizeof purposes / sizeof purposes[0] && used < max; i++) {
        const int memory = strcmp(purposes[i].why, "memory") == 0, stream = strcmp(purposes[i].why, "stream") == 0;
        if (stream ? arrange_stream(&s, g, weighs, data, &z)
            : memory ? arrange_memory(&s, g, weighs, data, &z)
                   : purposes[i].groups > 0 &&
                         arrange(&s, g, purposes[i].groups, s.k_compute, purposes[i].why, weighs, data, &z))
            out[used++] = z;
    }
    /* The first random shapes at which the line is a candidate: where the model will weigh it. */
    for (int i = 0, random = 0; i < pool_count && random < GK_CALIBRATE_RANDOM && used < max; i++)
        if (weighs(data, &pool[i])) out[used++] = pool[i], random++;
    /* A line too narrow for every arrangement (a candidate only at some shapes) still gets the probes it was
     * found at. */
    gk_calibrate_shape probes[GK_CALIBRATE_MAX_SHAPES];
    const int probe_count = gk_calibrate_probe_shapes(info, probes);
    for (int i = 0; i < probe_count && used < GK_CALIBRATE_MIN_SHAPES && used < max; i++)
        if (weighs(data, &probes[i])) out[used++] = probes[i];
    return used;
}

/* A call of shape z as the dispatch sees it: oriented as z says, column-major, tight, alpha 1, beta 0 (the
 * timings' call). */
static gk_sgemm_problem problem_of(const gk_calibrate_shape *z)
{
    gk_sgemm_problem p = {.m = z->m, .n = z->n, .k = z->k, .alpha = 1.0f, .beta = 0.0f};
    p.trans_a = z->orientation >= 2, p.trans_b = z->orientation & 1;
    p.a.ld = p.trans_a ? z->k : z->m;
    p.b.ld = p.trans_b ? z->n : z->k;
    p.c.ld = z->m;
    return p;
}

/* Adds the distinct lines (splits == 1) of the candidates at z to out[0 .. *lines). */
static void add_lines(gemmkit_context *ctx, const gk_calibrate_shape *z, gk_sgemm_candidate *candidates,
                      gk_calibrate_line *out, int *lines, int max)
{
    const int found = gk_calibrate_candidates_at(ctx, z, candidates, GK_SGEMM_MAX_CANDIDATES);
    for (int c = 0; c < found; c++) {
        const gk_sgemm_candidate *cand = &candidates[c];
        if (cand->splits != 1 || !cand->choice.def) continue;
        int seen = 0;
        for (int l = 0; l < *lines && !seen; l++) seen = strcmp(out[l].name, cand->line) == 0;
        if (seen || *lines == max) continue;
        gk_calibrate_line *line = &out[(*lines)++];
        snprintf(line->name, sizeof line->name, "%s", cand->line);
        snprintf(line->params, sizeof line->params, "%s", cand->params);
        line->def = cand->choice.def;
        line->config = cand->choice.config;
        line->orientation = z->orientation;
    }
}

int gk_calibrate_lines(gemmkit_context *ctx, const gk_calibrate_shape *pool, int pool_count, gk_calibrate_line *out,
                       int max)
{
    gk_sgemm_candidate *candidates = malloc(GK_SGEMM_MAX_CANDIDATES * sizeof *candidates);
    if (!candidates) return -1;
    gemmkit_device_info info;
    gemmkit_context_device_info(ctx, &info);
    gk_calibrate_shape probes[GK_CALIBRATE_MAX_SHAPES];
    const int probe_count = gk_calibrate_probe_shapes(&info, probes);
    int lines = 0;
    for (int i = 0; i < probe_count; i++) add_lines(ctx, &probes[i], candidates, out, &lines, max);
    for (int i = 0; i < pool_count; i++) add_lines(ctx, &pool[i], candidates, out, &lines, max);
    for (int orientation = 1; orientation < 4; orientation++)
        for (int i = 0; i < probe_count; i++) {
            gk_calibrate_shape z = probes[i];
            z.orientation = orientation;
            add_lines(ctx, &z, candidates, out, &lines, max);
        }
    free(candidates);
    return lines;
}

int gk_calibrate_candidates_at(gemmkit_context *ctx, const gk_calibrate_shape *z, gk_sgemm_candidate *out, int max)
{
    const gk_sgemm_problem p = problem_of(z);
    return gk_sgemm_candidates_for(ctx, &p, out, max);
}
