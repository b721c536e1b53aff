/* The drop-in's CPU SGEMM: a cache-blocked loop over packed panels, used for
 * calls too small to be worth a trip to the device (and when there is none). */
#include <stdlib.h>

#include "blas_dropin.h"

/* Register block MR x NR (the micro-kernel's accumulators: 12 four-wide
 * vectors, which measured fastest with plain SSE2), and cache blocks:
 * an MC x KC panel of A stays in L2, a KC x NR sliver of B in L1. */
enum { MR = 16, NR = 3, MC = 128, KC = 256, NC = 2046 };

static int min_int(int a, int b) { return a < b ? a : b; }

/* op(A)(i, p) and op(B)(p, j) of column-major A and B. */
static float a_at(const float *a, int lda, int trans, int i, int p)
{
    return trans ? a[p + (size_t)i * lda] : a[i + (size_t)p * lda];
}

static float b_at(const float *b, int ldb, int trans, int p, int j)
{
    return trans ? b[j + (size_t)p * ldb] : b[p + (size_t)j * ldb];
}

/* Packs op(A)[i0 : i0+mc, p0 : p0+kc] as ceil(mc / MR) panels of kc x MR,
 * rows past mc zero (their results are discarded). */
static void pack_a(const float *a, int lda, int trans, int i0, int mc, int p0, int kc, float *dst)
{
    for (int ir = 0; ir < mc; ir += MR) {
        int rows = min_int(MR, mc - ir);
        for (int p = 0; p < kc; p++) {
            for (int i = 0; i < rows; i++) dst[i] = a_at(a, lda, trans, i0 + ir + i, p0 + p);
            for (int i = rows; i < MR; i++) dst[i] = 0.0f;
            dst += MR;
        }
    }
}

/* Packs op(B)[p0 : p0+kc, j0 : j0+nc] as ceil(nc / NR) panels of kc x NR. */
static void pack_b(const float *b, int ldb, int trans, int p0, int kc, int j0, int nc, float *dst)
{
    for (int jr = 0; jr < nc; jr += NR) {
        int cols = min_int(NR, nc - jr);
        for (int p = 0; p < kc; p++) {
            for (int j = 0; j < cols; j++) dst[j] = b_at(b, ldb, trans, p0 + p, j0 + jr + j);
            for (int j = cols; j < NR; j++) dst[j] = 0.0f;
            dst += NR;
        }
    }
}

/* C[0:rows, 0:cols] += alpha * (packed A panel x packed B panel). The fixed
 * MR x NR accumulator block lets the compiler keep it in vector registers. */
static void micro_kernel(int kc, const float *restrict ap, const float *restrict bp, float alpha, float *c,
                         int ldc, int rows, int cols)
{
    float acc[NR][MR] = {{0.0f}};
    for (int p = 0; p < kc; p++) {
        for (int j = 0; j < NR; j++) {
            float bv = bp[j];
            for (int i = 0; i < MR; i++) acc[j][i] += ap[i] * bv;
        }
        ap += MR;
        bp += NR;
    }
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++) c[i + (size_t)j * ldc] += alpha * acc[j][i];
}

/* C := beta * C, writing zeros without reading C when beta == 0 (so NaN or
 * garbage in C does not survive, as in the reference). */
static void scale_c(int m, int n, float beta, float *c, int ldc)
{
    if (beta == 1.0f) return;
    for (int j = 0; j < n; j++) {
        float *col = c + (size_t)j * ldc;
        if (beta == 0.0f)
            for (int i = 0; i < m; i++) col[i] = 0.0f;
        else
            for (int i = 0; i < m; i++) col[i] *= beta;
    }
}

/* The straightforward loop: for when the packing buffers cannot be had. */
static void unpacked(int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                     int ldb, float *c, int ldc)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float acc = 0.0f;
            for (int p = 0; p < k; p++) acc += a_at(a, lda, ta, i, p) * b_at(b, ldb, tb, p, j);
            c[i + (size_t)j * ldc] += alpha * acc;
        }
}

void gk_blas_cpu_sgemm(int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                       int ldb, float beta, float *c, int ldc)
{
    if (m == 0 || n == 0 || ((alpha == 0.0f || k == 0) && beta == 1.0f)) return;
    scale_c(m, n, beta, c, ldc);
    if (alpha == 0.0f || k == 0) return;
    /* Buffers sized to the problem, so tiny calls allocate little. */
    int mc_max = min_int(MC, m), kc_max = min_int(KC, k), nc_max = min_int(NC, n);
    size_t a_floats = (size_t)((mc_max + MR - 1) / MR * MR) * (size_t)kc_max;
    size_t b_floats = (size_t)((nc_max + NR - 1) / NR * NR) * (size_t)kc_max;
    float *apack = malloc(a_floats * sizeof *apack), *bpack = malloc(b_floats * sizeof *bpack);
    if (!apack || !bpack) {
        free(apack);
        free(bpack);
        unpacked(ta, tb, m, n, k, alpha, a, lda, b, ldb, c, ldc);
        return;
    }
    for (int j0 = 0; j0 < n; j0 += NC) {
        int nc = min_int(NC, n - j0);
        for (int p0 = 0; p0 < k; p0 += KC) {
            int kc = min_int(KC, k - p0);
            pack_b(b, ldb, tb, p0, kc, j0, nc, bpack);
            for (int i0 = 0; i0 < m; i0 += MC) {
                int mc = min_int(MC, m - i0);
                pack_a(a, lda, ta, i0, mc, p0, kc, apack);
                for (int jr = 0; jr < nc; jr += NR) {
                    const float *bp = bpack + (size_t)(jr / NR) * kc * NR;
                    for (int ir = 0; ir < mc; ir += MR) {
                        const float *ap = apack + (size_t)(ir / MR) * kc * MR;
                        float *cij = c + (size_t)(i0 + ir) + (size_t)(j0 + jr) * ldc;
                        micro_kernel(kc, ap, bp, alpha, cij, ldc, min_int(MR, mc - ir), min_int(NR, nc - jr));
                    }
                }
            }
        }
    }
    free(apack);
    free(bpack);
}
