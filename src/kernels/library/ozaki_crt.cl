// The Ozaki scheme II's recombination (GK_MATH_INT8X; contract GK_CONTRACT_OZAKI_CRT):
//   (M, N, K, moduli, S, ldS, Np, RA, RB, alpha, beta, C, offC, ldc, A, offA, lda, B, offB, ldb)
// C(i,j) = alpha * c * 2^-(eA_i + eB_j) + beta * C(i,j), c the integer product of the scaled row i and column j,
// recovered from its residues S(i,j) + z ldS Np (one per modulus) by Garner's mixed-radix form with symmetric
// digits (c = v_0 + p_0 (v_1 + p_1 (v_2 + ...)), every |c| < P/2 exactly; the digits in int32, the sum by Horner
// in fp64: about moduli roundings of 2^-53), then scaled and combined in fp64 and rounded once to fp32. beta == 0
// reads no C (NaN there does not propagate).
// Rows of op(A) or columns of op(B) holding Inf or NaN (exponent GK_OZAKI_NONFINITE, ozaki_slice.cl) take fp32
// dot products of the caller's operands instead (TRANS_A, TRANS_B): what fp32 GEMM gives there (Inf, NaN).
// Each work-group first computes the inverses p_u^-1 mod p_z (u < z) Garner needs into local memory.

#include "ozaki.h"

#ifndef TS
#define TS 16 // work-group edge: TS x TS elements of C
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

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void gk_ozaki_crt(const int M, const int N, const int K, const int moduli, const __global char* S, const int ldS,
                  const int Np, const __global char* RA, const __global char* RB, const float alpha, const float beta,
                  __global float* C, const int offC, const int ldc, const __global float* A, const int offA,
                  const int lda, const __global float* B, const int offB, const int ldb)
{
    __local int inv[GK_OZAKI_MAX_MODULI * GK_OZAKI_MAX_MODULI]; // inv[u * MAX + z] = p_u^-1 mod p_z, u < z
    const int lid = (int)(get_local_id(1) * TS + get_local_id(0));
    for (int t = lid; t < GK_OZAKI_MAX_MODULI * GK_OZAKI_MAX_MODULI; t += TS * TS) {
        const int u = t / GK_OZAKI_MAX_MODULI, z = t % GK_OZAKI_MAX_MODULI;
        inv[t] = u < z && z < moduli ? gk_inverse(gk_modulus(u), gk_modulus(z)) : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int i = (int)get_global_id(0), j = (int)get_global_id(1);
    if (i >= M || j >= N) return;
    const int ea = ((const __global int*)RA)[i], eb = ((const __global int*)RB)[j];
    __global float* c = C + offC + i + (size_t)j * ldc;
    if (ea == GK_OZAKI_NONFINITE || eb == GK_OZAKI_NONFINITE) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++) sum = fma(OP_A(i, k), OP_B(k, j), sum);
        *c = beta != 0.0f ? alpha * sum + beta * *c : alpha * sum;
        return;
    }
    int v[GK_OZAKI_MAX_MODULI];
    const __global gk_s8* s = (const __global gk_s8*)S + i + (size_t)j * ldS;
    const size_t plane = (size_t)ldS * Np;
    for (int z = 0; z < moduli; z++) {
        const int p = gk_modulus(z);
        int x = s[z * plane];
        for (int u = 0; u < z; u++) x = (x - v[u]) * inv[u * GK_OZAKI_MAX_MODULI + z] % p;
        v[z] = gk_symmetric(x, p);
    }
    double sum = (double)v[moduli - 1];
    for (int z = moduli - 2; z >= 0; z--) sum = fma(sum, (double)gk_modulus(z), (double)v[z]);
    double r = (double)alpha * ldexp(sum, -(ea + eb));
    if (beta != 0.0f) r = fma((double)beta, (double)*c, r);
    *c = (float)r;
}
