/* Wall-clock time of one public SGEMM call, n x n x n, as a C program sees it:
 * gemmkit_sgemm on host arrays (upload, kernels, read-back) and
 * gemmkit_sgemm_buffers on device buffers. The C side of
 * python/bench/overhead.py, which times the same calls from Python.
 * Built as build/call_time (linked to the shared library, as Python is).
 *
 * usage: call_time N REPEAT
 * Prints "host N MEDIAN_US" and "buffers N MEDIAN_US" after one warm-up call
 * each (the kernels' build). Inputs are random; the result is checked against
 * the host reference at N <= 256, so a broken run measures nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gemmkit.h"
#include "median.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}


static int fail(const char *what)
{
    fprintf(stderr, "call_time: %s: %s\n", what, gemmkit_last_error_message());
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3 || atoi(argv[1]) < 1 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: call_time N REPEAT\n");
        return 2;
    }
    const int n = atoi(argv[1]), repeat = atoi(argv[2]);
    const size_t count = (size_t)n * n;
    float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b), *c = malloc(count * sizeof *c);
    float *ref = malloc(count * sizeof *ref);
    double *times = malloc((size_t)repeat * sizeof *times);
    if (!a || !b || !c || !ref || !times) return fail("out of memory");
    srand(12345);
    for (size_t i = 0; i < count; i++) {
        a[i] = (float)(rand() % 1000 + 1) / 1000.0f;
        b[i] = (float)(rand() % 1000 + 1) / 1000.0f;
    }
    gemmkit_context *ctx = NULL;
    if (gemmkit_context_create(&ctx, NULL) != GEMMKIT_SUCCESS) return fail("context");

    for (int r = -1; r < repeat; r++) { /* r = -1: warm-up */
        double t0 = now_us();
        if (gemmkit_sgemm(ctx, GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f, a, n, b, n,
                          0.0f, c, n) != GEMMKIT_SUCCESS)
            return fail("gemmkit_sgemm");
        if (r >= 0) times[r] = now_us() - t0;
    }
    if (n <= 256) {
        gemmkit_sgemm_reference(GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f, a, n, b, n,
                                0.0f, ref, n);
        for (size_t i = 0; i < count; i++)
            if (fabsf(c[i] - ref[i]) > 1e-4f * n) {
                fprintf(stderr, "call_time: wrong result at %zu: %g, reference %g\n", i, c[i], ref[i]);
                return 1;
            }
    }
    printf("host %d %.1f\n", n, gk_median(times, repeat));

    gemmkit_buffer *da = NULL, *db = NULL, *dc = NULL;
    if (gemmkit_buffer_create(ctx, count, &da) || gemmkit_buffer_create(ctx, count, &db) ||
        gemmkit_buffer_create(ctx, count, &dc) || gemmkit_buffer_write(ctx, da, 0, count, a) ||
        gemmkit_buffer_write(ctx, db, 0, count, b))
        return fail("buffers");
    for (int r = -1; r < repeat; r++) {
        double t0 = now_us();
        if (gemmkit_sgemm_buffers(ctx, NULL, GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f,
                                  da, 0, n, db, 0, n, 0.0f, dc, 0, n) != GEMMKIT_SUCCESS)
            return fail("gemmkit_sgemm_buffers");
        if (r >= 0) times[r] = now_us() - t0;
    }
    printf("buffers %d %.1f\n", n, gk_median(times, repeat));
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    gemmkit_buffer_destroy(dc);
    gemmkit_context_destroy(ctx);
    free(a), free(b), free(c), free(ref), free(times);
    return 0;
}
