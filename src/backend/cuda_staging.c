/* See cuda_staging.h. A copy is cut into slabs that fit one half of the
 * ring: whole rows of the rectangle when a row fits, else pieces of one row.
 * To the device: slab k is packed (by several threads) into half k % 2 while
 * the DMA engine copies slab k - 1 out of the other half. From the device:
 * slab k + 1 is copied into one half while slab k is unpacked from the other. */
#include "cuda_staging.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define RING_CHUNK ((size_t)32 << 20) /* bytes per half */
#define MAX_COPY_THREADS 8

int gk_cuda_staging_worth(const gk_cu_api *cu, const gk_rect *r, const void *p)
{
    if (r->width * r->height < GK_CUDA_STAGING_MIN_BYTES) return 0;
    if (r->height > 1 && (r->host_pitch > INT32_MAX || r->device_pitch > INT32_MAX)) return 0;
    unsigned int type = 0;
    return cu->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)p) ==
           CUDA_ERROR_INVALID_VALUE;
}

/* ---- rows copied by several threads */

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

/* rows x width bytes from src to dst, split over threads by rows (or, for one
 * row, by bytes); a thread that cannot start leaves its part to this one. */
static void copy_rows_parallel(char *dst, size_t dst_pitch, const char *src, size_t src_pitch, size_t width,
                               size_t rows)
{
    int threads = copy_threads();
    if (width * rows < ((size_t)4 << 20)) threads = 1;
    rows_part parts[MAX_COPY_THREADS];
    int count = 0;
    if (rows >= (size_t)threads) {
        for (int t = 0; t < threads; t++) {
            const size_t first = rows * (size_t)t / (size_t)threads, last = rows * (size_t)(t + 1) / (size_t)threads;
            parts[count++] = (rows_part){dst + first * dst_pitch, src + first * src_pitch, dst_pitch, src_pitch, width,
                                         last - first};
        }
    } else { /* a few long rows: each thread a range of bytes of every row */
        for (int t = 0; t < threads; t++) {
            const size_t first = width * (size_t)t / (size_t)threads, last = width * (size_t)(t + 1) / (size_t)threads;
            parts[count++] = (rows_part){dst + first, src + first, dst_pitch, src_pitch, last - first, rows};
        }
    }
    pthread_t ids[MAX_COPY_THREADS];
    int started[MAX_COPY_THREADS] = {0};
    for (int t = 1; t < count; t++) started[t] = pthread_create(&ids[t], NULL, copy_rows, &parts[t]) == 0;
    copy_rows(&parts[0]);
    for (int t = 1; t < count; t++) {
        if (started[t]) pthread_join(ids[t], NULL);
        else copy_rows(&parts[t]);
    }
}

/* ---- the ring */

int gk_cuda_staging_ready(const gk_cu_api *cu, gk_cuda_staging *s)
{
    if (s->ring) return 1;
    const size_t chunk = s->chunk ? s->chunk : RING_CHUNK;
    void *ring = NULL;
    CUresult r = cu->cuMemHostAlloc(&ring, 2 * chunk, 0);
    if (r != CUDA_SUCCESS) return 0;
    r = cu->cuEventCreate(&s->done[0], CU_EVENT_DISABLE_TIMING);
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

/* ---- slabs */

/* A piece of the rectangle: rows row0.. row0 + rows - 1, bytes [offset, offset + width) of each. */
typedef struct slab {
    size_t row0, rows, offset, width;
} slab;

/* The k-th slab of r for halves of `chunk` bytes; 0 past the last. */
static int slab_at(const gk_rect *r, size_t chunk, size_t k, slab *out)
{
    if (r->width <= chunk) { /* whole rows */
        const size_t per = chunk / r->width, row0 = k * per;
        if (row0 >= r->height) return 0;
        *out = (slab){row0, r->height - row0 < per ? r->height - row0 : per, 0, r->width};
        return 1;
    }
    const size_t pieces = (r->width + chunk - 1) / chunk, row = k / pieces, offset = (k % pieces) * chunk;
    if (row >= r->height) return 0;
    *out = (slab){row, 1, offset, r->width - offset < chunk ? r->width - offset : chunk};
    return 1;
}

/* The DMA of one slab between its half of the ring (stored tight) and the device. */
static CUresult slab_dma(const gk_cu_api *cu, CUstream stream, const gk_rect *r, CUdeviceptr device, const slab *b,
                         char *half, int to_device)
{
    const size_t device_pitch = r->height > 1 ? r->device_pitch : r->width;
    const CUdeviceptr at = device + b->row0 * device_pitch + b->offset;
    CUDA_MEMCPY2D copy;
    memset(&copy, 0, sizeof copy);
    copy.WidthInBytes = b->width;
    copy.Height = b->rows;
    if (to_device) {
        copy.srcMemoryType = CU_MEMORYTYPE_HOST, copy.srcHost = half, copy.srcPitch = b->width;
        copy.dstMemoryType = CU_MEMORYTYPE_DEVICE, copy.dstDevice = at, copy.dstPitch = device_pitch;
    } else {
        copy.srcMemoryType = CU_MEMORYTYPE_DEVICE, copy.srcDevice = at, copy.srcPitch = device_pitch;
        copy.dstMemoryType = CU_MEMORYTYPE_HOST, copy.dstHost = half, copy.dstPitch = b->width;
    }
    return cu->cuMemcpy2DAsync(&copy, stream);
}

/* Between the slab's place in the host rectangle and its half of the ring. */
static void slab_host(const gk_rect *r, char *host, const slab *b, char *half, int to_ring)
{
    const size_t host_pitch = r->height > 1 ? r->host_pitch : r->width;
    char *at = host + b->row0 * host_pitch + b->offset;
    if (to_ring) copy_rows_parallel(half, b->width, at, host_pitch, b->width, b->rows);
    else copy_rows_parallel(at, host_pitch, half, b->width, b->width, b->rows);
}

CUresult gk_cuda_staged_copy(const gk_cu_api *cu, CUstream stream, gk_cuda_staging *s, CUdeviceptr device,
                             const gk_rect *r, void *host, int to_device)
{
    CUresult result = CUDA_SUCCESS;
    char *half[2] = {s->ring, s->ring + s->chunk};
    slab b;
    if (to_device) {
        for (size_t k = 0; result == CUDA_SUCCESS && slab_at(r, s->chunk, k, &b); k++) {
            const int h = (int)(k & 1);
            if (k >= 2) result = cu->cuEventSynchronize(s->done[h]); /* its last DMA has read it */
            if (result != CUDA_SUCCESS) break;
            slab_host(r, host, &b, half[h], 1);
            result = slab_dma(cu, stream, r, device, &b, half[h], 1);
            if (result == CUDA_SUCCESS) result = cu->cuEventRecord(s->done[h], stream);
        }
        return result;
    }
    if (!slab_at(r, s->chunk, 0, &b)) return CUDA_SUCCESS;
    result = slab_dma(cu, stream, r, device, &b, half[0], 0);
    if (result == CUDA_SUCCESS) result = cu->cuEventRecord(s->done[0], stream);
    for (size_t k = 0; result == CUDA_SUCCESS; k++) {
        const int h = (int)(k & 1);
        slab next;
        /* The next slab into the other half (unpacked in the previous round) while this one is unpacked. */
        if (slab_at(r, s->chunk, k + 1, &next)) {
            result = slab_dma(cu, stream, r, device, &next, half[h ^ 1], 0);
            if (result == CUDA_SUCCESS) result = cu->cuEventRecord(s->done[h ^ 1], stream);
            if (result != CUDA_SUCCESS) break;
        }
        result = cu->cuEventSynchronize(s->done[h]);
        if (result != CUDA_SUCCESS) break;
        slab_at(r, s->chunk, k, &b);
        slab_host(r, host, &b, half[h], 0);
        if (!slab_at(r, s->chunk, k + 1, &next)) break;
    }
    return result;
}
