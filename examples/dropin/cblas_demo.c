/* An ordinary program written against cblas.h: it knows nothing of gemmkit.
 * Built once against the reference BLAS and once against gemmkit (or run
 * with LD_PRELOAD=libgemmkit.so), it must print the same numbers within
 * float32 rounding. Each result is printed as "# name m n k alpha beta" and
 * then its elements, one per line. */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state = 20240601ull;

/* Deterministic inputs in [-1, 1). */
static float next_value(void)
{
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((state >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
}

static float *matrix(int count)
{
    float *x = malloc((size_t)(count > 0 ? count : 1) * sizeof *x);
    if (!x) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (int i = 0; i < count; i++) x[i] = next_value();
    return x;
}

static void multiply(const char *name, CBLAS_LAYOUT layout, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n,
                     int k, float alpha, float beta)
{
    int row = layout == CblasRowMajor;
    int a_rows = ta == CblasNoTrans ? m : k, a_cols = ta == CblasNoTrans ? k : m;
    int b_rows = tb == CblasNoTrans ? k : n, b_cols = tb == CblasNoTrans ? n : k;
    /* Leading dimensions with a gap of 2, as real programs often have. */
    int lda = (row ? a_cols : a_rows) + 2, ldb = (row ? b_cols : b_rows) + 2, ldc = (row ? n : m) + 2;
    float *a = matrix((row ? a_rows : a_cols) * lda), *b = matrix((row ? b_rows : b_cols) * ldb);
    float *c = matrix((row ? m : n) * ldc);
    if (beta == 0.0f) /* C is not read when beta is 0: NaN must not leak out */
        for (int i = 0; i < (row ? m : n) * ldc; i++) c[i] = NAN;
    cblas_sgemm(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    printf("# %s %d %d %d %g %g\n", name, m, n, k, (double)alpha, (double)beta);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) printf("%.9g\n", (double)c[row ? i * ldc + j : j * ldc + i]);
    free(a);
    free(b);
    free(c);
}

int main(void)
{
    static const int sizes[][3] = {{1, 1, 1}, {2, 3, 4}, {7, 5, 3}, {17, 33, 9}, {40, 31, 29}};
    static const CBLAS_TRANSPOSE trans[] = {CblasNoTrans, CblasTrans, CblasConjTrans};
    static const char *names[] = {"N", "T", "C"};
    for (int l = 0; l < 2; l++)
        for (int s = 0; s < 5; s++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    char name[32];
                    snprintf(name, sizeof name, "%s-%s%s", l ? "row" : "col", names[a], names[b]);
                    multiply(name, l ? CblasRowMajor : CblasColMajor, trans[a], trans[b], sizes[s][0], sizes[s][1],
                             sizes[s][2], s % 2 ? 1.5f : 1.0f, s % 3 ? 0.0f : -0.75f);
                }
    /* Large enough for the device (see the threshold in CMakeLists.txt). */
    multiply("row-NN-large", CblasRowMajor, CblasNoTrans, CblasNoTrans, 128, 112, 96, 1.0f, 0.0f);
    multiply("col-TT-large", CblasColMajor, CblasTrans, CblasTrans, 120, 130, 100, -0.5f, 2.0f);
    /* Nothing to do: C stays as it is. */
    multiply("quick-return", CblasColMajor, CblasNoTrans, CblasNoTrans, 4, 3, 0, 1.0f, 1.0f);
    return 0;
}
