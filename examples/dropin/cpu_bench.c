/* CPU SGEMM rates for docs/DROPIN.md: square column-major NN products
 * C = A B (alpha 1, beta 0), n = 16 .. 4096, through
 *   cblas:  cblas_sgemm, whatever serves it (the program's BLAS; the drop-in
 *           when preloaded, with GEMMKIT_CPU_BLAS_LIB=builtin its own loop);
 *   native: gemmkit_sgemm on a default context (the library's choice).
 * Each size runs until 0.3 s have passed (at least 3 calls after one warm-up)
 * and reports the best call's GFLOPS; a few elements of C are checked in
 * double so that a wrong result cannot pass for a fast one.
 * Usage: cpu_bench cblas|native [max_n] */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gemmkit.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int checked(int n, const float *a, const float *b, const float *c)
{
    for (int s = 0; s < 16; s++) {
        int i = (s * 7919) % n, j = (s * 104729) % n;
        double sum = 0.0, mag = 0.0;
        for (int p = 0; p < n; p++) {
            sum += (double)a[i + (size_t)p * n] * b[p + (size_t)j * n];
            mag += fabs((double)a[i + (size_t)p * n] * b[p + (size_t)j * n]);
        }
        if (!(fabs(c[i + (size_t)j * n] - sum) <= 2.0 * (n + 2) * 1.2e-7 * mag)) return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    const int native = argc > 1 && !strcmp(argv[1], "native");
    const int max_n = argc > 2 ? atoi(argv[2]) : 4096;
    gemmkit_context *ctx = NULL;
    if (native && gemmkit_context_create(&ctx, NULL) != GEMMKIT_SUCCESS) {
        fprintf(stderr, "no context: %s\n", gemmkit_last_error_message());
        return 1;
    }
    srand((unsigned)time(NULL));
    printf("n\tGFLOPS\n");
    for (int n = 16; n <= max_n; n *= 2) {
        size_t count = (size_t)n * n;
        float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b), *c = malloc(count * sizeof *c);
        if (!a || !b || !c) return 1;
        for (size_t i = 0; i < count; i++) {
            a[i] = (float)rand() / RAND_MAX - 0.5f;
            b[i] = (float)rand() / RAND_MAX - 0.5f;
            c[i] = NAN;
        }
        double best = 1e30, start = now_s();
        for (int call = 0; call < 4 || now_s() - start < 0.3; call++) {
            double t0 = now_s();
            if (native)
                gemmkit_sgemm(ctx, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f, a, n, b, n,
                              0.0f, c, n);
            else
                cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
            double t = now_s() - t0;
            if (call > 0 && t < best) best = t; /* the first call warms up (context, kernels, threads) */
        }
        if (!checked(n, a, b, c)) {
            printf("%d\tWRONG\n", n);
            return 1;
        }
        printf("%d\t%.1f\n", n, 2.0 * n * n * (double)n / best * 1e-9);
        fflush(stdout);
        free(a), free(b), free(c);
    }
    gemmkit_context_destroy(ctx);
    return 0;
}
