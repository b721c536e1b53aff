/* An OpenCL program that keeps its own context, queue and buffers, and lets gemmkit enqueue an SGEMM among its
 * commands (docs/INTEROP.md): the writes, gemmkit's call and the read are ordered by events alone, with one wait at
 * the end. Prints the largest difference from a plain loop and exits 0 when it is within float rounding.
 * Build: cc cl_queue.c $(pkg-config --cflags --libs gemmkit) -lOpenCL (or the examples' CMake target). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gemmkit_cl.h>

#define M 300
#define N 200
#define K 500

int main(void)
{
    /* The program's own OpenCL objects: the first device of the first platform. */
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) return fprintf(stderr, "no OpenCL device (%d)\n", err), 1;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    static float a[M * K], b[K * N], c[M * N];
    for (int i = 0; i < M * K; i++) a[i] = (float)(i % 17) / 17.0f - 0.5f;
    for (int i = 0; i < K * N; i++) b[i] = (float)(i % 13) / 13.0f - 0.5f;
    cl_mem da = clCreateBuffer(context, CL_MEM_READ_ONLY, sizeof a, NULL, &err);
    cl_mem db = clCreateBuffer(context, CL_MEM_READ_ONLY, sizeof b, NULL, &err);
    cl_mem dc = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof c, NULL, &err);

    /* gemmkit on that context and device: its kernels are built for them. */
    gemmkit_context *gk = NULL;
    if (gemmkit_context_create_cl(context, device, &gk) != GEMMKIT_SUCCESS)
        return fprintf(stderr, "gemmkit: %s\n", gemmkit_last_error_message()), 1;

    /* Writes, the product and the read, each after the last by its events; nothing waits until the end. */
    cl_event written[2], multiplied, read;
    clEnqueueWriteBuffer(queue, da, CL_FALSE, 0, sizeof a, a, 0, NULL, &written[0]);
    clEnqueueWriteBuffer(queue, db, CL_FALSE, 0, sizeof b, b, 0, NULL, &written[1]);
    if (gemmkit_sgemm_cl_enqueue(gk, queue, GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N, K, 1.0f, da,
                                 0, K, db, 0, N, 0.0f, dc, 0, N, 2, written, &multiplied) != GEMMKIT_SUCCESS)
        return fprintf(stderr, "gemmkit: %s\n", gemmkit_last_error_message()), 1;
    clEnqueueReadBuffer(queue, dc, CL_FALSE, 0, sizeof c, c, 1, &multiplied, &read);
    clWaitForEvents(1, &read);

    double worst = 0.0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double sum = 0.0;
            for (int p = 0; p < K; p++) sum += (double)a[i * K + p] * b[p * N + j];
            worst = fmax(worst, fabs(c[i * N + j] - sum));
        }
    printf("largest difference from the loop: %.3g\n", worst);

    clReleaseEvent(written[0]), clReleaseEvent(written[1]), clReleaseEvent(multiplied), clReleaseEvent(read);
    gemmkit_context_destroy(gk);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return worst < 1e-3 ? 0 : 1;
}
