/* The table of functions every backend (OpenCL, CUDA) provides. The core
 * logic only talks to devices through this table. */
#ifndef GK_BACKEND_H
#define GK_BACKEND_H

#include "gemmkit.h"

typedef struct gk_device gk_device;   /* an opened device with its queue/stream */
typedef struct gk_mem gk_mem;         /* a device allocation */
typedef struct gk_program gk_program; /* a compiled kernel source */

typedef enum gk_arg_kind { GK_ARG_INT, GK_ARG_FLOAT, GK_ARG_MEM } gk_arg_kind;

typedef struct gk_arg {
    gk_arg_kind kind;
    union {
        int i;
        float f;
        gk_mem *mem;
    } value;
} gk_arg;

#define GK_INT(x) ((gk_arg){.kind = GK_ARG_INT, .value.i = (x)})
#define GK_FLOAT(x) ((gk_arg){.kind = GK_ARG_FLOAT, .value.f = (x)})
#define GK_MEM(x) ((gk_arg){.kind = GK_ARG_MEM, .value.mem = (x)})

/* A launch in OpenCL terms: global[] counts work-items (a multiple of local[]). */
typedef struct gk_launch {
    const char *function;
    unsigned dims;
    size_t global[2];
    size_t local[2];
    const gk_arg *args;
    unsigned arg_count;
} gk_launch;

typedef struct gk_backend_ops {
    const char *name;
    gemmkit_status (*device_count)(int *count);
    gemmkit_status (*device_info)(int index, gemmkit_device_info *info);
    gemmkit_status (*open)(int index, gk_device **device);
    void (*close)(gk_device *device);

    gemmkit_status (*alloc)(gk_device *device, size_t bytes, gk_mem **mem);
    void (*release)(gk_mem *mem);
    gemmkit_status (*write)(gk_device *device, gk_mem *mem, size_t byte_offset, size_t bytes,
                            const void *src);
    gemmkit_status (*read)(gk_device *device, gk_mem *mem, size_t byte_offset, size_t bytes,
                           void *dst);

    /* Compiles `source` with `options` (-D defines). On failure *log receives
     * the compiler output (malloc'd, caller frees). */
    gemmkit_status (*build)(gk_device *device, const char *source, const char *options,
                            gk_program **program, char **log);
    void (*release_program)(gk_program *program);

    /* Enqueues a kernel. When elapsed_ms is non-NULL the call waits for the
     * kernel and adds its device time to *elapsed_ms. */
    gemmkit_status (*launch)(gk_device *device, gk_program *program, const gk_launch *launch,
                             double *elapsed_ms);
    gemmkit_status (*finish)(gk_device *device);
} gk_backend_ops;

/* NULL when the backend is not compiled in. */
const gk_backend_ops *gk_backend_opencl(void);
const gk_backend_ops *gk_backend_cuda(void);

#endif
