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
// reduction is by a constant modulus, every weight an immediate (gk_crt_weight); each work-item takes 4
// consecutive rows (one 32-bit load per modulus, a float4 of C where its columns are 16-byte aligned) of WJ
// columns TY apart. Horner's top 3 steps run in int32 and the ints become doubles through their bits (fp64 adds,
// not conversions), the scaling is a product by a power of two: per element MODULI - 3 fp64 fmas where there were
// MODULI - 1, and no int-to-double conversions (MODULI of them, at a quarter of the fp64 rate).

#include "ozaki.h"

#ifndef MODULI
#define MODULI 8
#endif
#define TOP (MODULI < 3 ? MODULI : 3) // Horner's steps in int32 (no more: the bound below)

#ifndef TX
#define TX 32 // work-items along M (4 rows each)
#endif
#ifndef TY
#define TY 4 // work-items along N
#endif
#ifndef WJ
#define WJ 2 // columns per work-item
#endif

// weight(u, z), u < z: p_0 ... p_(u-1) mod p_z; weight(z, z): (p_0 ... p_(z-1))^-1 mod p_z. A table rather than
// a computation, so that with u and z compile-time constants (the unrolled loops over MODULI) every weight is an
// immediate (no local-memory loads); generated from that definition by tests/scripts/ozaki_crt_weights.py
// --print, which the suite runs to check it (the earlier kernel computed it per work-group: the same digits).
static inline int gk_crt_weight(const int u, const int z)
{
    switch (z) {
    case 1: switch (u) { case 0: return 1; case 1: return 1; default: return 0; }
    case 2: switch (u) { case 0: return 1; case 1: return 3; case 2: return 211; default: return 0; }
    case 3: switch (u) { case 0: return 1; case 1: return 5; case 2: return 20; case 3: return 182; default: return 0; }
    case 4: switch (u) { case 0: return 1; case 1: return 9; case 2: return 72; case 3: return 185; case 4: return 246; default: return 0; }
    case 5: switch (u) { case 0: return 1; case 1: return 15; case 2: return 210; case 3: return 110; case 4: return 136; case 5: return 184; default: return 0; }
    case 6: switch (u) { case 0: return 1; case 1: return 17; case 2: return 33; case 3: return 223; case 4: return 47; case 5: return 137; case 6: return 41; default: return 0; }
    case 7: switch (u) { case 0: return 1; case 1: return 23; case 2: return 40; case 3: return 101; case 4: return 187; case 5: return 55; case 6: return 207; case 7: return 115; default: return 0; }
    case 8: switch (u) { case 0: return 1; case 1: return 27; case 2: return 15; case 3: return 131; case 4: return 134; case 5: return 122; case 6: return 90; case 7: return 213; case 8: return 161; default: return 0; }
    case 9: switch (u) { case 0: return 1; case 1: return 29; case 2: return 131; case 3: return 1; case 4: return 24; case 5: return 26; case 6: return 137; case 7: return 55; case 8: return 103; case 9: return 54; default: return 0; }
    case 10: switch (u) { case 0: return 1; case 1: return 33; case 2: return 164; case 3: return 14; case 4: return 169; case 5: return 42; case 6: return 87; case 7: return 54; case 8: return 94; case 9: return 118; case 10: return 163; default: return 0; }
    case 11: switch (u) { case 0: return 1; case 1: return 39; case 2: return 180; case 3: return 187; case 4: return 65; case 5: return 214; case 6: return 145; case 7: return 152; case 8: return 45; case 9: return 106; case 10: return 192; case 11: return 149; default: return 0; }
    case 12: switch (u) { case 0: return 1; case 1: return 45; case 2: return 81; case 3: return 26; case 4: return 196; case 5: return 93; case 6: return 47; case 7: return 50; case 8: return 45; case 9: return 177; case 10: return 89; case 11: return 13; case 12: return 46; default: return 0; }
    case 13: switch (u) { case 0: return 1; case 1: return 57; case 2: return 8; case 3: return 34; case 4: return 176; case 5: return 90; case 6: return 198; case 7: return 159; case 8: return 33; case 9: return 194; case 10: return 59; case 11: return 23; case 12: return 16; case 13: return 142; default: return 0; }
    case 14: switch (u) { case 0: return 1; case 1: return 59; case 2: return 73; case 3: return 148; case 4: return 112; case 5: return 84; case 6: return 150; case 7: return 193; case 8: return 53; case 9: return 120; case 10: return 54; case 11: return 25; case 12: return 106; case 13: return 105; case 14: return 91; default: return 0; }
    case 15: switch (u) { case 0: return 1; case 1: return 63; case 2: return 46; case 3: return 58; case 4: return 83; case 5: return 43; case 6: return 134; case 7: return 181; case 8: return 99; case 9: return 90; case 10: return 165; case 11: return 125; case 12: return 105; case 13: return 153; case 14: return 146; case 15: return 116; default: return 0; }
    case 16: switch (u) { case 0: return 1; case 1: return 65; case 2: return 149; case 3: return 70; case 4: return 189; case 5: return 79; case 6: return 130; case 7: return 128; case 8: return 28; case 9: return 109; case 10: return 104; case 11: return 81; case 12: return 5; case 13: return 100; case 14: return 36; case 15: return 25; case 16: return 149; default: return 0; }
    case 17: switch (u) { case 0: return 1; case 1: return 75; case 2: return 120; case 3: return 133; case 4: return 79; case 5: return 146; case 6: return 72; case 7: return 13; case 8: return 133; case 9: return 49; case 10: return 82; case 11: return 5; case 12: return 180; case 13: return 151; case 14: return 3; case 15: return 48; case 16: return 33; case 17: return 164; default: return 0; }
    case 18: switch (u) { case 0: return 1; case 1: return 77; case 2: return 124; case 3: return 47; case 4: return 162; case 5: return 97; case 6: return 107; case 7: return 155; case 8: return 136; case 9: return 177; case 10: return 83; case 11: return 72; case 12: return 51; case 13: return 21; case 14: return 62; case 15: return 42; case 16: return 51; case 17: return 75; case 18: return 37; default: return 0; }
    case 19: switch (u) { case 0: return 1; case 1: return 83; case 2: return 59; case 3: return 49; case 4: return 16; case 5: return 146; case 6: return 67; case 7: return 97; case 8: return 111; case 9: return 161; case 10: return 44; case 11: return 124; case 12: return 93; case 13: return 74; case 14: return 21; case 15: return 158; case 16: return 46; case 17: return 136; case 18: return 50; case 19: return 94; default: return 0; }
    default: return u == 0 ? 1 : 0; // z = 0: the inverse of the empty product
    }
}

// An int as a double without a conversion instruction (a quarter of the fp64 rate on the H100): 2^52 + 2^31 + x
// has x + 2^31 as its low word, and subtracting 2^52 + 2^31 is exact. The same double as (double)x.
static inline double gk_int_double(const int x)
{
#ifdef GK_CUDA
    return __hiloint2double(0x43300000, x ^ (int)0x80000000) - 4503601774854144.0;
#else
    return as_double((int2)(x ^ (int)0x80000000, 0x43300000)) - 4503601774854144.0;
#endif
}

// 2^e as a double (|e| <= 1022): its bits.
static inline double gk_pow2(const int e)
{
#ifdef GK_CUDA
    return __hiloint2double((e + 1023) << 20, 0);
#else
    return as_double((int2)(0, (e + 1023) << 20));
#endif
}

// The value of one element from its residues, byte r of each word of sw: its mixed-radix digits, then their sum.
static inline double gk_crt_sum(const uint* sw, const int r)
{
    // Digit z: v_z = (s_z - sum_(u<z) v_u p_0 ... p_(u-1)) (p_0 ... p_(z-1))^-1 mod p_z (the terms of higher
    // digits vanish mod p_z), the same digits as Garner's step-by-step form with one reduction per digit:
    // |v_u| <= 128 and weights below 256 keep the sum below 2^20 and its product with the inverse below 2^28.
    int v[MODULI];
#pragma unroll
    for (int z = 0; z < MODULI; z++) {
        int x = (int)(sw[z] << (24 - 8 * r)) >> 24; // the signed byte s_z
#pragma unroll
        for (int u = 0; u < z; u++) x -= v[u] * gk_crt_weight(u, z);
        v[z] = z == 0 ? x : gk_symmetric(x * gk_crt_weight(z, z), gk_modulus(z));
    }
    // Horner's sum, its top TOP steps in int32: there |h_z| <= p_z ... p_(MODULI-1) / 2 (1 + 1/128) < 2^24
    // is exact in both, so the fp64 steps that follow see the same values and round the same way.
    int h = v[MODULI - 1];
#pragma unroll
    for (int z = MODULI - 2; z >= MODULI - TOP; z--) h = v[z] + gk_modulus(z) * h;
    double sum = gk_int_double(h);
#pragma unroll
    for (int z = MODULI - TOP - 1; z >= 0; z--) sum = fma(sum, (double)gk_modulus(z), gk_int_double(v[z]));
    return sum;
}

// C(i, j)'s new value from its residues (byte r of each word of sw) and the exponents of A's row and B's column; a
// placeholder where either is not finite (gk_fp32_dot replaces it).
static inline float gk_crt_value(const uint* sw, const int r, const int ea, const int eb, const float alpha,
                                 const float beta, const float old)
{
    const int e = ea != GK_OZAKI_NONFINITE && eb != GK_OZAKI_NONFINITE ? ea + eb : 0;
    // ldexp(sum, -e) as a product: exact either way (|e| < 500, so 2^-e and the result are normal doubles).
    double x = (double)alpha * (gk_crt_sum(sw, r) * gk_pow2(-e));
    if (beta != 0.0f) x = fma((double)beta, (double)old, x);
    return (float)x;
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

// C(i, j) as fp32 GEMM gives it, where A's row i or B's column j holds an Inf or a NaN (exponent GK_OZAKI_NONFINITE):
// residues cannot carry those. Elsewhere, and for rows past M, value as it is.
static inline float gk_fp32_dot(const int ea, const int eb, const int i, const int j, const int M, const int K,
                                const float alpha, const float beta, const float old, const float value,
                                const __global float* A, const int offA, const int lda, const __global float* B,
                                const int offB, const int ldb)
{
    if ((ea != GK_OZAKI_NONFINITE && eb != GK_OZAKI_NONFINITE) || i >= M) return value;
    float sum = 0.0f;
    for (int k = 0; k < K; k++) sum = fma(OP_A(i, k), OP_B(k, j), sum);
    return beta != 0.0f ? alpha * sum + beta * old : alpha * sum;
}

__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void gk_ozaki_crt(const int M, const int N, const int K, const __global char* S, const int ldS, const int Np,
                  const __global char* RA, const __global char* RB, const float alpha, const float beta,
                  __global float* C, const int offC, const int ldc, const __global float* A, const int offA,
                  const int lda, const __global float* B, const int offB, const int ldb)
{
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
        // Each row's value written out, not looped: at MODULI 14 and more a loop over the 4 rows stayed rolled, and
        // res, ea and old went to the stack.
        float res[4] = {gk_crt_value(sw, 0, ea[0], eb, alpha, beta, old[0]),
                        gk_crt_value(sw, 1, ea[1], eb, alpha, beta, old[1]),
                        gk_crt_value(sw, 2, ea[2], eb, alpha, beta, old[2]),
                        gk_crt_value(sw, 3, ea[3], eb, alpha, beta, old[3])};
        if (ea[0] == GK_OZAKI_NONFINITE || ea[1] == GK_OZAKI_NONFINITE || ea[2] == GK_OZAKI_NONFINITE ||
            ea[3] == GK_OZAKI_NONFINITE || eb == GK_OZAKI_NONFINITE) {
            res[0] = gk_fp32_dot(ea[0], eb, i0 + 0, j, M, K, alpha, beta, old[0], res[0], A, offA, lda, B, offB, ldb);
            res[1] = gk_fp32_dot(ea[1], eb, i0 + 1, j, M, K, alpha, beta, old[1], res[1], A, offA, lda, B, offB, ldb);
            res[2] = gk_fp32_dot(ea[2], eb, i0 + 2, j, M, K, alpha, beta, old[2], res[2], A, offA, lda, B, offB, ldb);
            res[3] = gk_fp32_dot(ea[3], eb, i0 + 3, j, M, K, alpha, beta, old[3], res[3], A, offA, lda, B, offB, ldb);
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
