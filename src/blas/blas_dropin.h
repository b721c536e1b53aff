/* BLAS drop-in internals: argument checks, the shared engine that picks the
 * CPU BLAS or the device for a call, and gemmkit's own CPU loop. Sizes are
 * int64_t throughout: the 32-bit (sgemm_, cblas_sgemm) and 64-bit (sgemm_64_,
 * cblas_sgemm_64) entry points, and scipy-openblas's names for both
 * (scipy_sgemm_64_, scipy_cblas_sgemm64_, scipy_sgemm_, scipy_cblas_sgemm),
 * share everything below them. */
#ifndef GK_BLAS_DROPIN_H
#define GK_BLAS_DROPIN_H

#include <stddef.h>
#include <stdint.h>

#include "gemmkit.h"
#include "host_blas.h" /* gk_blas_family */

/* One SGEMM call as the caller made it (row- or column-major), already
 * validated. `routine` names the entry point for the verbose log; `family`
 * is the symbol family it belongs to, whose next definition does the call's
 * CPU work (host_blas.h). */
typedef struct gk_blas_call {
    const char *routine;
    gk_blas_family family;
    gemmkit_layout layout;
    int trans_a, trans_b; /* 1 = op(X) = X^T */
    int64_t m, n, k;
    float alpha, beta;
    const float *a;
    int64_t lda;
    const float *b;
    int64_t ldb;
    float *c;
    int64_t ldc;
} gk_blas_call;

/* The reference SGEMM argument test on a column-major problem: 0 when the
 * arguments are legal, else the Fortran position of the first bad one
 * (TRANSA=1, TRANSB=2, M=3, N=4, K=5, LDA=8, LDB=10, LDC=13). ta/tb are the
 * transpose characters, or 0 for an illegal one. */
int gk_blas_check(char ta, char tb, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc);

/* 'N', 'T' or 'C' for a legal (case-insensitive) transpose character, else 0. */
char gk_blas_trans_char(char c);

/* Runs a validated call on the CPU or the device (never fails). */
void gk_blas_execute(const gk_blas_call *call);

/* gemmkit's own CPU loop, for when the process has no CPU BLAS (host_blas.h):
 * C := alpha op(A) op(B) + beta C, column-major, on up to `threads` threads
 * (0: one per online CPU); follows the reference's quick-return and
 * beta == 0 rules. */
void gk_blas_cpu_sgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                       int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc, int threads);

/* The shared bodies of the entry points: check the arguments (reporting the
 * first bad one), then gk_blas_execute. `routine` is the exported name the
 * caller called; `ilp64` says which XERBLA gets a Fortran error. */
void gk_blas_f77_sgemm(const char *routine, gk_blas_family family, int ilp64, const char *transa,
                       const char *transb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                       const float *b, int64_t ldb, float beta, float *c, int64_t ldc);
void gk_blas_cblas_sgemm(const char *routine, gk_blas_family family, gemmkit_layout layout,
                         gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k,
                         float alpha, const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                         int64_t ldc);

/* Reports an illegal argument of sgemm_ (info = its position) or
 * sgemm_64_ to the program's XERBLA, else prints the reference message. */
void gk_blas_report_f77(const char *routine, int info, int ilp64);
/* The same for the CBLAS entry points and the program's cblas_xerbla. */
void gk_blas_report_cblas(int position, const char *routine, const char *form, ...);
/* The reference CBLAS's row-major flag, RowMajorStrg (its cblas_xerbla trades the positions of M and N, lda and
 * ldb back while it is set), where the process has one; NULL elsewhere (OpenBLAS has none). */
int *gk_blas_row_major_flag(void);

/* Counters for the tests: how the calling thread's calls so far were served
 * (per thread, so that counting costs no atomic operation on every call). */
typedef struct gk_blas_stats {
    unsigned long quick_returns; /* nothing to do */
    unsigned long cpu_calls;     /* on the CPU (below threshold, no multiply, or no device) */
    unsigned long cpu_blas_calls; /* of those, by the host's CPU BLAS (the rest: gemmkit's own loop) */
    unsigned long device_calls;  /* done on the device */
    unsigned long fallbacks;     /* device attempted, failed, redone on the CPU */
} gk_blas_stats;
void gk_blas_get_stats(gk_blas_stats *stats);

/* The exported entry points (the only symbols libgemmkit_blas exports, with
 * the marker that tells a gemmkit drop-in from a real BLAS, host_blas.h). */
GEMMKIT_API void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                        const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
                        const float *beta, float *c, const int *ldc);
GEMMKIT_API void sgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
                           const int64_t *k, const float *alpha, const float *a, const int64_t *lda, const float *b,
                           const int64_t *ldb, const float *beta, float *c, const int64_t *ldc);
GEMMKIT_API void cblas_sgemm(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b, int m,
                             int n, int k, float alpha, const float *a, int lda, const float *b, int ldb,
                             float beta, float *c, int ldc);
GEMMKIT_API void cblas_sgemm_64(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b,
                                int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                                const float *b, int64_t ldb, float beta, float *c, int64_t ldc);
/* scipy-openblas's names (NumPy >= 2.0 and SciPy wheels from PyPI): the
 * same calls, their CPU work going to scipy-openblas itself. */
GEMMKIT_API void scipy_sgemm_64_(const char *transa, const char *transb, const int64_t *m, const int64_t *n,
                                 const int64_t *k, const float *alpha, const float *a, const int64_t *lda,
                                 const float *b, const int64_t *ldb, const float *beta, float *c, const int64_t *ldc);
GEMMKIT_API void scipy_cblas_sgemm64_(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b,
                                      int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                                      const float *b, int64_t ldb, float beta, float *c, int64_t ldc);
GEMMKIT_API void scipy_sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                              const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
                              const float *beta, float *c, const int *ldc);
GEMMKIT_API void scipy_cblas_sgemm(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b,
                                   int m, int n, int k, float alpha, const float *a, int lda, const float *b, int ldb,
                                   float beta, float *c, int ldc);
GEMMKIT_API extern const char gemmkit_blas_dropin[];

/* The default threshold (multiply-adds) below which calls stay on the CPU. */
#define GK_BLAS_DEFAULT_THRESHOLD 1000000.0

#endif
