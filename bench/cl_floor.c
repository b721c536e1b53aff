/* The OpenCL driver's own floor under a small call, with no gemmkit in it: what a host-array SGEMM at 32^3 cannot
 * go below on this device through OpenCL (issue 35's drop-in target is 30 us a call). Plain OpenCL on the first
 * GPU device (the first device where there is none):
 *   launch:       an empty kernel enqueued, then clFinish (or a wait on its event, or its status polled);
 *   write+launch+read: A, B and C written (non-blocking), the kernel, C read back blocking, as a host-array call
 *                 does; with BYTES the size of each operand.
 * Each figure is the median of REPEAT rounds after 20 warm-up rounds, in microseconds.
 *
 * usage: cl_floor [REPEAT [BYTES]]   (default 500, 4096 = 32^3's operands) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int check(cl_int err, const char *what)
{
    if (err == CL_SUCCESS) return 0;
    fprintf(stderr, "cl_floor: %s: OpenCL error %d\n", what, err);
    return 1;
}

int main(int argc, char **argv)
{
    const int repeat = argc > 1 ? atoi(argv[1]) : 500;
    const size_t bytes = argc > 2 ? (size_t)atol(argv[2]) : 4096;
    if (repeat < 1 || bytes < 4) {
        fprintf(stderr, "usage: cl_floor [REPEAT [BYTES]]\n");
        return 2;
    }
    cl_platform_id platforms[8];
    cl_uint count = 0;
    if (check(clGetPlatformIDs(8, platforms, &count), "clGetPlatformIDs") || count == 0) return 1;
    cl_device_id device = NULL;
    for (cl_uint p = 0; p < count && !device; p++)
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) device = NULL;
    for (cl_uint p = 0; p < count && !device; p++)
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) device = NULL;
    if (!device) return check(CL_DEVICE_NOT_FOUND, "no device");
    char name[256] = "";
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);

    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (check(err, "clCreateContext")) return 1;
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    if (check(err, "clCreateCommandQueue")) return 1;
    const char *source = "__kernel void touch(__global float* c) { if (get_global_id(0) == 0) c[0] += 1.0f; }";
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (check(err, "clCreateProgramWithSource") || check(clBuildProgram(program, 1, &device, "", NULL, NULL), "build"))
        return 1;
    cl_kernel kernel = clCreateKernel(program, "touch", &err);
    if (check(err, "clCreateKernel")) return 1;
    cl_mem buffers[3];
    for (int i = 0; i < 3; i++) {
        buffers[i] = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (check(err, "clCreateBuffer")) return 1;
    }
    float *host = calloc(3, bytes);
    double *t = malloc((size_t)repeat * sizeof *t);
    if (!host || !t) return 1;
    if (check(clSetKernelArg(kernel, 0, sizeof(cl_mem), &buffers[2]), "clSetKernelArg")) return 1;
    const size_t global = 64, local = 64;

    for (int r = -20; r < repeat; r++) {
        const double start = now_us();
        if (check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL), "launch") ||
            check(clFinish(queue), "clFinish"))
            return 1;
        if (r >= 0) t[r] = now_us() - start;
    }
    printf("device %s\nlaunch %.1f us (empty kernel + clFinish, median of %d)\n", name, median(t, repeat), repeat);

    /* The same launch waited for otherwise: its event (clWaitForEvents), or its status polled after a flush. */
    for (int poll = 0; poll < 2; poll++) {
        for (int r = -20; r < repeat; r++) {
            const double start = now_us();
            cl_event done = NULL;
            if (check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, &done), "launch"))
                return 1;
            if (poll) {
                clFlush(queue);
                cl_int status = CL_QUEUED;
                while (status > CL_COMPLETE)
                    if (check(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
                              "clGetEventInfo"))
                        return 1;
            } else if (check(clWaitForEvents(1, &done), "clWaitForEvents")) {
                return 1;
            }
            clReleaseEvent(done);
            if (r >= 0) t[r] = now_us() - start;
        }
        printf("launch %.1f us (empty kernel + %s, median of %d)\n", median(t, repeat),
               poll ? "clFlush and its event's status polled" : "clWaitForEvents on its event", repeat);
    }

    for (int r = -20; r < repeat; r++) {
        const double start = now_us();
        for (int i = 0; i < 3; i++)
            if (check(clEnqueueWriteBuffer(queue, buffers[i], CL_FALSE, 0, bytes, (char *)host + i * bytes, 0, NULL,
                                           NULL),
                      "write"))
                return 1;
        if (check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL), "launch") ||
            check(clEnqueueReadBuffer(queue, buffers[2], CL_TRUE, 0, bytes, (char *)host + 2 * bytes, 0, NULL, NULL),
                  "read"))
            return 1;
        if (r >= 0) t[r] = now_us() - start;
    }
    printf("write+launch+read %.1f us (3 x %zu bytes in, the kernel, %zu bytes out, median of %d)\n",
           median(t, repeat), bytes, bytes, repeat);
    free(host), free(t);
    for (int i = 0; i < 3; i++) clReleaseMemObject(buffers[i]);
    clReleaseKernel(kernel), clReleaseProgram(program), clReleaseCommandQueue(queue), clReleaseContext(context);
    return 0;
}
