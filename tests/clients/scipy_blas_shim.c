/* A stand-in for scipy-openblas (the OpenBLAS that NumPy and SciPy wheels
 * from PyPI bundle, whose symbols are prefixed and suffixed): exports its
 * SGEMM names, scipy_sgemm_64_ and scipy_cblas_sgemm64_ (scipy-openblas64)
 * and scipy_sgemm_ and scipy_cblas_sgemm (scipy-openblas32), as a naive loop
 * accumulating in double, and counts the calls each name receives, so that
 * scipy_client can tell which calls the preloaded drop-in kept and which it
 * passed on to this library. */
#include <stdint.h>

#define SHIM_API __attribute__((visibility("default")))

enum { SHIM_F77_64, SHIM_CBLAS_64, SHIM_F77_32, SHIM_CBLAS_32, SHIM_NAMES };
static unsigned long calls[SHIM_NAMES];

/* Calls so far through each name (the order above), for scipy_client. */
SHIM_API unsigned long scipy_shim_calls(int which) { return which >= 0 && which < SHIM_NAMES ? calls[which] : 0; }

static int transposed(char t) { return t != 'N' && t != 'n'; }

/* Column-major C := alpha op(A) op(B) + beta C (beta == 0: C not read). */
static void naive(int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                  const float *b, int64_t ldb, float beta, float *c, int64_t ldc)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double sum = 0.0;
            for (int64_t p = 0; p < k; p++)
                sum += (double)(ta ? a[p + i * lda] : a[i + p * lda]) * (double)(tb ? b[j + p * ldb] : b[p + j * ldb]);
            float *cij = &c[i + j * ldc];
            *cij = (float)(alpha * sum + (beta == 0.0f ? 0.0 : (double)beta * (double)*cij));
        }
}

/* CBLAS: a row-major call is the column-major C^T = op(B)^T op(A)^T; 112/113 transpose. */
static void cblas(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                  int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc)
{
    if (layout == 101)
        naive(tb != 111, ta != 111, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
    else
        naive(ta != 111, tb != 111, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

SHIM_API void scipy_sgemm_64_(const char *ta, const char *tb, const int64_t *m, const int64_t *n, const int64_t *k,
                              const float *alpha, const float *a, const int64_t *lda, const float *b,
                              const int64_t *ldb, const float *beta, float *c, const int64_t *ldc)
{
    calls[SHIM_F77_64]++;
    naive(transposed(*ta), transposed(*tb), *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}

SHIM_API void scipy_sgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
                           const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
                           const float *beta, float *c, const int *ldc)
{
    calls[SHIM_F77_32]++;
    naive(transposed(*ta), transposed(*tb), *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}

SHIM_API void scipy_cblas_sgemm64_(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
                                   const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                                   int64_t ldc)
{
    calls[SHIM_CBLAS_64]++;
    cblas(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

SHIM_API void scipy_cblas_sgemm(int layout, int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda,
                                const float *b, int ldb, float beta, float *c, int ldc)
{
    calls[SHIM_CBLAS_32]++;
    cblas(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
