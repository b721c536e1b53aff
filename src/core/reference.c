/* The host reference SGEMM: plain loops with double accumulation. Slow on
 * purpose: it is the yardstick, not a competitor. */
#include "sgemm.h"
#include "status.h"

gemmkit_status gemmkit_sgemm_reference(gemmkit_layout layout, gemmkit_transpose trans_a,
                                       gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                                       const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
                                       float *c, int64_t ldc)
{
    const gk_gemm_call call = {layout, trans_a, trans_b, m, n, k, alpha, beta, a, b, c, 0, 0, 0, lda, ldb, ldc};
    gk_sgemm_problem p;
    GK_TRY(gk_sgemm_prepare(&call, &p));
    if (!gk_sgemm_writes_c(&p)) return GEMMKIT_SUCCESS;
    if (!c) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "C is NULL");
    const float *pa = p.source_a, *pb = p.source_b; /* the caller's B and A when row-major */
    int reads = gk_sgemm_reads_ab(&p);
    if (reads && (!pa || !pb)) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "A or B is NULL");
    for (int64_t j = 0; j < p.n; j++) {
        for (int64_t i = 0; i < p.m; i++) {
            double acc = 0.0;
            for (int64_t l = 0; reads && l < p.k; l++) {
                double av = p.trans_a ? pa[l + i * p.a.ld] : pa[i + l * p.a.ld];
                double bv = p.trans_b ? pb[j + l * p.b.ld] : pb[l + j * p.b.ld];
                acc += av * bv;
            }
            float *cij = &c[i + j * p.c.ld];
            double v = (double)alpha * acc;
            if (p.beta != 0.0f) v += (double)p.beta * (double)*cij;
            *cij = (float)v;
        }
    }
    return GEMMKIT_SUCCESS;
}
