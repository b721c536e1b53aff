/* Internals of the CUDA backend shared by its files and the tests: the
 * OpenCL-to-CUDA source translation and the NVRTC compiler, both usable
 * without a GPU or an NVIDIA driver. */
#ifndef GK_CUDA_INTERNAL_H
#define GK_CUDA_INTERNAL_H

#include <stddef.h>

#include "backend.h"

/* The OpenCL C kernel source as CUDA C++: the translation header
 * (src/kernels/cl_to_cuda.h), then the source with the rewrites a header
 * cannot do (vector literals, __local on pointers); line numbers of the
 * source are kept. Returns a malloc'd string, or NULL when out of memory. */
char *gk_cuda_translate(const char *source);

/* A compiled module: CUBIN for the device's own architecture, or PTX (for a
 * device newer than NVRTC knows) that the driver compiles when loading. */
typedef struct gk_cuda_image {
    char *data; /* malloc'd; PTX is NUL-terminated */
    size_t size;
    int is_cubin;
    char target[24]; /* "sm_90" or "compute_90" */
} gk_cuda_image;

/* Loads NVRTC (once); fails with GEMMKIT_ERROR_UNSUPPORTED_BACKEND and a
 * message naming the library when it cannot be found. */
gemmkit_status gk_cuda_nvrtc_load(void);

/* NVRTC's version, e.g. 13.0, after a successful gk_cuda_nvrtc_load. */
void gk_cuda_nvrtc_version(int *major, int *minor);

/* Translates and compiles an OpenCL C `source` with the given defines
 * (names must be C identifiers) for compute capability `arch` (major * 10 + minor,
 * e.g. 90). On a compile error returns GEMMKIT_ERROR_BUILD_FAILED with the
 * NVRTC log in *log (malloc'd, caller frees; also set on success when NVRTC
 * printed warnings). The caller frees image->data. Needs no GPU. */
gemmkit_status gk_cuda_compile_source(const char *source, const gk_define *defines, unsigned define_count, int arch,
                                      gk_cuda_image *image, char **log);

#endif
