/* The CUDA backend's page-locked ring for large copies of pageable memory
 * (staging.h has the scheme; cuda_staging.c the CUDA side of it). */
#ifndef GK_CUDA_STAGING_H
#define GK_CUDA_STAGING_H

#include "backend.h"
#include "cuda_driver.h"
#include "staging.h"

/* One device handle's ring: two page-locked chunks and their copies' events,
 * allocated at the first staged copy and kept until the handle closes. */
typedef struct gk_cuda_staging {
    char *ring;   /* 2 * chunk bytes, cuMemHostAlloc'd; NULL until first use */
    size_t chunk; /* bytes per half; 0 before first use: the default (32 MiB) */
    CUevent done[2];
} gk_cuda_staging;

/* 1 when a copy of r from or to host memory at p should be staged: large,
 * pitches the driver takes, and p pageable (not allocated, mapped or
 * registered through the driver: the driver's own copy of those is fast). */
int gk_cuda_staging_worth(const gk_cu_api *cu, const gk_rect *r, const void *p);

/* 1 when the ring is there, allocated now if need be (context current); 0
 * when no page-locked memory could be had: the caller copies directly. */
int gk_cuda_staging_ready(const gk_cu_api *cu, gk_cuda_staging *s);

/* The 2-D copy of r between host and the device rectangle starting at
 * `device` (r->device_offset already added) on `stream` through the ready ring; the caller has made the context current, and waits
 * for the stream afterwards. Returns CUDA_SUCCESS or the first error. */
CUresult gk_cuda_staged_copy(const gk_cu_api *cu, CUstream stream, gk_cuda_staging *s, CUdeviceptr device,
                             const gk_rect *r, void *host, int to_device);

/* Frees the ring (context current). */
void gk_cuda_staging_free(const gk_cu_api *cu, gk_cuda_staging *s);

#endif
