/* Transpose/copy bandwidth against the alignment of the leading dimensions and
 * offsets, with everything else fixed: separates the cost of misaligned reads
 * (lda, offA) from misaligned writes (ldb, offB). Uses only the public API.
 * Built as build/ld_sweep; docs/PERFORMANCE.md ("Transposition") shows what it found.
 *
 * usage: ld_sweep KERNEL PARAMS ROWS COLS [REPEAT]
 *   PARAMS: "-" for the library's choice, else "VW=1,TILE=64"
 * Prints one line per (lda, ldb, offA, offB) case: median kernel time and GB/s
 * (bytes read + written), each result checked exactly against the host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_transpose.h"
#include "gemmkit.h"

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define TRY(call)                                                                                          \
    do {                                                                                                   \
        gemmkit_status s_ = (call);                                                                        \
        if (s_ != GEMMKIT_SUCCESS) {                                                                       \
            fprintf(stderr, "%s: %s\n", #call, gemmkit_last_error_message());                              \
            return 1;                                                                                      \
        }                                                                                                  \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: ld_sweep KERNEL PARAMS ROWS COLS [REPEAT]\n");
        return 2;
    }
    const char *kernel = argv[1], *params = strcmp(argv[2], "-") ? argv[2] : NULL;
    const int rows = atoi(argv[3]), cols = atoi(argv[4]), repeat = argc > 5 ? atoi(argv[5]) : 10;
    const int trans = strstr(kernel, "copy") == NULL;
    const int brows = trans ? cols : rows, bcols = trans ? rows : cols;
    /* (extra lda, extra ldb, offA, offB) */
    static const int cases[][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0}, {2, 2, 0, 0},
                                   {4, 4, 0, 0}, {8, 8, 0, 0}, {32, 32, 0, 0}, {1, 1, 1, 1}, {0, 0, 1, 0},
                                   {0, 0, 0, 1}, {0, 0, 1, 1}};
    const int ncases = sizeof cases / sizeof cases[0];
    /* Leading dimensions are rounded to the tile-friendly base first. */
    const int base_a = (rows + 63) / 64 * 64, base_b = (brows + 63) / 64 * 64;
    gemmkit_context *ctx;
    TRY(gemmkit_context_create(&ctx, NULL));
    const size_t na = (size_t)(base_a + 40) * cols + 8, nb = (size_t)(base_b + 40) * bcols + 8;
    float *ha = malloc(na * sizeof(float)), *hb = malloc(nb * sizeof(float)), *hb0 = malloc(nb * sizeof(float));
    if (!ha || !hb || !hb0) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    gk_fill_random(&rng, ha, na);
    gemmkit_buffer *a, *b;
    TRY(gemmkit_buffer_create(ctx, na, &a));
    TRY(gemmkit_buffer_create(ctx, nb, &b));
    TRY(gemmkit_buffer_write(ctx, a, 0, na, ha));
    printf("kernel %s params %s, %d x %d; lda = %d + da, ldb = %d + db\n", kernel, params ? params : "-", rows,
           cols, base_a, base_b);
    printf("%4s %4s %4s %4s %10s %9s  %s\n", "da", "db", "offA", "offB", "ms", "GB/s", "check");
    for (int c = 0; c < ncases; c++) {
        const int lda = base_a + cases[c][0], ldb = base_b + cases[c][1];
        const size_t offa = cases[c][2], offb = cases[c][3];
        gk_omatcopy_case kase = {GEMMKIT_COL_MAJOR, trans ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, rows, cols, 1.0f,
                                 lda, ldb, offa, offb};
        gk_omatcopy_fill_b(&kase, &rng, hb0, nb); /* B poisoned, what surrounds it random */
        TRY(gemmkit_buffer_write(ctx, b, 0, nb, hb0));
        double ms[64], kms = 0;
        gemmkit_options opt = {.kernel = kernel, .params = params, .kernel_ms = &kms};
        const int runs = repeat < 1 ? 1 : repeat < 64 ? repeat : 64;
        for (int r = -1; r < runs; r++) {
            TRY(gemmkit_somatcopy_buffers(ctx, &opt, kase.layout, kase.trans, rows, cols, kase.alpha, a, offa, lda, b,
                                          offb, ldb));
            if (r >= 0) ms[r] = kms;
        }
        qsort(ms, runs, sizeof ms[0], cmp_double);
        TRY(gemmkit_buffer_read(ctx, b, 0, nb, hb));
        gk_check_result check;
        gk_check_omatcopy(&kase, ha + offa, hb0 + offb, hb + offb, &check);
        const double med = ms[runs / 2], gbs = 2.0 * rows * cols * 4 / (med * 1e6);
        printf("%4d %4d %4zu %4zu %10.4f %9.1f  %s\n", cases[c][0], cases[c][1], offa, offb, med, gbs,
               check.passed ? "ok" : "WRONG");
        if (!check.passed) fprintf(stderr, "  %s\n", check.message);
    }
    gemmkit_buffer_destroy(a);
    gemmkit_buffer_destroy(b);
    gemmkit_context_destroy(ctx);
    free(ha);
    free(hb);
    free(hb0);
    return 0;
}
