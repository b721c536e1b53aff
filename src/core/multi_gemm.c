/* The tiled host-array SGEMM (multi_gemm.h). C is cut into tiles; every lane
 * (GK_LANES_PER_DEVICE threads per device, each an ordinary one-device
 * context) takes tiles from a shared queue (tile_queue.h), copies the panels
 * of op(A) and op(B) a tile needs straight from the caller's arrays (2-D
 * copies, no packing on the host), K in chunks when the panels would not fit
 * (beta = 1 after the first chunk), runs the ordinary single-device plan on
 * them (gk_sgemm_run: kernels, policy, math modes unchanged) and copies the
 * tile into C. A lane keeps its op(A) panel while it stays in a row of tiles. */
#include "multi_gemm.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math_mode.h"
#include "status.h"
#include "tile_queue.h"

typedef struct tiled_call {
    const gk_sgemm_problem *p;
    const gemmkit_options *options;
    int reads; /* A and B are read (alpha != 0, k > 0) */
    gk_tiling t;
    gk_tile_queue queue;
    atomic_int failed; /* the first lane that failed; -1: none */
} tiled_call;

typedef struct lane {
    tiled_call *call;
    gemmkit_context *ctx;
    int index, device;
    gemmkit_status status;
    char message[1024];
    char *build_log;
    double kernel_ms, total_ms;
} lane;

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Sides of at most `cap` cutting `total` evenly; large ones a multiple of 128 (the kernels' tiles). */
static int64_t even_side(int64_t total, int64_t cap)
{
    if (total <= cap) return total;
    int64_t side = ceil_div(total, ceil_div(total, cap));
    if (side >= 1024) side = min64(ceil_div(side, 128) * 128, cap);
    return side;
}

/* A lane's device memory: its panels and C tile, and as much again for the
 * padded copies a tiled kernel makes of them. */
static int fits(const gk_tiling *t, int64_t lane_budget, int64_t max_alloc)
{
    const int64_t largest = max64(max64((t->tm + 256) * (t->kc + 256), (t->kc + 256) * (t->tn + 256)),
                                  (t->tm + 256) * (t->tn + 256));
    const int64_t bytes = 2 * (int64_t)sizeof(float) * (t->tm * t->kc + t->kc * t->tn + t->tm * t->tn);
    return (lane_budget <= 0 || bytes <= lane_budget) && largest <= INT32_MAX &&
           (max_alloc <= 0 || largest * (int64_t)sizeof(float) <= max_alloc);
}

/* Tiles of at most `cap`, split further (down to GK_TILE_MIN_SPLIT) until every
 * lane has one; then K chunks, and smaller tiles, until a lane fits its budget. */
static gemmkit_status choose_tiling(const gk_sgemm_problem *p, int reads, int64_t lanes, int64_t cap,
                                    int64_t lane_budget, int64_t max_alloc, gk_tiling *t)
{
    t->tm = even_side(p->m, cap);
    t->tn = even_side(p->n, cap);
    t->kc = reads ? p->k : 0;
    while (ceil_div(p->m, t->tm) * ceil_div(p->n, t->tn) < lanes && max64(t->tm, t->tn) > GK_TILE_MIN_SPLIT) {
        if (t->tm >= t->tn) t->tm = even_side(p->m, ceil_div(t->tm, 2));
        else t->tn = even_side(p->n, ceil_div(t->tn, 2));
    }
    while (!fits(t, lane_budget, max_alloc)) {
        const int64_t side = max64(t->tm, t->tn);
        if (t->kc > 16 && t->kc >= side) t->kc = even_side(p->k, ceil_div(t->kc, 2));
        else if (side > 16 && t->tm >= t->tn) t->tm = even_side(p->m, ceil_div(t->tm, 2));
        else if (side > 16) t->tn = even_side(p->n, ceil_div(t->tn, 2));
        else if (t->kc > 16) t->kc = even_side(p->k, ceil_div(t->kc, 2));
        else
            return gk_fail(GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY,
                           "%lld bytes of device memory per lane are too few for tiles of 16 x 16",
                           (long long)lane_budget);
    }
    t->rows = ceil_div(p->m, t->tm);
    t->cols = ceil_div(p->n, t->tn);
    t->chunks = t->kc ? ceil_div(p->k, t->kc) : 1;
    return GEMMKIT_SUCCESS;
}

int64_t gk_tiled_budget(const gemmkit_context *ctx)
{
    const size_t limit = atomic_load(&((gemmkit_context *)ctx)->memory_limit);
    if (limit) return (int64_t)limit;
    int64_t smallest = 0;
    for (int d = 0; d < ctx->device_count; d++) {
        const size_t bytes = (d ? ctx->devices[d] : ctx)->info.global_mem_bytes;
        if (bytes && (smallest == 0 || (int64_t)bytes < smallest)) smallest = (int64_t)bytes;
    }
    return smallest / 4 * 3;
}

/* rows x cols of a column-major host matrix from (row0, col0), to or from `mem` stored tight. */
static gemmkit_status copy_block(gemmkit_context *ctx, gk_mem *mem, const float *host, int64_t ld, int64_t row0,
                                 int64_t col0, int64_t rows, int64_t cols, int to_device)
{
    const gk_rect r = {(size_t)rows * sizeof(float), (size_t)cols, 0, (size_t)rows * sizeof(float),
                       (size_t)ld * sizeof(float)};
    const float *at = host + row0 + col0 * ld;
    return to_device ? ctx->ops->write_rect(ctx->device, mem, &r, at)
                     : ctx->ops->read_rect(ctx->device, mem, &r, (float *)at);
}

/* One tile: C's block uploaded when read, each K chunk's panels uploaded and
 * multiplied into it, then the block copied into C. */
static gemmkit_status run_tile(lane *l, int64_t row, int64_t col, int keep_a, gk_mem *a, gk_mem *b, gk_mem *c,
                               const gemmkit_options *options)
{
    const tiled_call *call = l->call;
    const gk_sgemm_problem *p = call->p;
    const gk_tiling *t = &call->t;
    gemmkit_context *ctx = l->ctx;
    const int64_t i0 = row * t->tm, j0 = col * t->tn;
    const int64_t rows = min64(t->tm, p->m - i0), cols = min64(t->tn, p->n - j0);
    float *host_c = p->source_c;
    if (p->beta != 0.0f) GK_TRY(copy_block(ctx, c, host_c, p->c.ld, i0, j0, rows, cols, 1));
    for (int64_t chunk = 0; chunk < t->chunks; chunk++) {
        gk_sgemm_problem sub = *p;
        sub.m = rows, sub.n = cols, sub.beta = chunk ? 1.0f : p->beta;
        sub.c = (gk_matrix){c, 0, rows};
        if (call->reads) {
            const int64_t k0 = chunk * t->kc, depth = min64(t->kc, p->k - k0);
            const float *host_a = p->source_a, *host_b = p->source_b;
            sub.k = depth;
            if (!keep_a) {
                if (p->trans_a) GK_TRY(copy_block(ctx, a, host_a, p->a.ld, k0, i0, depth, rows, 1));
                else GK_TRY(copy_block(ctx, a, host_a, p->a.ld, i0, k0, rows, depth, 1));
            }
            if (p->trans_b) GK_TRY(copy_block(ctx, b, host_b, p->b.ld, j0, k0, cols, depth, 1));
            else GK_TRY(copy_block(ctx, b, host_b, p->b.ld, k0, j0, depth, cols, 1));
            sub.a = (gk_matrix){a, 0, p->trans_a ? depth : rows};
            sub.b = (gk_matrix){b, 0, p->trans_b ? cols : depth};
        }
        GK_TRY(gk_sgemm_run(ctx, options, &sub));
        if (options && options->kernel_ms) l->kernel_ms += *options->kernel_ms;
        if (options && options->total_ms) l->total_ms += *options->total_ms;
    }
    return copy_block(ctx, c, host_c, p->c.ld, i0, j0, rows, cols, 0);
}

static gemmkit_status run_lane(lane *l)
{
    tiled_call *call = l->call;
    const gk_tiling *t = &call->t;
    gemmkit_context *ctx = l->ctx;
    gk_mem *a = NULL, *b = NULL, *c = NULL;
    if (call->reads) {
        GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_HOST_A, (size_t)(t->tm * t->kc) * sizeof(float), &a));
        GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_HOST_B, (size_t)(t->kc * t->tn) * sizeof(float), &b));
    }
    GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_HOST_C, (size_t)(t->tm * t->tn) * sizeof(float), &c));
    /* The plan's timings land here, then add up per lane. */
    double kernel_ms = 0.0, total_ms = 0.0;
    gemmkit_options options;
    if (call->options) {
        options = *call->options;
        options.kernel_ms = call->options->kernel_ms ? &kernel_ms : NULL;
        options.total_ms = call->options->total_ms ? &total_ms : NULL;
    }
    int64_t row = -1, col = 0, a_row = -1;
    while (gk_tile_queue_next(&call->queue, &row, &col)) {
        /* With one K chunk the op(A) panel of the row is still on the device. */
        GK_TRY(run_tile(l, row, col, t->chunks == 1 && a_row == row, a, b, c, call->options ? &options : NULL));
        a_row = row;
    }
    return GEMMKIT_SUCCESS;
}

static void *lane_main(void *arg)
{
    lane *l = arg;
    l->status = run_lane(l);
    if (l->status != GEMMKIT_SUCCESS) {
        /* Messages are per thread: keep this one for the caller's thread. */
        snprintf(l->message, sizeof l->message, "%s", gemmkit_last_error_message());
        if (l->status == GEMMKIT_ERROR_BUILD_FAILED) l->build_log = strdup(gemmkit_last_build_log());
        int none = -1;
        atomic_compare_exchange_strong(&l->call->failed, &none, l->index);
        gk_tile_queue_stop(&l->call->queue);
    }
    return NULL;
}

/* Starts the lanes, waits for all of them; the first failure is the call's. */
static gemmkit_status run_lanes(gemmkit_context *ctx, tiled_call *call, lane *lanes, int count)
{
    pthread_t threads[GK_MAX_DEVICES * GK_LANES_PER_DEVICE];
    int started = 0;
    gemmkit_status status = GEMMKIT_SUCCESS;
    for (; started < count; started++) {
        if (pthread_create(&threads[started], NULL, lane_main, &lanes[started]) != 0) {
            gk_tile_queue_stop(&call->queue);
            status = gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "starting the tiler's thread %d", started);
            break;
        }
    }
    for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
    const int failed = atomic_load(&call->failed);
    if (failed >= 0) {
        const lane *l = &lanes[failed];
        if (l->build_log) gk_set_build_log(l->build_log);
        if (ctx->device_count == 1) status = gk_fail(l->status, "%s", l->message);
        else
            status = gk_fail(l->status, "device %d (%s): %s", l->device, gk_context_device(ctx, l->device)->info.name,
                             l->message);
    }
    for (int i = 0; i < count; i++) free(lanes[i].build_log);
    return status;
}

/* The lanes' contexts, device-major so that few tiles still spread over the devices. */
static gemmkit_status open_lanes(gemmkit_context *ctx, tiled_call *call, int64_t lane_budget, lane *lanes,
                                 int count)
{
    for (int i = 0; i < count; i++) {
        const int d = i % ctx->device_count;
        gemmkit_context *lane_ctx = gk_context_device(ctx, d);
        if (i >= ctx->device_count) GK_TRY(gk_context_lane(ctx, d, &lane_ctx));
        /* Buffers of earlier calls beyond the budget would leave it no room. */
        if (lane_budget > 0) gk_context_trim_scratch(lane_ctx, (size_t)lane_budget / 2);
        lanes[i] = (lane){.call = call, .ctx = lane_ctx, .index = i, .device = d};
    }
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_sgemm_tiling(gemmkit_context *ctx, const gk_sgemm_problem *p, gk_tiling *t)
{
    int64_t max_alloc = 0;
    for (int d = 0; d < ctx->device_count; d++) {
        const int64_t bytes = (int64_t)gk_context_device(ctx, d)->info.max_alloc_bytes;
        if (bytes && (max_alloc == 0 || bytes < max_alloc)) max_alloc = bytes;
    }
    const int64_t cap = ctx->tile_size > 0 ? ctx->tile_size : GK_TILE_DEFAULT;
    return choose_tiling(p, gk_sgemm_reads_ab(p), (int64_t)ctx->device_count * GK_LANES_PER_DEVICE, cap,
                         gk_tiled_budget(ctx) / GK_LANES_PER_DEVICE, max_alloc, t);
}

static gemmkit_status tiled_locked(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *p)
{
    for (int d = 1; d < ctx->device_count; d++) GK_TRY(gk_math_supported(ctx->devices[d], p->math));
    tiled_call call = {.p = p, .options = options, .reads = gk_sgemm_reads_ab(p)};
    atomic_init(&call.failed, -1);
    const int64_t devices = ctx->device_count, lane_budget = gk_tiled_budget(ctx) / GK_LANES_PER_DEVICE;
    GK_TRY(gk_sgemm_tiling(ctx, p, &call.t));
    const int count = (int)min64(devices * GK_LANES_PER_DEVICE, call.t.rows * call.t.cols);
    lane lanes[GK_MAX_DEVICES * GK_LANES_PER_DEVICE];
    GK_TRY(open_lanes(ctx, &call, lane_budget, lanes, count));
    GK_TRY(gk_tile_queue_init(&call.queue, call.t.rows, call.t.cols));
    gemmkit_status status = run_lanes(ctx, &call, lanes, count);
    gk_tile_queue_destroy(&call.queue);
    if (status != GEMMKIT_SUCCESS) return status;
    double kernel_ms = 0.0, total_ms = 0.0;
    for (int i = 0; i < count; i++) kernel_ms += lanes[i].kernel_ms, total_ms += lanes[i].total_ms;
    if (options && options->kernel_ms) *options->kernel_ms = kernel_ms;
    if (options && options->total_ms) *options->total_ms = total_ms;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_sgemm_tiled(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *p)
{
    if (options && options->kernel_ms) *options->kernel_ms = 0.0;
    if (options && options->total_ms) *options->total_ms = 0.0;
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = tiled_locked(ctx, options, p);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}
