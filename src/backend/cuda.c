/* The CUDA backend: the driver API (loaded at run time) for devices, memory
 * and launches, and NVRTC for the same OpenCL C kernel sources the OpenCL
 * backend builds (translated by cl_to_cuda.h). One primary context (or the
 * caller's own CUcontext, gemmkit_context_create_cuda) and one stream per
 * opened device; every call makes the context current around it and restores
 * the thread's own after. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cuda_driver.h"
#include "cuda_internal.h"
#include "cuda_interop.h"
#include "cuda_staging.h"
#include "status.h"

#define GK_MAX_CUDA_ARGS 32

struct gk_device {
    const gk_cu_api *cu;
    CUdevice device;
    CUcontext context; /* the device's primary context, retained; or the caller's (owns_context 0) */
    int owns_context;  /* 0: a CUcontext of the caller's, which gemmkit never releases */
    CUstream stream;
    CUstream launch_stream; /* where launches go: stream, or the caller's during one of its calls */
    CUevent start, end; /* for timing launches */
    int arch;           /* compute capability, major * 10 + minor */
    int max_grid[3], max_block[3];
    gk_cuda_staging staging; /* page-locked ring for large copies of pageable memory */
    void *landing;           /* GK_CUDA_LANDING_BYTES page-locked for small reads; NULL until the first one */
};

/* A small read lands in page-locked memory first, then a memcpy: a copy straight into pageable memory goes through
 * the driver's own staging, some microseconds more on a host-array call's read-back. */
#define GK_CUDA_LANDING_BYTES ((size_t)256 << 10)

struct gk_mem {
    const gk_cu_api *cu;
    CUcontext context;
    CUdeviceptr ptr;
    int owned;    /* 0: the caller's memory (wrap_address), never freed here */
    int borrowed; /* on a caller's CUcontext: its streams may still be using the memory when it is freed */
};

struct gk_program {
    const gk_cu_api *cu;
    CUcontext context;
    CUmodule module;
    int borrowed; /* as gk_mem's */
};

/* On a caller's context, the caller's streams may still run gemmkit's kernels on gemmkit's memory: wait for the
 * context before freeing either (as cublasDestroy does). */
static void wait_if_borrowed(const gk_cu_api *cu, int borrowed)
{
    if (borrowed) cu->cuCtxSynchronize();
}

/* Brackets driver calls with the device's context made current on this thread. */
static gemmkit_status enter(const gk_cu_api *cu, CUcontext context)
{
    CUresult r = cu->cuCtxPushCurrent(context);
    return r == CUDA_SUCCESS ? GEMMKIT_SUCCESS : gk_cu_fail(r, "cuCtxPushCurrent");
}

static void leave(const gk_cu_api *cu)
{
    CUcontext popped = NULL;
    cu->cuCtxPopCurrent(&popped);
}

static gemmkit_status cuda_device_count(int *count)
{
    const gk_cu_api *cu = NULL;
    GK_TRY(gk_cu_load(&cu));
    int n = 0;
    CUresult r = cu->cuDeviceGetCount(&n);
    if (r == CUDA_ERROR_NOT_INITIALIZED || r == CUDA_ERROR_NO_DEVICE) n = 0; /* cuInit saw no device */
    else if (r != CUDA_SUCCESS) return gk_cu_fail(r, "cuDeviceGetCount");
    *count = n;
    return GEMMKIT_SUCCESS;
}

static gemmkit_status device_handle(int index, const gk_cu_api **cu, CUdevice *device)
{
    int count = 0;
    GK_TRY(cuda_device_count(&count));
    if (index < 0 || index >= count)
        return gk_fail(GEMMKIT_ERROR_NO_DEVICE, "CUDA device index %d out of range (%d devices)", index, count);
    GK_TRY(gk_cu_load(cu));
    CUresult r = (*cu)->cuDeviceGet(device, index);
    return r == CUDA_SUCCESS ? GEMMKIT_SUCCESS : gk_cu_fail(r, "cuDeviceGet");
}

static int attribute(const gk_cu_api *cu, CUdevice device, CUdevice_attribute which)
{
    int value = 0;
    if (cu->cuDeviceGetAttribute(&value, which, device) != CUDA_SUCCESS) value = 0;
    return value;
}

static gemmkit_status cuda_device_info(int index, gemmkit_device_info *info)
{
    const gk_cu_api *cu = NULL;
    CUdevice device = 0;
    GK_TRY(device_handle(index, &cu, &device));
    memset(info, 0, sizeof *info);
    snprintf(info->backend, sizeof info->backend, "cuda");
    snprintf(info->platform, sizeof info->platform, "NVIDIA CUDA");
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA Corporation");
    if (cu->cuDeviceGetName(info->name, (int)sizeof info->name, device) != CUDA_SUCCESS)
        snprintf(info->name, sizeof info->name, "CUDA device %d", index);
    int version = 0;
    cu->cuDriverGetVersion(&version);
    int major = attribute(cu, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    int minor = attribute(cu, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    snprintf(info->driver_version, sizeof info->driver_version, "CUDA %d.%d, compute capability %d.%d",
             version / 1000, version % 1000 / 10, major, minor);
    info->is_gpu = 1;
    info->compute_units = attribute(cu, device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    info->clock_mhz = attribute(cu, device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000;
    info->lanes_per_unit = gk_nvidia_lanes_per_unit(major, minor);
    /* Statically declared shared memory is limited to 48 KiB per block. */
    info->local_mem_bytes = (size_t)attribute(cu, device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    info->max_work_group_size = (size_t)attribute(cu, device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    size_t total = 0;
    if (cu->cuDeviceTotalMem(&total, device) != CUDA_SUCCESS) total = 0;
    info->global_mem_bytes = total;
    info->max_alloc_bytes = total; /* CUDA has no separate per-allocation limit */
    info->peak_gflops = gk_peak_gflops(info);
    return GEMMKIT_SUCCESS;
}

/* sm_XY from the compute capability. */
static void cuda_device_arch(int index, char *arch, size_t size)
{
    const gk_cu_api *cu = NULL;
    CUdevice device = 0;
    arch[0] = '\0';
    if (device_handle(index, &cu, &device) != GEMMKIT_SUCCESS) return;
    int major = attribute(cu, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    int minor = attribute(cu, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    if (major > 0) snprintf(arch, size, "sm_%d%d", major, minor);
}

static void destroy_device(gk_device *dev)
{
    const gk_cu_api *cu = dev->cu;
    if (dev->context && enter(cu, dev->context) == GEMMKIT_SUCCESS) {
        if (dev->stream) cu->cuStreamSynchronize(dev->stream);
        gk_cuda_staging_free(cu, &dev->staging);
        if (dev->landing) cu->cuMemFreeHost(dev->landing);
        if (dev->start) cu->cuEventDestroy(dev->start);
        if (dev->end) cu->cuEventDestroy(dev->end);
        if (dev->stream) cu->cuStreamDestroy(dev->stream);
        leave(cu);
    }
    if (dev->context && dev->owns_context) cu->cuDevicePrimaryCtxRelease(dev->device);
    free(dev);
}

/* A device record on `context`: the device's primary context retained (context NULL), or the caller's. */
static gemmkit_status open_on(const gk_cu_api *cu, CUdevice device, CUcontext context, gk_device **out)
{
    gk_device *dev = calloc(1, sizeof *dev);
    if (!dev) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating the device record");
    dev->cu = cu;
    dev->device = device;
    dev->arch = attribute(cu, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10 +
                attribute(cu, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    for (int i = 0; i < 3; i++) {
        dev->max_grid[i] = attribute(cu, device, (CUdevice_attribute)(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i));
        dev->max_block[i] = attribute(cu, device, (CUdevice_attribute)(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i));
    }
    CUresult r = CUDA_SUCCESS;
    if (context) {
        dev->context = context;
    } else if ((r = cu->cuDevicePrimaryCtxRetain(&dev->context, device)) == CUDA_SUCCESS) {
        dev->owns_context = 1;
    } else {
        dev->context = NULL;
        destroy_device(dev);
        return gk_cu_fail(r, "cuDevicePrimaryCtxRetain");
    }
    gemmkit_status status = enter(cu, dev->context);
    if (status != GEMMKIT_SUCCESS) {
        destroy_device(dev);
        return status;
    }
    const char *what = "cuStreamCreate";
    r = cu->cuStreamCreate(&dev->stream, CU_STREAM_NON_BLOCKING);
    if (r == CUDA_SUCCESS) {
        what = "cuEventCreate";
        r = cu->cuEventCreate(&dev->start, CU_EVENT_DEFAULT);
    }
    if (r == CUDA_SUCCESS) r = cu->cuEventCreate(&dev->end, CU_EVENT_DEFAULT);
    leave(cu);
    if (r != CUDA_SUCCESS) {
        status = gk_cu_fail(r, what);
        destroy_device(dev);
        return status;
    }
    dev->launch_stream = dev->stream;
    *out = dev;
    return GEMMKIT_SUCCESS;
}

static gemmkit_status cuda_open(int index, gk_device **out)
{
    const gk_cu_api *cu = NULL;
    CUdevice device = 0;
    GK_TRY(device_handle(index, &cu, &device));
    return open_on(cu, device, NULL, out);
}

gemmkit_status gk_cuda_open_on_context(void *caller_context, int *index, gk_device **out)
{
    const gk_cu_api *cu = NULL;
    GK_TRY(gk_cu_load(&cu));
    CUcontext context = caller_context;
    CUresult r = CUDA_SUCCESS;
    if (!context && (r = cu->cuCtxGetCurrent(&context)) != CUDA_SUCCESS) return gk_cu_fail(r, "cuCtxGetCurrent");
    if (!context)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "cu_ctx is NULL and no CUDA context is current on this "
                       "thread: pass one, or make one current first (cuCtxSetCurrent, or any CUDA runtime call)");
    if ((r = cu->cuCtxPushCurrent(context)) != CUDA_SUCCESS)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "the CUcontext cannot be made current (%s): not a live "
                       "context?", gk_cu_error_name(r));
    CUdevice device = 0;
    r = cu->cuCtxGetDevice(&device);
    leave(cu);
    if (r != CUDA_SUCCESS) return gk_cu_fail(r, "cuCtxGetDevice");
    int count = 0;
    GK_TRY(cuda_device_count(&count));
    for (int i = 0; i < count; i++) {
        CUdevice d = 0;
        if (cu->cuDeviceGet(&d, i) == CUDA_SUCCESS && d == device) {
            *index = i;
            return open_on(cu, device, context, out);
        }
    }
    return gk_fail(GEMMKIT_ERROR_NO_DEVICE, "the CUcontext's device is none of the %d CUDA devices listed", count);
}

gemmkit_status gk_cuda_check_stream(gk_device *dev, void *stream)
{
    /* 0 and the legacy and per-thread handles (1, 2) name the current context's default streams: ours, pushed. */
    if ((uintptr_t)stream <= 2) return GEMMKIT_SUCCESS;
    CUcontext of = NULL;
    const CUresult r = dev->cu->cuStreamGetCtx((CUstream)stream, &of);
    if (r != CUDA_SUCCESS)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "the stream is not a valid CUstream (%s)", gk_cu_error_name(r));
    if (of != dev->context)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT,
                       "the stream belongs to another CUcontext than the gemmkit context's (gemmkit_context_create_cuda)");
    return GEMMKIT_SUCCESS;
}

static void cuda_close(gk_device *dev)
{
    if (dev) destroy_device(dev);
}

static gemmkit_status cuda_alloc(gk_device *dev, size_t bytes, gk_mem **out)
{
    gk_mem *mem = calloc(1, sizeof *mem);
    if (!mem) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating a buffer record");
    mem->cu = dev->cu;
    mem->context = dev->context;
    mem->owned = 1;
    mem->borrowed = !dev->owns_context;
    gemmkit_status status = enter(dev->cu, dev->context);
    if (status == GEMMKIT_SUCCESS) {
        CUresult r = dev->cu->cuMemAlloc(&mem->ptr, bytes ? bytes : 4);
        leave(dev->cu);
        if (r != CUDA_SUCCESS) status = gk_cu_fail(r, "cuMemAlloc");
    }
    if (status != GEMMKIT_SUCCESS) {
        free(mem);
        return status;
    }
    *out = mem;
    return GEMMKIT_SUCCESS;
}

static void cuda_release(gk_mem *mem)
{
    if (!mem) return;
    if (mem->owned && enter(mem->cu, mem->context) == GEMMKIT_SUCCESS) {
        wait_if_borrowed(mem->cu, mem->borrowed);
        mem->cu->cuMemFree(mem->ptr);
        leave(mem->cu);
    }
    free(mem);
}

static gemmkit_status copy_rect(gk_device *dev, gk_mem *mem, const gk_rect *r, void *host, int to_device);

static gemmkit_status cuda_write(gk_device *dev, gk_mem *mem, size_t offset, size_t bytes, const void *src)
{
    if (bytes == 0) return GEMMKIT_SUCCESS;
    if (bytes >= GK_STAGING_MIN_BYTES) { /* may be staged */
        const gk_rect r = {bytes, 1, offset, bytes, bytes};
        return copy_rect(dev, mem, &r, (void *)src, 1);
    }
    const gk_cu_api *cu = dev->cu;
    GK_TRY(enter(cu, dev->context));
    CUresult r = cu->cuMemcpyHtoDAsync(mem->ptr + offset, src, bytes, dev->stream);
    /* Synchronous like the OpenCL backend's blocking writes: src may be freed after. */
    if (r == CUDA_SUCCESS) r = cu->cuStreamSynchronize(dev->stream);
    leave(cu);
    return r == CUDA_SUCCESS ? GEMMKIT_SUCCESS : gk_cu_fail(r, "copying to the device");
}

static gemmkit_status cuda_write_pending(gk_device *dev, gk_mem *mem, size_t offset, size_t bytes, const void *src)
{
    if (bytes >= GK_STAGING_MIN_BYTES) return cuda_write(dev, mem, offset, bytes, src);
    if (bytes == 0) return GEMMKIT_SUCCESS;
    const gk_cu_api *cu = dev->cu;
    GK_TRY(enter(cu, dev->context));
    const CUresult r = cu->cuMemcpyHtoDAsync(mem->ptr + offset, src, bytes, dev->stream);
    leave(cu);
    return r == CUDA_SUCCESS ? GEMMKIT_SUCCESS : gk_cu_fail(r, "copying to the device");
}

static gemmkit_status cuda_read(gk_device *dev, gk_mem *mem, size_t offset, size_t bytes, void *dst)
{
    if (bytes == 0) return GEMMKIT_SUCCESS;
    if (bytes >= GK_STAGING_MIN_BYTES) { /* may be staged */
        const gk_rect r = {bytes, 1, offset, bytes, bytes};
        return copy_rect(dev, mem, &r, dst, 0);
    }
    const gk_cu_api *cu = dev->cu;
    GK_TRY(enter(cu, dev->context));
    /* No page-locked memory to be had: straight into dst. */
    if (!dev->landing && bytes <= GK_CUDA_LANDING_BYTES &&
        cu->cuMemHostAlloc(&dev->landing, GK_CUDA_LANDING_BYTES, 0) != CUDA_SUCCESS)
        dev->landing = NULL;
    void *to = dev->landing && bytes <= GK_CUDA_LANDING_BYTES ? dev->landing : dst;
    CUresult r = cu->cuMemcpyDtoHAsync(to, mem->ptr + offset, bytes, dev->stream);
    if (r == CUDA_SUCCESS) r = cu->cuStreamSynchronize(dev->stream);
    if (r == CUDA_SUCCESS && to != dst) memcpy(dst, to, bytes);
    leave(cu);
    return r == CUDA_SUCCESS ? GEMMKIT_SUCCESS : gk_cu_fail(r, "copying from the device");
}

/* A 2-D copy on the device's stream, then a wait (src/dst may be freed after).
 * Large copies of pageable memory go through the device's page-locked ring
 * (cuda_staging.h). The driver caps pitches (CU_DEVICE_ATTRIBUTE_MAX_PITCH,
 * 2^31-1 bytes here): a wider host pitch goes column by column. */
static gemmkit_status copy_rect(gk_device *dev, gk_mem *mem, const gk_rect *r, void *host, int to_device)
{
    if (r->width == 0 || r->height == 0) return GEMMKIT_SUCCESS;
    const gk_cu_api *cu = dev->cu;
    GK_TRY(enter(cu, dev->context));
    CUresult result = CUDA_SUCCESS;
    const CUdeviceptr device = mem->ptr + r->device_offset;
    if (gk_cuda_staging_worth(cu, r, host) && gk_cuda_staging_ready(cu, &dev->staging)) {
        result = gk_cuda_staged_copy(cu, dev->stream, &dev->staging, device, r, host, to_device);
    } else if (r->height > 1 && (r->host_pitch > INT32_MAX || r->device_pitch > INT32_MAX)) {
        for (size_t j = 0; result == CUDA_SUCCESS && j < r->height; j++) {
            char *h = (char *)host + j * r->host_pitch;
            const CUdeviceptr d = device + j * r->device_pitch;
            result = to_device ? cu->cuMemcpyHtoDAsync(d, h, r->width, dev->stream)
                               : cu->cuMemcpyDtoHAsync(h, d, r->width, dev->stream);
        }
    } else {
        CUDA_MEMCPY2D copy;
        memset(&copy, 0, sizeof copy);
        copy.WidthInBytes = r->width;
        copy.Height = r->height;
        const size_t host_pitch = r->height > 1 ? r->host_pitch : r->width;
        const size_t device_pitch = r->height > 1 ? r->device_pitch : r->width;
        if (to_device) {
            copy.srcMemoryType = CU_MEMORYTYPE_HOST, copy.srcHost = host, copy.srcPitch = host_pitch;
            copy.dstMemoryType = CU_MEMORYTYPE_DEVICE, copy.dstDevice = device, copy.dstPitch = device_pitch;
        } else {
            copy.srcMemoryType = CU_MEMORYTYPE_DEVICE, copy.srcDevice = device, copy.srcPitch = device_pitch;
            copy.dstMemoryType = CU_MEMORYTYPE_HOST, copy.dstHost = host, copy.dstPitch = host_pitch;
        }
        result = cu->cuMemcpy2DAsync(&copy, dev->stream);
    }
    if (result == CUDA_SUCCESS) result = cu->cuStreamSynchronize(dev->stream);
    leave(cu);
    return result == CUDA_SUCCESS ? GEMMKIT_SUCCESS
                                  : gk_cu_fail(result, to_device ? "copying a block to the device"
                                                                 : "copying a block from the device");
}

static gemmkit_status cuda_write_rect(gk_device *dev, gk_mem *mem, const gk_rect *r, const void *src)
{
    return copy_rect(dev, mem, r, (void *)src, 1);
}

static gemmkit_status cuda_read_rect(gk_device *dev, gk_mem *mem, const gk_rect *r, void *dst)
{
    return copy_rect(dev, mem, r, dst, 0);
}

/* Loads CUBIN or PTX; the driver's JIT log (PTX only) goes to *log on failure. */
static gemmkit_status load_module(gk_device *dev, const gk_cuda_image *image, CUmodule *module, char **log)
{
    const gk_cu_api *cu = dev->cu;
    enum { LOG_BYTES = 8192 };
    CUjit_option keys[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    char *buffer = calloc(1, LOG_BYTES);
    void *values[] = {buffer, (void *)(size_t)LOG_BYTES};
    GK_TRY(enter(cu, dev->context));
    CUresult r = cu->cuModuleLoadDataEx(module, image->data, buffer ? 2 : 0, keys, values);
    leave(cu);
    if (r == CUDA_SUCCESS) {
        free(buffer);
        return GEMMKIT_SUCCESS;
    }
    if (log && buffer && buffer[0]) *log = buffer;
    else free(buffer);
    if (r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION || r == CUDA_ERROR_NO_BINARY_FOR_GPU ||
        r == CUDA_ERROR_INVALID_IMAGE)
        return gk_fail(GEMMKIT_ERROR_BUILD_FAILED, "the driver rejected the %s for %s: %s (is the driver older than "
                       "NVRTC?)", image->is_cubin ? "CUBIN" : "PTX", image->target, gk_cu_error_name(r));
    return gk_cu_fail(r, "cuModuleLoadDataEx");
}

/* Dynamic shared memory beyond 48 KiB must be allowed per function first, up to the device's opt-in limit. */
static gemmkit_status allow_dynamic_local(const gk_device *dev, CUfunction function, const gk_launch *launch)
{
    if (launch->dynamic_local_bytes == 0) return GEMMKIT_SUCCESS;
    const int limit = attribute(dev->cu, dev->device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    if (launch->dynamic_local_bytes > (size_t)limit)
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE,
                       "%s: needs %zu bytes of shared memory per block, the device allows %d", launch->function,
                       launch->dynamic_local_bytes, limit);
    const CUresult r = dev->cu->cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                   (int)launch->dynamic_local_bytes);
    return r == CUDA_SUCCESS ? GEMMKIT_SUCCESS : gk_cu_fail(r, "cuFuncSetAttribute (dynamic shared memory)");
}

static gemmkit_status cuda_build(gk_device *dev, const char *source, const gk_define *defines,
                                 unsigned define_count, gk_program **out, char **log)
{
    gk_cuda_image image;
    GK_TRY(gk_cuda_compile_source(source, defines, define_count, dev->arch, &image, log));
    if (log && *log) { /* warnings of a successful build are not kept */
        free(*log);
        *log = NULL;
    }
    CUmodule module = NULL;
    gemmkit_status status = load_module(dev, &image, &module, log);
    free(image.data);
    if (status != GEMMKIT_SUCCESS) return status;
    gk_program *prog = calloc(1, sizeof *prog);
    if (!prog) {
        if (enter(dev->cu, dev->context) == GEMMKIT_SUCCESS) {
            dev->cu->cuModuleUnload(module);
            leave(dev->cu);
        }
        return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating a program record");
    }
    prog->cu = dev->cu;
    prog->context = dev->context;
    prog->module = module;
    prog->borrowed = !dev->owns_context;
    *out = prog;
    return GEMMKIT_SUCCESS;
}

static void cuda_release_program(gk_program *prog)
{
    if (!prog) return;
    if (enter(prog->cu, prog->context) == GEMMKIT_SUCCESS) {
        wait_if_borrowed(prog->cu, prog->borrowed);
        prog->cu->cuModuleUnload(prog->module);
        leave(prog->cu);
    }
    free(prog);
}

/* OpenCL's NDRange as a CUDA grid: global must be a multiple of local. */
static gemmkit_status launch_shape(const gk_device *dev, const gk_launch *launch, unsigned grid[3], unsigned block[3])
{
    if (launch->dims < 1 || launch->dims > 3)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "launches have 1 to 3 dimensions, not %u", launch->dims);
    for (unsigned d = 0; d < 3; d++) {
        size_t global = d < launch->dims ? launch->global[d] : 1, local = d < launch->dims ? launch->local[d] : 1;
        if (local == 0 || global % local != 0)
            return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT,
                           "%s: global size %zu is not a multiple of the work-group size %zu (dimension %u)",
                           launch->function, global, local, d);
        size_t groups = global / local;
        if ((dev->max_grid[d] && groups > (size_t)dev->max_grid[d]) ||
            (dev->max_block[d] && local > (size_t)dev->max_block[d]))
            return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE,
                           "%s: %zu blocks of %zu threads in dimension %u exceed the device's limits (%d, %d)",
                           launch->function, groups, local, d, dev->max_grid[d], dev->max_block[d]);
        grid[d] = (unsigned)groups;
        block[d] = (unsigned)local;
    }
    return GEMMKIT_SUCCESS;
}

typedef union arg_value {
    int i;
    int64_t l;
    float f;
    CUdeviceptr ptr;
} arg_value;

#define GK_MAX_TENSOR_MAPS 4

/* A tensor-map argument (backend.h's gk_tensor_view) encoded for the copy engine: float32, three dimensions
 * (the contiguous one, rows, parts), boxes of GK_TENSOR_BOX_FLOATS x box_rows x 1 in the 128-byte swizzle,
 * zeros outside the matrix. */
static gemmkit_status encode_tensor_map(const gk_cu_api *cu, const gk_tensor_view *v, CUtensorMap *map)
{
    const cuuint64_t dims[3] = {(cuuint64_t)v->inner, (cuuint64_t)v->rows, (cuuint64_t)v->parts};
    const cuuint64_t strides[2] = {(cuuint64_t)v->ld * sizeof(float), (cuuint64_t)v->part_stride * sizeof(float)};
    const cuuint32_t box[3] = {GK_TENSOR_BOX_FLOATS, (cuuint32_t)v->box_rows, 1}, steps[3] = {1, 1, 1};
    void *base = (void *)(uintptr_t)(v->mem->ptr + (CUdeviceptr)v->offset * sizeof(float));
    const CUresult r = cu->cuTensorMapEncodeTiled(
        map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, base, dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r == CUDA_SUCCESS) return GEMMKIT_SUCCESS;
    char what[160];
    snprintf(what, sizeof what, "cuTensorMapEncodeTiled (%lld x %lld floats x %lld, ld %lld, box %d x %d)",
             (long long)v->rows, (long long)v->inner, (long long)v->parts, (long long)v->ld, GK_TENSOR_BOX_FLOATS,
             v->box_rows);
    return gk_cu_fail(r, what);
}

static gemmkit_status launch_kernel(gk_device *dev, gk_program *prog, const gk_launch *launch, double *elapsed_ms)
{
    const gk_cu_api *cu = dev->cu;
    unsigned grid[3], block[3];
    GK_TRY(launch_shape(dev, launch, grid, block));
    if (launch->arg_count > GK_MAX_CUDA_ARGS)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "%s: %u kernel arguments, at most %d", launch->function,
                       launch->arg_count, GK_MAX_CUDA_ARGS);
    arg_value values[GK_MAX_CUDA_ARGS];
    CUtensorMap maps[GK_MAX_TENSOR_MAPS];
    unsigned map_count = 0;
    void *params[GK_MAX_CUDA_ARGS];
    for (unsigned i = 0; i < launch->arg_count; i++) {
        const gk_arg *arg = &launch->args[i];
        params[i] = &values[i];
        switch (arg->kind) {
        case GK_ARG_INT: values[i].i = arg->value.i; break;
        case GK_ARG_LONG: values[i].l = arg->value.l; break;
        case GK_ARG_FLOAT: values[i].f = arg->value.f; break;
        case GK_ARG_MEM: values[i].ptr = arg->value.mem->ptr; break;
        case GK_ARG_TENSOR_MAP:
            if (map_count == GK_MAX_TENSOR_MAPS)
                return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "%s: more than %d tensor-map arguments",
                               launch->function, GK_MAX_TENSOR_MAPS);
            GK_TRY(encode_tensor_map(cu, &arg->value.map, &maps[map_count]));
            params[i] = &maps[map_count++];
            break;
        }
    }

    CUfunction function = NULL;
    CUresult r = cu->cuModuleGetFunction(&function, prog->module, launch->function);
    if (r == CUDA_ERROR_NOT_FOUND)
        return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "the compiled module has no kernel \"%s\"", launch->function);
    if (r != CUDA_SUCCESS) return gk_cu_fail(r, "cuModuleGetFunction");
    /* Registers per thread can cap the block size below the device's maximum. */
    int max_threads = 0;
    if (cu->cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function) == CUDA_SUCCESS &&
        max_threads > 0 && (long)block[0] * block[1] * block[2] > max_threads) {
        int regs = 0;
        cu->cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, function);
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE,
                       "%s: a block of %u threads is more than the %d this kernel allows (%d registers per thread)",
                       launch->function, block[0] * block[1] * block[2], max_threads, regs);
    }
    if (elapsed_ms && (r = cu->cuEventRecord(dev->start, dev->launch_stream)) != CUDA_SUCCESS)
        return gk_cu_fail(r, "cuEventRecord");
    GK_TRY(allow_dynamic_local(dev, function, launch));
    r = cu->cuLaunchKernel(function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                           (unsigned)launch->dynamic_local_bytes, dev->launch_stream, params, NULL);
    if (r != CUDA_SUCCESS) return gk_cu_fail(r, "cuLaunchKernel");
    if (!elapsed_ms) return GEMMKIT_SUCCESS;
    float ms = 0.0f;
    if ((r = cu->cuEventRecord(dev->end, dev->launch_stream)) != CUDA_SUCCESS) return gk_cu_fail(r, "cuEventRecord");
    /* Errors inside the kernel (a bad address) surface here. */
    if ((r = cu->cuEventSynchronize(dev->end)) != CUDA_SUCCESS) return gk_cu_fail(r, "running the kernel");
    if ((r = cu->cuEventElapsedTime(&ms, dev->start, dev->end)) != CUDA_SUCCESS)
        return gk_cu_fail(r, "cuEventElapsedTime");
    *elapsed_ms += ms;
    return GEMMKIT_SUCCESS;
}

static gemmkit_status cuda_launch(gk_device *dev, gk_program *prog, const gk_launch *launch, double *elapsed_ms)
{
    GK_TRY(enter(dev->cu, dev->context));
    gemmkit_status status = launch_kernel(dev, prog, launch, elapsed_ms);
    leave(dev->cu);
    return status;
}

static gemmkit_status cuda_finish(gk_device *dev)
{
    GK_TRY(enter(dev->cu, dev->context));
    CUresult r = dev->cu->cuStreamSynchronize(dev->stream);
    leave(dev->cu);
    return r == CUDA_SUCCESS ? GEMMKIT_SUCCESS : gk_cu_fail(r, "cuStreamSynchronize");
}

static gemmkit_status cuda_wrap_address(gk_device *dev, uint64_t address, gk_mem **out)
{
    gk_mem *mem = calloc(1, sizeof *mem);
    if (!mem) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating a buffer record");
    mem->cu = dev->cu;
    mem->context = dev->context;
    mem->ptr = (CUdeviceptr)address;
    *out = mem;
    return GEMMKIT_SUCCESS;
}

static void cuda_call_stream(gk_device *dev, int caller, void *stream)
{
    dev->launch_stream = caller ? (CUstream)stream : dev->stream;
}

static const gk_backend_ops cuda_ops = {
    .name = "cuda",
    .no_device_hint = "is an NVIDIA GPU visible to this process: nvidia-smi, CUDA_VISIBLE_DEVICES?",
    .bit = GK_BACKEND_BIT_CUDA,
    .caps = GK_CAP_LAUNCH_3D | GK_CAP_INT64_ARGS | GK_CAP_PROFILING | GK_CAP_TENSOR_MAPS | GK_CAP_GRID_Y_64K,
    .device_count = cuda_device_count,
    .device_info = cuda_device_info,
    .device_arch = cuda_device_arch,
    .open = cuda_open,
    .close = cuda_close,
    .alloc = cuda_alloc,
    .release = cuda_release,
    .write = cuda_write,
    .write_pending = cuda_write_pending,
    .read = cuda_read,
    .write_rect = cuda_write_rect,
    .read_rect = cuda_read_rect,
    .build = cuda_build,
    .release_program = cuda_release_program,
    .launch = cuda_launch,
    .finish = cuda_finish,
    .wrap_address = cuda_wrap_address,
    .call_stream = cuda_call_stream,
};

const gk_backend_ops *gk_backend_cuda(void) { return &cuda_ops; }
