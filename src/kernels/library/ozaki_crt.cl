// The Ozaki scheme II's recombination (GK_MATH_INT8X; contract GK_CONTRACT_OZAKI_CRT):
//   (M, N, K, S, ldS, Np, RA, RB, alpha, beta, C, offC, ldc, A, offA, lda, B, offB, ldb)
// C(i,j) = alpha * c * 2^-(eA_i + eB_j) + beta * C(i,j), c the integer product of the scaled row i and column j,
// recovered from its residues S(i,j) + z ldS Np (int8, one per modulus, as the product kernels store them) by
// Garner's mixed-radix form with symmetric digits (c = v_0 + p_0 (v_1 + p_1 (v_2 + ...)), every |c| < P/2
// exactly; the digits in int32, the sum by Horner in fp64: about MODULI roundings of 2^-53), then scaled and
// combined in fp64 and rounded once to fp32. beta == 0 reads no C (NaN there does not propagate).
// Rows of op(A) or columns of op(B) holding Inf or NaN (exponent GK_OZAKI_NONFINITE, ozaki_norms.cl) take fp32
// dot products of the caller's operands instead (TRANS_A, TRANS_B): what fp32 GEMM gives there (Inf, NaN).
//
// A memory-bound step (MODULI bytes in, 4 or 8 bytes of C in and out per element), written so that the
// arithmetic keeps up: MODULI is compiled in, so the loops unroll, the digits stay in registers and every
// reduction is by a constant modulus; each work-item takes 4 consecutive rows (one 32-bit load per modulus, a
// float4 of C where its columns are 16-byte aligned) of WJ columns TY apart. The constants the digits need are
// computed once per work-group into local memory.

#include "ozaki.h"

#ifndef MODULI
#define MODULI 8
#endif
#ifndef TX
#define TX 32 // work-items along M (4 rows each)
#endif
#ifndef TY
#define TY 4 // work-items along N
#endif
#ifndef WJ
#define WJ 2 // columns per work-item
#endif

// a^-1 mod m (gcd(a, m) = 1), by the extended Euclidean algorithm.
static inline int gk_inverse(const int a, const int m)
{
    int t = 0, nt = 1, r = m, nr = a % m;
    while (nr != 0) {
        const int q = r / nr, t2 = t - q * nt, r2 = r - q * nr;
        t = nt;
        nt = t2;
        r = nr;
        nr = r2;
    }
    return t < 0 ? t + m : t;
}

#if TRANS_A
#define OP_A(i, k) A[offA + (size_t)(i) * lda + (k)]
#else
#define OP_A(i, k) A[offA + (i) + (size_t)(k) * lda]
#endif
#if TRANS_B
#define OP_B(k, j) B[offB + (j) + (size_t)(k) * ldb]
#else
#define OP_B(k, j) B[offB + (k) + (size_t)(j) * ldb]
#endif

__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void gk_ozaki_crt(const int M, const int N, const int K, const __global char* S, const int ldS, const int Np,
                  const __global char* RA, const __global char* RB, const float alpha, const float beta,
                  __global float* C, const int offC, const int ldc, const __global float* A, const int offA,
                  const int lda, const __global float* B, const int offB, const int ldb)
{
    // weight[u * MODULI + z] = p_0 ... p_(u-1) mod p_z (u < z); weight[z * MODULI + z] = (p_0 ... p_(z-1))^-1 mod p_z.
    __local int weight[MODULI * MODULI];
    const int lid = (int)(get_local_id(1) * TX + get_local_id(0));
    for (int t = lid; t < MODULI * MODULI; t += TX * TY) {
        const int u = t / MODULI, z = t % MODULI, p = gk_modulus(z);
        int w = 1;
        for (int q = 0; q < u && u <= z; q++) w = w * gk_modulus(q) % p;
        weight[t] = u < z ? w : u == z ? gk_inverse(w, p) : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int i0 = 4 * (int)get_global_id(0);
    if (i0 >= M) return;
    const size_t plane = (size_t)ldS * Np;
    // Whole words and float4s where the run of 4 rows is inside the matrix and aligned (the plan's paddings make
    // ldS a multiple of 4; C's columns as the caller's offset and leading dimension allow).
    const int full = i0 + 4 <= M;
    const int wide_s = full && ldS % 4 == 0, wide_c = full && offC % 4 == 0 && ldc % 4 == 0;
    int ea[4];
    if (wide_s) {
        const int4 e4 = *(const __global int4*)(RA + (size_t)i0 * 4);
        ea[0] = e4.x;
        ea[1] = e4.y;
        ea[2] = e4.z;
        ea[3] = e4.w;
    } else {
#pragma unroll
        for (int r = 0; r < 4; r++) ea[r] = i0 + r < M ? ((const __global int*)RA)[i0 + r] : 0;
    }
#pragma unroll
    for (int w = 0; w < WJ; w++) {
        const int j = ((int)get_group_id(1) * WJ + w) * TY + (int)get_local_id(1);
        if (j >= N) break;
        const int eb = ((const __global int*)RB)[j];
        // The residues: word z holds rows i0..i0+3 of modulus z (the lowest row in the lowest byte).
        uint sw[MODULI];
        const __global char* s = S + i0 + (size_t)j * ldS;
#pragma unroll
        for (int z = 0; z < MODULI; z++) {
            if (wide_s) {
                sw[z] = *(const __global uint*)(s + z * plane);
            } else {
                sw[z] = 0;
#pragma unroll
                for (int r = 0; r < 4; r++)
                    if (i0 + r < M) sw[z] |= (uint)(uchar)s[z * plane + r] << (8 * r);
            }
        }
        __global float* c = C + offC + i0 + (size_t)j * ldc;
        float old[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        if (beta != 0.0f) {
            if (wide_c) {
                const float4 c4 = *(const __global float4*)c;
                old[0] = c4.x;
                old[1] = c4.y;
                old[2] = c4.z;
                old[3] = c4.w;
            } else {
#pragma unroll
                for (int r = 0; r < 4; r++)
                    if (i0 + r < M) old[r] = c[r];
            }
        }
        float res[4];
#pragma unroll
        for (int r = 0; r < 4; r++) {
            if (ea[r] == GK_OZAKI_NONFINITE || eb == GK_OZAKI_NONFINITE) {
                float sum = 0.0f;
                if (i0 + r < M)
                    for (int k = 0; k < K; k++) sum = fma(OP_A(i0 + r, k), OP_B(k, j), sum);
                res[r] = beta != 0.0f ? alpha * sum + beta * old[r] : alpha * sum;
                continue;
            }
            // Digit z: v_z = (s_z - sum_(u<z) v_u p_0 ... p_(u-1)) (p_0 ... p_(z-1))^-1 mod p_z (the terms of higher
            // digits vanish mod p_z), the same digits as Garner's step-by-step form with one reduction per digit:
            // |v_u| <= 128 and weights below 256 keep the sum below 2^20 and its product with the inverse below 2^28.
            int v[MODULI];
#pragma unroll
            for (int z = 0; z < MODULI; z++) {
                int x = (int)(sw[z] << (24 - 8 * r)) >> 24; // the signed byte s_z
#pragma unroll
                for (int u = 0; u < z; u++) x -= v[u] * weight[u * MODULI + z];
                v[z] = z == 0 ? x : gk_symmetric(x * weight[z * MODULI + z], gk_modulus(z));
            }
            double sum = (double)v[MODULI - 1];
#pragma unroll
            for (int z = MODULI - 2; z >= 0; z--) sum = fma(sum, (double)gk_modulus(z), (double)v[z]);
            double x = (double)alpha * ldexp(sum, -(ea[r] + eb));
            if (beta != 0.0f) x = fma((double)beta, (double)old[r], x);
            res[r] = (float)x;
        }
        if (wide_c) {
            *(__global float4*)c = (float4)(res[0], res[1], res[2], res[3]);
        } else {
#pragma unroll
            for (int r = 0; r < 4; r++)
                if (i0 + r < M) c[r] = res[r];
        }
    }
}
