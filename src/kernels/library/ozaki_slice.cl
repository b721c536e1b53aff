// The Ozaki scheme II's slicing of one operand (GK_MATH_INT8X; contract GK_CONTRACT_OZAKI_SLICE):
//   (rows, K, Kp, rows_p, moduli, X, offX, sr, sk, R)
// Row r of op(X) (element k at X[offX + r*sr + k*sk]; A's rows, or B's columns) is scaled by 2^e, the largest
// power of two that keeps its 2-norm within gk_ozaki_norm_bound after rounding each element to an integer
// (exact in fp64: an fp32 times a power of two, rounded), so that every product of a row of A and a column of B
// stays below P/2 (Cauchy-Schwarz) and the residues recover it exactly. The scale is per row, so that rows of
// very different magnitudes keep their own accuracy.
// R: rows_p ints, each row's e (GK_OZAKI_NONFINITE where it holds Inf or NaN: its residues are zero and the
// recombination computes its elements in fp32), then per modulus i a rows_p x Kp int8 matrix of the symmetric
// residues mod p_i, K contiguous (each row Kp long), zero past K and past rows (the product's padding).
// A work-group per row (of rows_p): LOCAL work-items sum its squares, then write its residues.

#include "ozaki.h"

#ifndef LOCAL
#define LOCAL 64 // work-items per row (a power of two)
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL, 1, 1)))
void gk_ozaki_slice(const int rows, const int K, const int Kp, const int rows_p, const int moduli,
                    const __global float* X, const int offX, const int sr, const int sk, __global char* R)
{
    __local double part[LOCAL];
    const int row = (int)get_group_id(0), lid = (int)get_local_id(0);
    const int live = row < rows;
    const __global float* x = X + offX + (size_t)(live ? row : 0) * sr;
    double sum = 0.0;
    if (live)
        for (int k = lid; k < K; k += LOCAL) {
            const double v = (double)x[(size_t)k * sk];
            sum = fma(v, v, sum); // Inf or NaN stays so
        }
    part[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = LOCAL / 2; s > 0; s >>= 1) {
        if (lid < s) part[lid] += part[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const double norm = sqrt(part[0]);
    const int finite = isfinite(norm);
    const int e = finite && norm > 0.0 ? gk_ozaki_exponent(norm, gk_ozaki_norm_bound(moduli, K)) : 0;
    if (lid == 0) ((__global int*)R)[row] = finite ? e : GK_OZAKI_NONFINITE;
    __global gk_s8* res = (__global gk_s8*)(R + (size_t)rows_p * 4) + (size_t)row * Kp;
    const size_t plane = (size_t)rows_p * Kp;
    for (int k = lid; k < Kp; k += LOCAL) {
        const double v = live && finite && k < K ? rint(ldexp((double)x[(size_t)k * sk], e)) : 0.0;
        for (int i = 0; i < moduli; i++) res[i * plane + k] = (gk_s8)gk_residue(v, gk_modulus(i));
    }
}
