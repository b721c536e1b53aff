/* What the stand-in libcuda (mock_libcuda.c) records, for
 * test_cuda_driver_mock.c to read through dlsym("mock_cuda_state"). */
#ifndef GK_MOCK_LIBCUDA_H
#define GK_MOCK_LIBCUDA_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MOCK_MAX_PARAMS 16
#define MOCK_RECENT 8 /* launches kept in order (mock_cuda_state_t.recent) */

typedef struct mock_launch {
    char function[64];
    unsigned grid[3], block[3];
    unsigned shared; /* dynamic shared memory bytes */
    uint64_t stream;  /* the hStream it was launched on */
    uint64_t params[MOCK_MAX_PARAMS]; /* first 8 bytes of each parameter */
} mock_launch;

/* A cuTensorMapEncodeTiled call (every argument but the enums that gemmkit always passes the same). */
typedef struct mock_tensor_map {
    uint64_t address;
    unsigned rank;
    uint64_t dims[3], strides[2];
    unsigned box[3];
    int swizzle, data_type;
} mock_tensor_map;

#define MOCK_MAPS 4 /* tensor maps kept in order (mock_cuda_state_t.maps) */

typedef struct mock_cuda_state_t {
    /* resources alive now: all must be 0 after the last context is gone */
    int context_refs, streams, events, allocations, modules;
    int pushes;                /* total cuCtxPushCurrent calls */
    int calls_without_context; /* calls made with no context current */
    int cubins_loaded, ptx_loaded, launches;
    int copies_2d; /* cuMemcpy2DAsync calls */
    int host_allocations; /* cuMemHostAlloc blocks not freed yet */
    int expected_params; /* set by the test: how many parameters to record */
    int max_threads;     /* set by the test: the kernels' block limit (0 = 1024) */
    int cc_major, cc_minor; /* set by the test: compute capability (0 = 9.0) */
    int optin_shared;       /* set by the test: the opt-in shared memory limit (0 = 232448, Hopper's) */
    int dynamic_allowed;    /* the last function's MAX_DYNAMIC_SHARED_SIZE_BYTES (cuFuncSetAttribute) */
    char function[64];
    mock_launch last;
    mock_launch recent[MOCK_RECENT]; /* launch i (counted from 0, as launches counts) at recent[i % MOCK_RECENT] */
    int tensor_maps;                 /* cuTensorMapEncodeTiled calls */
    mock_tensor_map maps[MOCK_MAPS]; /* call i at maps[i % MOCK_MAPS] */
    /* Waits and allocations ever made (what a call on the caller's stream must not do) */
    int stream_syncs, event_syncs, context_syncs, allocs_made;
    /* A second context, as a program's own (cuCtxCreate): push (CUcontext)&user_context; the primary one is
     * the state itself. Streams remember the context current when they were made (cuStreamGetCtx). */
    int user_context;
} mock_cuda_state_t;

typedef mock_cuda_state_t *(*mock_cuda_state_fn)(void);

/* Points the backend at the stand-in driver at `path` (GEMMKIT_LIBCUDA: before the first CUDA call, which loads
 * the driver once) and returns what it records, or NULL when it cannot be loaded. */
static inline mock_cuda_state_t *mock_cuda_load(const char *path)
{
    setenv("GEMMKIT_LIBCUDA", path, 1);
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) return NULL;
    mock_cuda_state_fn get_state;
    void *sym = dlsym(lib, "mock_cuda_state");
    memcpy(&get_state, &sym, sizeof sym);
    return get_state ? get_state() : NULL;
}

#endif
