/* Host <-> device copy bandwidth through gemmkit's public buffer calls, from
 * pageable host memory (malloc, as a numpy array is): the copies the BLAS
 * drop-in's host-array calls make, for bench/dropin-gpu.sh's bound.
 * Built as build/copy_bw; the device as for any gemmkit program
 * (GEMMKIT_DEVICE, GEMMKIT_BACKEND).
 *
 * usage: copy_bw MIB REPEAT
 * Prints "h2d MIB GB/s" (gemmkit_buffer_write) and "d2h MIB GB/s"
 * (gemmkit_buffer_read), each the best of REPEAT copies of MIB MiB after one
 * warm-up copy (GB = 1e9 bytes), and "device NAME". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gemmkit.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int fail(const char *what)
{
    fprintf(stderr, "copy_bw: %s: %s\n", what, gemmkit_last_error_message());
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3 || atoi(argv[1]) < 1 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: copy_bw MIB REPEAT\n");
        return 2;
    }
    const int mib = atoi(argv[1]), repeat = atoi(argv[2]);
    const size_t count = (size_t)mib * 1024 * 1024 / sizeof(float);
    float *host = malloc(count * sizeof *host);
    if (!host) return fail("out of host memory");
    memset(host, 1, count * sizeof *host); /* touched: no page faults in the timed copies */
    gemmkit_context *ctx = NULL;
    gemmkit_buffer *buffer = NULL;
    if (gemmkit_context_create(&ctx, NULL) != GEMMKIT_SUCCESS) return fail("context");
    gemmkit_device_info info;
    if (gemmkit_context_device_info(ctx, &info) == GEMMKIT_SUCCESS) printf("device %s | %s\n", info.platform, info.name);
    if (gemmkit_buffer_create(ctx, count, &buffer) != GEMMKIT_SUCCESS) return fail("buffer");
    double best_write = 1e30, best_read = 1e30;
    for (int r = -1; r < repeat; r++) { /* r = -1: warm-up */
        double t0 = now_s();
        if (gemmkit_buffer_write(ctx, buffer, 0, count, host) != GEMMKIT_SUCCESS) return fail("write");
        double t1 = now_s();
        if (gemmkit_buffer_read(ctx, buffer, 0, count, host) != GEMMKIT_SUCCESS) return fail("read");
        double t2 = now_s();
        if (r >= 0) {
            if (t1 - t0 < best_write) best_write = t1 - t0;
            if (t2 - t1 < best_read) best_read = t2 - t1;
        }
    }
    const double bytes = (double)count * sizeof(float);
    printf("h2d %d %.2f\n", mib, bytes / best_write * 1e-9);
    printf("d2h %d %.2f\n", mib, bytes / best_read * 1e-9);
    gemmkit_buffer_destroy(buffer);
    gemmkit_context_destroy(ctx);
    free(host);
    return 0;
}
