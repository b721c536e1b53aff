/* Measures where the device starts to beat the drop-in's CPU loop on this
 * machine: times cblas_sgemm on square sizes with everything forced onto the
 * CPU (GEMMKIT_BLAS_THRESHOLD=1e30) and onto the device (=0), host arrays in
 * and out as a BLAS caller has them, and suggests a GEMMKIT_BLAS_THRESHOLD.
 * Usage: dropin_crossover [max_n] (default 1024). Not a test: it only times. */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Median-of-5 seconds per call, after one warm-up call (kernel builds). */
static double time_call(const char *threshold, int n, const float *a, const float *b, float *c)
{
    setenv("GEMMKIT_BLAS_THRESHOLD", threshold, 1);
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    double t[5];
    for (int r = 0; r < 5; r++) {
        double start = now_s();
        int reps = 0;
        do { /* enough calls to see past the clock's resolution */
            cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
            reps++;
        } while (now_s() - start < 0.02);
        t[r] = (now_s() - start) / reps;
    }
    for (int i = 0; i < 5; i++) /* sort the five */
        for (int j = i + 1; j < 5; j++)
            if (t[j] < t[i]) {
                double x = t[i];
                t[i] = t[j];
                t[j] = x;
            }
    return t[2];
}

int main(int argc, char **argv)
{
    int max_n = argc > 1 ? atoi(argv[1]) : 1024;
    if (max_n < 8) max_n = 8;
    float *a = malloc((size_t)max_n * max_n * sizeof *a), *b = malloc((size_t)max_n * max_n * sizeof *b),
          *c = malloc((size_t)max_n * max_n * sizeof *c);
    if (!a || !b || !c) return 1;
    for (size_t i = 0; i < (size_t)max_n * max_n; i++) a[i] = b[i] = (float)(i % 7) * 0.25f - 0.75f;
    printf("%8s %14s %12s %12s %10s %10s\n", "n", "multiply-adds", "cpu ms", "device ms", "cpu GF/s", "dev GF/s");
    double suggestion = -1.0;
    for (int n = 8; n <= max_n; n *= 2) {
        double cpu = time_call("1e30", n, a, b, c), dev = time_call("0", n, a, b, c);
        double macs = (double)n * n * n;
        printf("%8d %14.0f %12.4f %12.4f %10.2f %10.2f\n", n, macs, cpu * 1e3, dev * 1e3, 2 * macs / cpu * 1e-9,
               2 * macs / dev * 1e-9);
        if (suggestion < 0 && dev < cpu) suggestion = macs;
        if (suggestion >= 0 && dev > cpu) suggestion = -1.0; /* only a lasting win counts */
    }
    if (suggestion >= 0)
        printf("suggested GEMMKIT_BLAS_THRESHOLD=%.0f (the device wins from n = %.0f on)\n", suggestion,
               suggestion > 0 ? cbrt(suggestion) : 0.0);
    else
        printf("the device never won lastingly up to n = %d: keep the calls on the CPU\n", max_n);
    free(a);
    free(b);
    free(c);
    return 0;
}
