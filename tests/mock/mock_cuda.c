/* A stand-in for libcudart + libcublas on the host, for testing the cuBLAS
 * peer without a GPU: the functions the peer loads, with the documented
 * cuBLAS semantics (column-major SGEMM with op(A), op(B); geam
 * C = alpha op(A) + beta op(B)). TF32 mode keeps 10 mantissa bits of each
 * input, by truncation, so the TF32 check bound is exercised too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

typedef struct mock_event {
    double ms;
} mock_event;

static int math_mode;

EXPORT int cudaGetDeviceCount(int *count) { *count = 1; return 0; }
EXPORT int cudaSetDevice(int device) { return device == 0 ? 0 : 101; }
EXPORT int cudaGetDeviceProperties(void *prop, int device)
{
    if (device != 0) return 101;
    strcpy((char *)prop, "NVIDIA Mock GPU");
    return 0;
}
EXPORT int cudaRuntimeGetVersion(int *v) { *v = 13000; return 0; }
EXPORT int cudaDriverGetVersion(int *v) { *v = 13000; return 0; }
EXPORT const char *cudaGetErrorString(int code) { return code ? "mock error" : "no error"; }
EXPORT int cudaMalloc(void **p, size_t bytes) { *p = malloc(bytes); return *p ? 0 : 2; }
EXPORT int cudaFree(void *p) { free(p); return 0; }
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
