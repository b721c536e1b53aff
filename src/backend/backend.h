/* The table of functions every backend (OpenCL, CUDA) provides. The core
 * logic only talks to devices through this table. */
#ifndef GK_BACKEND_H
#define GK_BACKEND_H

#include <stdint.h>

#include "gemmkit.h"

typedef struct gk_device gk_device;   /* an opened device with its queue/stream */
typedef struct gk_mem gk_mem;         /* a device allocation */
typedef struct gk_program gk_program; /* a compiled kernel source */

/* Kernel arguments: 32-bit int, 64-bit int (GK_CAP_INT64_ARGS), float, buffer, tensor map
 * (GK_CAP_TENSOR_MAPS). */
typedef enum gk_arg_kind { GK_ARG_INT, GK_ARG_LONG, GK_ARG_FLOAT, GK_ARG_MEM, GK_ARG_TENSOR_MAP } gk_arg_kind;

/* A float matrix for the tensor memory accelerator (GK_ARG_TENSOR_MAP: the backend encodes it, CUDA's
 * cuTensorMapEncodeTiled, and passes the map by value): `parts` matrices of `rows` rows of `inner`
 * contiguous floats, row r of part p at mem + offset + r * ld + p * part_stride (offset, ld and part_stride
 * whole 16 bytes), copied in boxes of GK_TENSOR_BOX_FLOATS by box_rows rows (at most 256), zeros outside. */
#define GK_TENSOR_BOX_FLOATS 32 /* a box's contiguous extent: 128 bytes, the swizzle's span */

typedef struct gk_tensor_view {
    gk_mem *mem;
    int64_t offset, ld, part_stride; /* in floats */
    int64_t inner, rows, parts;
    int box_rows;
} gk_tensor_view;

typedef struct gk_arg {
    gk_arg_kind kind;
    union {
        int i;
        int64_t l;
        float f;
        gk_mem *mem;
        gk_tensor_view map;
    } value;
} gk_arg;

#define GK_INT(x) ((gk_arg){.kind = GK_ARG_INT, .value.i = (x)})
#define GK_LONG(x) ((gk_arg){.kind = GK_ARG_LONG, .value.l = (x)})
#define GK_FLOAT(x) ((gk_arg){.kind = GK_ARG_FLOAT, .value.f = (x)})
#define GK_MEM(x) ((gk_arg){.kind = GK_ARG_MEM, .value.mem = (x)})
#define GK_TENSOR_MAP(...) ((gk_arg){.kind = GK_ARG_TENSOR_MAP, .value.map = (gk_tensor_view){__VA_ARGS__}})

/* A preprocessor define of a build: -DNAME=value. Names point at static
 * strings (the registry's parameter names). */
typedef struct gk_define {
    const char *name;
    int64_t value;
} gk_define;

#define GK_MAX_DEFINES 32

/* The defines as "-DNAME=value -DNAME=value" (truncated to size); returns text. */
char *gk_defines_text(const gk_define *defines, unsigned count, char *text, size_t size);

/* A launch in OpenCL terms: global[] counts work-items (a multiple of local[]);
 * dimensions past dims count as 1. */
typedef struct gk_launch {
    const char *function;
    unsigned dims; /* 1, 2 or 3 */
    size_t global[3];
    size_t local[3];
    const gk_arg *args;
    unsigned arg_count;
    size_t dynamic_local_bytes; /* one block of local memory sized at launch (GK_FLAG_DYNAMIC_LOCAL); 0: none */
} gk_launch;

/* Which backends a registry kernel runs on (gk_kernel_def.backends; 0: all). */
enum gk_backend_bit { GK_BACKEND_BIT_OPENCL = 1u << 0, GK_BACKEND_BIT_CUDA = 1u << 1 };

/* What a backend can do, declared in its table rather than inferred from its name. */
enum gk_backend_caps {
    GK_CAP_LAUNCH_3D = 1u << 0,   /* launches of 3 dimensions */
    GK_CAP_INT64_ARGS = 1u << 1,  /* GK_ARG_LONG scalars */
    GK_CAP_PROFILING = 1u << 2,   /* device time of each launch */
    GK_CAP_TENSOR_MAPS = 1u << 3, /* GK_ARG_TENSOR_MAP arguments (the tensor memory accelerator) */
    GK_CAP_GRID_Y_64K = 1u << 4   /* at most 65535 work-groups along the second and third dimensions (CUDA) */
};

/* fp32 lanes per NVIDIA multiprocessor for compute capability major.minor,
 * and the peak rate the info's units, lanes and clock give (device_peak.c). */
int gk_nvidia_lanes_per_unit(int major, int minor);
double gk_peak_gflops(const gemmkit_device_info *info);

/* A column-major block of `height` columns of `width` bytes each, for the 2-D
 * copies: in the device buffer from device_offset, columns device_pitch bytes
 * apart; in host memory from the pointer given, columns host_pitch bytes apart.
 * The tiler (multi_gemm.c) moves panels of the caller's matrices with them,
 * without packing them on the host first. */
typedef struct gk_rect {
    size_t width, height;
    size_t device_offset, device_pitch, host_pitch;
} gk_rect;

typedef struct gk_backend_ops {
    const char *name;
    const char *no_device_hint; /* what to check when device_count finds none */
    unsigned bit;  /* its gk_backend_bit */
    unsigned caps; /* gk_backend_caps */
    gemmkit_status (*device_count)(int *count);
    gemmkit_status (*device_info)(int index, gemmkit_device_info *info);
    /* The device's architecture as the tuning database names it ("sm_90"),
     * or "" when the backend cannot tell; NULL: never known. */
    void (*device_arch)(int index, char *arch, size_t size);
    /* 1 when the device's kernels may compute in double (OpenCL: cl_khr_fp64); NULL: always (CUDA). */
    int (*device_fp64)(int index);
    gemmkit_status (*open)(int index, gk_device **device);
    /* A second queue (stream) on an open device's own driver context, so that
     * work in it overlaps work in the first (the tiler's lanes, multi_gemm.c);
     * closed with close. NULL: open the device again instead (CUDA, whose
     * opens share the device's primary context anyway). */
    gemmkit_status (*open_queue)(gk_device *device, gk_device **queue);
    void (*close)(gk_device *device);

    gemmkit_status (*alloc)(gk_device *device, size_t bytes, gk_mem **mem);
    void (*release)(gk_mem *mem);
    gemmkit_status (*write)(gk_device *device, gk_mem *mem, size_t byte_offset, size_t bytes,
                            const void *src);
    gemmkit_status (*read)(gk_device *device, gk_mem *mem, size_t byte_offset, size_t bytes,
                           void *dst);
    /* write without waiting for the copy: src must stay allocated and unchanged until the device's next blocking
     * read or finish (a host-array call's uploads, waited for by its read-back: one wait per call, not one per
     * operand). NULL: the backend has only write. */
    gemmkit_status (*write_pending)(gk_device *device, gk_mem *mem, size_t byte_offset, size_t bytes,
                                    const void *src);
    /* The same for a block (gk_rect); blocking, in order with the device's launches. */
    gemmkit_status (*write_rect)(gk_device *device, gk_mem *mem, const gk_rect *rect, const void *src);
    gemmkit_status (*read_rect)(gk_device *device, gk_mem *mem, const gk_rect *rect, void *dst);

    /* Compiles `source` with the given defines. On failure *log receives
     * the compiler output (malloc'd, caller frees). */
    gemmkit_status (*build)(gk_device *device, const char *source, const gk_define *defines,
                            unsigned define_count, gk_program **program, char **log);
    void (*release_program)(gk_program *program);

    /* Enqueues a kernel. When elapsed_ms is non-NULL the call waits for the
     * kernel and adds its device time to *elapsed_ms. */
    gemmkit_status (*launch)(gk_device *device, gk_program *program, const gk_launch *launch,
                             double *elapsed_ms);
    gemmkit_status (*finish)(gk_device *device);

    /* Interop with a program's own memory and stream (gemmkit_cuda.h); NULL where the backend has none.
     * wrap_address: a gk_mem for a device address of the caller's (not owned: release frees the record only).
     * call_stream: while `caller` is 1 the device's launches go to the caller's `stream` instead of its own
     * (0 restores its own); set and cleared around one call, the context locked. */
    gemmkit_status (*wrap_address)(gk_device *device, uint64_t address, gk_mem **mem);
    void (*call_stream)(gk_device *device, int caller, void *stream);
} gk_backend_ops;

/* NULL when the backend is not compiled in. */
const gk_backend_ops *gk_backend_opencl(void);
const gk_backend_ops *gk_backend_cuda(void);

#endif
