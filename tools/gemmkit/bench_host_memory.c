/* Runners whose "device memory" is host arrays (the CPU BLAS peer, gemmkit
 * called on host arrays): slots are malloc'ed arrays, written and read with
 * memcpy. r->state points to a struct whose first member is a gk_host_slots. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static gk_host_slots *slots_of(gk_runner *r) { return (gk_host_slots *)r->state; }

float *gk_host_slot(gk_runner *r, int slot, size_t *count, char *err)
{
    gk_host_slots *h = slots_of(r);
    if (slot >= 0 && slot < GK_RUNNER_SLOTS && h->data[slot]) {
        if (count) *count = h->count[slot];
        return h->data[slot];
    }
    snprintf(err, GK_BENCH_ERR, "slot %d has no host array", slot);
    return NULL;
}

static int h_alloc(gk_runner *r, int slot, size_t count, char *err)
{
    gk_host_slots *h = slots_of(r);
    if (slot < 0 || slot >= GK_RUNNER_SLOTS) {
        snprintf(err, GK_BENCH_ERR, "slot %d out of range", slot);
        return -1;
    }
    free(h->data[slot]);
    h->count[slot] = 0;
    if (!(h->data[slot] = malloc((count ? count : 1) * sizeof(float)))) {
        snprintf(err, GK_BENCH_ERR, "out of host memory for %zu floats", count);
        return -1;
    }
    h->count[slot] = count;
    return 0;
}

/* A slot's array when it holds `count` floats, else NULL with err. */
static float *holding(gk_runner *r, int slot, size_t count, char *err)
{
    size_t have = 0;
    float *data = gk_host_slot(r, slot, &have, err);
    if (data && count > have) {
        snprintf(err, GK_BENCH_ERR, "slot %d holds %zu floats, not %zu", slot, have, count);
        return NULL;
    }
    return data;
}

static int h_write(gk_runner *r, int slot, const float *src, size_t count, char *err)
{
    float *data = holding(r, slot, count, err);
    if (!data) return -1;
    memcpy(data, src, count * sizeof(float));
    return 0;
}

static int h_read(gk_runner *r, int slot, float *dst, size_t count, char *err)
{
    const float *data = holding(r, slot, count, err);
    if (!data) return -1;
    memcpy(dst, data, count * sizeof(float));
    return 0;
}

static void h_release(gk_runner *r)
{
    gk_host_slots *h = slots_of(r);
    for (int i = 0; i < GK_RUNNER_SLOTS; i++) {
        free(h->data[i]);
        h->data[i] = NULL;
        h->count[i] = 0;
    }
}

void gk_runner_use_host_memory(gk_runner *r)
{
    r->alloc = h_alloc;
    r->write = h_write;
    r->read = h_read;
    r->release = h_release;
}
