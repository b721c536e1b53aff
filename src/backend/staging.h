/* Large copies between pageable host memory and a device through a ring of
 * two page-locked halves that the backend owns (staging.c): drivers copy
 * pageable memory through page-locked buffers of their own on the calling
 * thread, one chunk after the other (about 9 GB/s on the H200 machine, a
 * fifth of a copy from page-locked memory). Here several threads pack one
 * half while the DMA engine drains the other. The backend gives the DMA of a
 * slab between a half and the device, and the wait for a half's last DMA. */
#ifndef GK_STAGING_H
#define GK_STAGING_H

#include <stddef.h>

#include "backend.h"

/* Copies smaller than this are left to the driver. */
#define GK_STAGING_MIN_BYTES ((size_t)16 << 20)
/* Bytes per half of a ring. */
#define GK_STAGING_CHUNK ((size_t)32 << 20)

/* A piece of a rectangle: rows row0 .. row0 + rows - 1, bytes [offset, offset +
 * width) of each; in a half of the ring it is stored tight (pitch width). */
typedef struct gk_slab {
    size_t row0, rows, offset, width;
} gk_slab;

typedef struct gk_staging_ops {
    /* Starts the copy of slab b between half h (at `at`) and the device
     * rectangle of r; marks half h busy until it is done. 0 on success, else
     * the backend's error code. */
    long (*dma)(void *backend, const gk_rect *r, const gk_slab *b, int h, char *at, int to_device);
    /* Waits until half h's last copy is done. */
    long (*wait)(void *backend, int h);
} gk_staging_ops;

/* The copy of r between `host` (its first row; r->host_pitch apart) and the
 * device through the halves (chunk bytes each), every DMA started through
 * ops; returns 0 or the first error. The caller waits for the device's queue
 * afterwards. */
long gk_staged_copy(const gk_staging_ops *ops, void *backend, char *const halves[2], size_t chunk, const gk_rect *r,
                    void *host, int to_device);

#endif
