/* See staging.h. A copy is cut into slabs that fit one half of the ring:
 * whole rows of the rectangle when a row fits, else pieces of one row. To the
 * device: slab k is packed (by several threads) into half k % 2 while the DMA
 * engine copies slab k - 1 out of the other half. From the device: slab k + 1
 * is copied into one half while slab k is unpacked from the other. */
#include "staging.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

#define MAX_COPY_THREADS 8

typedef struct rows_part {
    char *dst;
    const char *src;
    size_t dst_pitch, src_pitch, width, rows;
} rows_part;

static void *copy_rows(void *arg)
{
    const rows_part *p = arg;
    for (size_t j = 0; j < p->rows; j++) memcpy(p->dst + j * p->dst_pitch, p->src + j * p->src_pitch, p->width);
    return NULL;
}

/* Half the cores, at most MAX_COPY_THREADS: the tiler runs two lanes a device. */
static int copy_threads(void)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    const long half = online > 1 ? online / 2 : 1;
    return half < MAX_COPY_THREADS ? (int)half : MAX_COPY_THREADS;
}

/* rows x width bytes from src to dst, split over threads by rows (or, for a
 * few long rows, by bytes); a thread that cannot start leaves its part to this one. */
static void copy_rows_parallel(char *dst, size_t dst_pitch, const char *src, size_t src_pitch, size_t width,
                               size_t rows)
{
    int threads = copy_threads();
    if (width * rows < ((size_t)4 << 20)) threads = 1;
    rows_part parts[MAX_COPY_THREADS];
    for (int t = 0; t < threads; t++) {
        if (rows >= (size_t)threads) {
            const size_t first = rows * (size_t)t / (size_t)threads, last = rows * (size_t)(t + 1) / (size_t)threads;
            parts[t] = (rows_part){dst + first * dst_pitch, src + first * src_pitch, dst_pitch, src_pitch, width,
                                   last - first};
        } else {
            const size_t first = width * (size_t)t / (size_t)threads, last = width * (size_t)(t + 1) / (size_t)threads;
            parts[t] = (rows_part){dst + first, src + first, dst_pitch, src_pitch, last - first, rows};
        }
    }
    pthread_t ids[MAX_COPY_THREADS];
    int started[MAX_COPY_THREADS] = {0};
    for (int t = 1; t < threads; t++) started[t] = pthread_create(&ids[t], NULL, copy_rows, &parts[t]) == 0;
    copy_rows(&parts[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t]) pthread_join(ids[t], NULL);
        else copy_rows(&parts[t]);
    }
}

/* The k-th slab of r for halves of `chunk` bytes; 0 past the last. */
static int slab_at(const gk_rect *r, size_t chunk, size_t k, gk_slab *out)
{
    if (r->width <= chunk) { /* whole rows */
        const size_t per = chunk / r->width, row0 = k * per;
        if (row0 >= r->height) return 0;
        *out = (gk_slab){row0, r->height - row0 < per ? r->height - row0 : per, 0, r->width};
        return 1;
    }
    const size_t pieces = (r->width + chunk - 1) / chunk, row = k / pieces, offset = (k % pieces) * chunk;
    if (row >= r->height) return 0;
    *out = (gk_slab){row, 1, offset, r->width - offset < chunk ? r->width - offset : chunk};
    return 1;
}

/* Between the slab's place in the host rectangle and its half of the ring. */
static void slab_host(const gk_rect *r, char *host, const gk_slab *b, char *half, int to_ring)
{
    const size_t host_pitch = r->height > 1 ? r->host_pitch : r->width;
    char *at = host + b->row0 * host_pitch + b->offset;
    if (to_ring) copy_rows_parallel(half, b->width, at, host_pitch, b->width, b->rows);
    else copy_rows_parallel(at, host_pitch, half, b->width, b->width, b->rows);
}

long gk_staged_copy(const gk_staging_ops *ops, void *backend, char *const halves[2], size_t chunk, const gk_rect *r,
                    void *host, int to_device)
{
    long status = 0;
    gk_slab b;
    if (to_device) {
        for (size_t k = 0; status == 0 && slab_at(r, chunk, k, &b); k++) {
            const int h = (int)(k & 1);
            if (k >= 2) status = ops->wait(backend, h); /* its last DMA has read it */
            if (status != 0) break;
            slab_host(r, host, &b, halves[h], 1);
            status = ops->dma(backend, r, &b, h, halves[h], 1);
        }
        return status;
    }
    if (!slab_at(r, chunk, 0, &b)) return 0;
    status = ops->dma(backend, r, &b, 0, halves[0], 0);
    for (size_t k = 0; status == 0; k++) {
        const int h = (int)(k & 1);
        gk_slab next;
        const int more = slab_at(r, chunk, k + 1, &next);
        /* The next slab into the other half (unpacked in the previous round) while this one is unpacked. */
        if (more && (status = ops->dma(backend, r, &next, h ^ 1, halves[h ^ 1], 0)) != 0) break;
        if ((status = ops->wait(backend, h)) != 0) break;
        slab_at(r, chunk, k, &b);
        slab_host(r, host, &b, halves[h], 0);
        if (!more) break;
    }
    return status;
}
