/* BLAS drop-in internals: argument checks, the shared engine that picks the
 * CPU loop or the device for a call, and the CPU loop itself. */
#ifndef GK_BLAS_DROPIN_H
#define GK_BLAS_DROPIN_H

#include <stddef.h>

#include "gemmkit.h"

/* One SGEMM call as the caller made it (row- or column-major), already
 * validated. `routine` names the entry point for the verbose log. */
typedef struct gk_blas_call {
    const char *routine;
    gemmkit_layout layout;
    int trans_a, trans_b; /* 1 = op(X) = X^T */
    int m, n, k;
    float alpha, beta;
    const float *a;
    int lda;
    const float *b;
    int ldb;
    float *c;
    int ldc;
} gk_blas_call;

/* The reference SGEMM argument test on a column-major problem: 0 when the
 * arguments are legal, else the Fortran position of the first bad one
 * (TRANSA=1, TRANSB=2, M=3, N=4, K=5, LDA=8, LDB=10, LDC=13). ta/tb are the
 * transpose characters, or 0 for an illegal one. */
int gk_blas_check(char ta, char tb, int m, int n, int k, int lda, int ldb, int ldc);

/* 'N', 'T' or 'C' for a legal (case-insensitive) transpose character, else 0. */
char gk_blas_trans_char(char c);

/* Runs a validated call on the CPU or the device (never fails). */
void gk_blas_execute(const gk_blas_call *call);

/* C := alpha op(A) op(B) + beta C, column-major, on the CPU; follows the
 * reference's quick-return and beta == 0 rules. */
void gk_blas_cpu_sgemm(int trans_a, int trans_b, int m, int n, int k, float alpha, const float *a, int lda,
                       const float *b, int ldb, float beta, float *c, int ldc);

/* Counters for the tests: how the calls so far were served. */
typedef struct gk_blas_stats {
    unsigned long quick_returns; /* nothing to do */
    unsigned long cpu_calls;     /* the CPU loop (below threshold, no multiply, or no device) */
    unsigned long device_calls;  /* done on the device */
    unsigned long fallbacks;     /* device attempted, failed, redone on the CPU */
} gk_blas_stats;
void gk_blas_get_stats(gk_blas_stats *stats);

/* The default threshold (multiply-adds) below which calls stay on the CPU. */
#define GK_BLAS_DEFAULT_THRESHOLD 1000000.0

#endif
