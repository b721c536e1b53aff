// The Ozaki scheme II's products on Hopper's warpgroup tensor-core instruction (wgmma.mma_async m64nNk32 s8 x s8
// -> s32, sm_90a, CUDA backend only; GK_MATH_INT8X), registry row ozaki-igemm-wgmma, with both operands copied
// into local memory by the tensor memory accelerator under a producer warpgroup: the structure of
// xgemm_wgmma_tma.cl, in bytes.
//
// Contract (GK_CONTRACT_GEMM_OZAKI_TMA): (Mp, Np, Kp, mapA, mapB, S), the operands and the result exactly as
// igemm_tc.cl's (GK_CONTRACT_GEMM_OZAKI): work-group z multiplies modulus z's residues, A's Mp x Kp and B's
// Np x Kp (K contiguous, after each operand's Mp or Np int32 exponents), and stores each sum's symmetric residue
// mod p_z as int8 at S + z Mp Np, column-major with leading dimension Mp. Mp and Np are multiples of the tile
// (TSM, TSN): the stores check no bounds. The maps (gk_tensor_view, encoded by the backend) see a residue
// matrix as Kp / 4 floats a row, Mp (Np) rows, one part per modulus: the copy engine moves bytes, and its
// 128-byte boxes are 128 k of int8. It fills what lies past Kp with zeros, so any Kp that is a multiple of 16
// (the maps' row pitch) runs, TSK or not.
//
// Why the TF32 machinery carries over: s8 wgmma reads both operands K-major, and its k32 step is 32 bytes, the
// byte geometry of TF32's k8 step. A slot's tile is the swizzled K-major layout of xgemm_wgmma.cl's header with
// "32 floats" read as 128 bytes: per 128 k (an atom), 8-row groups of 128-byte rows, SBO 1024 bytes, the next
// k32 step 32 bytes on, the next atom ROWS x 128 bytes on (wgmma.h's tile_descriptor and K_STEP).
//
// Work-group: WARPS_M / 4 consumer warpgroups of 64 rows (TSM = 16 WARPS_M) by TSN = 8 NI columns (wgmma's N),
// and one producer warpgroup, of which one work-item issues every copy. A ring of STAGES slots of TSK bytes of K
// (whole 128-byte atoms) of A and B, handed over by mbarriers as in xgemm_wgmma_tma.cl: FULL (the producer's
// arrival with the slot's bytes, completed by the copies), EMPTY (each consumer warp once the wgmmas reading the
// slot are done). The consumers keep one group of wgmmas in flight.
//
// Exactness: |residue| <= 128, so a product is at most 2^14 and a sum of 2^16 of them (plus a residue carried
// over) stays within 2^30 + 128: the sums are reduced mod p every 65536 k, as igemm_tc.cl's, with the wgmmas
// drained first.
//
// The result: the accumulators (the layout of NI mma.m16n8 tiles per warp: c0 (g, 2t), c1 (g, 2t+1), c2 (g+8,
// 2t), c3 (g+8, 2t+1)) reduced to residues (symmetric_residue), put column by column into local memory (the
// ring, free once every consumer has drained its wgmmas), then stored 16 bytes a work-item: each column's 64 rows
// of a warpgroup are two whole 32-byte sectors, where byte stores from the registers would touch four columns
// per instruction.

#include "ozaki.h"

#ifndef WARPS_M
#define WARPS_M 8 // consumer warps along M (4 per warpgroup)
#endif
#ifndef NI
#define NI 32 // n8 tiles per warp: wgmma's N / 8
#endif
#ifndef TSK
#define TSK 128 // k (bytes) per slot: whole 128-byte swizzle atoms
#endif
#ifndef STAGES
#define STAGES 4 // slots in the ring
#endif
#ifndef SWIZZLE
#define SWIZZLE 16 // tile rows per band of the work-group order (library/tile_order.h; 1: plain order)
#endif

#define TSM (WARPS_M * 16)
#define TSN (NI * 8)
#define WGS (WARPS_M / 4) // consumer warpgroups
#define THREADS ((WGS + 1) * 128)
#define ATOMS (TSK / 128)
#define ATOM_FLOATS 32 // an atom's row: 128 bytes, as the tensor maps count them
#define A_FLOATS (TSK / 4 * TSM)
#define B_FLOATS (TSK / 4 * TSN)
#define STAGE_FLOATS (A_FLOATS + B_FLOATS)
#define STAGE_BYTES (STAGE_FLOATS * 4)
#define REDUCE_TILES (65536 / TSK) // K tiles between reductions mod p
// The result's staging: per warpgroup TSN columns of 64 rows, COLUMN bytes apart (16 more than the rows, so that
// the byte stores of a warp, rows g and g + 8 of columns 2t and 2t + 1, fall in different banks).
#define COLUMN 80
#if TSK % 128 || 65536 % TSK
#error "TSK must be a multiple of 128 (whole swizzle atoms) dividing 65536"
#endif

#include "wgmma.h" // HELPER, LOCAL_ADDRESS, WGMMA_S8_SS, phase_*, tile_descriptor, K_STEP
#include "tile_order.h" // tile_of_group
#include "tma.h" // MAP_ADDRESS, prefetch_map, copy_box, phase_expect

// Slot s of the ring: B, then A.
#define B_SLOT(s) (L + (s) * STAGE_FLOATS)
#define A_SLOT(s) (L + (s) * STAGE_FLOATS + B_FLOATS)

// x's symmetric residue mod p (gk_symmetric's, |x| < 2^31 - p) in fp64 rather than by an integer division, and with
// no conversion instruction (a quarter of fp64's rate on Hopper): x becomes a double as the low word of 2^52 + 2^31
// + x less that constant, exactly; fma(x, 1/p, 1.5 2^52) rounds x / p to an integer q held in its low word. x (1/p)
// is within 2^-28 of x / p, whose distance to a half-integer is 0 (p = 256, where 1/p and the product are exact) or
// at least 1 / (2p), so q is x / p rounded to nearest and |x - q p| <= p / 2; a tie (p = 256) leaves +128, moved
// to -128.
HELPER int symmetric_residue(const int x, const int p, const double inv_p)
{
    const double xd = __hiloint2double(0x43300000, x ^ (int)0x80000000) - 4503601774854144.0; // 2^52 + 2^31
    const int q = __double2loint(fma(xd, inv_p, 6755399441055744.0)); // 1.5 2^52
    const int r = x - q * p;
    return 2 * r >= p ? r - p : r;
}

HELPER void reduce_all(int (*acc)[4], const int p, const double inv_p)
{
    #pragma unroll
    for (int j = 0; j < NI; j++)
        #pragma unroll
        for (int q = 0; q < 4; q++) acc[j][q] = symmetric_residue(acc[j][q], p, inv_p);
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gk_ozaki_igemm_wgmma(const int Mp, const int Np, const int Kp, GK_TENSOR_MAP mapA, GK_TENSOR_MAP mapB,
                          __global char* S)
{
    const int z = (int)get_group_id(2), p = gk_modulus(z);
    const int tid = get_local_id(0);
    const int lane = tid % 32, warp = tid / 32, wg = tid / 128;
    const int g = lane / 4, t = lane % 4;
    int tile_m, tile_n;
    tile_of_group(SWIZZLE, &tile_m, &tile_n);
    const int m0 = tile_m * TSM, n0 = tile_n * TSN;
    const int tiles = (Kp + TSK - 1) / TSK;
    // The block (sized at launch with 1024 bytes to spare) from its first 1024-byte boundary on: the swizzle's.
    extern __local float4 dynamic_local[];
    __local float* L = (__local float*)dynamic_local + ((1024 - (LOCAL_ADDRESS(dynamic_local) & 1023)) & 1023) / 4;
    __local ulong* full = (__local ulong*)(L + STAGES * STAGE_FLOATS);
    __local ulong* empty = full + STAGES;
    if (tid == 0) {
        for (int s = 0; s < STAGES; s++) {
            phase_init(full + s, 1); // the producer's arrival; the copies' bytes complete it
            phase_init(empty + s, WARPS_M); // one arrival per consumer warp
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); // visible to the copy engine
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (wg == WGS) { // the producer: one work-item issues every copy
        if (tid % 128 == 0) {
            const ulong a = MAP_ADDRESS(mapA), b = MAP_ADDRESS(mapB);
            prefetch_map(a);
            prefetch_map(b);
            for (int tile = 0; tile < tiles; tile++) {
                const int s = tile % STAGES;
                if (tile >= STAGES) phase_wait(empty + s, (tile / STAGES - 1) & 1);
                phase_expect(full + s, STAGE_BYTES);
                #pragma unroll
                for (int atom = 0; atom < ATOMS; atom++) {
                    const int k = (tile * TSK + atom * 128) / 4; // in the maps' 4-byte units
                    copy_box(A_SLOT(s) + atom * ATOM_FLOATS * TSM, a, k, m0, z, full + s);
                    copy_box(B_SLOT(s) + atom * ATOM_FLOATS * TSN, b, k, n0, z, full + s);
                }
            }
        }
        return;
    }

    const double inv_p = 1.0 / (double)p;
    int acc[NI][4];
    #pragma unroll
    for (int j = 0; j < NI; j++)
        #pragma unroll
        for (int q = 0; q < 4; q++) acc[j][q] = 0;
    const int wm_desc = wg * 64; // this warpgroup's 64 rows of the A tile
    for (int tile = 0; tile < tiles; tile++) {
        const int s = tile % STAGES;
        if (tile > 0 && tile % REDUCE_TILES == 0) { // rare: K past 65536
            WGMMA_WAIT(0);
            fence_registers_int(acc);
            reduce_all(acc, p, inv_p);
        }
        phase_wait(full + s, (tile / STAGES) & 1);
        const ulong adesc = tile_descriptor(A_SLOT(s) + wm_desc * ATOM_FLOATS), bdesc = tile_descriptor(B_SLOT(s));
        WGMMA_FENCE();
        #pragma unroll
        for (int kk = 0; kk < TSK / 32; kk++) WGMMA_S8_SS(acc, adesc + A_STEP(kk), bdesc + B_STEP(kk), 1);
        WGMMA_COMMIT();
        WGMMA_WAIT(1); // tile - 1's
        if (tile > 0 && lane == 0) phase_arrive(empty + (tile - 1) % STAGES);
    }
    WGMMA_WAIT(0);
    fence_registers_int(acc);

    // Every consumer's wgmmas have read their last slot (and every copy has landed: each FULL was waited for)
    // before the ring is written again (named barrier 1, the consumers only).
    asm volatile("bar.sync 1, %0;" ::"n"(WGS * 128) : "memory");
    __local uchar* stage = (__local uchar*)L + wg * TSN * COLUMN;
    const int row0 = (warp % 4) * 16 + g;
    #pragma unroll
    for (int j = 0; j < NI; j++)
        #pragma unroll
        for (int q = 0; q < 4; q++) {
            const int row = row0 + 8 * (q / 2), col = j * 8 + 2 * t + q % 2;
            stage[col * COLUMN + row] = (uchar)symmetric_residue(acc[j][q], p, inv_p);
        }
    asm volatile("bar.sync %0, 128;" ::"r"(2 + wg) : "memory"); // this warpgroup's columns are staged
    __global char* s = S + (size_t)z * Mp * Np + (size_t)n0 * Mp + m0 + wg * 64;
    #pragma unroll
    for (int l = 0; l < TSN / 32; l++) {
        const int id = tid % 128 + l * 128, col = id / 4, c = id % 4;
        *(__global uint4*)(s + (size_t)col * Mp + 16 * c) = *(const __local uint4*)(stage + col * COLUMN + 16 * c);
    }
}
