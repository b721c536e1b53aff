/* What an OpenCL driver does with one buffer larger than 4 GiB: each way of
 * writing, reading and indexing it, checked element by element against a
 * pattern that depends on the whole 64-bit index (a wrap at 2^32 bytes shows).
 * Used to find issue 34's cause on NVIDIA's OpenCL; docs/RELIABILITY.md has
 * the results.
 *
 *   large_probe [GIB] [PLATFORM_SUBSTRING]     (default 6 GiB on the first GPU)
 *
 * Prints one line per probe: "probe NAME: N wrong of M" and exits 0 when all
 * are right, 1 when any is wrong, 2 when it could not run. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t pattern(uint64_t i) { return (uint32_t)(i * 2654435761u) ^ (uint32_t)(i >> 32) ^ 0x5bd1e995u; }

static const char *kernels =
    "uint pattern(ulong i) { return (uint)(i * 2654435761u) ^ (uint)(i >> 32) ^ 0x5bd1e995u; }\n"
    /* size_t index: the reference way. */
    "__kernel void check_long(__global const uint *x, ulong n, __global uint *wrong) {\n"
    "  for (ulong i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    if (x[i] != pattern(i)) atomic_inc(wrong);\n"
    "}\n"
    /* int index arithmetic as gemmkit's kernels write it: off + row + col * ld,
       all int, the element index below 2^31 but its byte offset above 2^32. */
    "__kernel void check_int(__global const uint *x, const int off, const int ld, const int cols,\n"
    "                        __global uint *wrong) {\n"
    "  const int row = get_global_id(0);\n"
    "  for (int col = get_global_id(1); col < cols; col += get_global_size(1))\n"
    "    if (x[off + row + col * ld] != pattern((ulong)off + row + (ulong)col * ld)) atomic_inc(wrong);\n"
    "}\n"
    /* The same through a pointer moved first (x + off), then int arithmetic. */
    "__kernel void check_int_ptr(__global const uint *x, const int off, const int ld, const int cols,\n"
    "                            __global uint *wrong) {\n"
    "  const __global uint *p = x + off;\n"
    "  const int row = get_global_id(0);\n"
    "  for (int col = get_global_id(1); col < cols; col += get_global_size(1))\n"
    "    if (p[row + col * ld] != pattern((ulong)off + row + (ulong)col * ld)) atomic_inc(wrong);\n"
    "}\n"
    "__kernel void write_long(__global uint *x, ulong n) {\n"
    "  for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) x[i] = pattern(i);\n"
    "}\n"
    "__kernel void write_int(__global uint *x, const int ld, const int cols) {\n"
    "  const int row = get_global_id(0);\n"
    "  for (int col = get_global_id(1); col < cols; col += get_global_size(1))\n"
    "    x[row + col * ld] = pattern(row + (ulong)col * ld);\n"
    "}\n";

#define CHECK(call)                                                                   \
    do {                                                                              \
        cl_int e_ = (call);                                                           \
        if (e_ != CL_SUCCESS) {                                                       \
            fprintf(stderr, "large_probe: %s failed: %d (line %d)\n", #call, e_, __LINE__); \
            exit(2);                                                                  \
        }                                                                             \
    } while (0)

static cl_context context;
static cl_command_queue queue;
static cl_program program;
static cl_mem counter;
static int failures;

static uint32_t run_check(cl_kernel k, size_t dims, const size_t *global, const size_t *local)
{
    const uint32_t zero = 0;
    CHECK(clEnqueueWriteBuffer(queue, counter, CL_TRUE, 0, 4, &zero, 0, NULL, NULL));
    CHECK(clEnqueueNDRangeKernel(queue, k, (cl_uint)dims, NULL, global, local, 0, NULL, NULL));
    uint32_t wrong = 0;
    CHECK(clEnqueueReadBuffer(queue, counter, CL_TRUE, 0, 4, &wrong, 0, NULL, NULL));
    return wrong;
}

static void report(const char *name, uint64_t wrong, uint64_t of)
{
    printf("probe %-44s %llu wrong of %llu\n", name, (unsigned long long)wrong, (unsigned long long)of);
    fflush(stdout);
    if (wrong) failures++;
}

static uint64_t check_whole(cl_mem buf, uint64_t n)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, "check_long", &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
    const cl_ulong nn = n;
    CHECK(clSetKernelArg(k, 1, sizeof nn, &nn));
    CHECK(clSetKernelArg(k, 2, sizeof counter, &counter));
    const size_t global = 132 * 2048, local = 256;
    uint64_t wrong = run_check(k, 1, &global, &local);
    clReleaseKernel(k);
    return wrong;
}

static uint64_t host_wrong(const uint32_t *h, uint64_t first, uint64_t n)
{
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++) wrong += h[i] != pattern(first + i);
    return wrong;
}

int main(int argc, char **argv)
{
    const double gib = argc > 1 ? atof(argv[1]) : 6.0;
    const char *want = argc > 2 ? argv[2] : "";
    const uint64_t n = (uint64_t)(gib * (1u << 30)) / 4, bytes = n * 4;
    cl_platform_id platforms[8];
    cl_uint np = 0;
    CHECK(clGetPlatformIDs(8, platforms, &np));
    cl_device_id dev = NULL;
    for (cl_uint p = 0; p < np && !dev; p++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (*want && !strstr(name, want)) continue;
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], *want ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, &nd) != CL_SUCCESS)
            dev = NULL;
    }
    if (!dev) {
        fprintf(stderr, "large_probe: no device\n");
        return 2;
    }
    char name[256] = "", version[256] = "";
    cl_ulong max_alloc = 0;
    cl_uint address_bits = 0;
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof version, version, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_ADDRESS_BITS, sizeof address_bits, &address_bits, NULL);
    printf("device %s, driver %s, address bits %u, max alloc %llu bytes; buffer %llu bytes\n", name, version,
           address_bits, (unsigned long long)max_alloc, (unsigned long long)bytes);
    cl_int err;
    context = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    queue = clCreateCommandQueue(context, dev, 0, &err);
    CHECK(err);
    program = clCreateProgramWithSource(context, 1, &kernels, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(program, 1, &dev, "", NULL, NULL));
    counter = clCreateBuffer(context, CL_MEM_READ_WRITE, 4, NULL, &err);
    CHECK(err);
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    uint32_t *h = malloc(bytes);
    if (!h) return 2;
    for (uint64_t i = 0; i < n; i++) h[i] = pattern(i);
    const uint32_t zero = 0;

    /* 1. One clEnqueueWriteBuffer of the whole buffer. */
    CHECK(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, bytes, h, 0, NULL, NULL));
    report("write: clEnqueueWriteBuffer whole", check_whole(buf, n), n);

    /* 2. Pieces of 64 MiB through clEnqueueWriteBuffer at their offsets. */
    const uint64_t piece = 64ull << 20;
    CHECK(clEnqueueFillBuffer(queue, buf, &zero, 4, 0, bytes, 0, NULL, NULL));
    for (uint64_t at = 0; at < bytes; at += piece)
        CHECK(clEnqueueWriteBuffer(queue, buf, CL_FALSE, at, at + piece < bytes ? piece : bytes - at,
                                   (char *)h + at, 0, NULL, NULL));
    CHECK(clFinish(queue));
    report("write: clEnqueueWriteBuffer 64 MiB pieces", check_whole(buf, n), n);

    /* 3. The same pieces through clEnqueueWriteBufferRect (one row each: gemmkit's staging ring). */
    CHECK(clEnqueueFillBuffer(queue, buf, &zero, 4, 0, bytes, 0, NULL, NULL));
    for (uint64_t at = 0; at < bytes; at += piece) {
        const size_t w = at + piece < bytes ? piece : bytes - at;
        const size_t origin[3] = {at, 0, 0}, host0[3] = {0, 0, 0}, region[3] = {w, 1, 1};
        CHECK(clEnqueueWriteBufferRect(queue, buf, CL_FALSE, origin, host0, region, w, 0, w, 0, (char *)h + at, 0,
                                       NULL, NULL));
    }
    CHECK(clFinish(queue));
    report("write: clEnqueueWriteBufferRect 64 MiB rows", check_whole(buf, n), n);

    /* 4. Rect writes of many rows (a pitched slab), origin 0, pitch 1 MiB. */
    CHECK(clEnqueueFillBuffer(queue, buf, &zero, 4, 0, bytes, 0, NULL, NULL));
    {
        const size_t w = 1 << 20, rows_per = 64;
        for (uint64_t at = 0; at < bytes; at += w * rows_per) {
            const size_t rows = (bytes - at) / w < rows_per ? (bytes - at) / w : rows_per;
            const size_t origin[3] = {at, 0, 0}, host0[3] = {0, 0, 0}, region[3] = {w, rows, 1};
            if (rows)
                CHECK(clEnqueueWriteBufferRect(queue, buf, CL_FALSE, origin, host0, region, w, 0, w, 0,
                                               (char *)h + at, 0, NULL, NULL));
        }
        const uint64_t tail = bytes - bytes / w * w;
        if (tail)
            CHECK(clEnqueueWriteBuffer(queue, buf, CL_FALSE, bytes - tail, tail, (char *)h + bytes - tail, 0, NULL,
                                       NULL));
    }
    CHECK(clFinish(queue));
    report("write: clEnqueueWriteBufferRect 64 x 1 MiB slabs", check_whole(buf, n), n);

    /* 5. Rect writes with the origin as a row index (origin[1] * pitch past 4 GiB). */
    CHECK(clEnqueueFillBuffer(queue, buf, &zero, 4, 0, bytes, 0, NULL, NULL));
    {
        const size_t w = 1 << 20, rows_per = 64, rows_all = bytes / w;
        for (size_t r0 = 0; r0 < rows_all; r0 += rows_per) {
            const size_t rows = rows_all - r0 < rows_per ? rows_all - r0 : rows_per;
            const size_t origin[3] = {0, r0, 0}, host0[3] = {0, 0, 0}, region[3] = {w, rows, 1};
            CHECK(clEnqueueWriteBufferRect(queue, buf, CL_FALSE, origin, host0, region, w, 0, w, 0,
                                           (char *)h + r0 * w, 0, NULL, NULL));
        }
        const uint64_t tail = bytes - rows_all * w;
        if (tail)
            CHECK(clEnqueueWriteBuffer(queue, buf, CL_FALSE, bytes - tail, tail, (char *)h + bytes - tail, 0, NULL,
                                       NULL));
    }
    CHECK(clFinish(queue));
    report("write: clEnqueueWriteBufferRect origin as rows", check_whole(buf, n), n);

    /* The buffer right again (probe 1's way), then reads. */
    CHECK(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, bytes, h, 0, NULL, NULL));
    uint32_t *back = malloc(bytes);
    if (!back) return 2;
    memset(back, 0, bytes);
    CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, bytes, back, 0, NULL, NULL));
    report("read: clEnqueueReadBuffer whole", host_wrong(back, 0, n), n);
    memset(back, 0, bytes);
    for (uint64_t at = 0; at < bytes; at += piece) {
        const size_t w = at + piece < bytes ? piece : bytes - at;
        const size_t origin[3] = {at, 0, 0}, host0[3] = {0, 0, 0}, region[3] = {w, 1, 1};
        CHECK(clEnqueueReadBufferRect(queue, buf, CL_FALSE, origin, host0, region, w, 0, w, 0, (char *)back + at, 0,
                                      NULL, NULL));
    }
    CHECK(clFinish(queue));
    report("read: clEnqueueReadBufferRect 64 MiB rows", host_wrong(back, 0, n), n);
    memset(back, 0, bytes);
    for (uint64_t at = 0; at < bytes; at += piece)
        CHECK(clEnqueueReadBuffer(queue, buf, CL_FALSE, at, at + piece < bytes ? piece : bytes - at,
                                  (char *)back + at, 0, NULL, NULL));
    CHECK(clFinish(queue));
    report("read: clEnqueueReadBuffer 64 MiB pieces", host_wrong(back, 0, n), n);

    /* 6. Kernels indexing with int arithmetic (element index < 2^31, bytes > 2^32). */
    {
        const int ld = 49592, cols = (int)((n < 0x7fffffffull ? n : 0x7fffffffull) / ld) - 1;
        const int off = 7;
        for (int variant = 0; variant < 2; variant++) {
            cl_kernel k = clCreateKernel(program, variant ? "check_int_ptr" : "check_int", &err);
            CHECK(err);
            CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
            CHECK(clSetKernelArg(k, 1, sizeof off, &off));
            CHECK(clSetKernelArg(k, 2, sizeof ld, &ld));
            CHECK(clSetKernelArg(k, 3, sizeof cols, &cols));
            CHECK(clSetKernelArg(k, 4, sizeof counter, &counter));
            const size_t global[2] = {(size_t)(ld - off) / 8 * 8, 64}, local[2] = {8, 1};
            report(variant ? "kernel: x + off, then int index" : "kernel: int index off + row + col * ld",
                   run_check(k, 2, global, local), (uint64_t)global[0] * cols);
            clReleaseKernel(k);
        }
        /* Written by a kernel with int indices, checked with size_t ones and on the host. */
        CHECK(clEnqueueFillBuffer(queue, buf, &zero, 4, 0, bytes, 0, NULL, NULL));
        cl_kernel k = clCreateKernel(program, "write_int", &err);
        CHECK(err);
        CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
        CHECK(clSetKernelArg(k, 1, sizeof ld, &ld));
        CHECK(clSetKernelArg(k, 2, sizeof cols, &cols));
        const size_t global[2] = {(size_t)ld / 8 * 8, 64}, local[2] = {8, 1};
        CHECK(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL));
        CHECK(clFinish(queue));
        clReleaseKernel(k);
        CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, bytes, back, 0, NULL, NULL));
        uint64_t wrong = 0, of = 0;
        for (uint64_t col = 0; col < (uint64_t)cols; col++)
            for (uint64_t row = 0; row < global[0]; row++, of++) wrong += back[row + col * ld] != pattern(row + col * ld);
        report("kernel: writes with int index", wrong, of);
    }
    printf("%s\n", failures ? "SOME PROBES WRONG" : "ALL PROBES RIGHT");
    return failures ? 1 : 0;
}
