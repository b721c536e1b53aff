/* Argument checks and normalisation shared by every SGEMM entry point. */
#include <stdint.h>

#include "sgemm.h"
#include "status.h"

static int is_trans(gemmkit_transpose t) { return t == GEMMKIT_TRANS || t == GEMMKIT_CONJ_TRANS; }

static int valid_trans(gemmkit_transpose t)
{
    return t == GEMMKIT_NO_TRANS || t == GEMMKIT_TRANS || t == GEMMKIT_CONJ_TRANS;
}

int64_t gk_stored_rows(int trans, int64_t rows, int64_t cols) { return trans ? cols : rows; }

int64_t gk_extent(int64_t rows, int64_t cols, int64_t ld)
{
    if (rows <= 0 || cols <= 0) return 0;
    /* ld is only checked from below: saturate instead of overflowing int64
     * (the caller rejects anything beyond the 32-bit index range anyway). */
    if (cols > 1 && ld > (INT64_MAX - rows) / (cols - 1)) return INT64_MAX;
    return (cols - 1) * ld + rows;
}

gemmkit_status gk_check_ld(const char *name, int64_t ld, int64_t min_rows)
{
    int64_t need = min_rows > 1 ? min_rows : 1;
    if (ld < need)
        return gk_fail(GEMMKIT_ERROR_INVALID_LEADING_DIM, "%s = %lld must be >= max(1, %lld)", name,
                       (long long)ld, (long long)min_rows);
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_sgemm_prepare(gemmkit_layout layout, gemmkit_transpose trans_a,
                                gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k,
                                float alpha, int64_t lda, int64_t ldb, float beta, int64_t ldc,
                                gk_sgemm_problem *p)
{
    if (layout != GEMMKIT_ROW_MAJOR && layout != GEMMKIT_COL_MAJOR)
        return gk_fail(GEMMKIT_ERROR_INVALID_LAYOUT, "layout = %d is neither row- (101) nor column-major (102)",
                       (int)layout);
    if (!valid_trans(trans_a))
        return gk_fail(GEMMKIT_ERROR_INVALID_TRANSPOSE, "trans_a = %d is not 111, 112 or 113", (int)trans_a);
    if (!valid_trans(trans_b))
        return gk_fail(GEMMKIT_ERROR_INVALID_TRANSPOSE, "trans_b = %d is not 111, 112 or 113", (int)trans_b);
    if (m < 0) return gk_fail(GEMMKIT_ERROR_INVALID_SIZE, "m = %lld is negative", (long long)m);
    if (n < 0) return gk_fail(GEMMKIT_ERROR_INVALID_SIZE, "n = %lld is negative", (long long)n);
    if (k < 0) return gk_fail(GEMMKIT_ERROR_INVALID_SIZE, "k = %lld is negative", (long long)k);
    int ta = is_trans(trans_a), tb = is_trans(trans_b);
    /* A stored matrix's leading dimension covers its rows (column-major) or
     * its row length (row-major). */
    int row_major = layout == GEMMKIT_ROW_MAJOR;
    int64_t a_min = row_major ? (ta ? m : k) : (ta ? k : m);
    int64_t b_min = row_major ? (tb ? k : n) : (tb ? n : k);
    int64_t c_min = row_major ? n : m;
    GK_TRY(gk_check_ld("lda", lda, a_min));
    GK_TRY(gk_check_ld("ldb", ldb, b_min));
    GK_TRY(gk_check_ld("ldc", ldc, c_min));

    p->alpha = alpha;
    p->beta = beta;
    p->k = k;
    p->c.ld = ldc;
    if (row_major) { /* C^T = op(B)^T op(A)^T in column-major terms */
        p->m = n;
        p->n = m;
        p->trans_a = tb;
        p->trans_b = ta;
        p->a.ld = ldb;
        p->b.ld = lda;
    } else {
        p->m = m;
        p->n = n;
        p->trans_a = ta;
        p->trans_b = tb;
        p->a.ld = lda;
        p->b.ld = ldb;
    }
    /* Kernels index with 32-bit integers; checking the lds first also keeps
     * the extents below from overflowing int64. */
    if (lda > INT32_MAX || ldb > INT32_MAX || ldc > INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "leading dimensions above 2^31-1 are not supported");
    if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "dimensions above 2^31-1 are not supported");
    int64_t ea = gk_extent(gk_stored_rows(p->trans_a, p->m, p->k), p->trans_a ? p->m : p->k, p->a.ld);
    int64_t eb = gk_extent(gk_stored_rows(p->trans_b, p->k, p->n), p->trans_b ? p->k : p->n, p->b.ld);
    int64_t ec = gk_extent(p->m, p->n, p->c.ld);
    if (ea > INT32_MAX || eb > INT32_MAX ||
        ec > INT32_MAX || (double)p->m * (double)p->n > (double)INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW,
                       "matrices of more than 2^31-1 elements (m=%lld n=%lld k=%lld) are not supported",
                       (long long)m, (long long)n, (long long)k);
    return GEMMKIT_SUCCESS;
}

int gk_sgemm_writes_c(const gk_sgemm_problem *p)
{
    if (p->m == 0 || p->n == 0) return 0;
    return !((p->alpha == 0.0f || p->k == 0) && p->beta == 1.0f);
}

int gk_sgemm_reads_ab(const gk_sgemm_problem *p)
{
    return gk_sgemm_writes_c(p) && p->alpha != 0.0f && p->k > 0;
}
