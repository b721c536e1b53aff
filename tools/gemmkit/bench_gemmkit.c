/* gemmkit itself as a benchmark runner: device buffers of the context, and
 * every routine's public entry on them (its descriptor's run) with a chosen
 * registry kernel. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "registry.h"

typedef struct gemmkit_state {
    gemmkit_context *ctx;
    const char *kernel, *params;
    gemmkit_buffer *slots[GK_RUNNER_SLOTS];
    gemmkit_status last;
} gemmkit_state;

static int fail(gemmkit_state *st, char *err, gemmkit_status status)
{
    st->last = status;
    snprintf(err, GK_BENCH_ERR, "%s: %s", gemmkit_strerror(status), gemmkit_last_error_message());
    return -1;
}

static int slot_ok(const gemmkit_state *st, int slot, char *err)
{
    if (slot >= 0 && slot < GK_RUNNER_SLOTS && st->slots[slot]) return 1;
    snprintf(err, GK_BENCH_ERR, "slot %d has no buffer", slot);
    return 0;
}

static int g_alloc(gk_runner *r, int slot, size_t count, char *err)
{
    gemmkit_state *st = r->state;
    if (slot < 0 || slot >= GK_RUNNER_SLOTS) {
        snprintf(err, GK_BENCH_ERR, "slot %d out of range", slot);
        return -1;
    }
    gemmkit_buffer_destroy(st->slots[slot]);
    st->slots[slot] = NULL;
    gemmkit_status status = gemmkit_buffer_create(st->ctx, count ? count : 1, &st->slots[slot]);
    return status ? fail(st, err, status) : 0;
}

static int g_write(gk_runner *r, int slot, const float *src, size_t count, char *err)
{
    gemmkit_state *st = r->state;
    if (!slot_ok(st, slot, err)) return -1;
    gemmkit_status status = gemmkit_buffer_write(st->ctx, st->slots[slot], 0, count, src);
    return status ? fail(st, err, status) : 0;
}

static int g_read(gk_runner *r, int slot, float *dst, size_t count, char *err)
{
    gemmkit_state *st = r->state;
    if (!slot_ok(st, slot, err)) return -1;
    gemmkit_status status = gemmkit_buffer_read(st->ctx, st->slots[slot], 0, count, dst);
    return status ? fail(st, err, status) : 0;
}

/* Every routine through its descriptor's call on the slots' buffers. */
static int g_run(gk_runner *r, const gk_routine *routine, const gk_case *c, const int *slots, gk_bench_timing *t,
                 char *err)
{
    gemmkit_state *st = r->state;
    gemmkit_buffer *buffers[GK_ROUTINE_MAX_OPERANDS];
    for (int i = 0; i < routine->operands; i++) {
        if (!slot_ok(st, slots[i], err)) return -1;
        buffers[i] = st->slots[slots[i]];
    }
    gemmkit_options options = {.kernel = st->kernel, .params = st->params, .kernel_ms = t->wall_only ? NULL : &t->kernel_ms,
                               .total_ms = t->wall_only ? NULL : &t->total_ms};
    gemmkit_status status = routine->run(st->ctx, &options, c, buffers);
    return status ? fail(st, err, status) : 0;
}

static void g_release(gk_runner *r)
{
    gemmkit_state *st = r->state;
    for (int i = 0; i < GK_RUNNER_SLOTS; i++) {
        gemmkit_buffer_destroy(st->slots[i]);
        st->slots[i] = NULL;
    }
}

static void g_destroy(gk_runner *r)
{
    if (!r) return;
    g_release(r);
    free(r->state);
    free(r);
}

int gk_runner_unsupported_here(const gk_runner *r) { return r->unsupported && r->unsupported(r); }

static int g_unsupported(const gk_runner *r)
{
    gemmkit_status st = ((const gemmkit_state *)r->state)->last;
    return st == GEMMKIT_ERROR_UNSUPPORTED_BACKEND || st == GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE;
}

void gk_runner_gemmkit_set(gk_runner *r, const char *kernel, const char *params)
{
    gemmkit_state *st = r->state;
    st->kernel = kernel;
    st->params = params;
    st->last = GEMMKIT_SUCCESS; /* a former kernel's refusal is not this one's */
    /* The mode it computes in (a named kernel's own, else the context's) widens the check's bound
     * as gk_sgemm_bound does (tools/check/check.h): TF32 keeps 11 bits of each operand. */
    const gk_kernel_def *def = kernel ? gk_kernel_find(kernel) : NULL;
    gemmkit_math math = GEMMKIT_MATH_FP32;
    if (def) math = (gemmkit_math)(GEMMKIT_MATH_FP32 + (int)def->math); /* gk_math's order (registry.h) */
    else gemmkit_context_get_math(st->ctx, &math);
    r->math = math;
    r->input_rounding = math == GEMMKIT_MATH_TF32                                   ? ldexp(1.0, -11)
                        : math == GEMMKIT_MATH_3XTF32 || math == GEMMKIT_MATH_INT8X ? 8.0 * FLT_EPSILON
                                                                                      : 0.0;
    char best[32] = "best";
    if (math != GEMMKIT_MATH_FP32) snprintf(best, sizeof best, "best-%s", gemmkit_math_name(math));
    snprintf(r->name, sizeof r->name, "%s", kernel ? kernel : best);
    snprintf(r->label, sizeof r->label, "gemmkit %s%s%s", kernel ? kernel : "(library dispatch)",
             kernel || math == GEMMKIT_MATH_FP32 ? "" : ", math ", kernel || math == GEMMKIT_MATH_FP32 ? "" : gemmkit_math_name(math));
}

gk_runner *gk_runner_gemmkit(gemmkit_context *ctx, const char *kernel, const char *params)
{
    gk_runner *r = calloc(1, sizeof *r);
    gemmkit_state *st = calloc(1, sizeof *st);
    if (!r || !st) {
        free(r);
        free(st);
        return NULL;
    }
    st->ctx = ctx;
    r->state = st;
    gk_runner_gemmkit_set(r, kernel, params);
    snprintf(r->kind, sizeof r->kind, "gemmkit");
    r->alloc = g_alloc;
    r->write = g_write;
    r->read = g_read;
    r->run = g_run;
    r->release = g_release;
    r->destroy = g_destroy;
    r->unsupported = g_unsupported;
    return r;
}
