/* The CUDA backend's part of gemmkit_cuda.h (src/core/cuda_api.c): a device
 * record on the caller's CUcontext, and the caller's stream checked against
 * it. Opaque handles, so that the core needs no cuda.h; cuda_absent.c stands
 * in when CUDA is not built. */
#ifndef GK_CUDA_INTEROP_H
#define GK_CUDA_INTEROP_H

#include "backend.h"

/* A device on `context` (a CUcontext; NULL: the thread's current one), which it does not own: its stream and
 * events are made there, the context is neither retained nor released. *index: the device's CUDA ordinal. */
gemmkit_status gk_cuda_open_on_context(void *context, int *index, gk_device **device);

/* Fails (GEMMKIT_ERROR_INVALID_ARGUMENT) unless `stream` (a CUstream; 0 and the legacy and per-thread handles
 * always pass) belongs to the device's context. */
gemmkit_status gk_cuda_check_stream(gk_device *device, void *stream);

#endif
