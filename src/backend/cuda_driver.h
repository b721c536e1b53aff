/* The CUDA driver API, loaded with dlopen("libcuda.so.1") so that a gemmkit
 * built with CUDA support runs on machines without an NVIDIA driver. */
#ifndef GK_CUDA_DRIVER_H
#define GK_CUDA_DRIVER_H

#include <cuda.h>

#include "gemmkit.h"

/* Every entry point the backend uses. The symbol loaded is the one cuda.h
 * maps the name to (cuMemAlloc -> cuMemAlloc_v2), so sizes are 64-bit. */
#define GK_CU_FUNCTIONS(X)                                                                         \
    X(cuInit)                                                                                      \
    X(cuDriverGetVersion)                                                                          \
    X(cuGetErrorName)                                                                              \
    X(cuGetErrorString)                                                                            \
    X(cuDeviceGetCount)                                                                            \
    X(cuDeviceGet)                                                                                 \
    X(cuDeviceGetName)                                                                             \
    X(cuDeviceGetAttribute)                                                                        \
    X(cuDeviceTotalMem)                                                                            \
    X(cuDevicePrimaryCtxRetain)                                                                    \
    X(cuDevicePrimaryCtxRelease)                                                                   \
    X(cuCtxPushCurrent)                                                                            \
    X(cuCtxPopCurrent)                                                                             \
    X(cuCtxGetCurrent)                                                                             \
    X(cuCtxGetDevice)                                                                              \
    X(cuCtxSynchronize)                                                                            \
    X(cuStreamGetCtx)                                                                              \
    X(cuStreamCreate)                                                                              \
    X(cuStreamDestroy)                                                                             \
    X(cuStreamSynchronize)                                                                         \
    X(cuMemAlloc)                                                                                  \
    X(cuMemFree)                                                                                   \
    X(cuMemcpyHtoDAsync)                                                                           \
    X(cuMemcpyDtoHAsync)                                                                           \
    X(cuMemcpy2DAsync)                                                                             \
    X(cuMemHostAlloc)                                                                              \
    X(cuMemFreeHost)                                                                               \
    X(cuPointerGetAttribute)                                                                       \
    X(cuModuleLoadDataEx)                                                                          \
    X(cuModuleUnload)                                                                              \
    X(cuModuleGetFunction)                                                                         \
    X(cuFuncGetAttribute)                                                                          \
    X(cuFuncSetAttribute)                                                                          \
    X(cuLaunchKernel)                                                                              \
    X(cuEventCreate)                                                                               \
    X(cuEventDestroy)                                                                              \
    X(cuEventRecord)                                                                               \
    X(cuEventSynchronize)                                                                          \
    X(cuEventElapsedTime)                                                                          \
    X(cuTensorMapEncodeTiled)

typedef struct gk_cu_api {
#define GK_CU_DECLARE(name) __typeof__(name) *name;
    GK_CU_FUNCTIONS(GK_CU_DECLARE)
#undef GK_CU_DECLARE
} gk_cu_api;

/* The loaded driver after a successful cuInit, or a failure explaining why
 * not: no driver library, a stub library, no device (count 0 is success). */
gemmkit_status gk_cu_load(const gk_cu_api **api);

/* Records "what failed: CUDA_ERROR_NAME (code): description" and returns the
 * matching status (out of memory, or a backend failure). */
gemmkit_status gk_cu_fail(CUresult result, const char *what);

/* "CUDA_ERROR_INVALID_PTX (218)"-style name of a result, for messages. */
const char *gk_cu_error_name(CUresult result);

#endif
