/* The anchors beside gemmkit: cuBLASXt on the same host arrays (its block
 * dimension set, its pinning mode left at the default, CUBLASXT_PINNING_DISABLED:
 * it pins nothing itself, so pageable arrays are copied as pageable), and
 * cuBLAS on buffers that stay on one device, in pure fp32
 * (CUBLAS_PEDANTIC_MATH, as the cuBLAS peer of `gemmkit bench`). */
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"

typedef struct xt_state {
    mg_cuda *cu;
    mg_xt_set set;
    int block;
    void *handle;
} xt_state;

static int no_cublas(const mg_cuda *cu, char *err)
{
    if (cu->cublas) return 0;
    snprintf(err, MG_ERR, "no cuBLAS: %.400s", cu->cublas_why);
    return 1;
}

static int xt_setup(mg_runner *r, int64_t n, const float *a, const float *b, const float *c, char *err)
{
    (void)n, (void)a, (void)b, (void)c;
    xt_state *st = r->state;
    if (!st) return snprintf(err, MG_ERR, "out of host memory"), -1;
    if (no_cublas(st->cu, err)) return 1;
    for (int i = 0; i < st->set.count; i++)
        if (st->set.ids[i] >= st->cu->devices) {
            snprintf(err, MG_ERR, "CUDA device %d asked for; the runtime sees %d", st->set.ids[i], st->cu->devices);
            return 1;
        }
    int status = st->cu->xt_create(&st->handle);
    if (status) {
        st->handle = NULL;
        return snprintf(err, MG_ERR, "cublasXtCreate returned %d", status), -1;
    }
    if ((status = st->cu->xt_device_select(st->handle, st->set.count, st->set.ids)))
        return snprintf(err, MG_ERR, "cublasXtDeviceSelect returned %d", status), -1;
    if ((status = st->cu->xt_set_block_dim(st->handle, st->block)))
        return snprintf(err, MG_ERR, "cublasXtSetBlockDim(%d) returned %d", st->block, status), -1;
    snprintf(r->about, sizeof r->about, "cuBLASXt, block %d, pinning mode left at its default (disabled)", st->block);
    return 0;
}

static int xt_call(mg_runner *r, int64_t n, const float *a, const float *b, float *c, char *err)
{
    xt_state *st = r->state;
    const float one = 1.0f, zero = 0.0f;
    const size_t s = (size_t)n;
    int status = st->cu->xt_sgemm(st->handle, MG_CUBLAS_OP_N, MG_CUBLAS_OP_N, s, s, s, &one, a, s, b, s, &zero, c, s);
    if (status) return snprintf(err, MG_ERR, "cublasXtSgemm returned cuBLAS status %d", status), -1;
    return 0;
}

static int xt_finish(mg_runner *r, int64_t n, float *c, char *err)
{
    (void)r, (void)n, (void)c, (void)err;
    return 0; /* cublasXtSgemm returns when C is on the host */
}

static void xt_teardown(mg_runner *r)
{
    xt_state *st = r->state;
    if (!st) return;
    if (st->handle) st->cu->xt_destroy(st->handle);
    free(st);
    r->state = NULL;
}

void mg_runner_cublasxt(mg_runner *r, mg_cuda *cu, const mg_xt_set *set, int block)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "cublasxt");
    size_t used = 0;
    for (int i = 0; i < set->count && used < sizeof r->target; i++)
        used += (size_t)snprintf(r->target + used, sizeof r->target - used, "%s%d", i ? "," : "cuda:", set->ids[i]);
    snprintf(r->backend, sizeof r->backend, "cuda");
    r->devices = set->count;
    r->host_arrays = r->small_warmup = 1;
    xt_state *st = calloc(1, sizeof *st);
    if (st) *st = (xt_state){cu, *set, block, NULL};
    r->state = st;
    r->setup = xt_setup;
    r->call = xt_call;
    r->finish = xt_finish;
    r->teardown = xt_teardown;
}

/* --- cuBLAS, device-resident ---------------------------------------------- */

typedef struct resident_state {
    mg_cuda *cu;
    int device;
    void *handle;
    float *a, *b, *c;
} resident_state;

static int resident_setup(mg_runner *r, int64_t n, const float *a, const float *b, const float *c, char *err)
{
    resident_state *st = r->state;
    if (!st) return snprintf(err, MG_ERR, "out of host memory"), -1;
    mg_cuda *cu = st->cu;
    if (no_cublas(cu, err)) return 1;
    if (n > 2147483647) return snprintf(err, MG_ERR, "n beyond cublasSgemm's int arguments"), 1;
    int code;
    if ((code = cu->set_device(st->device))) return mg_cuda_fail(cu, err, "cudaSetDevice", code);
    const size_t bytes = (size_t)n * (size_t)n * sizeof(float);
    size_t free_bytes = 0, total = 0;
    if (cu->mem_get_info(&free_bytes, &total) == 0 && 3 * bytes > free_bytes) {
        snprintf(err, MG_ERR, "A, B and C (%.1f GB) exceed the device's %.1f GB free", 3 * bytes / 1e9, free_bytes / 1e9);
        return 1;
    }
    if ((code = cu->malloc_((void **)&st->a, bytes)) || (code = cu->malloc_((void **)&st->b, bytes)) ||
        (code = cu->malloc_((void **)&st->c, bytes)))
        return mg_cuda_fail(cu, err, "cudaMalloc", code);
    if ((code = cu->memcpy_(st->a, a, bytes, MG_CUDA_HOST_TO_DEVICE)) ||
        (code = cu->memcpy_(st->b, b, bytes, MG_CUDA_HOST_TO_DEVICE)) ||
        (code = cu->memcpy_(st->c, c, bytes, MG_CUDA_HOST_TO_DEVICE)))
        return mg_cuda_fail(cu, err, "cudaMemcpy to the device", code);
    int status = cu->create(&st->handle);
    if (status) {
        st->handle = NULL;
        return snprintf(err, MG_ERR, "cublasCreate returned %d", status), -1;
    }
    if ((status = cu->set_math_mode(st->handle, MG_CUBLAS_PEDANTIC_MATH)))
        return snprintf(err, MG_ERR, "cublasSetMathMode(CUBLAS_PEDANTIC_MATH) returned %d", status), -1;
    return 0;
}

static int resident_call(mg_runner *r, int64_t n, const float *a, const float *b, float *c, char *err)
{
    (void)a, (void)b, (void)c;
    resident_state *st = r->state;
    const float one = 1.0f, zero = 0.0f;
    const int s = (int)n;
    int status = st->cu->sgemm(st->handle, MG_CUBLAS_OP_N, MG_CUBLAS_OP_N, s, s, s, &one, st->a, s, st->b, s, &zero,
                               st->c, s);
    if (status) return snprintf(err, MG_ERR, "cublasSgemm returned cuBLAS status %d", status), -1;
    int code = st->cu->synchronize(); /* the call is asynchronous; the wall clock needs its end */
    return code ? mg_cuda_fail(st->cu, err, "cudaDeviceSynchronize", code) : 0;
}

static int resident_finish(mg_runner *r, int64_t n, float *c, char *err)
{
    resident_state *st = r->state;
    int code = st->cu->memcpy_(c, st->c, (size_t)n * (size_t)n * sizeof(float), MG_CUDA_DEVICE_TO_HOST);
    return code ? mg_cuda_fail(st->cu, err, "cudaMemcpy from the device", code) : 0;
}

static void resident_teardown(mg_runner *r)
{
    resident_state *st = r->state;
    if (!st) return;
    if (st->handle) st->cu->destroy(st->handle);
    if (st->a) st->cu->free_(st->a);
    if (st->b) st->cu->free_(st->b);
    if (st->c) st->cu->free_(st->c);
    free(st);
    r->state = NULL;
}

void mg_runner_cublas_resident(mg_runner *r, mg_cuda *cu, int device)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "cublas-resident");
    snprintf(r->target, sizeof r->target, "cuda:%d", device);
    snprintf(r->backend, sizeof r->backend, "cuda");
    r->devices = 1;
    resident_state *st = calloc(1, sizeof *st);
    if (st) *st = (resident_state){.cu = cu, .device = device};
    r->state = st;
    r->setup = resident_setup;
    r->call = resident_call;
    r->finish = resident_finish;
    r->teardown = resident_teardown;
}
