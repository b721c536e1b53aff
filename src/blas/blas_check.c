/* The reference BLAS argument test for SGEMM, in the reference's order, shared
 * by sgemm_ and cblas_sgemm. */
#include "blas_dropin.h"

char gk_blas_trans_char(char c)
{
    switch (c) {
    case 'N': case 'n': return 'N';
    case 'T': case 't': return 'T';
    case 'C': case 'c': return 'C';
    default: return 0;
    }
}

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }

int gk_blas_check(char ta, char tb, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc)
{
    int64_t nrowa = ta == 'N' ? m : k; /* rows of A as stored */
    int64_t nrowb = tb == 'N' ? k : n;
    if (!ta) return 1;
    if (!tb) return 2;
    if (m < 0) return 3;
    if (n < 0) return 4;
    if (k < 0) return 5;
    if (lda < max1(nrowa)) return 8;
    if (ldb < max1(nrowb)) return 10;
    if (ldc < max1(m)) return 13;
    return 0;
}
