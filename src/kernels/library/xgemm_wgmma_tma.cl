// SGEMM on wgmma (sm_90a, CUDA backend only) with both operands brought into
// local memory by the tensor memory accelerator (TMA: cp.async.bulk.tensor),
// registry rows xgemm-wgmma-tf32-tma and xgemm-wgmma-3xtf32-split-tma.
//
// Contract (GK_CONTRACT_GEMM_TMA, GK_CONTRACT_GEMM_SPLIT_TMA): C = alpha *
// op(A) * op(B) + beta * C, column-major, C not read when beta == 0; op(A) and
// op(B) come as tensor maps (CUDA's CUtensorMap, encoded by the backend from
// the plan's operands, passed by value): A as A^T (element (m, k) at k + m *
// lda) and B as stored (element (k, n) at k + n * ldb), K contiguous, with
// 16-byte aligned columns, the maps' boxes 32 k by TSM (A) or TSN (B) rows in
// the 128-byte swizzle. A map's third dimension is the part: 0 the operand (or,
// SPLIT, its TF32 big parts), 1 its small parts (SPLIT; the plan's split step).
// The copy engine fills what lies outside the matrix with zeros, so no copy
// checks bounds and any M, N, K run.
//
// Work-group: WARPS_M / 4 consumer warpgroups of 64 rows each (TSM = 16
// WARPS_M), each 64 x TSN of C (TSN = 8 NI = wgmma's N), and one producer
// warpgroup, of which one work-item issues every tile's copies. A ring of
// STAGES slots, each a K tile of TSK (whole 32-k swizzle atoms) of A and B in
// the swizzled K-major layout of xgemm_wgmma.cl's header (the copy engine's
// 128-byte swizzle is that layout), handed over by mbarriers: FULL (the
// producer's arrival with the slot's byte count, completed by the copies) and
// EMPTY (each consumer warp, once the wgmmas that read the slot are done).
// Consumers read both operands through descriptors and keep one group of
// wgmmas in flight: tile t's are issued, then tile t - 1's waited for and its
// slot freed. No work-item of a consumer copies, rounds or computes an
// address between wgmmas: the structure cuBLAS's TF32 kernel has on the H200
// (docs/PERFORMANCE.md), which the cp.async ring (xgemm_wgmma.cl) lacks.
//
// SPLITK=1 (row xgemm-wgmma-3xtf32-split-tma-splitk, contract
// GK_CONTRACT_GEMM_SPLIT_TMA_K): work-group z multiplies the K-slice [z kslice,
// min(K, (z + 1) kslice)) (kslice a multiple of TSK, so no tile straddles two
// slices) into partial z, C + z strideC, which the plan's reduction sums and
// scales (as library/split_k.h's kernels): for tile counts that leave SMs idle
// (1024^3, 1500^3 in 128 x 128 tiles on 132 SMs).
//
// TF32 (SPLIT=0): the tensor cores read the top 19 bits of each fp32 operand
// (truncation, as xgemm-wgmma-tf32's A_DESC=2). 3xTF32 (SPLIT=1): three
// wgmmas per k8 on big and small parts (small x big, big x small, big x big)
// summed from zero over SUM_TILES tiles in the tensor cores, each sum added to
// the accumulators in fp32 (docs/MATH.md: the order xgemm_tc.cl measured).

#ifndef WARPS_M
#define WARPS_M 8 // consumer warps along M (4 per warpgroup)
#endif
#ifndef NI
#define NI 32 // n8 tiles per warp: wgmma's N / 8
#endif
#ifndef TSK
#define TSK 32 // K per local tile (whole 32-k swizzle atoms)
#endif
#ifndef STAGES
#define STAGES 4 // slots in the ring
#endif
#ifndef SPLIT
#define SPLIT 0 // 0: TF32; 1: 3xTF32 on split operands
#endif
#ifndef SUM_TILES
#define SUM_TILES 2 // 3xTF32: K tiles per partial sum in the tensor cores
#endif
#ifndef SWIZZLE
#define SWIZZLE 16 // tile rows per band of the work-group order (library/tile_order.h; 1: plain order)
#endif
#ifndef SPLITK
#define SPLITK 0 // 1: one K-slice per work-group z into its own partial (header)
#endif

#define TSM (WARPS_M * 16)
#define TSN (NI * 8)
#define WGS (WARPS_M / 4) // consumer warpgroups
#define THREADS ((WGS + 1) * 128)
#define PARTS (SPLIT + 1)
#define ATOMS (TSK / 32)
#define A_FLOATS (TSK * TSM)
#define B_FLOATS (TSK * TSN)
#define STAGE_FLOATS (PARTS * (A_FLOATS + B_FLOATS))
#define STAGE_BYTES (STAGE_FLOATS * 4)
#if TSK % 32
#error "TSK must be a multiple of 32 (whole swizzle atoms)"
#endif

#include "wgmma.h" // HELPER, LOCAL_ADDRESS, wgmma_tile_ss, STAGGER_*, phase_*, tile_descriptor
#include "tf32.h" // store_m16n8
#include "tile_order.h" // tile_of_group
#include "tma.h" // MAP_ADDRESS, prefetch_map, copy_box, phase_expect

// Slot s of the ring: B's parts, then A's.
#define B_SLOT(s, part) (L + (s) * STAGE_FLOATS + (part) * B_FLOATS)
#define A_SLOT(s, part) (L + (s) * STAGE_FLOATS + PARTS * B_FLOATS + (part) * A_FLOATS)

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
#if SPLITK
void gk_xgemm_wgmma_tma(const int M, const int N, const int K_ALL, const int kslice, GK_TENSOR_MAP mapA,
                        GK_TENSOR_MAP mapB, __global float* C, const int ldc, const int strideC)
{
    const int kz = get_group_id(2) * kslice; // this slice's first k
    const int K = min(K_ALL - kz, kslice);
    const float alpha = 1.0f, beta = 0.0f;
    C += get_group_id(2) * (size_t)strideC;
#else
void gk_xgemm_wgmma_tma(const int M, const int N, const int K, const float alpha, GK_TENSOR_MAP mapA,
                        GK_TENSOR_MAP mapB, const float beta, __global float* C, const int offC, const int ldc)
{
    const int kz = 0;
    C += offC;
#endif
    const int tid = get_local_id(0);
    const int lane = tid % 32, warp = tid / 32, wg = tid / 128;
    const int g = lane / 4, t = lane % 4;
    int tile_m, tile_n;
    tile_of_group(SWIZZLE, &tile_m, &tile_n);
    const int m0 = tile_m * TSM, n0 = tile_n * TSN;
    const int tiles = (K + TSK - 1) / TSK;
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
                for (int part = 0; part < PARTS; part++)
                    #pragma unroll
                    for (int atom = 0; atom < ATOMS; atom++) {
                        const int k = kz + tile * TSK + atom * 32;
                        copy_box(A_SLOT(s, part) + atom * 32 * TSM, a, k, m0, part, full + s);
                        copy_box(B_SLOT(s, part) + atom * 32 * TSN, b, k, n0, part, full + s);
                    }
            }
        }
        return;
    }

    float acc[NI][4];
    #pragma unroll
    for (int j = 0; j < NI; j++)
        #pragma unroll
        for (int q = 0; q < 4; q++) acc[j][q] = 0.0f;
    const int wm_desc = wg * 64; // this warpgroup's 64 rows of the A tile
#if SPLIT
    float part[NI][4];
#define SUM part
#define PER_SUM SUM_TILES
#else
#define SUM acc
#define PER_SUM 1
#endif
    for (int first = 0; first < tiles; first += PER_SUM) {
        #pragma unroll
        for (int i = 0; i < PER_SUM; i++) {
            const int tile = first + i, s = tile % STAGES;
            if (tile < tiles) {
#if WGS == 2 && SPLIT
                STAGGER_WAIT(tile, wg);
#endif
                phase_wait(full + s, (tile / STAGES) & 1);
                // 3xTF32: the sum's first tile starts it from zero; TF32: onto acc (zeroed above).
                wgmma_tile_ss(SUM, tile_descriptor(A_SLOT(s, 0) + wm_desc * 32),
                              tile_descriptor(A_SLOT(s, SPLIT) + wm_desc * 32), tile_descriptor(B_SLOT(s, 0)),
                              tile_descriptor(B_SLOT(s, SPLIT)), SPLIT ? i : 1, SPLIT);
                WGMMA_WAIT(1); // tile - 1's
                if (tile > 0 && lane == 0) phase_arrive(empty + (tile - 1) % STAGES);
#if WGS == 2 && SPLIT
                STAGGER_ARRIVE(tile, wg);
#endif
            }
        }
#if SPLIT
        WGMMA_WAIT(0);
        add_partial(acc, part);
#endif
    }
#undef SUM
#undef PER_SUM
    WGMMA_WAIT(0);
    fence_registers(acc);

    // C = alpha * acc + beta * C (the accumulator layout of xgemm_wgmma.cl's header).
    const int wm0 = warp * 16;
    #pragma unroll
    for (int j = 0; j < NI; j++) store_m16n8(C, ldc, M, N, m0 + wm0 + g, n0 + j * 8 + 2 * t, acc[j], alpha, beta);
}
