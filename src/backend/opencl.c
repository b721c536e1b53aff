/* The OpenCL backend: device discovery, buffers, run-time compilation and
 * launches with profiling events. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cl_copy.h"
#include "staging.h"
#include "gemmkit_cl.h"
#include "status.h"

/* NVIDIA's cl_nv_device_attribute_query, to tell lanes per multiprocessor
 * and the architecture. */
#define GK_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define GK_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001

#define GK_MAX_CL_DEVICES 64

struct gk_device {
    cl_platform_id platform;
    cl_device_id id;
    cl_context context;
    cl_command_queue queue;
    int is_gpu;
    /* NVIDIA's compute capability as 10 * major + minor, 0 elsewhere: kernels
     * see it as GK_NV_ARCH (inline PTX such as cp.async needs sm_80). */
    int nv_arch;
    /* The page-locked ring for large copies (staging.h), made at the first
     * one: a CL_MEM_ALLOC_HOST_PTR buffer kept mapped, whose memory NVIDIA's
     * driver copies from at the DMA engine's rate. */
    cl_mem ring_buffer;
    char *ring;
    cl_event done[2];
    /* A call enqueued on the caller's queue (gk_opencl_call_begin .. _end): the launches go there, each after
     * the one before (the first after the caller's wait list), and `last` is the latest one's event. */
    struct {
        cl_command_queue queue;
        cl_uint wait_count;
        const cl_event *wait;
        cl_event last;
    } call;
};

struct gk_mem {
    cl_mem buffer;
    int owned; /* 0 when wrapping a caller's cl_mem */
};

struct gk_program {
    cl_program program;
    /* A small cache of kernel objects by function name. */
    struct {
        char name[64];
        cl_kernel kernel;
    } kernels[8];
    int kernel_count;
};

static struct {
    pthread_once_t once;
    cl_int error;
    int count;
    cl_platform_id platforms[GK_MAX_CL_DEVICES];
    cl_device_id devices[GK_MAX_CL_DEVICES];
} discovered = {PTHREAD_ONCE_INIT, CL_SUCCESS, 0, {0}, {0}};

static void discover(void)
{
    cl_platform_id platforms[16];
    cl_uint platform_count = 0;
    cl_int err = clGetPlatformIDs(16, platforms, &platform_count);
    if (err != CL_SUCCESS) {
        /* -1001 (no ICDs) simply means no devices. */
        discovered.error = err == -1001 ? CL_SUCCESS : err;
        return;
    }
    for (cl_uint p = 0; p < platform_count && p < 16; p++) {
        cl_device_id ids[GK_MAX_CL_DEVICES];
        cl_uint n = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, GK_MAX_CL_DEVICES, ids, &n) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < n && discovered.count < GK_MAX_CL_DEVICES; d++) {
            discovered.platforms[discovered.count] = platforms[p];
            discovered.devices[discovered.count++] = ids[d];
        }
    }
}

static gemmkit_status cl_fail(cl_int err, const char *what)
{
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
        err == CL_INVALID_BUFFER_SIZE)
        return gk_fail(GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY, "OpenCL %s failed with error %d (device memory)",
                       what, err);
    if (err == CL_OUT_OF_HOST_MEMORY)
        return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "OpenCL %s: out of host memory", what);
    return gk_fail(GEMMKIT_ERROR_BACKEND_FAILURE, "OpenCL %s failed with error %d", what, err);
}

static gemmkit_status opencl_device_count(int *count)
{
    pthread_once(&discovered.once, discover);
    if (discovered.error != CL_SUCCESS) return cl_fail(discovered.error, "clGetPlatformIDs");
    *count = discovered.count;
    return GEMMKIT_SUCCESS;
}

/* 1 and the compute capability on NVIDIA's platform (the extension's
 * query is asked only there: other platforms may treat 0x4000 differently). */
static int nvidia_compute_capability(cl_device_id dev, const char *vendor, int *major, int *minor)
{
    cl_uint ma = 0, mi = 0;
    if (!strstr(vendor, "NVIDIA") ||
        clGetDeviceInfo(dev, GK_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof ma, &ma, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(dev, GK_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof mi, &mi, NULL) != CL_SUCCESS)
        return 0;
    *major = (int)ma;
    *minor = (int)mi;
    return 1;
}

/* sm_XY on NVIDIA's platform, unknown ("") elsewhere. */
static void opencl_device_arch(int index, char *arch, size_t size)
{
    int count = 0, major = 0, minor = 0;
    char vendor[128] = "";
    arch[0] = '\0';
    if (opencl_device_count(&count) != GEMMKIT_SUCCESS || index < 0 || index >= count) return;
    cl_device_id dev = discovered.devices[index];
    clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof vendor, vendor, NULL);
    if (nvidia_compute_capability(dev, vendor, &major, &minor)) snprintf(arch, size, "sm_%d%d", major, minor);
}

/* Double precision: a nonzero CL_DEVICE_DOUBLE_FP_CONFIG (cl_khr_fp64, core from OpenCL 1.2 where supported). */
static int opencl_device_fp64(int index)
{
    int count = 0;
    if (opencl_device_count(&count) != GEMMKIT_SUCCESS || index < 0 || index >= count) return 0;
    cl_device_fp_config config = 0;
    if (clGetDeviceInfo(discovered.devices[index], CL_DEVICE_DOUBLE_FP_CONFIG, sizeof config, &config, NULL) !=
        CL_SUCCESS)
        return 0;
    return config != 0;
}

static gemmkit_status opencl_device_info(int index, gemmkit_device_info *info)
{
    int count = 0;
    GK_TRY(opencl_device_count(&count));
    if (index < 0 || index >= count)
        return gk_fail(GEMMKIT_ERROR_NO_DEVICE, "OpenCL device index %d out of range (%d devices)",
                       index, count);
    cl_device_id dev = discovered.devices[index];
    memset(info, 0, sizeof *info);
    snprintf(info->backend, sizeof info->backend, "opencl");
    clGetPlatformInfo(discovered.platforms[index], CL_PLATFORM_NAME, sizeof info->platform,
                      info->platform, NULL);
    /* The vendor too, so that a selector like "pocl" finds "Portable Computing Language". */
    char vendor[64] = "";
    clGetPlatformInfo(discovered.platforms[index], CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL);
    if (vendor[0] && !strstr(info->platform, vendor)) {
        size_t len = strlen(info->platform);
        snprintf(info->platform + len, sizeof info->platform - len, " [%s]", vendor);
    }
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof info->name, info->name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof info->vendor, info->vendor, NULL);
    clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof info->driver_version, info->driver_version, NULL);
    cl_device_type type = 0;
    cl_uint units = 0, clock = 0, vector_width = 1;
    cl_ulong local = 0, global = 0, max_alloc = 0;
    size_t wg = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clock, &clock, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof vector_width, &vector_width, NULL);
    info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    info->compute_units = (int)units;
    info->clock_mhz = (int)clock;
    info->local_mem_bytes = (size_t)local;
    info->global_mem_bytes = (size_t)global;
    info->max_alloc_bytes = (size_t)max_alloc;
    info->max_work_group_size = wg;

    int major = 0, minor = 0;
    if (nvidia_compute_capability(dev, info->vendor, &major, &minor)) {
        info->lanes_per_unit = gk_nvidia_lanes_per_unit(major, minor);
    } else if (info->is_gpu) {
        info->lanes_per_unit = 64; /* AMD compute units; a rough figure elsewhere */
    } else {
        /* A CPU core: its SIMD width times two FMA pipes. */
        info->lanes_per_unit = (int)(vector_width ? vector_width : 1) * 2;
    }
    info->peak_gflops = gk_peak_gflops(info);
    return GEMMKIT_SUCCESS;
}

/* What launches need to know of dev->id: a GPU or not, NVIDIA's architecture. */
static void describe(gk_device *dev)
{
    cl_device_type type = 0;
    dev->is_gpu = clGetDeviceInfo(dev->id, CL_DEVICE_TYPE, sizeof type, &type, NULL) == CL_SUCCESS &&
                  (type & CL_DEVICE_TYPE_GPU);
    char vendor[256] = "";
    clGetDeviceInfo(dev->id, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
    int major = 0, minor = 0;
    if (nvidia_compute_capability(dev->id, vendor, &major, &minor)) dev->nv_arch = 10 * major + minor;
}

static gemmkit_status opencl_open(int index, gk_device **out)
{
    int count = 0;
    GK_TRY(opencl_device_count(&count));
    if (index < 0 || index >= count)
        return gk_fail(GEMMKIT_ERROR_NO_DEVICE, "OpenCL device index %d out of range", index);
    gk_device *dev = calloc(1, sizeof *dev);
    if (!dev) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating the device record");
    dev->platform = discovered.platforms[index];
    dev->id = discovered.devices[index];
    cl_int err = CL_SUCCESS;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
    dev->context = clCreateContext(props, 1, &dev->id, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        free(dev);
        return cl_fail(err, "clCreateContext");
    }
    dev->queue = clCreateCommandQueue(dev->context, dev->id, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        clReleaseContext(dev->context);
        free(dev);
        return cl_fail(err, "clCreateCommandQueue");
    }
    describe(dev);
    *out = dev;
    return GEMMKIT_SUCCESS;
}

/* Separate OpenCL contexts are separate CUDA contexts under NVIDIA's driver,
 * which time-slice: a lane's copies then wait for the other lane's kernels.
 * Queues of one context overlap. */
static gemmkit_status opencl_open_queue(gk_device *of, gk_device **out)
{
    gk_device *dev = calloc(1, sizeof *dev);
    if (!dev) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating the device record");
    *dev = (gk_device){.platform = of->platform, .id = of->id, .context = of->context, .is_gpu = of->is_gpu,
                     .nv_arch = of->nv_arch};
    cl_int err = CL_SUCCESS;
    dev->queue = clCreateCommandQueue(dev->context, dev->id, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        free(dev);
        return cl_fail(err, "clCreateCommandQueue");
    }
    clRetainContext(dev->context); /* released by opencl_close */
    *out = dev;
    return GEMMKIT_SUCCESS;
}

static void ring_free(gk_device *dev);

static void opencl_close(gk_device *dev)
{
    if (!dev) return;
    clFinish(dev->queue);
    ring_free(dev);
    clReleaseCommandQueue(dev->queue);
    clReleaseContext(dev->context);
    free(dev);
}

static gemmkit_status opencl_alloc(gk_device *dev, size_t bytes, gk_mem **out)
{
    gk_mem *mem = calloc(1, sizeof *mem);
    if (!mem) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating a buffer record");
    cl_int err = CL_SUCCESS;
    mem->buffer = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &err);
    if (err != CL_SUCCESS) {
        free(mem);
        return cl_fail(err, "clCreateBuffer");
    }
    mem->owned = 1;
    *out = mem;
    return GEMMKIT_SUCCESS;
}

static void opencl_release(gk_mem *mem)
{
    if (!mem) return;
    if (mem->owned) clReleaseMemObject(mem->buffer);
    free(mem);
}

/* Large copies through the device's page-locked ring (below). */
static int staging_worth(const gk_device *dev, const gk_rect *r);
static int staging_ready(gk_device *dev);
static gemmkit_status staged_copy(gk_device *dev, gk_mem *mem, const gk_rect *r, void *host, int to_device);

/* rows rows of width bytes between the host (host_pitch apart) and mem
 * (device_pitch apart from device_offset), issued as cl_copy.h says; with
 * `event`, the event of its last command (the queue is in order). */
static cl_int copy_block(gk_device *dev, gk_mem *mem, int to_device, cl_bool blocking, size_t device_offset,
                         size_t device_pitch, char *host, size_t host_pitch, size_t width, size_t rows,
                         cl_event *event)
{
    const gk_cl_copy copy = gk_cl_copy_for(device_offset, device_pitch, host_pitch, width, rows);
    if (copy.kind == GK_CL_COPY_PLAIN)
        return to_device ? clEnqueueWriteBuffer(dev->queue, mem->buffer, blocking, device_offset, width * rows, host,
                                                0, NULL, event)
                         : clEnqueueReadBuffer(dev->queue, mem->buffer, blocking, device_offset, width * rows, host, 0,
                                               NULL, event);
    if (copy.kind == GK_CL_COPY_RECT) {
        const size_t origin[3] = {copy.origin_x, copy.origin_y, 0}, host_origin[3] = {0, 0, 0};
        const size_t region[3] = {width, rows, 1};
        return to_device ? clEnqueueWriteBufferRect(dev->queue, mem->buffer, blocking, origin, host_origin, region,
                                                    device_pitch, 0, host_pitch, 0, host, 0, NULL, event)
                         : clEnqueueReadBufferRect(dev->queue, mem->buffer, blocking, origin, host_origin, region,
                                                   device_pitch, 0, host_pitch, 0, host, 0, NULL, event);
    }
    cl_int err = CL_SUCCESS;
    for (size_t j = 0; j < rows && err == CL_SUCCESS; j++) {
        const int last = j + 1 == rows;
        err = copy_block(dev, mem, to_device, last ? blocking : CL_FALSE, device_offset + j * device_pitch, width,
                         host + j * host_pitch, width, width, 1, last ? event : NULL);
    }
    return err;
}

static gemmkit_status opencl_write(gk_device *dev, gk_mem *mem, size_t offset, size_t bytes,
                                   const void *src)
{
    if (bytes == 0) return GEMMKIT_SUCCESS;
    const gk_rect whole = {bytes, 1, offset, bytes, bytes};
    if (staging_worth(dev, &whole) && staging_ready(dev)) return staged_copy(dev, mem, &whole, (void *)src, 1);
    cl_int err = copy_block(dev, mem, 1, CL_TRUE, offset, bytes, (char *)src, bytes, bytes, 1, NULL);
    return err == CL_SUCCESS ? GEMMKIT_SUCCESS : cl_fail(err, "clEnqueueWriteBuffer");
}

static gemmkit_status opencl_write_pending(gk_device *dev, gk_mem *mem, size_t offset, size_t bytes, const void *src)
{
    if (bytes == 0) return GEMMKIT_SUCCESS;
    const gk_rect whole = {bytes, 1, offset, bytes, bytes};
    if (staging_worth(dev, &whole)) return opencl_write(dev, mem, offset, bytes, src);
    cl_int err = copy_block(dev, mem, 1, CL_FALSE, offset, bytes, (char *)src, bytes, bytes, 1, NULL);
    return err == CL_SUCCESS ? GEMMKIT_SUCCESS : cl_fail(err, "clEnqueueWriteBuffer");
}

static gemmkit_status opencl_read(gk_device *dev, gk_mem *mem, size_t offset, size_t bytes, void *dst)
{
    if (bytes == 0) return GEMMKIT_SUCCESS;
    const gk_rect whole = {bytes, 1, offset, bytes, bytes};
    if (staging_worth(dev, &whole) && staging_ready(dev)) return staged_copy(dev, mem, &whole, dst, 0);
    cl_int err = copy_block(dev, mem, 0, CL_TRUE, offset, bytes, dst, bytes, bytes, 1, NULL);
    return err == CL_SUCCESS ? GEMMKIT_SUCCESS : cl_fail(err, "clEnqueueReadBuffer");
}

/* ---- large copies through the device's page-locked ring (staging.h) */

static void ring_free(gk_device *dev)
{
    for (int h = 0; h < 2; h++)
        if (dev->done[h]) clReleaseEvent(dev->done[h]), dev->done[h] = NULL;
    if (dev->ring) clEnqueueUnmapMemObject(dev->queue, dev->ring_buffer, dev->ring, 0, NULL, NULL), clFinish(dev->queue);
    if (dev->ring_buffer) clReleaseMemObject(dev->ring_buffer);
    dev->ring = NULL, dev->ring_buffer = NULL;
}

/* Staged: large copies on GPUs (on a CPU device the ring is one more copy). */
static int staging_worth(const gk_device *dev, const gk_rect *r)
{
    return dev->is_gpu && r->width * r->height >= GK_STAGING_MIN_BYTES;
}

/* 1 when the ring is there (made now if need be); 0: copy directly. */
static int staging_ready(gk_device *dev)
{
    if (dev->ring) return 1;
    cl_int err = CL_SUCCESS;
    dev->ring_buffer = clCreateBuffer(dev->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 2 * GK_STAGING_CHUNK,
                                      NULL, &err);
    if (err != CL_SUCCESS) {
        dev->ring_buffer = NULL;
        return 0;
    }
    dev->ring = clEnqueueMapBuffer(dev->queue, dev->ring_buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                   2 * GK_STAGING_CHUNK, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS || !dev->ring) {
        dev->ring = NULL;
        ring_free(dev);
        return 0;
    }
    return 1;
}

typedef struct opencl_copy {
    gk_device *dev;
    gk_mem *mem;
} opencl_copy;

static long half_wait(void *backend, int h)
{
    gk_device *dev = ((opencl_copy *)backend)->dev;
    if (!dev->done[h]) return CL_SUCCESS;
    const cl_int err = clWaitForEvents(1, &dev->done[h]);
    clReleaseEvent(dev->done[h]);
    dev->done[h] = NULL;
    return err;
}

static long slab_dma(void *backend, const gk_rect *r, const gk_slab *b, int h, char *at, int to_device)
{
    const opencl_copy *c = backend;
    gk_device *dev = c->dev;
    if (dev->done[h]) clReleaseEvent(dev->done[h]), dev->done[h] = NULL; /* waited for, or never */
    const size_t device_pitch = r->height > 1 ? r->device_pitch : r->width;
    return copy_block(dev, c->mem, to_device, CL_FALSE, r->device_offset + b->row0 * device_pitch + b->offset,
                      device_pitch, at, b->width, b->width, b->rows, &dev->done[h]);
}

/* The copy through the ring, waited for; NULL-free on every path. */
static gemmkit_status staged_copy(gk_device *dev, gk_mem *mem, const gk_rect *r, void *host, int to_device)
{
    static const gk_staging_ops ops = {slab_dma, half_wait};
    opencl_copy c = {dev, mem};
    char *const halves[2] = {dev->ring, dev->ring + GK_STAGING_CHUNK};
    long err = gk_staged_copy(&ops, &c, halves, GK_STAGING_CHUNK, r, host, to_device);
    for (int h = 0; h < 2; h++) {
        const long waited = half_wait(&c, h);
        if (err == CL_SUCCESS) err = waited;
    }
    return err == CL_SUCCESS ? GEMMKIT_SUCCESS
                             : cl_fail((cl_int)err, to_device ? "copying a block to the device (staged)"
                                                              : "copying a block from the device (staged)");
}

static gemmkit_status opencl_write_rect(gk_device *dev, gk_mem *mem, const gk_rect *r, const void *src)
{
    if (r->width == 0 || r->height == 0) return GEMMKIT_SUCCESS;
    if (staging_worth(dev, r) && staging_ready(dev)) return staged_copy(dev, mem, r, (void *)src, 1);
    cl_int err = copy_block(dev, mem, 1, CL_TRUE, r->device_offset, r->device_pitch, (char *)src, r->host_pitch, r->width,
                            r->height, NULL);
    return err == CL_SUCCESS ? GEMMKIT_SUCCESS : cl_fail(err, "clEnqueueWriteBufferRect");
}

static gemmkit_status opencl_read_rect(gk_device *dev, gk_mem *mem, const gk_rect *r, void *dst)
{
    if (r->width == 0 || r->height == 0) return GEMMKIT_SUCCESS;
    if (staging_worth(dev, r) && staging_ready(dev)) return staged_copy(dev, mem, r, dst, 0);
    cl_int err = copy_block(dev, mem, 0, CL_TRUE, r->device_offset, r->device_pitch, dst, r->host_pitch, r->width,
                            r->height, NULL);
    return err == CL_SUCCESS ? GEMMKIT_SUCCESS : cl_fail(err, "clEnqueueReadBufferRect");
}

static char *program_log(cl_program program, cl_device_id dev)
{
    size_t size = 0;
    clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = malloc(size + 1);
    if (!log) return NULL;
    log[0] = '\0';
    clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    log[size] = '\0';
    return log;
}

static gemmkit_status opencl_build(gk_device *dev, const char *source, const gk_define *defines,
                                   unsigned define_count, gk_program **out, char **log)
{
    char options[1024];
    gk_defines_text(defines, define_count, options, sizeof options);
    if (dev->nv_arch) {
        size_t used = strlen(options);
        snprintf(options + used, sizeof options - used, "%s-DGK_NV_ARCH=%d", used ? " " : "", dev->nv_arch);
    }
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(dev->context, 1, &source, NULL, &err);
    if (err != CL_SUCCESS) return cl_fail(err, "clCreateProgramWithSource");
    err = clBuildProgram(program, 1, &dev->id, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        if (log) *log = program_log(program, dev->id);
        clReleaseProgram(program);
        if (err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS)
            return gk_fail(GEMMKIT_ERROR_BUILD_FAILED, "OpenCL build failed (error %d) with options \"%s\"",
                           err, options);
        return cl_fail(err, "clBuildProgram");
    }
    gk_program *prog = calloc(1, sizeof *prog);
    if (!prog) {
        clReleaseProgram(program);
        return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating a program record");
    }
    prog->program = program;
    *out = prog;
    return GEMMKIT_SUCCESS;
}

static void opencl_release_program(gk_program *prog)
{
    if (!prog) return;
    for (int i = 0; i < prog->kernel_count; i++) clReleaseKernel(prog->kernels[i].kernel);
    clReleaseProgram(prog->program);
    free(prog);
}

/* Kernel objects are cached per program (a program holds one or a few
 * kernels); past the cache's size a kernel is made for one launch and
 * released after it (*transient = 1). */
static gemmkit_status kernel_for(gk_program *prog, const char *name, cl_kernel *out, int *transient)
{
    *transient = 0;
    for (int i = 0; i < prog->kernel_count; i++) {
        if (strcmp(prog->kernels[i].name, name) == 0) {
            *out = prog->kernels[i].kernel;
            return GEMMKIT_SUCCESS;
        }
    }
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(prog->program, name, &err);
    if (err != CL_SUCCESS) return cl_fail(err, "clCreateKernel");
    const int slots = (int)(sizeof prog->kernels / sizeof prog->kernels[0]);
    if (prog->kernel_count < slots && strlen(name) < sizeof prog->kernels[0].name) {
        strcpy(prog->kernels[prog->kernel_count].name, name);
        prog->kernels[prog->kernel_count++].kernel = kernel;
    } else {
        *transient = 1;
    }
    *out = kernel;
    return GEMMKIT_SUCCESS;
}

static gemmkit_status set_args(cl_kernel kernel, const gk_launch *launch)
{
    for (unsigned i = 0; i < launch->arg_count; i++) {
        const gk_arg *arg = &launch->args[i];
        cl_int err = CL_SUCCESS;
        switch (arg->kind) {
        case GK_ARG_INT: err = clSetKernelArg(kernel, i, sizeof(cl_int), &arg->value.i); break;
        case GK_ARG_LONG: {
            const cl_long value = arg->value.l;
            err = clSetKernelArg(kernel, i, sizeof(cl_long), &value);
            break;
        }
        case GK_ARG_FLOAT: err = clSetKernelArg(kernel, i, sizeof(cl_float), &arg->value.f); break;
        case GK_ARG_MEM: err = clSetKernelArg(kernel, i, sizeof(cl_mem), &arg->value.mem->buffer); break;
        case GK_ARG_TENSOR_MAP: /* the plan refuses these first (no GK_CAP_TENSOR_MAPS) */
            return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "%s: tensor-map arguments are the CUDA backend's",
                           launch->function);
        }
        if (err != CL_SUCCESS) return cl_fail(err, "clSetKernelArg");
    }
    return GEMMKIT_SUCCESS;
}

static gemmkit_status opencl_launch(gk_device *dev, gk_program *prog, const gk_launch *launch,
                                    double *elapsed_ms)
{
    if (launch->dims < 1 || launch->dims > 3)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "launches have 1 to 3 dimensions, not %u", launch->dims);
    if (launch->dynamic_local_bytes)
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "%s: local memory sized at launch is the CUDA backend's",
                       launch->function);
    cl_kernel kernel = NULL;
    int transient = 0;
    GK_TRY(kernel_for(prog, launch->function, &kernel, &transient));
    gemmkit_status status = set_args(kernel, launch);
    cl_event event = NULL;
    cl_int err = CL_SUCCESS;
    if (status == GEMMKIT_SUCCESS && dev->call.queue) {
        /* The caller's queue, in-order or not: each launch after the one before, the first after the wait list. */
        const cl_uint count = dev->call.last ? 1 : dev->call.wait_count;
        const cl_event *after = dev->call.last ? &dev->call.last : (count ? dev->call.wait : NULL);
        err = clEnqueueNDRangeKernel(dev->call.queue, kernel, launch->dims, NULL, launch->global, launch->local,
                                     count, after, &event);
        if (err == CL_SUCCESS) {
            if (dev->call.last) clReleaseEvent(dev->call.last);
            dev->call.last = event;
        }
        if (transient) clReleaseKernel(kernel);
        return err == CL_SUCCESS ? GEMMKIT_SUCCESS : cl_fail(err, "clEnqueueNDRangeKernel on the caller's queue");
    }
    if (status == GEMMKIT_SUCCESS)
        err = clEnqueueNDRangeKernel(dev->queue, kernel, launch->dims, NULL, launch->global, launch->local, 0,
                                     NULL, elapsed_ms ? &event : NULL);
    /* The queue keeps what it needs of an enqueued kernel. */
    if (transient) clReleaseKernel(kernel);
    if (status != GEMMKIT_SUCCESS) return status;
    if (err != CL_SUCCESS) return cl_fail(err, "clEnqueueNDRangeKernel");
    if (!elapsed_ms) return GEMMKIT_SUCCESS;
    err = clWaitForEvents(1, &event);
    cl_ulong start = 0, end = 0;
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    clReleaseEvent(event);
    if (err != CL_SUCCESS) return cl_fail(err, "waiting for a kernel");
    *elapsed_ms += (double)(end - start) * 1e-6;
    return GEMMKIT_SUCCESS;
}

static gemmkit_status opencl_finish(gk_device *dev)
{
    cl_int err = clFinish(dev->queue);
    return err == CL_SUCCESS ? GEMMKIT_SUCCESS : cl_fail(err, "clFinish");
}

static const gk_backend_ops opencl_ops = {
    .name = "opencl",
    .no_device_hint = "is an ICD such as pocl-opencl-icd installed?",
    .bit = GK_BACKEND_BIT_OPENCL,
    .caps = GK_CAP_LAUNCH_3D | GK_CAP_INT64_ARGS | GK_CAP_PROFILING,
    .device_count = opencl_device_count,
    .device_info = opencl_device_info,
    .device_arch = opencl_device_arch,
    .device_fp64 = opencl_device_fp64,
    .open = opencl_open,
    .open_queue = opencl_open_queue,
    .close = opencl_close,
    .alloc = opencl_alloc,
    .release = opencl_release,
    .write = opencl_write,
    .write_pending = opencl_write_pending,
    .read = opencl_read,
    .write_rect = opencl_write_rect,
    .read_rect = opencl_read_rect,
    .build = opencl_build,
    .release_program = opencl_release_program,
    .launch = opencl_launch,
    .finish = opencl_finish,
};

const gk_backend_ops *gk_backend_opencl(void) { return &opencl_ops; }

/* Interop for gemmkit_cl.h. */
gemmkit_status gk_opencl_handles(gk_device *dev, cl_context *context, cl_command_queue *queue)
{
    if (context) *context = dev->context;
    if (queue) *queue = dev->queue;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_opencl_wrap(cl_mem buffer, gk_mem **out)
{
    gk_mem *mem = calloc(1, sizeof *mem);
    if (!mem) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating a buffer record");
    mem->buffer = buffer;
    mem->owned = 0;
    *out = mem;
    return GEMMKIT_SUCCESS;
}

int gk_opencl_device_index(cl_device_id device)
{
    pthread_once(&discovered.once, discover);
    for (int i = 0; i < discovered.count; i++)
        if (discovered.devices[i] == device) return i;
    return -1;
}

gemmkit_status gk_opencl_open_shared(int index, cl_context context, gk_device **out)
{
    int count = 0;
    GK_TRY(opencl_device_count(&count));
    if (index < 0 || index >= count)
        return gk_fail(GEMMKIT_ERROR_NO_DEVICE, "OpenCL device index %d out of range", index);
    gk_device base = {.platform = discovered.platforms[index], .id = discovered.devices[index], .context = context};
    describe(&base);
    /* Its own queue on the caller's context (for gemmkit's blocking calls), as a second queue of an open device. */
    return opencl_open_queue(&base, out);
}

void gk_opencl_call_begin(gk_device *dev, cl_command_queue queue, cl_uint wait_count, const cl_event *wait)
{
    dev->call.queue = queue, dev->call.wait_count = wait_count, dev->call.wait = wait, dev->call.last = NULL;
}

gemmkit_status gk_opencl_call_end(gk_device *dev, int failed, cl_event *event)
{
    const cl_command_queue queue = dev->call.queue;
    cl_event last = dev->call.last;
    const cl_uint wait_count = dev->call.wait_count;
    const cl_event *wait = dev->call.wait;
    dev->call.queue = NULL, dev->call.wait_count = 0, dev->call.wait = NULL, dev->call.last = NULL;
    if (failed) {
        if (last) clReleaseEvent(last);
        return GEMMKIT_SUCCESS;
    }
    /* A call that launched nothing (C = C) still answers with an event: after the caller's wait list. */
    if (!last) {
        const cl_int err = clEnqueueMarkerWithWaitList(queue, wait_count, wait_count ? wait : NULL, &last);
        if (err != CL_SUCCESS) return cl_fail(err, "clEnqueueMarkerWithWaitList on the caller's queue");
    }
    clFlush(queue); /* started, not waited for */
    if (event) *event = last;
    else clReleaseEvent(last);
    return GEMMKIT_SUCCESS;
}
