/* A CUDA program that keeps its own context, memory and stream and hands
 * them to gemmkit (docs/INTEROP.md): C = A * B (row-major) enqueued between
 * the program's own asynchronous copies on one stream, with one wait at the
 * end. Needs an NVIDIA GPU; exits 77 (skipped) without one. */
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gemmkit_cuda.h>

enum { M = 300, N = 200, K = 150 };

static int check(CUresult r, const char *what)
{
    if (r == CUDA_SUCCESS) return 1;
    const char *name = NULL;
    cuGetErrorName(r, &name);
    fprintf(stderr, "%s failed: %s\n", what, name ? name : "?");
    return 0;
}

int main(void)
{
    int count = 0;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
    CUdevice device;
    CUcontext context;
    CUstream stream;
    if (!check(cuDeviceGet(&device, 0), "cuDeviceGet") || !check(cuDevicePrimaryCtxRetain(&context, device), "retain") ||
        !check(cuCtxSetCurrent(context), "cuCtxSetCurrent") ||
        !check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
        return 1;

    float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N), *c = malloc(sizeof(float) * M * N);
    for (int i = 0; i < M * K; i++) a[i] = (float)(i % 7) - 3.0f;
    for (int i = 0; i < K * N; i++) b[i] = (float)(i % 5) - 2.0f;
    CUdeviceptr da, db, dc;
    if (!check(cuMemAlloc(&da, sizeof(float) * M * K), "cuMemAlloc") ||
        !check(cuMemAlloc(&db, sizeof(float) * K * N), "cuMemAlloc") ||
        !check(cuMemAlloc(&dc, sizeof(float) * M * N), "cuMemAlloc"))
        return 1;

    /* gemmkit on the program's context (the current one); its calls are ordered on `stream`. */
    gemmkit_context *gk = NULL;
    if (gemmkit_context_create_cuda(context, &gk) != GEMMKIT_SUCCESS) {
        fprintf(stderr, "gemmkit: %s\n", gemmkit_last_error_message());
        return 1;
    }
    check(cuMemcpyHtoDAsync(da, a, sizeof(float) * M * K, stream), "copy A");
    check(cuMemcpyHtoDAsync(db, b, sizeof(float) * K * N, stream), "copy B");
    gemmkit_status status = gemmkit_sgemm_cuda_enqueue(gk, stream, GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS,
                                                       GEMMKIT_NO_TRANS, M, N, K, 1.0f, da, K, db, N, 0.0f, dc, N);
    if (status != GEMMKIT_SUCCESS) {
        fprintf(stderr, "gemmkit: %s\n", gemmkit_last_error_message());
        return 1;
    }
    check(cuMemcpyDtoHAsync(c, dc, sizeof(float) * M * N, stream), "copy C");
    if (!check(cuStreamSynchronize(stream), "cuStreamSynchronize")) return 1; /* the one wait */

    double worst = 0.0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double sum = 0.0;
            for (int p = 0; p < K; p++) sum += (double)a[i * K + p] * b[p * N + j];
            worst = fmax(worst, fabs(sum - c[i * N + j]));
        }
    printf("%dx%dx%d on the program's stream: largest error %g\n", M, N, K, worst);
    gemmkit_context_destroy(gk);
    cuMemFree(da), cuMemFree(db), cuMemFree(dc);
    cuStreamDestroy(stream);
    cuDevicePrimaryCtxRelease(device);
    free(a), free(b), free(c);
    return worst < 1e-3 ? 0 : 1;
}
