// The Ozaki scheme II's row exponents, the first half of slicing an operand (GK_MATH_INT8X; contract
// GK_CONTRACT_OZAKI_NORMS): (rows, K, rows_p, moduli, X, offX, sr, sk, R)
// Row r of op(X) (element k at X[offX + r*sr + k*sk]; A's rows, or B's columns) is scaled by 2^e, the largest
// power of two that keeps its 2-norm within gk_ozaki_norm_bound after rounding each element to an integer
// (exact in fp64: an fp32 times a power of two, rounded), so that every product of a row of A and a column of B
// stays below P/2 (Cauchy-Schwarz) and the residues recover it exactly. The scale is per row, so that rows of
// very different magnitudes keep their own accuracy.
// Writes the first rows_p ints of R (the layout: ozaki_slice.cl): each row's e, GK_OZAKI_NONFINITE where it
// holds Inf or NaN, 0 past rows. ozaki_slice.cl then reads them to write the residues.
//
// The sum of squares has one order whatever the layout: 64 classes (k mod 64), each summed in k order by fma
// from zero, then the classes pairwise (class c += class c + s, s = 32, 16, ..., 1), in fp64. So both
// orientations of an operand give the same exponents bit for bit.
// Work-group: 256 work-items, 32 rows, each work-item 8 (row, class) sums, mapped so that every load of a warp
// is 32 consecutive floats: K_CONTIGUOUS (sk == 1): a warp reads 32 classes (consecutive k) of one row;
// otherwise (sr == 1: rows contiguous, K strided) 32 consecutive rows at one k.

#include "ozaki.h"

#ifndef K_CONTIGUOUS
#define K_CONTIGUOUS 1
#endif

#define NORM_ROWS 32
#define CLASSES 64
#define THREADS 256
#define PER (NORM_ROWS * CLASSES / THREADS)

#if K_CONTIGUOUS
#define ROW_OF(t, j) ((t) / CLASSES + (THREADS / CLASSES) * (j))
#define CLASS_OF(t, j) ((t) % CLASSES)
#else
#define ROW_OF(t, j) ((t) % NORM_ROWS)
#define CLASS_OF(t, j) ((t) / NORM_ROWS + (THREADS / NORM_ROWS) * (j))
#endif

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gk_ozaki_norms(const int rows, const int K, const int rows_p, const int moduli, const __global float* X,
                    const int offX, const int sr, const int sk, __global char* R)
{
    __local double part[NORM_ROWS][CLASSES + 1];
    const int t = (int)get_local_id(0), row0 = (int)get_group_id(0) * NORM_ROWS;
    double acc[PER];
#pragma unroll
    for (int j = 0; j < PER; j++) acc[j] = 0.0;
    // Two steps of 64 k per pass, all 16 loads first (enough in flight where the work-groups are few: rows / 32);
    // a square past K or rows is +0, which leaves the sums as they are.
    for (int k0 = 0; k0 < K; k0 += 2 * CLASSES) {
        double x[2][PER];
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int j = 0; j < PER; j++) {
                const int row = row0 + ROW_OF(t, j), k = k0 + h * CLASSES + CLASS_OF(t, j);
                x[h][j] = row < rows && k < K ? (double)X[offX + (size_t)row * sr + (size_t)k * sk] : 0.0;
            }
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int j = 0; j < PER; j++) acc[j] = fma(x[h][j], x[h][j], acc[j]); // Inf or NaN stays so
    }
#pragma unroll
    for (int j = 0; j < PER; j++) part[ROW_OF(t, j)][CLASS_OF(t, j)] = acc[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = CLASSES / 2; s > 0; s >>= 1) {
        for (int i = t; i < NORM_ROWS * s; i += THREADS) part[i / s][i % s] += part[i / s][i % s + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t < NORM_ROWS && row0 + t < rows_p) {
        const double norm = sqrt(part[t][0]);
        const int finite = isfinite(norm);
        const int e = finite && norm > 0.0 ? gk_ozaki_exponent(norm, gk_ozaki_norm_bound(moduli, K)) : 0;
        ((__global int*)R)[row0 + t] = finite ? e : GK_OZAKI_NONFINITE;
    }
}
