/* The Fortran BLAS entry points SGEMM: sgemm_ with 32-bit INTEGERs (LP64) and
 * sgemm_64_ with 64-bit ones (ILP64, OpenBLAS's and reference BLAS 3.11's
 * name), and scipy-openblas's scipy_sgemm_64_ and scipy_sgemm_; every
 * argument by reference. gfortran also passes the lengths of
 * TRANSA and TRANSB as hidden trailing arguments; only their first character
 * matters, so they are not declared (the x86-64 and AArch64 calling
 * conventions let a callee ignore them). */
#include "blas_dropin.h"

void gk_blas_f77_sgemm(const char *routine, gk_blas_family family, int ilp64, const char *transa,
                       const char *transb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                       const float *b, int64_t ldb, float beta, float *c, int64_t ldc)
{
    char ta = gk_blas_trans_char(*transa), tb = gk_blas_trans_char(*transb);
    int info = gk_blas_check(ta, tb, m, n, k, lda, ldb, ldc);
    if (info) {
        gk_blas_report_f77("SGEMM", info, ilp64);
        return;
    }
    gk_blas_call call = {routine, family, GEMMKIT_COL_MAJOR, ta != 'N', tb != 'N', m, n, k, alpha, beta, a, lda, b, ldb, c,
                         ldc};
    gk_blas_execute(&call);
}

GEMMKIT_API void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                        const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
                        const float *beta, float *c, const int *ldc)
{
    gk_blas_f77_sgemm("sgemm_", GK_BLAS_PLAIN, 0, transa, transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}

GEMMKIT_API void sgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
                           const int64_t *k, const float *alpha, const float *a, const int64_t *lda, const float *b,
                           const int64_t *ldb, const float *beta, float *c, const int64_t *ldc)
{
    gk_blas_f77_sgemm("sgemm_64_", GK_BLAS_PLAIN, 1, transa, transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}

/* scipy-openblas's names: scipy_sgemm_64_ (scipy-openblas64, NumPy's) and
 * scipy_sgemm_ (scipy-openblas32, SciPy's). */
GEMMKIT_API void scipy_sgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
                                 const int64_t *k, const float *alpha, const float *a, const int64_t *lda,
                                 const float *b, const int64_t *ldb, const float *beta, float *c, const int64_t *ldc)
{
    gk_blas_f77_sgemm("scipy_sgemm_64_", GK_BLAS_SCIPY64, 1, transa, transb, *m, *n, *k, *alpha, a, *lda, b, *ldb,
                      *beta, c, *ldc);
}

GEMMKIT_API void scipy_sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                              const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
                              const float *beta, float *c, const int *ldc)
{
    gk_blas_f77_sgemm("scipy_sgemm_", GK_BLAS_SCIPY32, 0, transa, transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta,
                      c, *ldc);
}
