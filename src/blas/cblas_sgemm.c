/* The CBLAS entry points: cblas_sgemm (int sizes) and cblas_sgemm_64
 * (int64_t sizes, as OpenBLAS's ILP64 build and reference CBLAS 3.11 name
 * it), and scipy-openblas's scipy_cblas_sgemm64_ and scipy_cblas_sgemm.
 * Illegal arguments go to cblas_xerbla in the reference CBLAS's order
 * and numbering: the layout (1), TransA (2), TransB (3), then the Fortran
 * SGEMM test on the column-major problem, whose position p is reported as
 * p + 1 (the layout comes first). Row-major calls are tested as the
 * transposed problem, as the reference does, so N is tested before M and ldb
 * before lda. The position printed is always that of the offending argument
 * in this call: where the process has the reference CBLAS (its RowMajorStrg),
 * as the reference's cblas_sgemm does, the flag is set for a row-major call
 * and the transposed problem's position given, which the reference
 * cblas_xerbla trades back (the reference's test programs check exactly
 * that); elsewhere the position in this call itself. */
#include "blas_dropin.h"

/* Tells a gemmkit drop-in from a real BLAS (host_blas.h), so that neither
 * gemmkit nor another copy of this library takes it for the CPU BLAS. */
GEMMKIT_API const char gemmkit_blas_dropin[] = "gemmkit BLAS drop-in";

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

void gk_blas_cblas_sgemm(const char *routine, gk_blas_family family, gemmkit_layout layout,
                         gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k,
                         float alpha, const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                         int64_t ldc)
{
    if (layout != GEMMKIT_ROW_MAJOR && layout != GEMMKIT_COL_MAJOR) {
        gk_blas_report_cblas(1, routine, "Illegal layout setting, %d\n", (int)layout);
        return;
    }
    char ta = cblas_trans_char(trans_a), tb = cblas_trans_char(trans_b);
    if (!ta) {
        gk_blas_report_cblas(2, routine, "Illegal TransA setting, %d\n", (int)trans_a);
        return;
    }
    if (!tb) {
        gk_blas_report_cblas(3, routine, "Illegal TransB setting, %d\n", (int)trans_b);
        return;
    }
    int row_major = layout == GEMMKIT_ROW_MAJOR;
    int info = row_major ? gk_blas_check(tb, ta, n, m, k, ldb, lda, ldc)  /* C^T = op(B)^T op(A)^T */
                         : gk_blas_check(ta, tb, m, n, k, lda, ldb, ldc);
    if (info) {
        int *row_major_flag = gk_blas_row_major_flag();
        if (row_major_flag) { /* the reference's protocol: its cblas_xerbla trades the positions back */
            *row_major_flag = row_major;
            gk_blas_report_cblas(info + 1, routine, "");
            *row_major_flag = 0;
        } else {
            gk_blas_report_cblas(cblas_position(info, row_major), routine, "");
        }
        return;
    }
    gk_blas_call call = {routine, family, layout, ta != 'N', tb != 'N', m, n, k, alpha, beta, a, lda, b, ldb, c, ldc};
    gk_blas_execute(&call);
}

void cblas_sgemm(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b, int m, int n, int k,
                 float alpha, const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc)
{
    gk_blas_cblas_sgemm("cblas_sgemm", GK_BLAS_PLAIN, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void cblas_sgemm_64(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m,
                    int64_t n, int64_t k, float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
                    float beta, float *c, int64_t ldc)
{
    gk_blas_cblas_sgemm("cblas_sgemm_64", GK_BLAS_PLAIN, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* scipy-openblas's names: scipy_cblas_sgemm64_ (scipy-openblas64, what NumPy
 * >= 2.0 from PyPI calls for float32 matmul) and scipy_cblas_sgemm
 * (scipy-openblas32). Errors are reported as for cblas_sgemm, under the name
 * called. */
void scipy_cblas_sgemm64_(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m,
                          int64_t n, int64_t k, float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
                          float beta, float *c, int64_t ldc)
{
    gk_blas_cblas_sgemm("scipy_cblas_sgemm64_", GK_BLAS_SCIPY64, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                        ldb, beta, c, ldc);
}

void scipy_cblas_sgemm(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b, int m, int n,
                       int k, float alpha, const float *a, int lda, const float *b, int ldb, float beta, float *c,
                       int ldc)
{
    gk_blas_cblas_sgemm("scipy_cblas_sgemm", GK_BLAS_SCIPY32, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb,
                        beta, c, ldc);
}
