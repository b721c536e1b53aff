/* The accuracy of each summation scheme of the tensor-core math modes, on the
 * host model (tools/check/tf32_model.h), against float64: the table of
 * docs/MATH.md. Error per element relative to (|A||B|)ij, over S x S elements
 * of C at full K = n (the statistics are per element, so a sample of rows and
 * columns measures them as the whole matrix would), for inputs uniform in
 * [-1, 1) and "wide" ones (A's rows and columns and B's rows and columns
 * scaled by 2^e, e uniform in [-20, 20]).
 * Usage: math_study [n ...] [--sample S] [--seed X] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tf32_model.h"

typedef struct stats {
    double max, sum_sq;
    int64_t count;
} stats;

/* Rows of A (s x k) and columns of B (s x k, each column contiguous). */
static void measure(const float *a, const float *b, int64_t s, int64_t k, const int *ktiles, stats *out)
{
    for (int64_t i = 0; i < s; i++)
        for (int64_t j = 0; j < s; j++) {
            const float *x = a + i * k, *y = b + j * k;
            double ref = 0.0, mag = 0.0;
            for (int64_t p = 0; p < k; p++) {
                ref += (double)x[p] * (double)y[p];
                mag += fabs((double)x[p] * (double)y[p]);
            }
            for (int m = 0; m < GK_MODEL_SCHEME_COUNT; m++) {
                const double e = fabs((double)gk_model_dot((gk_model_scheme)m, ktiles[m], x, 1, y, 1, k) - ref) / mag;
                if (e > out[m].max) out[m].max = e;
                out[m].sum_sq += e * e;
                out[m].count++;
            }
        }
}

int main(int argc, char **argv)
{
    int64_t sizes[16], count = 0, s = 64;
    uint64_t seed = 12345;
    int ktile = 16;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sample") && i + 1 < argc) s = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--ktile") && i + 1 < argc) ktile = atoi(argv[++i]);
        else if (count < 16 && atoll(argv[i]) > 0) sizes[count++] = atoll(argv[i]);
        else {
            fprintf(stderr, "usage: math_study [n ...] [--sample S] [--seed X] [--ktile K]\n");
            return 2;
        }
    }
    if (!count) sizes[count++] = 1024, sizes[count++] = 4096;
    int ktiles[GK_MODEL_SCHEME_COUNT];
    for (int m = 0; m < GK_MODEL_SCHEME_COUNT; m++) ktiles[m] = ktile;
    printf("| inputs | n | scheme | max | RMS |\n| --- | --- | --- | --- | --- |\n");
    for (int wide = 0; wide < 2; wide++)
        for (int64_t c = 0; c < count; c++) {
            const int64_t k = sizes[c];
            float *a = malloc(sizeof(float) * (size_t)(s * k)), *b = malloc(sizeof(float) * (size_t)(s * k));
            if (!a || !b) return 1;
            gk_rng rng;
            gk_rng_seed(&rng, seed + (uint64_t)k);
            gk_fill_random(&rng, a, (size_t)(s * k));
            gk_fill_random(&rng, b, (size_t)(s * k));
            if (wide && (gk_scale_wide(&rng, a, GEMMKIT_ROW_MAJOR, s, k, k) ||
                         gk_scale_wide(&rng, b, GEMMKIT_ROW_MAJOR, s, k, k)))
                return 1;
            stats st[GK_MODEL_SCHEME_COUNT] = {{0}};
            measure(a, b, s, k, ktiles, st);
            for (int m = 0; m < GK_MODEL_SCHEME_COUNT; m++)
                printf("| %s | %lld | %s%s | %.2e | %.2e |\n", wide ? "wide 2^-20..2^20" : "uniform [-1,1)",
                       (long long)k, gk_model_scheme_name((gk_model_scheme)m),
                       m >= GK_MODEL_3X_FP32_BIG ? " (k-tile)" : "",
                       st[m].max, sqrt(st[m].sum_sq / (double)st[m].count));
            free(a);
            free(b);
        }
    return 0;
}
