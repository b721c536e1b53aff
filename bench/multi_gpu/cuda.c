/* Loads the CUDA runtime and cuBLAS (which holds cuBLASXt) with dlopen, as
 * tools/gemmkit/peer_cublas.c does, so that the benchmark builds and checks
 * its arguments on a machine without CUDA. GEMMKIT_CUDART / GEMMKIT_CUBLAS,
 * when set, are the only paths tried (the tests point them at a stand-in). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"

int mg_cuda_fail(const mg_cuda *cu, char *err, const char *what, int code)
{
    snprintf(err, MG_ERR, "%s failed: CUDA error %d (%s)", what, code, cu->error_string ? cu->error_string(code) : "?");
    return -1;
}

/* The library at $env, else the first of names that loads; path gets its name. */
static void *load(const char *env, const char *const *names, char *path, size_t len, char *why, size_t why_len)
{
    const char *only = getenv(env);
    char tried[300] = "";
    for (int i = 0; only && *only ? i == 0 : names[i] != NULL; i++) {
        const char *name = only && *only ? only : names[i];
        void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (h) {
            snprintf(path, len, "%s", name);
            return h;
        }
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", name);
    }
    snprintf(why, why_len, "no library found (tried %.200s; set %s)", tried, env);
    return NULL;
}

#define LOAD(lib, field, symbol) (*(void **)&cu->field = dlsym(lib, symbol))

static void open_cublas(mg_cuda *cu)
{
    static const char *const names[] = {"libcublas.so", "libcublas.so.13", "libcublas.so.12", "libcublas.so.11",
                                        "/usr/local/cuda/lib64/libcublas.so", NULL};
    char path[256];
    cu->cublas = load("GEMMKIT_CUBLAS", names, path, sizeof path, cu->cublas_why, sizeof cu->cublas_why);
    if (!cu->cublas) return;
    int ok = LOAD(cu->cublas, create, "cublasCreate_v2") && LOAD(cu->cublas, destroy, "cublasDestroy_v2") &&
             LOAD(cu->cublas, get_version, "cublasGetVersion_v2") &&
             LOAD(cu->cublas, set_math_mode, "cublasSetMathMode") && LOAD(cu->cublas, sgemm, "cublasSgemm_v2") &&
             LOAD(cu->cublas, xt_create, "cublasXtCreate") && LOAD(cu->cublas, xt_destroy, "cublasXtDestroy") &&
             LOAD(cu->cublas, xt_device_select, "cublasXtDeviceSelect") &&
             LOAD(cu->cublas, xt_set_block_dim, "cublasXtSetBlockDim") && LOAD(cu->cublas, xt_sgemm, "cublasXtSgemm");
    if (!ok) {
        snprintf(cu->cublas_why, sizeof cu->cublas_why, "%.200s lacks cublasXtSgemm or another function used here",
                 path);
        cu->cublas = NULL; /* stays loaded: unloading CUDA libraries is a known source of crashes */
        return;
    }
    int v = 0;
    void *handle = NULL;
    if (cu->create(&handle) == 0) {
        cu->get_version(handle, &v);
        cu->destroy(handle);
    }
    size_t used = strlen(cu->version);
    snprintf(cu->version + used, sizeof cu->version - used, ", cuBLAS %d.%d.%d (%.100s)", v / 10000, v / 100 % 100,
             v % 100, path);
}

mg_cuda *mg_cuda_open(char *why, size_t len)
{
    static const char *const names[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0",
                                        "/usr/local/cuda/lib64/libcudart.so", NULL};
    /* Before the libraries read it: cuBLASXt has no math-mode call, so this is
     * what keeps its SGEMM in fp32 (no TF32 tensor cores). */
    setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
    mg_cuda *cu = calloc(1, sizeof *cu);
    if (!cu) {
        snprintf(why, len, "out of host memory");
        return NULL;
    }
    char path[256];
    cu->cudart = load("GEMMKIT_CUDART", names, path, sizeof path, why, len);
    if (!cu->cudart) goto fail;
    int ok = LOAD(cu->cudart, get_device_count, "cudaGetDeviceCount") && LOAD(cu->cudart, set_device, "cudaSetDevice") &&
             LOAD(cu->cudart, error_string, "cudaGetErrorString") &&
             LOAD(cu->cudart, runtime_version, "cudaRuntimeGetVersion") &&
             LOAD(cu->cudart, host_alloc, "cudaHostAlloc") && LOAD(cu->cudart, free_host, "cudaFreeHost") &&
             LOAD(cu->cudart, malloc_, "cudaMalloc") && LOAD(cu->cudart, free_, "cudaFree") &&
             LOAD(cu->cudart, memcpy_, "cudaMemcpy") && LOAD(cu->cudart, synchronize, "cudaDeviceSynchronize") &&
             LOAD(cu->cudart, mem_get_info, "cudaMemGetInfo");
    if (!ok) {
        snprintf(why, len, "%.200s lacks cudaHostAlloc or another function used here", path);
        goto fail;
    }
    int code = cu->get_device_count(&cu->devices);
    if (code || cu->devices < 1) {
        snprintf(why, len, "the CUDA runtime (%.150s) sees no device: %.150s", path,
                 code ? cu->error_string(code) : "0 devices");
        goto fail;
    }
    int rt = 0;
    cu->runtime_version(&rt);
    snprintf(cu->version, sizeof cu->version, "CUDA runtime %d.%d (%.100s), %d device(s)", rt / 1000, rt % 1000 / 10,
             path, cu->devices);
    open_cublas(cu);
    return cu;
fail:
    free(cu);
    return NULL;
}

const char *mg_cuda_version(const mg_cuda *cu) { return cu->version; }
const char *mg_cuda_cublas_why(const mg_cuda *cu) { return cu->cublas_why; }
int mg_cuda_device_count(const mg_cuda *cu) { return cu->devices; }

float *mg_cuda_host_alloc(mg_cuda *cu, size_t bytes, char *err, size_t len)
{
    void *p = NULL;
    int code = cu->host_alloc(&p, bytes ? bytes : 1, MG_CUDA_HOST_ALLOC_PORTABLE);
    if (code == 0 && p) return p;
    snprintf(err, len, "cudaHostAlloc of %.1f GB failed: CUDA error %d (%s)", bytes / 1e9, code,
             cu->error_string(code));
    return NULL;
}

void mg_cuda_host_free(mg_cuda *cu, float *p)
{
    if (p) cu->free_host(p);
}
