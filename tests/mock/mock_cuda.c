/* A stand-in for libcudart + libcublas on the host, for testing the cuBLAS
 * peer and the multi-GPU benchmark (bench/multi_gpu) without a GPU: the
 * functions they load, with the documented cuBLAS semantics (column-major
 * SGEMM with op(A), op(B); geam C = alpha op(A) + beta op(B); cuBLASXt's
 * SGEMM on host arrays). TF32 mode keeps 10 mantissa bits of each input, by
 * truncation, so the TF32 check bound is exercised too. MOCK_CUDA_DEVICES
 * sets the device count (default 1); MOCK_CUBLASXT_WRONG=1 makes cuBLASXt's
 * results wrong, for the benchmark's check. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

typedef struct mock_event {
    double ms;
} mock_event;

static int math_mode;

static int device_count(void)
{
    const char *env = getenv("MOCK_CUDA_DEVICES");
    return env && atoi(env) > 0 ? atoi(env) : 1;
}

EXPORT int cudaGetDeviceCount(int *count) { *count = device_count(); return 0; }
EXPORT int cudaSetDevice(int device) { return device >= 0 && device < device_count() ? 0 : 101; }
EXPORT int cudaGetDeviceProperties(void *prop, int device)
{
    if (device < 0 || device >= device_count()) return 101;
    strcpy((char *)prop, "NVIDIA Mock GPU");
    return 0;
}
EXPORT int cudaRuntimeGetVersion(int *v) { *v = 13000; return 0; }
EXPORT int cudaDriverGetVersion(int *v) { *v = 13000; return 0; }
EXPORT const char *cudaGetErrorString(int code) { return code ? "mock error" : "no error"; }
EXPORT int cudaMalloc(void **p, size_t bytes) { *p = malloc(bytes); return *p ? 0 : 2; }
EXPORT int cudaFree(void *p) { free(p); return 0; }
EXPORT int cudaHostAlloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    *p = malloc(bytes);
    return *p ? 0 : 2;
}
EXPORT int cudaFreeHost(void *p) { free(p); return 0; }
EXPORT int cudaDeviceSynchronize(void) { return 0; }
EXPORT int cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    *free_bytes = *total = (size_t)1 << 30;
    return 0;
}
EXPORT int cudaMemcpy(void *dst, const void *src, size_t bytes, int kind)
{
    (void)kind;
    memcpy(dst, src, bytes);
    return 0;
}
EXPORT int cudaEventCreate(void **e) { *e = calloc(1, sizeof(mock_event)); return *e ? 0 : 2; }
EXPORT int cudaEventDestroy(void *e) { free(e); return 0; }
EXPORT int cudaEventRecord(void *e, void *stream)
{
    (void)stream;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ((mock_event *)e)->ms = ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
    return 0;
}
EXPORT int cudaEventSynchronize(void *e) { (void)e; return 0; }
EXPORT int cudaEventElapsedTime(float *ms, void *start, void *stop)
{
    *ms = (float)(((mock_event *)stop)->ms - ((mock_event *)start)->ms);
    return 0;
}

EXPORT int cublasCreate_v2(void **handle) { *handle = malloc(1); return *handle ? 0 : 3; }
EXPORT int cublasDestroy_v2(void *handle) { free(handle); return 0; }
EXPORT int cublasGetVersion_v2(void *handle, int *v) { (void)handle; *v = 130100; return 0; }
EXPORT int cublasSetMathMode(void *handle, int mode) { (void)handle; math_mode = mode; return 0; }

static float input(float x)
{
    if (math_mode != 3) return x;
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits &= 0xFFFFE000u; /* 1 + 8 + 10 bits kept */
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* op(X)(i, j) of a column-major X with leading dimension ld. */
static float at(const float *x, int ld, int op, int i, int j) { return op ? x[j + (size_t)i * ld] : x[i + (size_t)j * ld]; }

EXPORT int cublasSgemm_v2(void *handle, int ta, int tb, int m, int n, int k, const float *alpha, const float *a,
                          int lda, const float *b, int ldb, const float *beta, float *c, int ldc)
{
    (void)handle;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float acc = 0.0f;
            for (int l = 0; l < k; l++) acc += input(at(a, lda, ta, i, l)) * input(at(b, ldb, tb, l, j));
            float *cij = &c[i + (size_t)j * ldc];
            *cij = *alpha * acc + (*beta != 0.0f ? *beta * *cij : 0.0f);
        }
    return 0;
}

EXPORT int cublasSgeam(void *handle, int ta, int tb, int m, int n, const float *alpha, const float *a, int lda,
                       const float *beta, const float *b, int ldb, float *c, int ldc)
{
    (void)handle;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            c[i + (size_t)j * ldc] = *alpha * at(a, lda, ta, i, j) + *beta * at(b, ldb, tb, i, j);
    return 0;
}

/* cublasSgemmStridedBatched: matrix z of each operand z * stride floats on (long long strides, as cuBLAS's). */
EXPORT int cublasSgemmStridedBatched(void *handle, int ta, int tb, int m, int n, int k, const float *alpha,
                                     const float *a, int lda, long long stride_a, const float *b, int ldb,
                                     long long stride_b, const float *beta, float *c, int ldc, long long stride_c,
                                     int batch)
{
    for (int z = 0; z < batch; z++)
        cublasSgemm_v2(handle, ta, tb, m, n, k, alpha, a + z * stride_a, lda, b + z * stride_b, ldb, beta,
                       c + z * stride_c, ldc);
    return 0;
}

/* cuBLASXt: host arrays, size_t dimensions, a device list and a block size. */
typedef struct mock_xt {
    int devices, block;
} mock_xt;

EXPORT int cublasXtCreate(void **handle) { *handle = calloc(1, sizeof(mock_xt)); return *handle ? 0 : 3; }
EXPORT int cublasXtDestroy(void *handle) { free(handle); return 0; }
EXPORT int cublasXtDeviceSelect(void *handle, int count, int *ids)
{
    for (int i = 0; i < count; i++)
        if (ids[i] < 0 || ids[i] >= device_count()) return 7; /* CUBLAS_STATUS_INVALID_VALUE */
    ((mock_xt *)handle)->devices = count;
    return count > 0 ? 0 : 7;
}
EXPORT int cublasXtSetBlockDim(void *handle, int block)
{
    ((mock_xt *)handle)->block = block;
    return block > 0 ? 0 : 7;
}
EXPORT int cublasXtSgemm(void *handle, int ta, int tb, size_t m, size_t n, size_t k, const float *alpha,
                         const float *a, size_t lda, const float *b, size_t ldb, const float *beta, float *c, size_t ldc)
{
    if (((mock_xt *)handle)->devices < 1) return 7;
    const char *wrong = getenv("MOCK_CUBLASXT_WRONG");
    const float off = wrong && *wrong == '1' ? 0.01f : 0.0f;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < m; i++) {
            float acc = 0.0f;
            for (size_t l = 0; l < k; l++)
                acc += (ta ? a[l + i * lda] : a[i + l * lda]) * (tb ? b[j + l * ldb] : b[l + j * ldb]);
            float *cij = &c[i + j * ldc];
            *cij = *alpha * acc + (*beta != 0.0f ? *beta * *cij : 0.0f) + off;
        }
    return 0;
}
