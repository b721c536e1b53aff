// The Ozaki scheme II's products, portable (GK_MATH_INT8X; contract GK_CONTRACT_GEMM_OZAKI):
//   (Mp, Np, Kp, RA, RB, S)
// Work-group z multiplies modulus z's residues exactly: A's (Mp x Kp, K contiguous, after Mp ints of row
// exponents in RA) by B's (Np x Kp likewise in RB), int8 x int8 summed in int32, and stores the sum's symmetric
// residue mod p_z as int8 in S + z Mp Np (Mp x Np, leading dimension Mp). |residue| <= 128, so a product is at
// most 2^14 and 2^16 of them stay within int32: the sums are reduced mod p every 65536 k (no overflow at any K).
// The plan pads Mp and Np to the tile (TS * WPT) and Kp to KT with zero residues: no bounds checks here.
// Each work-item computes WPT x WPT sums TS apart; KT k per step staged in local memory (as ints).

#include "ozaki.h"

#ifndef TS
#define TS 16 // work-group edge
#endif
#ifndef WPT
#define WPT 2 // sums per work-item per dimension
#endif
#ifndef KT
#define KT 32 // k per local-memory step (divides 65536)
#endif
#define TILE (TS * WPT)

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void gk_ozaki_igemm(const int Mp, const int Np, const int Kp, const __global char* RA, const __global char* RB,
                    __global char* S)
{
    __local int As[KT][TILE + 1];
    __local int Bs[KT][TILE + 1];
    const int z = (int)get_group_id(2), p = gk_modulus(z);
    const __global gk_s8* A = (const __global gk_s8*)(RA + (size_t)Mp * 4) + (size_t)z * Mp * Kp;
    const __global gk_s8* B = (const __global gk_s8*)(RB + (size_t)Np * 4) + (size_t)z * Np * Kp;
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1), t0 = ty * TS + tx;
    const int i0 = (int)get_group_id(0) * TILE, j0 = (int)get_group_id(1) * TILE;
    int acc[WPT][WPT];
    for (int w = 0; w < WPT; w++)
        for (int v = 0; v < WPT; v++) acc[w][v] = 0;
    for (int k0 = 0; k0 < Kp; k0 += KT) {
        if (k0 > 0 && (k0 & 0xFFFF) == 0)
            for (int w = 0; w < WPT; w++)
                for (int v = 0; v < WPT; v++) acc[w][v] %= p;
        for (int t = t0; t < TILE * KT; t += TS * TS) { // consecutive work-items read consecutive k
            const int r = t / KT, k = t % KT;
            As[k][r] = A[(size_t)(i0 + r) * Kp + k0 + k];
            Bs[k][r] = B[(size_t)(j0 + r) * Kp + k0 + k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < KT; k++) {
            int a[WPT], b[WPT];
            for (int w = 0; w < WPT; w++) a[w] = As[k][tx + w * TS];
            for (int v = 0; v < WPT; v++) b[v] = Bs[k][ty + v * TS];
            for (int w = 0; w < WPT; w++)
                for (int v = 0; v < WPT; v++) acc[w][v] += a[w] * b[v];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    __global gk_s8* s = (__global gk_s8*)S + (size_t)z * Mp * Np;
    for (int v = 0; v < WPT; v++)
        for (int w = 0; w < WPT; w++)
            s[(size_t)(j0 + ty + v * TS) * Mp + i0 + tx + w * TS] = (gk_s8)gk_symmetric(acc[w][v], p);
}
