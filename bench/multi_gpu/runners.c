/* gemmkit as the benchmark times it, through the public API only: a context
 * per selector (one device or several: the library tiles host-array calls
 * over them) and gemmkit_sgemm on host arrays; and, for the ratio of the
 * host-array rate to the device-resident rate, gemmkit_sgemm_buffers on
 * buffers that stay on one device. Column-major NN, alpha 1, beta 0. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "multi_gpu.h"

typedef struct gemmkit_state {
    mg_entry entry;
    gemmkit_context *ctx;
    gemmkit_buffer *a, *b, *c; /* resident runner only */
} gemmkit_state;

static int library_fail(char *err, const char *what, gemmkit_status status)
{
    snprintf(err, MG_ERR, "%s: %s: %s", what, gemmkit_strerror(status), gemmkit_last_error_message());
    return -1;
}

int mg_selector_devices(const mg_entry *e, char *err, size_t len)
{
    if (strcasecmp(e->selector, "all") != 0) {
        int items = 1;
        for (const char *p = e->selector; *p; p++) items += *p == ',';
        return items;
    }
    int count = 0, gpus = 0;
    gemmkit_status status = gemmkit_device_count(e->backend, &count);
    if (status != GEMMKIT_SUCCESS) {
        snprintf(err, len, "%s: %s", gemmkit_strerror(status), gemmkit_last_error_message());
        return 0;
    }
    for (int i = 0; i < count; i++) {
        gemmkit_device_info info;
        if (gemmkit_device_get_info(e->backend, i, &info) == GEMMKIT_SUCCESS) gpus += info.is_gpu != 0;
    }
    return gpus ? gpus : count;
}

static int open_context(mg_runner *r, char *err)
{
    gemmkit_state *st = r->state;
    gemmkit_status status = gemmkit_context_create_ex(&st->ctx, st->entry.backend, st->entry.selector);
    if (status != GEMMKIT_SUCCESS) return library_fail(err, "gemmkit_context_create", status);
    gemmkit_device_info info;
    if (gemmkit_context_device_info(st->ctx, &info) == GEMMKIT_SUCCESS) {
        snprintf(r->backend, sizeof r->backend, "%s", info.backend);
        snprintf(r->about, sizeof r->about, "%s: %.100s (%.100s)", info.backend, info.name, info.platform);
    }
    return 0;
}

static int host_call(mg_runner *r, int64_t n, const float *a, const float *b, float *c, char *err)
{
    gemmkit_state *st = r->state;
    gemmkit_status status = gemmkit_sgemm(st->ctx, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n,
                                          1.0f, a, n, b, n, 0.0f, c, n);
    return status == GEMMKIT_SUCCESS ? 0 : library_fail(err, "gemmkit_sgemm", status);
}

static int nothing_to_finish(mg_runner *r, int64_t n, float *c, char *err)
{
    (void)r, (void)n, (void)c, (void)err;
    return 0;
}

static void gemmkit_teardown(mg_runner *r)
{
    gemmkit_state *st = r->state;
    if (!st) return;
    gemmkit_buffer_destroy(st->a);
    gemmkit_buffer_destroy(st->b);
    gemmkit_buffer_destroy(st->c);
    gemmkit_context_destroy(st->ctx);
    free(st);
    r->state = NULL;
}

static void init(mg_runner *r, const mg_entry *e, const char *name, int devices)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->target, sizeof r->target, "%s", e->text);
    snprintf(r->backend, sizeof r->backend, "%s",
             e->backend == GEMMKIT_BACKEND_CUDA ? "cuda" : e->backend == GEMMKIT_BACKEND_OPENCL ? "opencl" : "-");
    r->devices = devices;
    gemmkit_state *st = calloc(1, sizeof *st);
    if (st) st->entry = *e;
    r->state = st; /* NULL: setup says out of memory */
    r->finish = nothing_to_finish;
    r->teardown = gemmkit_teardown;
}

/* 1 with err when init() could not allocate the state. */
static int no_state(mg_runner *r, char *err)
{
    if (r->state) return 0;
    snprintf(err, MG_ERR, "out of host memory");
    return 1;
}

static int host_setup(mg_runner *r, int64_t n, const float *a, const float *b, const float *c, char *err)
{
    (void)n, (void)a, (void)b, (void)c;
    return no_state(r, err) ? -1 : open_context(r, err);
}

void mg_runner_gemmkit(mg_runner *r, const mg_entry *e, int devices)
{
    init(r, e, "gemmkit", devices);
    r->host_arrays = r->small_warmup = 1;
    r->setup = host_setup;
    r->call = host_call;
}

/* --- device-resident ------------------------------------------------------ */

static int resident_setup(mg_runner *r, int64_t n, const float *a, const float *b, const float *c, char *err)
{
    if (no_state(r, err)) return -1;
    gemmkit_state *st = r->state;
    if (open_context(r, err)) return -1;
    const size_t count = (size_t)n * (size_t)n;
    gemmkit_device_info info;
    gemmkit_context_device_info(st->ctx, &info);
    if (info.global_mem_bytes && 3 * count * sizeof(float) > info.global_mem_bytes) {
        snprintf(err, MG_ERR, "A, B and C (%.1f GB) exceed the device's %.1f GB", 3 * count * 4 / 1e9,
                 info.global_mem_bytes / 1e9);
        return 1;
    }
    gemmkit_status status;
    if ((status = gemmkit_buffer_create(st->ctx, count, &st->a)) ||
        (status = gemmkit_buffer_create(st->ctx, count, &st->b)) ||
        (status = gemmkit_buffer_create(st->ctx, count, &st->c)))
        return library_fail(err, "gemmkit_buffer_create", status);
    if ((status = gemmkit_buffer_write(st->ctx, st->a, 0, count, a)) ||
        (status = gemmkit_buffer_write(st->ctx, st->b, 0, count, b)) ||
        (status = gemmkit_buffer_write(st->ctx, st->c, 0, count, c)))
        return library_fail(err, "gemmkit_buffer_write", status);
    return 0;
}

static int resident_call(mg_runner *r, int64_t n, const float *a, const float *b, float *c, char *err)
{
    (void)a, (void)b, (void)c;
    gemmkit_state *st = r->state;
    gemmkit_status status = gemmkit_sgemm_buffers(st->ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS,
                                                  n, n, n, 1.0f, st->a, 0, n, st->b, 0, n, 0.0f, st->c, 0, n);
    return status == GEMMKIT_SUCCESS ? 0 : library_fail(err, "gemmkit_sgemm_buffers", status);
}

static int resident_finish(mg_runner *r, int64_t n, float *c, char *err)
{
    gemmkit_state *st = r->state;
    gemmkit_status status = gemmkit_buffer_read(st->ctx, st->c, 0, (size_t)n * (size_t)n, c);
    return status == GEMMKIT_SUCCESS ? 0 : library_fail(err, "gemmkit_buffer_read", status);
}

void mg_runner_gemmkit_resident(mg_runner *r, const mg_entry *e)
{
    init(r, e, "gemmkit-resident", 1);
    r->setup = resident_setup;
    r->call = resident_call;
    r->finish = resident_finish;
}
