/* The Fortran BLAS entry point SGEMM (sgemm_): every argument by reference.
 * gfortran also passes the lengths of TRANSA and TRANSB as hidden trailing
 * arguments; only their first character matters, so they are not declared
 * (the x86-64 and AArch64 calling conventions let a callee ignore them). */
#include "blas_dropin.h"
#include "blas_errors.h"

GEMMKIT_API void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                        const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
                        const float *beta, float *c, const int *ldc)
{
    char ta = gk_blas_trans_char(*transa), tb = gk_blas_trans_char(*transb);
    int info = gk_blas_check(ta, tb, *m, *n, *k, *lda, *ldb, *ldc);
    if (info) {
        xerbla_("SGEMM ", &info, 6);
        return;
    }
    gk_blas_call call = {"sgemm_", GEMMKIT_COL_MAJOR, ta != 'N', tb != 'N', *m,  *n, *k,
                         *alpha,   *beta,             a,         *lda,      b,  *ldb, c, *ldc};
    gk_blas_execute(&call);
}
