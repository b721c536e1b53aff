/* A stand-in libcuda.so for testing the CUDA backend's driver calls on a
 * machine without a GPU (GEMMKIT_LIBCUDA points gemmkit at it). "Device"
 * memory is host memory, so copies and offsets are real; modules are checked
 * to be CUBIN or PTX; launches are recorded, not run. The test reads the
 * record and the resource counts through mock_cuda_state(). */
#include <cuda.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mock_libcuda.h"

static mock_cuda_state_t state;
/* The thread's context stack (push/pop), as the driver keeps one per thread. */
#define MOCK_STACK 16
static _Thread_local CUcontext stack[MOCK_STACK];
static _Thread_local int push_depth;
/* The library calls the driver from several threads (the tiler's lanes, each with its own context on the
 * device): the counters change atomically, and the table of page-locked blocks under a lock, as a real driver
 * is thread-safe. */
#define COUNT(field, delta) __atomic_add_fetch(&state.field, (delta), __ATOMIC_SEQ_CST)
static pthread_mutex_t host_allocs_lock = PTHREAD_MUTEX_INITIALIZER;

mock_cuda_state_t *mock_cuda_state(void) { return &state; }

CUresult CUDAAPI cuInit(unsigned int flags) { return flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }

CUresult CUDAAPI cuDriverGetVersion(int *version)
{
    *version = 13000;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **text)
{
    *text = error == CUDA_ERROR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY" : "CUDA_ERROR_MOCK";
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **text)
{
    (void)error;
    *text = "mock driver error";
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetCount(int *count)
{
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal)
{
    if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev)
{
    (void)dev;
    snprintf(name, (size_t)len, "Mock H200");
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int *value, CUdevice_attribute attrib, CUdevice dev)
{
    (void)dev;
    switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = state.cc_major ? state.cc_major : 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = state.cc_major ? state.cc_minor : 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 132; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *value = 1980000; break; /* kHz */
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *value = 49152; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
        *value = state.optin_shared ? state.optin_shared : 232448;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *value = 2147483647; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: *value = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *value = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *value = 64; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
    (void)dev;
    *bytes = (size_t)150 << 30;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice dev)
{
    (void)dev;
    COUNT(context_refs, 1);
    *context = (CUcontext)&state;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev)
{
    (void)dev;
    COUNT(context_refs, -1);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext context)
{
    if ((context != (CUcontext)&state && context != (CUcontext)&state.user_context) || push_depth == MOCK_STACK)
        return CUDA_ERROR_INVALID_CONTEXT;
    stack[push_depth++] = context;
    COUNT(pushes, 1);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext *context)
{
    if (push_depth == 0) return CUDA_ERROR_INVALID_CONTEXT;
    push_depth--;
    if (context) *context = stack[push_depth];
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *context)
{
    *context = push_depth ? stack[push_depth - 1] : NULL;
    return CUDA_SUCCESS;
}

/* Calls that need the context current count as errors otherwise. */
static CUresult need_context(void)
{
    if (push_depth > 0) return CUDA_SUCCESS;
    COUNT(calls_without_context, 1);
    return CUDA_ERROR_INVALID_CONTEXT;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device)
{
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSynchronize(void)
{
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    COUNT(context_syncs, 1);
    return CUDA_SUCCESS;
}

/* A stream is its context. */
typedef struct mock_stream {
    CUcontext context;
} mock_stream;

CUresult CUDAAPI cuStreamCreate(CUstream *stream, unsigned int flags)
{
    (void)flags;
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    mock_stream *s = malloc(sizeof *s);
    if (!s) return CUDA_ERROR_OUT_OF_MEMORY;
    s->context = stack[push_depth - 1];
    COUNT(streams, 1);
    *stream = (CUstream)s;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamDestroy(CUstream stream)
{
    free(stream);
    COUNT(streams, -1);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamGetCtx(CUstream stream, CUcontext *context)
{
    if (!stream) return cuCtxGetCurrent(context);
    *context = ((mock_stream *)stream)->context;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamSynchronize(CUstream stream)
{
    (void)stream;
    COUNT(stream_syncs, 1);
    return need_context();
}

/* Never capturing: the stand-in records launches, it builds no graphs. */
CUresult CUDAAPI cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus *status)
{
    (void)stream;
    *status = CU_STREAM_CAPTURE_STATUS_NONE;
    return need_context();
}

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *ptr, size_t bytes)
{
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    if (bytes > ((size_t)1 << 32)) return CUDA_ERROR_OUT_OF_MEMORY;
    void *p = NULL; /* 256-byte aligned, as the driver's */
    if (posix_memalign(&p, 256, bytes ? bytes : 1) != 0) return CUDA_ERROR_OUT_OF_MEMORY;
    COUNT(allocations, 1);
    COUNT(allocs_made, 1);
    *ptr = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemFree(CUdeviceptr ptr)
{
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    free((void *)(uintptr_t)ptr);
    COUNT(allocations, -1);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t bytes, CUstream stream)
{
    (void)stream;
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    memcpy((void *)(uintptr_t)dst, src, bytes);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes, CUstream stream)
{
    (void)stream;
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    memcpy(dst, (const void *)(uintptr_t)src, bytes);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpy2DAsync(const CUDA_MEMCPY2D *copy, CUstream stream)
{
    (void)stream;
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    const int to_device = copy->srcMemoryType == CU_MEMORYTYPE_HOST && copy->dstMemoryType == CU_MEMORYTYPE_DEVICE;
    const int to_host = copy->srcMemoryType == CU_MEMORYTYPE_DEVICE && copy->dstMemoryType == CU_MEMORYTYPE_HOST;
    if ((!to_device && !to_host) || copy->srcXInBytes || copy->srcY || copy->dstXInBytes || copy->dstY ||
        copy->srcPitch < copy->WidthInBytes || copy->dstPitch < copy->WidthInBytes)
        return CUDA_ERROR_INVALID_VALUE;
    const char *src = to_device ? copy->srcHost : (const char *)(uintptr_t)copy->srcDevice;
    char *dst = to_device ? (char *)(uintptr_t)copy->dstDevice : copy->dstHost;
    for (size_t j = 0; j < copy->Height; j++)
        memcpy(dst + j * copy->dstPitch, src + j * copy->srcPitch, copy->WidthInBytes);
    COUNT(copies_2d, 1);
    return CUDA_SUCCESS;
}

/* Page-locked host memory: plain memory, remembered so that
 * cuPointerGetAttribute can tell it (and device memory) from pageable memory. */
#define MOCK_MAX_HOST_ALLOCS 16
static struct {
    char *base;
    size_t bytes;
} host_allocs[MOCK_MAX_HOST_ALLOCS];

CUresult CUDAAPI cuMemHostAlloc(void **ptr, size_t bytes, unsigned int flags)
{
    (void)flags;
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    CUresult result = CUDA_ERROR_OUT_OF_MEMORY;
    pthread_mutex_lock(&host_allocs_lock);
    for (int i = 0; i < MOCK_MAX_HOST_ALLOCS; i++)
        if (!host_allocs[i].base) {
            if ((host_allocs[i].base = malloc(bytes))) {
                host_allocs[i].bytes = bytes;
                COUNT(host_allocations, 1);
                *ptr = host_allocs[i].base;
                result = CUDA_SUCCESS;
            }
            break;
        }
    pthread_mutex_unlock(&host_allocs_lock);
    return result;
}

CUresult CUDAAPI cuMemFreeHost(void *ptr)
{
    CUresult result = CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&host_allocs_lock);
    for (int i = 0; i < MOCK_MAX_HOST_ALLOCS; i++)
        if (host_allocs[i].base == ptr) {
            free(ptr);
            host_allocs[i].base = NULL;
            COUNT(host_allocations, -1);
            result = CUDA_SUCCESS;
            break;
        }
    pthread_mutex_unlock(&host_allocs_lock);
    return result;
}

/* Only the memory type: host for page-locked memory; every other pointer is
 * pageable here (mock device memory is plain memory too, but never passed as
 * a host pointer). */
CUresult CUDAAPI cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    if (attribute != CU_POINTER_ATTRIBUTE_MEMORY_TYPE) return CUDA_ERROR_INVALID_VALUE;
    const char *p = (const char *)(uintptr_t)ptr;
    CUresult result = CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&host_allocs_lock);
    for (int i = 0; i < MOCK_MAX_HOST_ALLOCS; i++)
        if (host_allocs[i].base && p >= host_allocs[i].base && p < host_allocs[i].base + host_allocs[i].bytes) {
            *(unsigned int *)data = CU_MEMORYTYPE_HOST;
            result = CUDA_SUCCESS;
            break;
        }
    pthread_mutex_unlock(&host_allocs_lock);
    return result;
}

typedef struct mock_module {
    char *image;
    size_t size;
} mock_module;

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int count, CUjit_option *options,
                                    void **values)
{
    (void)count;
    (void)options;
    (void)values;
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    const char *bytes = image;
    size_t size = 0;
    if (memcmp(bytes, "\x7f" "ELF", 4) == 0) {
        /* CUBIN: the ELF header's section table ends the file. */
        uint64_t shoff;
        uint16_t shentsize, shnum;
        memcpy(&shoff, bytes + 0x28, 8);
        memcpy(&shentsize, bytes + 0x3a, 2);
        memcpy(&shnum, bytes + 0x3c, 2);
        size = (size_t)(shoff + (uint64_t)shentsize * shnum);
        COUNT(cubins_loaded, 1);
    } else if (strstr(bytes, ".version") && strstr(bytes, ".target")) {
        size = strlen(bytes) + 1;
        COUNT(ptx_loaded, 1);
    } else {
        return CUDA_ERROR_INVALID_IMAGE;
    }
    mock_module *m = malloc(sizeof *m);
    m->image = malloc(size);
    memcpy(m->image, image, size);
    m->size = size;
    COUNT(modules, 1);
    *module = (CUmodule)m;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleUnload(CUmodule module)
{
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    mock_module *m = (mock_module *)module;
    free(m->image);
    free(m);
    COUNT(modules, -1);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name)
{
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    mock_module *m = (mock_module *)module;
    size_t n = strlen(name);
    for (size_t i = 0; i + n < m->size; i++) {
        /* A whole symbol name: NUL-terminated in CUBIN, "name(" in PTX. */
        if (memcmp(m->image + i, name, n) == 0 && (m->image[i + n] == '\0' || m->image[i + n] == '(') &&
            (i == 0 || m->image[i - 1] == '\0' || m->image[i - 1] == ' ')) {
            snprintf(state.function, sizeof state.function, "%s", name);
            *function = (CUfunction)state.function;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_NOT_FOUND;
}

CUresult CUDAAPI cuFuncGetAttribute(int *value, CUfunction_attribute attrib, CUfunction function)
{
    (void)function;
    if (attrib == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) *value = state.max_threads ? state.max_threads : 1024;
    else if (attrib == CU_FUNC_ATTRIBUTE_NUM_REGS) *value = 96;
    else return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction function, CUfunction_attribute attrib, int value)
{
    (void)function;
    const int limit = state.optin_shared ? state.optin_shared : 232448;
    if (attrib != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES || value < 0 || value > limit)
        return CUDA_ERROR_INVALID_VALUE;
    state.dynamic_allowed = value;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                                unsigned int by, unsigned int bz, unsigned int shared, CUstream stream, void **params,
                                void **extra)
{
    (void)f;
    (void)stream;
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    if (extra || !params) return CUDA_ERROR_INVALID_VALUE;
    /* Beyond 48 KiB only as allowed for the function first (one function at a time here). */
    if (shared > 49152 && shared > (unsigned)state.dynamic_allowed) return CUDA_ERROR_INVALID_VALUE;
    mock_launch *l = &state.last;
    l->shared = shared;
    l->stream = (uint64_t)(uintptr_t)stream;
    snprintf(l->function, sizeof l->function, "%s", (const char *)f);
    l->grid[0] = gx, l->grid[1] = gy, l->grid[2] = gz;
    l->block[0] = bx, l->block[1] = by, l->block[2] = bz;
    /* Each parameter slot holds at least 8 bytes in gemmkit's backend. */
    for (int i = 0; i < state.expected_params && i < MOCK_MAX_PARAMS; i++) memcpy(&l->params[i], params[i], 8);
    const int at = __atomic_fetch_add(&state.launches, 1, __ATOMIC_SEQ_CST);
    state.recent[at % MOCK_RECENT] = *l;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventCreate(CUevent *event, unsigned int flags)
{
    (void)flags;
    if (need_context()) return CUDA_ERROR_INVALID_CONTEXT;
    COUNT(events, 1);
    *event = (CUevent)&state.events;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventDestroy(CUevent event)
{
    (void)event;
    COUNT(events, -1);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventRecord(CUevent event, CUstream stream)
{
    (void)event;
    (void)stream;
    return need_context();
}

CUresult CUDAAPI cuEventSynchronize(CUevent event)
{
    (void)event;
    COUNT(event_syncs, 1);
    return need_context();
}

CUresult CUDAAPI cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
    (void)start;
    (void)end;
    *ms = 1.5f;
    return CUDA_SUCCESS;
}

/* Records the call; the map's first 8 bytes hold the address (what a launch's parameter record shows). */
CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address,
                                        const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                        const cuuint32_t *steps, CUtensorMapInterleave interleave,
                                        CUtensorMapSwizzle swizzle, CUtensorMapL2promotion promotion,
                                        CUtensorMapFloatOOBfill fill)
{
    (void)steps, (void)interleave, (void)promotion, (void)fill;
    if (((uintptr_t)map % 64) || ((uintptr_t)address % 16) || rank < 1 || rank > 3) return CUDA_ERROR_INVALID_VALUE;
    mock_tensor_map m = {.address = (uint64_t)(uintptr_t)address, .rank = rank, .swizzle = (int)swizzle,
                         .data_type = (int)type};
    for (unsigned d = 0; d < rank; d++) {
        m.dims[d] = dims[d];
        m.box[d] = box[d];
        if (d + 1 < rank) {
            if (strides[d] % 16) return CUDA_ERROR_INVALID_VALUE;
            m.strides[d] = strides[d];
        }
    }
    memset(map, 0, sizeof *map);
    memcpy(map, &m.address, sizeof m.address);
    const int at = __atomic_fetch_add(&state.tensor_maps, 1, __ATOMIC_SEQ_CST);
    state.maps[at % MOCK_MAPS] = m;
    return CUDA_SUCCESS;
}
