/* See cuda_staging.h: the CUDA side of staging.c's ring (page-locked halves
 * from cuMemHostAlloc, a 2-D cuMemcpy2DAsync per slab, an event per half). */
#include "cuda_staging.h"

#include <stdint.h>
#include <string.h>

int gk_cuda_staging_worth(const gk_cu_api *cu, const gk_rect *r, const void *p)
{
    if (r->width * r->height < GK_STAGING_MIN_BYTES) return 0;
    if (r->height > 1 && (r->host_pitch > INT32_MAX || r->device_pitch > INT32_MAX)) return 0;
    unsigned int type = 0;
    return cu->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)p) ==
           CUDA_ERROR_INVALID_VALUE;
}

int gk_cuda_staging_ready(const gk_cu_api *cu, gk_cuda_staging *s)
{
    if (s->ring) return 1;
    const size_t chunk = s->chunk ? s->chunk : GK_STAGING_CHUNK;
    void *ring = NULL;
    if (cu->cuMemHostAlloc(&ring, 2 * chunk, 0) != CUDA_SUCCESS) return 0;
    CUresult r = cu->cuEventCreate(&s->done[0], CU_EVENT_DISABLE_TIMING);
    if (r == CUDA_SUCCESS) {
        r = cu->cuEventCreate(&s->done[1], CU_EVENT_DISABLE_TIMING);
        if (r != CUDA_SUCCESS) cu->cuEventDestroy(s->done[0]);
    }
    if (r != CUDA_SUCCESS) {
        cu->cuMemFreeHost(ring);
        return 0;
    }
    s->ring = ring;
    s->chunk = chunk;
    return 1;
}

void gk_cuda_staging_free(const gk_cu_api *cu, gk_cuda_staging *s)
{
    if (!s->ring) return;
    cu->cuEventDestroy(s->done[0]);
    cu->cuEventDestroy(s->done[1]);
    cu->cuMemFreeHost(s->ring);
    s->ring = NULL;
}

typedef struct cuda_copy {
    const gk_cu_api *cu;
    CUstream stream;
    gk_cuda_staging *s;
    CUdeviceptr device;
} cuda_copy;

static long slab_dma(void *backend, const gk_rect *r, const gk_slab *b, int h, char *at, int to_device)
{
    const cuda_copy *c = backend;
    const size_t device_pitch = r->height > 1 ? r->device_pitch : r->width;
    const CUdeviceptr device = c->device + b->row0 * device_pitch + b->offset;
    CUDA_MEMCPY2D copy;
    memset(&copy, 0, sizeof copy);
    copy.WidthInBytes = b->width;
    copy.Height = b->rows;
    if (to_device) {
        copy.srcMemoryType = CU_MEMORYTYPE_HOST, copy.srcHost = at, copy.srcPitch = b->width;
        copy.dstMemoryType = CU_MEMORYTYPE_DEVICE, copy.dstDevice = device, copy.dstPitch = device_pitch;
    } else {
        copy.srcMemoryType = CU_MEMORYTYPE_DEVICE, copy.srcDevice = device, copy.srcPitch = device_pitch;
        copy.dstMemoryType = CU_MEMORYTYPE_HOST, copy.dstHost = at, copy.dstPitch = b->width;
    }
    CUresult result = c->cu->cuMemcpy2DAsync(&copy, c->stream);
    if (result == CUDA_SUCCESS) result = c->cu->cuEventRecord(c->s->done[h], c->stream);
    return result;
}

static long half_wait(void *backend, int h)
{
    const cuda_copy *c = backend;
    return c->cu->cuEventSynchronize(c->s->done[h]);
}

CUresult gk_cuda_staged_copy(const gk_cu_api *cu, CUstream stream, gk_cuda_staging *s, CUdeviceptr device,
                             const gk_rect *r, void *host, int to_device)
{
    static const gk_staging_ops ops = {slab_dma, half_wait};
    cuda_copy c = {cu, stream, s, device};
    char *const halves[2] = {s->ring, s->ring + s->chunk};
    return (CUresult)gk_staged_copy(&ops, &c, halves, s->chunk, r, host, to_device);
}
