/* The staging engine (src/backend/staging.c) on a stand-in backend whose
 * "DMA" runs late, when the half is waited for (or the copy ends): a half
 * packed before its last DMA was waited for, or unpacked before its copy
 * arrived, shows as wrong bytes. Rectangles of every kind of slab: rows that
 * fit several to a half, rows cut into pieces, one long row, pitches wider
 * than the rows (the bytes between rows must stay as they were). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "staging.h"

typedef struct fake {
    unsigned char *device; /* the rectangle's first byte */
    int pending[2];        /* a DMA started on the half and not yet run */
    gk_slab slab[2];
    char *at[2];
    int to_device[2];
    const gk_rect *r;
    int dmas, waits;
} fake;

static void run(fake *f, int h)
{
    if (!f->pending[h]) return;
    const gk_rect *r = f->r;
    const gk_slab *b = &f->slab[h];
    const size_t device_pitch = r->height > 1 ? r->device_pitch : r->width;
    for (size_t j = 0; j < b->rows; j++) {
        unsigned char *d = f->device + (b->row0 + j) * device_pitch + b->offset;
        char *half = f->at[h] + j * b->width;
        if (f->to_device[h]) memcpy(d, half, b->width);
        else memcpy(half, d, b->width);
    }
    f->pending[h] = 0;
}

static long fake_dma(void *backend, const gk_rect *r, const gk_slab *b, int h, char *at, int to_device)
{
    fake *f = backend;
    assert_false(f->pending[h]); /* a half is not reused before it was waited for */
    f->r = r, f->slab[h] = *b, f->at[h] = at, f->to_device[h] = to_device, f->pending[h] = 1;
    f->dmas++;
    return 0;
}

static long fake_wait(void *backend, int h)
{
    fake *f = backend;
    run(f, h);
    f->waits++;
    return 0;
}

static void test_slabs_of_every_kind(void **state)
{
    (void)state;
    static const gk_staging_ops ops = {fake_dma, fake_wait};
    const size_t chunk = 1000;
    char *ring = malloc(2 * chunk);
    char *const halves[2] = {ring, ring + chunk};
    const gk_rect shapes[] = {
        {96, 37, 0, 100, 104},     /* ten rows a half, a short last slab */
        {2500, 3, 0, 2600, 2504},  /* each row in three pieces */
        {4321, 1, 0, 0, 0},        /* one long row */
        {1000, 5, 0, 1000, 1000},  /* exactly one row a half */
        {7, 1, 0, 0, 0},           /* tiny */
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const gk_rect *r = &shapes[i];
        const size_t host_pitch = r->height > 1 ? r->host_pitch : r->width;
        const size_t device_pitch = r->height > 1 ? r->device_pitch : r->width;
        const size_t host_bytes = host_pitch * r->height, device_bytes = device_pitch * r->height;
        unsigned char *host = malloc(host_bytes), *back = malloc(host_bytes), *device = malloc(device_bytes);
        for (size_t b = 0; b < host_bytes; b++) host[b] = (unsigned char)(b * 7 + i + 1);
        memset(device, 0xAB, device_bytes);
        memset(back, 0xCD, host_bytes);
        fake f = {.device = device};
        assert_int_equal(gk_staged_copy(&ops, &f, halves, chunk, r, host, 1), 0);
        run(&f, 0), run(&f, 1); /* the caller's final wait */
        for (size_t j = 0; j < r->height; j++) {
            assert_memory_equal(device + j * device_pitch, host + j * host_pitch, r->width);
            for (size_t b = r->width; b < device_pitch && j + 1 < r->height; b++)
                assert_int_equal(device[j * device_pitch + b], 0xAB);
        }
        assert_true(f.dmas >= 1);
        fake g = {.device = device};
        assert_int_equal(gk_staged_copy(&ops, &g, halves, chunk, r, back, 0), 0);
        assert_false(g.pending[0] || g.pending[1]); /* every slab arrived before the call returned */
        for (size_t j = 0; j < r->height; j++) {
            assert_memory_equal(back + j * host_pitch, host + j * host_pitch, r->width);
            for (size_t b = r->width; b < host_pitch; b++) assert_int_equal(back[j * host_pitch + b], 0xCD);
        }
        free(host), free(back), free(device);
    }
    free(ring);
}

/* Enough bytes that several threads pack each half (4 MiB and more). */
static void test_threaded_packing(void **state)
{
    (void)state;
    static const gk_staging_ops ops = {fake_dma, fake_wait};
    const size_t chunk = (size_t)6 << 20;
    char *ring = malloc(2 * chunk);
    char *const halves[2] = {ring, ring + chunk};
    const gk_rect r = {4096 * 4 - 12, 1100, 0, 4096 * 4, 4096 * 4 + 64}; /* 18 MB in rows of 16 KB */
    unsigned char *host = malloc(r.host_pitch * r.height), *back = calloc(r.host_pitch * r.height, 1);
    unsigned char *device = calloc(r.device_pitch * r.height, 1);
    for (size_t b = 0; b < r.host_pitch * r.height; b++) host[b] = (unsigned char)(b * 13 + 5);
    fake f = {.device = device};
    assert_int_equal(gk_staged_copy(&ops, &f, halves, chunk, &r, host, 1), 0);
    run(&f, 0), run(&f, 1);
    fake g = {.device = device};
    assert_int_equal(gk_staged_copy(&ops, &g, halves, chunk, &r, back, 0), 0);
    for (size_t j = 0; j < r.height; j++) assert_memory_equal(back + j * r.host_pitch, host + j * r.host_pitch, r.width);
    free(host), free(back), free(device), free(ring);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slabs_of_every_kind),
        cmocka_unit_test(test_threaded_packing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
