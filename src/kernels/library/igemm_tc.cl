// The Ozaki scheme II's products on the tensor cores of NVIDIA GPUs (compute capability 8.0 and newer; GK_MATH_INT8X,
// contract GK_CONTRACT_GEMM_OZAKI, as igemm.cl): (Mp, Np, Kp, RA, RB, S). Work-group z multiplies modulus z's
// residues with inline PTX mma.sync.m16n8k32 (s8 x s8 -> s32, exact), and stores each sum's symmetric residue mod
// p_z as int8. One source for NVIDIA's OpenCL and NVRTC (cl_to_cuda.h); other devices cannot build it (the registry's
// min_capability keeps it from them).
// The operands come as the plan's slicing leaves them: A's residues Mp x Kp and B's Np x Kp, K contiguous, each
// row Kp bytes (a multiple of TSK), the planes 16-byte aligned (Mp, Np multiples of the tiles): exactly mma's "row"
// A and "col" B, four k per 32-bit register, so the tiles are copied as uint4 and never transposed.
// |residue| <= 128: a product is at most 2^14, 2^16 of them fit int32; the sums are reduced mod p every 65536 k.
//
// Work-group: WARPS_M x WARPS_N warps of 32 work-items, a TSM x TSN tile of the result (TSM = WARPS_M*MI*16,
// TSN = WARPS_N*NI*8); each warp MI x NI mma tiles. K tiles of TSK bytes in local memory, one row per row of the
// tile, ROW = TSK/4 + 4 words apart (the 8 rows x 4 words of one fragment load then meet 32 different banks); the
// next tile is loaded into registers while the current one is multiplied.
// Fragments (PTX ISA, "mma.m16n8k32", .s8), g = lane / 4, t = lane % 4, four k per register (lowest k in the
// lowest byte):
//   A (16 x 32, 4 regs): a0 (row g, k 4t..4t+3), a1 (g+8, 4t..), a2 (g, 16+4t..), a3 (g+8, 16+4t..)
//   B (32 x 8, 2 regs):  b0 (k 4t..4t+3, col g), b1 (k 16+4t.., col g)
//   C (16 x 8, 4 s32):   c0 (g, 2t), c1 (g, 2t+1), c2 (g+8, 2t), c3 (g+8, 2t+1)

#include "ozaki.h"

#ifndef WARPS_M
#define WARPS_M 2 // warps along M
#endif
#ifndef WARPS_N
#define WARPS_N 4 // warps along N
#endif
#ifndef MI
#define MI 4 // m16 tiles per warp along M
#endif
#ifndef NI
#define NI 4 // n8 tiles per warp along N
#endif
#ifndef TSK
#define TSK 64 // k (bytes) per local-memory tile, a multiple of 32 dividing 65536
#endif
#define THREADS (WARPS_M * WARPS_N * 32)
#define TSM (WARPS_M * MI * 16)
#define TSN (WARPS_N * NI * 8)
#define ROW (TSK / 4 + 4) // words from one local row to the next
#define CHUNKS (TSK / 16) // uint4 per row of a tile
#define LOADS_A (TSM * CHUNKS / THREADS)
#define LOADS_B (TSN * CHUNKS / THREADS)

// d += a * b on one m16n8k32 tile.
#define MMA(d, a, b)                                                                                          \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "                                          \
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"                        \
                 : "=r"((d)[0]), "=r"((d)[1]), "=r"((d)[2]), "=r"((d)[3])                                      \
                 : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]),              \
                   "r"((d)[0]), "r"((d)[1]), "r"((d)[2]), "r"((d)[3]))

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gk_ozaki_igemm_tc(const int Mp, const int Np, const int Kp, const __global char* RA, const __global char* RB,
                       __global char* S)
{
    // Declared as uint4, so that the tiles' 16-byte stores are aligned (ROW is a multiple of 4 words).
    __local uint4 As4[TSM * ROW / 4];
    __local uint4 Bs4[TSN * ROW / 4];
    __local uint* As = (__local uint*)As4;
    __local uint* Bs = (__local uint*)Bs4;
    const int z = (int)get_group_id(2), p = gk_modulus(z);
    const __global char* A = RA + (size_t)Mp * 4 + (size_t)z * Mp * Kp;
    const __global char* B = RB + (size_t)Np * 4 + (size_t)z * Np * Kp;
    const int tid = (int)get_local_id(0), lane = tid % 32, warp = tid / 32;
    const int g = lane / 4, t = lane % 4;
    const int wm = (warp % WARPS_M) * MI * 16, wn = (warp / WARPS_M) * NI * 8;
    const int i0 = (int)get_group_id(0) * TSM, j0 = (int)get_group_id(1) * TSN;

    uint4 ra[LOADS_A], rb[LOADS_B];
#define LOAD_TILE(k0)                                                                                         \
    do {                                                                                                      \
        for (int l = 0; l < LOADS_A; l++) {                                                                   \
            const int id = tid + l * THREADS, r = id / CHUNKS, c = id % CHUNKS;                               \
            ra[l] = *(const __global uint4*)(A + (size_t)(i0 + r) * Kp + (k0) + 16 * c);                      \
        }                                                                                                     \
        for (int l = 0; l < LOADS_B; l++) {                                                                   \
            const int id = tid + l * THREADS, r = id / CHUNKS, c = id % CHUNKS;                               \
            rb[l] = *(const __global uint4*)(B + (size_t)(j0 + r) * Kp + (k0) + 16 * c);                      \
        }                                                                                                     \
    } while (0)
#define STORE_TILE()                                                                                          \
    do {                                                                                                      \
        for (int l = 0; l < LOADS_A; l++) {                                                                   \
            const int id = tid + l * THREADS, r = id / CHUNKS, c = id % CHUNKS;                               \
            *(__local uint4*)(As + r * ROW + 4 * c) = ra[l];                                                  \
        }                                                                                                     \
        for (int l = 0; l < LOADS_B; l++) {                                                                   \
            const int id = tid + l * THREADS, r = id / CHUNKS, c = id % CHUNKS;                               \
            *(__local uint4*)(Bs + r * ROW + 4 * c) = rb[l];                                                  \
        }                                                                                                     \
    } while (0)

    uint acc[MI][NI][4];
    for (int mi = 0; mi < MI; mi++)
        for (int ni = 0; ni < NI; ni++)
            for (int r = 0; r < 4; r++) acc[mi][ni][r] = 0;
    LOAD_TILE(0);
    for (int k0 = 0; k0 < Kp; k0 += TSK) {
        barrier(CLK_LOCAL_MEM_FENCE); // the former tile's fragments are read
        STORE_TILE();
        barrier(CLK_LOCAL_MEM_FENCE);
        if (k0 + TSK < Kp) LOAD_TILE(k0 + TSK);
        if (k0 > 0 && (k0 & 0xFFFF) == 0)
            for (int mi = 0; mi < MI; mi++)
                for (int ni = 0; ni < NI; ni++)
                    for (int r = 0; r < 4; r++) acc[mi][ni][r] = (uint)((int)acc[mi][ni][r] % p);
#pragma unroll
        for (int kk = 0; kk < TSK / 32; kk++) {
            uint a[MI][4], b[NI][2];
#pragma unroll
            for (int mi = 0; mi < MI; mi++) {
                const __local uint* x = As + (wm + mi * 16 + g) * ROW + kk * 8 + t;
                a[mi][0] = x[0];
                a[mi][1] = x[8 * ROW];
                a[mi][2] = x[4];
                a[mi][3] = x[8 * ROW + 4];
            }
#pragma unroll
            for (int ni = 0; ni < NI; ni++) {
                const __local uint* x = Bs + (wn + ni * 8 + g) * ROW + kk * 8 + t;
                b[ni][0] = x[0];
                b[ni][1] = x[4];
            }
#pragma unroll
            for (int mi = 0; mi < MI; mi++)
#pragma unroll
                for (int ni = 0; ni < NI; ni++) MMA(acc[mi][ni], a[mi], b[ni]);
        }
    }
    __global gk_s8* s = (__global gk_s8*)S + (size_t)z * Mp * Np;
    for (int mi = 0; mi < MI; mi++)
        for (int ni = 0; ni < NI; ni++)
            for (int r = 0; r < 4; r++) {
                const int i = i0 + wm + mi * 16 + g + 8 * (r / 2), j = j0 + wn + ni * 8 + 2 * t + r % 2;
                s[(size_t)j * Mp + i] = (gk_s8)gk_symmetric((int)acc[mi][ni][r], p);
            }
}
