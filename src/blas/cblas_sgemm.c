/* The CBLAS entry point cblas_sgemm. Illegal arguments go to cblas_xerbla
 * in the reference CBLAS's order and numbering: the layout (1), TransA (2),
 * TransB (3), then the Fortran SGEMM test on the column-major problem, whose
 * position p is reported as p + 1 (the layout comes first). Row-major calls
 * are tested as the transposed problem, as the reference does, so N is tested
 * before M and ldb before lda; the position given is always that of the
 * offending argument in this call (the reference's printed numbers). */
#include "blas_dropin.h"
#include "blas_errors.h"

static char cblas_trans_char(gemmkit_transpose t)
{
    switch (t) {
    case GEMMKIT_NO_TRANS: return 'N';
    case GEMMKIT_TRANS: return 'T';
    case GEMMKIT_CONJ_TRANS: return 'C';
    default: return 0;
    }
}

/* Fortran position of the column-major problem -> position in cblas_sgemm. */
static int cblas_position(int info, int row_major)
{
    int p = info + 1;
    if (row_major) { /* M and N, lda and ldb traded places */
        switch (p) {
        case 4: return 5;
        case 5: return 4;
        case 9: return 11;
        case 11: return 9;
        default: return p;
        }
    }
    return p;
}

GEMMKIT_API void cblas_sgemm(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b, int m,
                             int n, int k, float alpha, const float *a, int lda, const float *b, int ldb,
                             float beta, float *c, int ldc)
{
    if (layout != GEMMKIT_ROW_MAJOR && layout != GEMMKIT_COL_MAJOR) {
        cblas_xerbla(1, "cblas_sgemm", "Illegal layout setting, %d\n", (int)layout);
        return;
    }
    char ta = cblas_trans_char(trans_a), tb = cblas_trans_char(trans_b);
    if (!ta) {
        cblas_xerbla(2, "cblas_sgemm", "Illegal TransA setting, %d\n", (int)trans_a);
        return;
    }
    if (!tb) {
        cblas_xerbla(3, "cblas_sgemm", "Illegal TransB setting, %d\n", (int)trans_b);
        return;
    }
    int row_major = layout == GEMMKIT_ROW_MAJOR;
    int info = row_major ? gk_blas_check(tb, ta, n, m, k, ldb, lda, ldc)  /* C^T = op(B)^T op(A)^T */
                         : gk_blas_check(ta, tb, m, n, k, lda, ldb, ldc);
    if (info) {
        cblas_xerbla(cblas_position(info, row_major), "cblas_sgemm", "");
        return;
    }
    gk_blas_call call = {"cblas_sgemm", layout, ta != 'N', tb != 'N', m, n, k, alpha, beta, a, lda, b, ldb, c, ldc};
    gk_blas_execute(&call);
}
