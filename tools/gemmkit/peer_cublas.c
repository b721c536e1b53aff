/* The cuBLAS peer: libcudart + libcublas loaded with dlopen (no CUDA headers
 * or libraries needed to build). Two runners share one handle: SGEMM in pure
 * fp32 (CUBLAS_PEDANTIC_MATH) and, labelled apart, with TF32 tensor cores;
 * transposes through cublasSgeam. Timed with CUDA events on the default
 * stream, like every runner: warm-up first, median of the timed runs. */
#include <stdlib.h>
#include <string.h>

#include "peer.h"

#include <dlfcn.h>

/* The few CUDA runtime and cuBLAS v2 declarations used here (values from
 * cuda_runtime_api.h and cublas_api.h). */
typedef int cuda_error;
typedef void *cuda_event;
typedef void *cublas_handle;
enum { CUDA_MEMCPY_HOST_TO_DEVICE = 1, CUDA_MEMCPY_DEVICE_TO_HOST = 2 };
enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 };
enum { CUBLAS_PEDANTIC_MATH = 2, CUBLAS_TF32_TENSOR_OP_MATH = 3 };

typedef struct cuda_api {
    void *cudart, *cublas;
    cuda_error (*get_device_count)(int *);
    cuda_error (*set_device)(int);
    cuda_error (*get_device_properties)(void *, int);
    cuda_error (*runtime_version)(int *);
    cuda_error (*driver_version)(int *);
    const char *(*error_string)(cuda_error);
    cuda_error (*malloc_)(void **, size_t);
    cuda_error (*free_)(void *);
    cuda_error (*memcpy_)(void *, const void *, size_t, int);
    cuda_error (*event_create)(cuda_event *);
    cuda_error (*event_destroy)(cuda_event);
    cuda_error (*event_record)(cuda_event, void *stream);
    cuda_error (*event_synchronize)(cuda_event);
    cuda_error (*event_elapsed)(float *, cuda_event, cuda_event);
    int (*create)(cublas_handle *);
    int (*destroy)(cublas_handle);
    int (*get_version)(cublas_handle, int *);
    int (*set_math_mode)(cublas_handle, int);
    int (*sgemm)(cublas_handle, int, int, int, int, int, const float *, const float *, int, const float *, int,
                 const float *, float *, int);
    int (*sgemm_strided_batched)(cublas_handle, int, int, int, int, int, const float *, const float *, int,
                                 long long, const float *, int, long long, const float *, float *, int, long long,
                                 int); /* NULL: this cuBLAS has none (before CUDA 8) */
    int (*sgeam)(cublas_handle, int, int, int, int, const float *, const float *, int, const float *, const float *,
                 int, float *, int);
    cublas_handle handle;
    cuda_event start, stop;
    int users; /* runners sharing this */
} cuda_api;

typedef struct cublas_state {
    cuda_api *api;
    int math_mode;
    void *slots[GK_RUNNER_SLOTS];
} cublas_state;

static int cuda_fail(const cuda_api *api, char *err, const char *what, cuda_error code)
{
    snprintf(err, GK_BENCH_ERR, "%s failed: CUDA error %d (%s)", what, code,
             api->error_string ? api->error_string(code) : "?");
    return -1;
}

static int slot_ok(const cublas_state *st, int slot, char *err)
{
    if (slot >= 0 && slot < GK_RUNNER_SLOTS && st->slots[slot]) return 1;
    snprintf(err, GK_BENCH_ERR, "slot %d has no buffer", slot);
    return 0;
}

static int b_alloc(gk_runner *r, int slot, size_t count, char *err)
{
    cublas_state *st = r->state;
    if (slot < 0 || slot >= GK_RUNNER_SLOTS) {
        snprintf(err, GK_BENCH_ERR, "slot %d out of range", slot);
        return -1;
    }
    if (st->slots[slot]) st->api->free_(st->slots[slot]);
    st->slots[slot] = NULL;
    cuda_error code = st->api->malloc_(&st->slots[slot], (count ? count : 1) * sizeof(float));
    return code ? cuda_fail(st->api, err, "cudaMalloc", code) : 0;
}

static int b_write(gk_runner *r, int slot, const float *src, size_t count, char *err)
{
    cublas_state *st = r->state;
    if (!slot_ok(st, slot, err)) return -1;
    cuda_error code = st->api->memcpy_(st->slots[slot], src, count * sizeof(float), CUDA_MEMCPY_HOST_TO_DEVICE);
    return code ? cuda_fail(st->api, err, "cudaMemcpy to the device", code) : 0;
}

static int b_read(gk_runner *r, int slot, float *dst, size_t count, char *err)
{
    cublas_state *st = r->state;
    if (!slot_ok(st, slot, err)) return -1;
    cuda_error code = st->api->memcpy_(dst, st->slots[slot], count * sizeof(float), CUDA_MEMCPY_DEVICE_TO_HOST);
    return code ? cuda_fail(st->api, err, "cudaMemcpy from the device", code) : 0;
}

/* Events around the call on the default stream (the handle's stream). */
static int timed_end(const cuda_api *api, int status, const char *what, gk_bench_timing *t, char *err)
{
    cuda_error code;
    if (status != 0) {
        snprintf(err, GK_BENCH_ERR, "%s returned cuBLAS status %d", what, status);
        return -1;
    }
    if ((code = api->event_record(api->stop, NULL))) return cuda_fail(api, err, "cudaEventRecord", code);
    if ((code = api->event_synchronize(api->stop))) return cuda_fail(api, err, "cudaEventSynchronize", code);
    if (t->wall_only) return 0;
    float ms = 0.0f;
    if ((code = api->event_elapsed(&ms, api->start, api->stop))) return cuda_fail(api, err, "cudaEventElapsedTime", code);
    t->kernel_ms = t->total_ms = ms;
    return 0;
}

static int b_sgemm(gk_runner *r, const gk_sgemm_case *c, int a, int b, int slot_c, gk_bench_timing *t, char *err)
{
    cublas_state *st = r->state;
    const cuda_api *api = st->api;
    if (!slot_ok(st, a, err) || !slot_ok(st, b, err) || !slot_ok(st, slot_c, err)) return -1;
    if (c->m > 2147483647 || c->n > 2147483647 || c->k > 2147483647) {
        snprintf(err, GK_BENCH_ERR, "sizes beyond 32-bit cuBLAS arguments");
        return -1;
    }
    int status = api->set_math_mode(api->handle, st->math_mode);
    if (status) {
        snprintf(err, GK_BENCH_ERR, "cublasSetMathMode(%d) returned %d", st->math_mode, status);
        return -1;
    }
    int ta = c->trans_a != GEMMKIT_NO_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    int tb = c->trans_b != GEMMKIT_NO_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    cuda_error code = t->wall_only ? 0 : api->event_record(api->start, NULL); /* wall: stop's wait alone */
    if (code) return cuda_fail(api, err, "cudaEventRecord", code);
    /* cuBLAS is column-major; a row-major C = op(A) op(B) is C^T = op(B)^T op(A)^T. */
    if (c->layout == GEMMKIT_COL_MAJOR)
        status = api->sgemm(api->handle, ta, tb, (int)c->m, (int)c->n, (int)c->k, &c->alpha, st->slots[a], (int)c->lda,
                            st->slots[b], (int)c->ldb, &c->beta, st->slots[slot_c], (int)c->ldc);
    else
        status = api->sgemm(api->handle, tb, ta, (int)c->n, (int)c->m, (int)c->k, &c->alpha, st->slots[b], (int)c->ldb,
                            st->slots[a], (int)c->lda, &c->beta, st->slots[slot_c], (int)c->ldc);
    return timed_end(api, status, "cublasSgemm_v2", t, err);
}

/* cublasSgemmStridedBatched, column-major; row-major swaps A and B with their strides as b_sgemm does. */
static int b_sgemm_batched(gk_runner *r, const gk_batched_case *bc, int a, int b, int slot_c, gk_bench_timing *t,
                           char *err)
{
    cublas_state *st = r->state;
    const cuda_api *api = st->api;
    const gk_sgemm_case *c = &bc->one;
    if (!api->sgemm_strided_batched) {
        snprintf(err, GK_BENCH_ERR, "this cuBLAS has no cublasSgemmStridedBatched");
        return -1;
    }
    if (!slot_ok(st, a, err) || !slot_ok(st, b, err) || !slot_ok(st, slot_c, err)) return -1;
    if (c->m > 2147483647 || c->n > 2147483647 || c->k > 2147483647 || bc->batch > 2147483647) {
        snprintf(err, GK_BENCH_ERR, "sizes beyond 32-bit cuBLAS arguments");
        return -1;
    }
    int status = api->set_math_mode(api->handle, st->math_mode);
    if (status) {
        snprintf(err, GK_BENCH_ERR, "cublasSetMathMode(%d) returned %d", st->math_mode, status);
        return -1;
    }
    int ta = c->trans_a != GEMMKIT_NO_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    int tb = c->trans_b != GEMMKIT_NO_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    cuda_error code = t->wall_only ? 0 : api->event_record(api->start, NULL); /* wall: stop's wait alone */
    if (code) return cuda_fail(api, err, "cudaEventRecord", code);
    if (c->layout == GEMMKIT_COL_MAJOR)
        status = api->sgemm_strided_batched(api->handle, ta, tb, (int)c->m, (int)c->n, (int)c->k, &c->alpha,
                                            st->slots[a], (int)c->lda, bc->stride_a, st->slots[b], (int)c->ldb,
                                            bc->stride_b, &c->beta, st->slots[slot_c], (int)c->ldc, bc->stride_c,
                                            (int)bc->batch);
    else
        status = api->sgemm_strided_batched(api->handle, tb, ta, (int)c->n, (int)c->m, (int)c->k, &c->alpha,
                                            st->slots[b], (int)c->ldb, bc->stride_b, st->slots[a], (int)c->lda,
                                            bc->stride_a, &c->beta, st->slots[slot_c], (int)c->ldc, bc->stride_c,
                                            (int)bc->batch);
    return timed_end(api, status, "cublasSgemmStridedBatched", t, err);
}

/* B := alpha op(A) through geam, in column-major terms (a row-major matrix
 * is the column-major transpose: swap rows and cols, keep op). */
static int b_omatcopy(gk_runner *r, const gk_omatcopy_case *o, int a, int b, gk_bench_timing *t, char *err)
{
    cublas_state *st = r->state;
    const cuda_api *api = st->api;
    if (!slot_ok(st, a, err) || !slot_ok(st, b, err)) return -1;
    int64_t rows = o->layout == GEMMKIT_COL_MAJOR ? o->rows : o->cols;
    int64_t cols = o->layout == GEMMKIT_COL_MAJOR ? o->cols : o->rows;
    int trans = o->trans != GEMMKIT_NO_TRANS;
    int64_t m = trans ? cols : rows, n = trans ? rows : cols; /* B is m x n */
    const float zero = 0.0f;
    cuda_error code = t->wall_only ? 0 : api->event_record(api->start, NULL); /* wall: stop's wait alone */
    if (code) return cuda_fail(api, err, "cudaEventRecord", code);
    /* geam's second operand (times beta = 0) is A again, with the same op: a
     * valid m x n operand that is finite even if cuBLAS reads it (the output
     * holds the NaN poison). */
    int op = trans ? CUBLAS_OP_T : CUBLAS_OP_N;
    int status = api->sgeam(api->handle, op, op, (int)m, (int)n, &o->alpha, st->slots[a], (int)o->lda, &zero,
                            st->slots[a], (int)o->lda, st->slots[b], (int)o->ldb);
    return timed_end(api, status, "cublasSgeam", t, err);
}

static void b_release(gk_runner *r)
{
    cublas_state *st = r->state;
    for (int i = 0; i < GK_RUNNER_SLOTS; i++) {
        if (st->slots[i]) st->api->free_(st->slots[i]);
        st->slots[i] = NULL;
    }
}

static void api_close(cuda_api *api)
{
    if (api->start) api->event_destroy(api->start);
    if (api->stop) api->event_destroy(api->stop);
    if (api->handle) api->destroy(api->handle);
    /* Libraries stay loaded: unloading CUDA runtimes at exit is a known source of crashes. */
    free(api);
}

static void b_destroy(gk_runner *r)
{
    if (!r) return;
    cublas_state *st = r->state;
    b_release(r);
    if (--st->api->users == 0) api_close(st->api);
    free(st);
    free(r);
}

#define LOAD(lib, field, symbol) (*(void **)&api->field = dlsym(lib, symbol))

/* Loads cudart, checks for a device, then cuBLAS. Fills why on failure. */
static cuda_api *api_open(const gemmkit_device_info *device, char *why, char *version, size_t vlen)
{
    static const char *const cudart_names[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12",
                                               "libcudart.so.11.0", "/usr/local/cuda/lib64/libcudart.so", NULL};
    static const char *const cublas_names[] = {"libcublas.so", "libcublas.so.13", "libcublas.so.12",
                                               "libcublas.so.11", "/usr/local/cuda/lib64/libcublas.so", NULL};
    cuda_api *api = calloc(1, sizeof *api);
    if (!api) {
        snprintf(why, GK_BENCH_ERR, "out of host memory");
        return NULL;
    }
    char path[256];
    api->cudart = gk_peer_dlopen("GEMMKIT_CUDART", cudart_names, path, sizeof path, why);
    if (!api->cudart) goto fail;
    int ok = LOAD(api->cudart, get_device_count, "cudaGetDeviceCount") && LOAD(api->cudart, set_device, "cudaSetDevice") &&
             LOAD(api->cudart, runtime_version, "cudaRuntimeGetVersion") &&
             LOAD(api->cudart, driver_version, "cudaDriverGetVersion") &&
             LOAD(api->cudart, error_string, "cudaGetErrorString") && LOAD(api->cudart, malloc_, "cudaMalloc") &&
             LOAD(api->cudart, free_, "cudaFree") && LOAD(api->cudart, memcpy_, "cudaMemcpy") &&
             LOAD(api->cudart, event_create, "cudaEventCreate") && LOAD(api->cudart, event_destroy, "cudaEventDestroy") &&
             LOAD(api->cudart, event_record, "cudaEventRecord") &&
             LOAD(api->cudart, event_synchronize, "cudaEventSynchronize") &&
             LOAD(api->cudart, event_elapsed, "cudaEventElapsedTime");
    /* CUDA 12 names the current struct layout _v2; every layout starts with char name[256]. */
    if (!LOAD(api->cudart, get_device_properties, "cudaGetDeviceProperties_v2"))
        LOAD(api->cudart, get_device_properties, "cudaGetDeviceProperties");
    if (!ok) {
        snprintf(why, GK_BENCH_ERR, "%.190s lacks a CUDA runtime function it should have", path);
        goto fail;
    }
    int count = 0;
    cuda_error code = api->get_device_count(&count);
    if (code || count == 0) {
        snprintf(why, GK_BENCH_ERR, "CUDA runtime (%.100s) found no device: %.120s", path,
                 code ? api->error_string(code) : "0 devices");
        goto fail;
    }
    /* The CUDA device of the same name as gemmkit's, else the first. */
    int chosen = 0;
    char name[256] = "";
    for (int d = 0; d < count && api->get_device_properties; d++) {
        char *props = calloc(1, 16384); /* larger than any cudaDeviceProp */
        int match = 0;
        if (props && api->get_device_properties(props, d) == 0) {
            props[255] = 0;
            match = strcmp(props, device->name) == 0;
            if (d == 0 || match) {
                chosen = d;
                snprintf(name, sizeof name, "%s", props);
            }
        }
        free(props);
        if (match) break;
    }
    if ((code = api->set_device(chosen))) {
        snprintf(why, GK_BENCH_ERR, "cudaSetDevice(%d): %s", chosen, api->error_string(code));
        goto fail;
    }
    api->cublas = gk_peer_dlopen("GEMMKIT_CUBLAS", cublas_names, path, sizeof path, why);
    if (!api->cublas) goto fail;
    ok = LOAD(api->cublas, create, "cublasCreate_v2") && LOAD(api->cublas, destroy, "cublasDestroy_v2") &&
         LOAD(api->cublas, get_version, "cublasGetVersion_v2") && LOAD(api->cublas, set_math_mode, "cublasSetMathMode") &&
         LOAD(api->cublas, sgemm, "cublasSgemm_v2") && LOAD(api->cublas, sgeam, "cublasSgeam");
    if (!ok) {
        snprintf(why, GK_BENCH_ERR, "%.190s lacks cublasSgemm_v2 or another function used here", path);
        goto fail;
    }
    *(void **)&api->sgemm_strided_batched = dlsym(api->cublas, "cublasSgemmStridedBatched"); /* optional */
    int status = api->create(&api->handle);
    if (status) {
        snprintf(why, GK_BENCH_ERR, "cublasCreate failed (status %d)", status);
        api->handle = NULL;
        goto fail;
    }
    if ((code = api->event_create(&api->start)) || (code = api->event_create(&api->stop))) {
        snprintf(why, GK_BENCH_ERR, "cudaEventCreate: %s", api->error_string(code));
        goto fail;
    }
    int v = 0, rt = 0, drv = 0;
    api->get_version(api->handle, &v);
    api->runtime_version(&rt);
    api->driver_version(&drv);
    char real[256] = "";
    gk_peer_real_path(*(void **)&api->sgemm, real, sizeof real);
    snprintf(version, vlen, "cuBLAS %d.%d.%d (%s), CUDA runtime %d.%d, driver API %d.%d, device %d \"%s\"", v / 10000,
             v / 100 % 100, v % 100, real, rt / 1000, rt % 1000 / 10, drv / 1000, drv % 1000 / 10, chosen, name);
    return api;
fail:
    if (api->handle && api->destroy) api->destroy(api->handle);
    free(api);
    return NULL;
}

static gk_runner *make_runner(cuda_api *api, int math_mode, const char *name, const char *label, double rounding,
                              gemmkit_math math)
{
    gk_runner *r = calloc(1, sizeof *r);
    cublas_state *st = calloc(1, sizeof *st);
    if (!r || !st) {
        free(r);
        free(st);
        return NULL;
    }
    st->api = api;
    st->math_mode = math_mode;
    api->users++;
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->label, sizeof r->label, "%s", label);
    snprintf(r->kind, sizeof r->kind, "peer");
    r->input_rounding = rounding;
    r->math = math;
    r->state = st;
    r->alloc = b_alloc;
    r->write = b_write;
    r->read = b_read;
    r->run = gk_peer_run;
    r->sgemm = b_sgemm;
    r->omatcopy = b_omatcopy;
    r->sgemm_batched = b_sgemm_batched;
    r->release = b_release;
    r->destroy = b_destroy;
    return r;
}

int gk_peer_cublas_open(gemmkit_context *ctx, const gemmkit_device_info *device, gk_runner **runners, int max,
                        gk_bench_peer_info *info)
{
    (void)ctx;
    snprintf(info->name, sizeof info->name, "cublas");
    snprintf(info->label, sizeof info->label, "cuBLAS");
    if (!gk_peer_is_nvidia(device)) {
        snprintf(info->detail, sizeof info->detail,
                 "gemmkit runs on \"%s\", not an NVIDIA GPU; cuBLAS is only compared on the same chip", device->name);
        return 0;
    }
    if (max < 2) {
        snprintf(info->detail, sizeof info->detail, "no room for more runners");
        return 0;
    }
    char version[GK_BENCH_ERR] = "";
    cuda_api *api = api_open(device, info->detail, version, sizeof version);
    if (!api) return 0;
    /* Pure fp32 first; TF32 is another precision, reported apart and labelled so. */
    runners[0] = make_runner(api, CUBLAS_PEDANTIC_MATH, "cublas", "cuBLAS SGEMM, pure fp32 (CUBLAS_PEDANTIC_MATH)", 0.0,
                             GEMMKIT_MATH_FP32);
    /* TF32 keeps 10 mantissa bits of each input: up to 2^-10 relative error per
     * operand if it truncates; the check widens its bound by that. */
    runners[1] = make_runner(api, CUBLAS_TF32_TENSOR_OP_MATH, "cublas-tf32",
                             "cuBLAS SGEMM, TF32 tensor cores (CUBLAS_TF32_TENSOR_OP_MATH): NOT fp32 accuracy", 1.0 / 1024,
                             GEMMKIT_MATH_TF32);
    if (!runners[0] || !runners[1]) {
        /* The last runner destroyed closes the shared handle; with none, close it here. */
        if (!runners[0] && !runners[1]) api_close(api);
        if (runners[0]) runners[0]->destroy(runners[0]);
        if (runners[1]) runners[1]->destroy(runners[1]);
        snprintf(info->detail, sizeof info->detail, "out of host memory");
        return 0;
    }
    info->found = 1;
    snprintf(info->detail, sizeof info->detail, "%.190s; runs as \"cublas\" (pure fp32) and \"cublas-tf32\" (TF32)",
             version);
    return 2;
}
