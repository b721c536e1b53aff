// The Ozaki scheme II's residues, the second half of slicing an operand (GK_MATH_INT8X; contract
// GK_CONTRACT_OZAKI_SLICE): (rows, K, Kp, rows_p, X, offX, sr, sk, R), after ozaki_norms.cl wrote R's exponents.
// Row r of op(X) (element k at X[offX + r*sr + k*sk]) scaled by its 2^e (R's first ints), each element rounded
// to the integer rint(2^e x) (exact in fp64) and reduced to its symmetric residue mod each of the MODULI moduli.
// R: rows_p ints, each row's e (GK_OZAKI_NONFINITE where it holds Inf or NaN: its residues are zero and the
// recombination computes its elements in fp32), then per modulus i a rows_p x Kp int8 matrix of the symmetric
// residues mod p_i, K contiguous (each row Kp long), zero past K and past rows (the product's padding): the
// layout the product kernels (igemm.cl, igemm_tc.cl) read.
//
// Work-group: a TR x 32 tile (rows x k), staged through local memory so that both sides are wide: the loads are
// 32 consecutive floats per warp along whichever dimension X stores contiguously (K_CONTIGUOUS: k, else rows),
// and each work-item writes VW consecutive residues of one row per modulus as one 4, 8 or 16-byte store (a warp:
// whole 32-byte sectors of consecutive rows). MODULI is compiled in: the moduli and their reciprocals are
// constants of the unrolled loop.

#include "ozaki.h"

#ifndef MODULI
#define MODULI 8
#endif
#ifndef K_CONTIGUOUS
#define K_CONTIGUOUS 1
#endif
#ifndef TR
#define TR 64 // rows per tile
#endif
#ifndef VW
#define VW 16 // k per work-item: bytes per store (4, 8 or 16)
#endif
#define TK 32 // k per tile
#define LANES (TK / VW) // work-items per row of the tile
#define THREADS (TR * LANES)
#define WORDS (VW / 4)

// VW residues as WORDS little-endian words (the lowest k in the lowest byte), stored at p (VW-aligned).
static inline void gk_store_words(__global char* p, const uint* w)
{
#if VW == 16
    *(__global uint4*)p = (uint4)(w[0], w[1], w[2], w[3]);
#elif VW == 8
    *(__global uint2*)p = (uint2)(w[0], w[1]);
#else
    *(__global uint*)p = w[0];
#endif
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gk_ozaki_slice(const int rows, const int K, const int Kp, const int rows_p, const __global float* X,
                    const int offX, const int sr, const int sk, __global char* R)
{
    __local float tile[TR][TK + 1]; // + 1: a warp's column of the tile (K strided) or row (K contiguous) meets 32 banks
    const int t = (int)get_local_id(0);
    const int row0 = (int)get_group_id(0) * TR, k0 = (int)get_group_id(1) * TK;
    for (int id = t; id < TR * TK; id += THREADS) {
#if K_CONTIGUOUS
        const int r = id / TK, k = id % TK;
#else
        const int r = id % TR, k = id / TR;
#endif
        const int row = row0 + r, kk = k0 + k;
        tile[r][k] = row < rows && kk < K ? X[offX + (size_t)row * sr + (size_t)kk * sk] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const int r = t / LANES, c = (t % LANES) * VW, row = row0 + r, k = k0 + c;
    if (row >= rows_p || k >= Kp) return;
    const int e = ((const __global int*)R)[row];
    const int finite = e != GK_OZAKI_NONFINITE;
    double v[VW];
#pragma unroll
    for (int j = 0; j < VW; j++) v[j] = finite ? rint(ldexp((double)tile[r][c + j], e)) : 0.0; // 0 past rows, K
    __global char* out = R + (size_t)rows_p * 4 + (size_t)row * Kp + k;
    const size_t plane = (size_t)rows_p * Kp;
    // Whole stores where every plane's rows start VW-aligned (the plan's paddings make it so) and the run fits.
    const int wide = (rows_p * 4) % VW == 0 && Kp % VW == 0;
#pragma unroll
    for (int z = 0; z < MODULI; z++) {
        const int p = gk_modulus(z);
        uint w[WORDS];
#pragma unroll
        for (int q = 0; q < WORDS; q++) {
            w[q] = 0;
#pragma unroll
            for (int b = 0; b < 4; b++) w[q] |= (uint)(gk_residue(v[4 * q + b], p) & 0xFF) << (8 * b);
        }
        if (wide) {
            gk_store_words(out + z * plane, w);
        } else {
#pragma unroll
            for (int j = 0; j < VW; j++)
                if (k + j < Kp) out[z * plane + j] = (gk_s8)((int)(w[j / 4] << (24 - 8 * (j % 4))) >> 24);
        }
    }
}
