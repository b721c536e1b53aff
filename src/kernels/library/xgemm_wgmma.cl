// SGEMM on Hopper's warpgroup tensor-core instruction, wgmma.mma_async
// (compute capability 9.0, target sm_90a: the CUDA backend only, registry rows
// xgemm-wgmma-3xtf32 and xgemm-wgmma-tf32). The math modes are those of
// xgemm_tc.cl (docs/MATH.md): SPLIT=1 is 3xTF32 at fp32 accuracy, SPLIT=0 TF32.
//
// Contract (GK_CONTRACT_GEMM_DIRECT), column-major, any shape: C = alpha *
// op(A) * op(B) + beta * C, C not read when beta == 0; TRANS_A/TRANS_B pick
// each operand's storage order, VEC_A/VEC_B allow 16-byte copies. Elements
// outside the matrices are copied as zeros (cp.async's zero fill).
//
// Work-group: WARPS_M warps, WARPS_M / 4 warpgroups of 64 rows, a TSM x TSN
// tile of C (TSM = 16 WARPS_M, TSN = 8 NI = the instruction's N). Warp w owns
// rows 16w..16w+15 as NI m16n8 tiles (the accumulator layout of wgmma is that
// of NI mma.m16n8 tiles per warp: c0 (g, 2t), c1 (g, 2t+1), c2 (g+8, 2t),
// c3 (g+8, 2t+1), g = lane / 4, t = lane % 4).
//
// Pipeline: a ring of STAGES local tiles filled by cp.async (no registers),
// STAGES - 1 tiles ahead of the one multiplied. Per K tile: the copy of tile
// t + STAGES - 1 is issued; A's fragments (as mma.sync's: a0 (g, t), a1 (g+8,
// t), a2 (g, t+4), a3 (g+8, t+4)) are read from local memory and split into
// big and small TF32 in registers; the wgmmas are issued (B through a matrix
// descriptor); while the tensor cores run, each work-item rounds the elements
// of tile t+1's B that it copied itself (no barrier needed for that) into
// big, over the raw value, and small, beside it; then the wgmmas are waited
// for and the tile's partial added in fp32 (3xTF32: the per-tile partial of
// xgemm_tc.cl, from zero via scale-d = 0; one tensor-core accumulator over all
// K measured 3.4e-6 max error at n = 8192 on the H200 against cuBLAS fp32's
// 2e-7, the partials 5e-8). The ring's slots are handed over by mbarriers
// (below, in the kernel), not a barrier per tile. PIPE=1 keeps one tile's
// wgmmas running across the next tile's copies and fragment loads (below).
//
// Local layout per stage: B big, then (SPLIT) B small, in wgmma's K-major
// layout with the 128-byte swizzle: per 32 k (an "atom" column), per 8 n, 8
// rows of 128 bytes (n, k..k+31) whose 16-byte chunks c are stored at c ^ (n %
// 8), so that the tensor cores' reads of eight rows at once meet eight
// different bank groups (the unswizzled layout measured a quarter of the
// speed); SBO (the next 8 n) = 1024 bytes, the next k8 step 32 bytes on, the
// next atom TSN * 128 bytes on. Then A (A_AT below).
//
// A_DESC=1, where A is K-contiguous with 16-byte aligned columns (TRANS_A,
// VEC_A: the policy's copy-a step makes it so, src/kernels/tuning/policy.tsv):
// A too is read by the tensor cores through a descriptor, in B's swizzled
// layout (big, then small), rounded in place by the work-items that copied
// it, as B; no operand comes from registers, so each tile's wgmmas run on
// while the next tiles are copied and rounded (one group in flight; 3xTF32
// sums SUM_TILES tiles per partial). Other calls run as A_DESC=0. A_DESC=2
// (TF32): A left as copied, its low mantissa bits ignored by the tensor cores
// (truncation, as B's), which saves the rounding's local loads and stores.
// PRODUCER=1: one more warpgroup, the producer, fills the ring (copies,
// stores of what goes through registers, rounding and splitting) and announces
// each tile; the WARPS_M / 4 consumer warpgroups only wait for a tile, multiply
// and free its slot, so no copy or rounding work stands between their wgmmas
// (cuBLAS's TF32 kernel on the H200 is built so). The producer runs one tile
// behind its copies: it issues tile t's, waits for tile t - 1's (its own, by
// cp.async.wait_group), rounds them and announces tile t - 1. Measured on the
// H200 (2026-11-23, column-major TN, bench/cases/wgmma-producer-*.txt): TF32
// 304 / 316 TFLOPS at 4096 / 8192 against the line's 319 / 332, 3xTF32 (A_DESC=1,
// one warpgroup splitting every tile) 65 / 66 against A_DESC=1 without it 83 / 86
// and the line's 86 / 89: in no line. At
// 384 work-items ptxas has 168 registers, which a consumer reading A from
// registers (A_DESC=0) overruns (ptxas serializes its wgmmas); moving registers
// with setmaxnreg (56 producer, 224 consumer) left that warning and made the
// producer spill, so it is not used.
// PRESPLIT=1 (the registry's xgemm-wgmma-3xtf32-split, contract
// GK_CONTRACT_GEMM_SPLIT): the plan has split both operands already (split.cl:
// A K-contiguous as A^T and B K-contiguous, each holding its big parts and, a
// matrix further, at A + M lda and B + N ldb, its small parts), so the
// copies bring big and small tiles alike and nothing is rounded in the kernel:
// a 3xTF32 tile costs what a TF32 tile does, three times the wgmmas over twice
// the copies (H200, 8192^3: 117 TFLOPS of kernel time against the line's 89,
// 2026-11-24, docs/PERFORMANCE.md).
// SPLITK=1 (the registry's xgemm-wgmma-3xtf32-splitk, contract
// GK_CONTRACT_GEMM_DIRECT_SPLIT, as xgemm_tc.cl's; library/split_k.h):
// work-group z along the grid's third dimension multiplies one K-slice into
// partial z, which the plan's reduction sums. For tile counts that leave SMs idle or a last wave nearly empty
// (1024^3: 64 tiles of 128 x 128 for 132 SMs), where smaller tiles would run
// the tensor cores at a lower rate. kslice is a multiple of TSK (the plan's),
// so a slice's columns keep the 16-byte alignment of the whole.
// Local memory is one block sized at launch (GK_FLAG_DYNAMIC_LOCAL), beyond
// the 48 KiB of static arrays, used from a 1024-byte boundary (the swizzle's).

#ifndef WARPS_M
#define WARPS_M 8 // warps along M (4 per warpgroup)
#endif
#ifndef NI
#define NI 16 // n8 tiles per warp: wgmma's N / 8
#endif
#ifndef TSK
#define TSK 32 // K per local tile (32 or 64: whole swizzle atoms)
#endif
#ifndef STAGES
#define STAGES 4 // local tiles in the ring (3 or more)
#endif
#ifndef SPLIT
#define SPLIT 1 // 1: 3xTF32; 0: 1xTF32
#endif
#ifndef PIPE
#define PIPE 0 // 1: a tile's wgmmas run on while the next tile's fragments are loaded (below)
#endif
#ifndef SUM_TILES
#define SUM_TILES 2 // PIPE: K tiles per loop step, and per partial sum of 3xTF32 (even)
#endif
#ifndef A_DESC
#define A_DESC 0 // 1: A through a descriptor where it is K-contiguous and aligned (header); 2: unrounded
#endif
#ifndef PRODUCER
#define PRODUCER 0 // 1: a producer warpgroup copies and rounds, the others only multiply (header)
#endif
#ifndef PRESPLIT
#define PRESPLIT 0 // 1: the operands come split into big and small parts (header)
#endif
#ifndef SWIZZLE
#define SWIZZLE 1 // tile rows per band of the work-group order (library/tile_order.h; 1: plain order)
#endif
#ifndef SPLITK
#define SPLITK 0 // 1: one K-slice per work-group z into its own partial (header)
#endif
#if SPLITK && PRESPLIT
#error "SPLITK: not on split operands (PRESPLIT)"
#endif
#if PRESPLIT // the orientation and alignment the plan's split step gives (the row takes no problem defines)
#undef TRANS_A
#undef TRANS_B
#undef VEC_A
#undef VEC_B
#define TRANS_A 1
#define TRANS_B 0
#define VEC_A 1
#define VEC_B 1
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef VEC_A
#define VEC_A 0
#endif
#ifndef VEC_B
#define VEC_B 0
#endif

#define A_FROM_LOCAL ((A_DESC || PRESPLIT) && TRANS_A && VEC_A)
#if PRESPLIT && !SPLIT
#error "PRESPLIT: 3xTF32 only"
#endif
#define TSM (WARPS_M * 16)
#define TSN (NI * 8)
#define CONSUMERS (WARPS_M * 32) // the work-items that multiply
#define THREADS (CONSUMERS + PRODUCER * 128)
// Each warpgroup copies its own 64 rows of A and its share of B's columns
// (COPY_N of them), 128 work-items over COPY_M x TSK and COPY_N x TSK.
#define WGS (WARPS_M / 4)
#define COPY_THREADS 128
#define COPY_M 64
#define COPY_N (TSN / WGS)
// Element (r, k) of a K-major tile of ROWS rows in the swizzled layout
// (header), in floats; the same layout from row r0 on (r0 a multiple of 8) is
// SWIZZLED_AT(r0, 0, ROWS) further.
#define SWIZZLED_AT(r, k, ROWS)                                                                                \
    (((k) / 32) * (ROWS) * 32 + ((r) / 8) * 256 + ((r) % 8) * 32 + ((((k) % 32) / 4) ^ ((r) % 8)) * 4 + (k) % 4)
// A tile for fragment loads: [k][m] rows of TSM + 8 floats when M is
// contiguous, [m][k] rows of TSK + 4 floats when K is (TRANS_A): either way
// the 32 work-items of a fragment load meet 32 banks, and the copies need no
// transposing. Both fit in A_PADDED_FLOATS, rounded up to whole 1024 bytes
// (B's tiles follow it). A_DESC reserves room for either layout, as the
// launch (the registry's local_mem_bytes) cannot tell which a call takes.
#if A_FROM_LOCAL
#define A_AT(m, k) SWIZZLED_AT(m, k, TSM)
#elif TRANS_A
#define A_AT(m, k) ((m) * (TSK + 4) + (k))
#else
#define A_AT(m, k) ((k) * (TSM + 8) + (m))
#endif
#define A_PADDED_FLOATS (((TSM + 8) * (TSK + 4) + 255) / 256 * 256)
#define A_SWIZZLED_FLOATS ((SPLIT + 1) * TSK * TSM) // big, then small
#if (A_DESC || PRESPLIT) && A_SWIZZLED_FLOATS > A_PADDED_FLOATS
#define A_FLOATS A_SWIZZLED_FLOATS
#else
#define A_FLOATS A_PADDED_FLOATS
#endif
#define B_FLOATS (TSK * TSN)
#define STAGE_FLOATS (A_FLOATS + (SPLIT + 1) * B_FLOATS)
// Tiles copied ahead of the one multiplied: STAGES - 1, or STAGES - 2 with
// PIPE (a slot frees a tile later, below).
#define AHEAD (STAGES - 1 - PIPE)
#if TSK % 32
#error "TSK must be a multiple of 32 (whole swizzle atoms)"
#endif
#if A_DESC && PIPE
#error "A_DESC keeps a group in flight by itself: PIPE must be 0"
#endif
#if PRODUCER && PIPE
#error "PRODUCER: PIPE must be 0"
#endif

#include "wgmma.h" // HELPER, LOCAL_ADDRESS, WGMMA*, phase_*, tile_descriptor, K_STEP, A_STEP, B_STEP

// cp.async: copies of `bytes` (0..size) bytes, the rest of `size` zero-filled.
#define COPY16(dst, src, bytes)                                                                                 \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(LOCAL_ADDRESS(dst)), "l"(src), "r"(bytes) \
                 : "memory")
#define COPY4(dst, src, bytes)                                                                                  \
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(LOCAL_ADDRESS(dst)), "l"(src), "r"(bytes)  \
                 : "memory")
#define COPY_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
#define COPY_WAIT(n) asm volatile("cp.async.wait_group %0;" ::"n"(n) : "memory") // n: a constant expression

// ---- TF32 rounding --------------------------------------------------------
#include "tf32.h" // tf32_bits, tf32_of, split_tf32, load4_checked, store_m16n8
#include "tile_order.h" // tile_of_group
#include "split_k.h"    // SPLIT_K_ARGS, SPLIT_K_SLICE
HELPER float component(const float4 v, const int j) { return j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w; }

// x's big parts over x, their small parts at small (3xTF32).
HELPER void split4_in_place(__local float4* x, __local float4* small)
{
    const float4 v = *x;
    const float4 big = (float4)(tf32_of(v.x), tf32_of(v.y), tf32_of(v.z), tf32_of(v.w));
    *x = big;
    *small = (float4)(tf32_of(v.x - big.x), tf32_of(v.y - big.y), tf32_of(v.z - big.z), tf32_of(v.w - big.w));
}
// x rounded to TF32 in place (1xTF32's A_DESC operand A, as its fragments are).
HELPER void round4_in_place(__local float4* x)
{
    const float4 v = *x;
    *x = (float4)(tf32_of(v.x), tf32_of(v.y), tf32_of(v.z), tf32_of(v.w));
}

// ---- Copies of a K tile into a stage --------------------------------------
HELPER int clamp4(const int left) { return left < 0 ? 0 : left > 4 ? 4 : left; }

// A tile (element (m, k) of op(A), k in [k0, k0 + TSK)) at A_AT, in units of
// four floats along the contiguous dimension, consecutive work-items along it:
// unit u of this work-item at local A_AT(m, k) (A_UNIT), `left` of its floats
// inside the matrix, from src. VEC_A: one 16-byte copy per unit. Otherwise
// (columns not 16-byte aligned) through registers: loaded when the tile's
// copies are issued, stored as one float4 at the end of the tile (four 4-byte
// copies per unit measured 35% slower at 4095^3).
#define A_UNITS (TSK * COPY_M / 4 / COPY_THREADS)
#if TRANS_A // K contiguous: (m, k..k+3)
#define A_PLACE(u) const int id = tid + (u) * COPY_THREADS, k = 4 * (id % (TSK / 4)), m = id / (TSK / 4)
#define A_UNIT(u, k0)                                                                                          \
    A_PLACE(u);                                                                                                \
    const int left = m0 + m < M ? clamp4(K - (k0) - k) : 0;                                                    \
    const __global float* src = A + ((k0) + k) + (m0 + m) * lda
#else // M contiguous: (m..m+3, k)
#define A_PLACE(u) const int id = tid + (u) * COPY_THREADS, m = 4 * (id % (COPY_M / 4)), k = id / (COPY_M / 4)
#define A_UNIT(u, k0)                                                                                          \
    A_PLACE(u);                                                                                                \
    const int left = (k0) + k < K ? clamp4(M - m0 - m) : 0;                                                    \
    const __global float* src = A + (m0 + m) + ((k0) + k) * lda
#endif

#if VEC_A
// A tile wholly inside the matrix (all but the edges' and the last K tile's)
// is copied without bounds, its units one pointer and a constant stride
// apart: the checked form costs ~30 instructions a copy (address arithmetic
// in 64 bits and the clamps per unit), 370 of a tile's 400 in a TF32 warp
// (SASS, H200 line), while one wgmma group runs.
#if TRANS_A
#define A_UNIT_STRIDE(ld) ((size_t)(COPY_THREADS / (TSK / 4)) * (ld)) // the next unit: rows further
#define A_OFFSET(m, k, ld) ((k) + (size_t)(m) * (ld))
#else
#define A_UNIT_STRIDE(ld) ((size_t)(COPY_THREADS / (COPY_M / 4)) * (ld)) // the next unit: columns further
#define A_OFFSET(m, k, ld) ((m) + (size_t)(k) * (ld))
#endif
HELPER void copy_a(__local float* As, const __global float* A, const int lda, const int M, const int K, const int m0,
                   const int k0, const int tid)
{
    if (m0 + COPY_M <= M && k0 + TSK <= K) {
        A_PLACE(0);
        const __global float* first = A + A_OFFSET(m0 + m, k0 + k, lda);
        #pragma unroll
        for (int u = 0; u < A_UNITS; u++) {
            A_PLACE(u);
            COPY16(As + A_AT(m, k), first + u * A_UNIT_STRIDE(lda), 16);
#if PRESPLIT
            COPY16(As + TSK * TSM + A_AT(m, k), first + (size_t)M * lda + u * A_UNIT_STRIDE(lda), 16);
#endif
        }
        return;
    }
    #pragma unroll
    for (int u = 0; u < A_UNITS; u++) {
        A_UNIT(u, k0);
        COPY16(As + A_AT(m, k), left ? src : A, 4 * left);
#if PRESPLIT
        COPY16(As + TSK * TSM + A_AT(m, k), left ? src + (size_t)M * lda : A, 4 * left);
#endif
    }
}
#else
HELPER void load_a(float4* r, const __global float* A, const int lda, const int M, const int K, const int m0,
                   const int k0, const int tid)
{
    #pragma unroll
    for (int u = 0; u < A_UNITS; u++) {
        A_UNIT(u, k0);
        r[u] = load4_checked(src, 0, left);
    }
}

HELPER void store_a(__local float* As, const float4* r, const int M, const int K, const int m0, const int tid)
{
    #pragma unroll
    for (int u = 0; u < A_UNITS; u++) {
        const int id = tid + u * COPY_THREADS;
#if TRANS_A
        const int k = 4 * (id % (TSK / 4)), m = id / (TSK / 4);
#else
        const int m = 4 * (id % (COPY_M / 4)), k = id / (COPY_M / 4);
#endif
        *(__local float4*)(As + A_AT(m, k)) = r[u];
    }
}
#endif

// Element (n, k) of a B tile in the swizzled layout (header), in floats; the
// same layout from column n0 on (n0 a multiple of 8) is B_COLUMNS(n0) further.
#define B_AT(n, k) SWIZZLED_AT(n, k, TSN)
#define B_COLUMNS(n0) ((n0) / 8 * 256)
#if TRANS_B
// N contiguous: wgmma wants B K-major, which a copy cannot transpose. Each
// work-item loads 4 x 4 blocks (four float4 along n, at four consecutive k)
// into registers when the tile's copies are issued, and stores them as four
// rows (n, k..k+3), rounded and split, at the end of the tile (a tile's time
// for the loads to land). Consecutive work-items take consecutive k chunks of
// the same four columns: eight of them write one row's eight chunks, which
// the swizzle puts on eight bank groups.
#define B_BLOCKS (TSK * COPY_N / 16 / COPY_THREADS)
#define B_BLOCK_K(id) (4 * ((id) % (TSK / 4)))
#define B_BLOCK_N(id) (4 * ((id) / (TSK / 4)))

HELPER void load_b(float4 (*r)[4], const __global float* B, const int ldb, const int N, const int K, const int n0,
                   const int k0, const int tid)
{
    #pragma unroll
    for (int u = 0; u < B_BLOCKS; u++) {
        const int id = tid + u * COPY_THREADS, n = n0 + B_BLOCK_N(id), k = k0 + B_BLOCK_K(id);
        const int full = n + 4 <= N && k + 4 <= K;
        #pragma unroll
        for (int i = 0; i < 4; i++) {
            const __global float* row = B + n + (k + i) * ldb;
#if VEC_B
            if (full) r[u][i] = *(const __global float4*)row;
#else
            if (full) r[u][i] = (float4)(row[0], row[1], row[2], row[3]);
#endif
            else {
                const int left = k + i < K ? N - n : 0;
                r[u][i] = load4_checked(row, 0, left);
            }
        }
    }
}

HELPER void store_b(__local float* Bs, __local float* Bsmall, const float4 (*r)[4], const int tid)
{
    #pragma unroll
    for (int u = 0; u < B_BLOCKS; u++) {
        const int id = tid + u * COPY_THREADS, n = B_BLOCK_N(id), k = B_BLOCK_K(id);
        #pragma unroll
        for (int j = 0; j < 4; j++) {
            const float4 v = (float4)(component(r[u][0], j), component(r[u][1], j), component(r[u][2], j),
                                      component(r[u][3], j));
            const float4 big = (float4)(tf32_of(v.x), tf32_of(v.y), tf32_of(v.z), tf32_of(v.w));
            *(__local float4*)(Bs + B_AT(n + j, k)) = big;
#if SPLIT
            *(__local float4*)(Bsmall + B_AT(n + j, k)) = (float4)(tf32_of(v.x - big.x), tf32_of(v.y - big.y),
                                                                 tf32_of(v.z - big.z), tf32_of(v.w - big.w));
#endif
        }
    }
}
#else
// K contiguous: a float4 (n, k..k+3) per copy, consecutive work-items down a
// column (whole 128-byte lines; the swizzle keeps the local writes of eight
// work-items on eight bank groups). Each work-item later rounds what it
// copied itself (round_b), in the same order.
#define B_UNITS (TSK * COPY_N / 4 / COPY_THREADS)
#define B_UNIT_N(id) ((id) / (TSK / 4))
#define B_UNIT_K(id) (4 * ((id) % (TSK / 4)))

#if VEC_B
HELPER void copy_b(__local float* Bs, const __global float* B, const int ldb, const int N, const int K, const int n0,
                   const int k0, const int tid)
{
    if (n0 + COPY_N <= N && k0 + TSK <= K) { // inside: as copy_a's
        const __global float* first = B + (k0 + B_UNIT_K(tid)) + (size_t)(n0 + B_UNIT_N(tid)) * ldb;
        #pragma unroll
        for (int l = 0; l < B_UNITS; l++) {
            const int id = tid + l * COPY_THREADS;
            COPY16(Bs + B_AT(B_UNIT_N(id), B_UNIT_K(id)), first + l * ((size_t)(COPY_THREADS / (TSK / 4)) * ldb), 16);
#if PRESPLIT
            COPY16(Bs + B_FLOATS + B_AT(B_UNIT_N(id), B_UNIT_K(id)),
                   first + (size_t)N * ldb + l * ((size_t)(COPY_THREADS / (TSK / 4)) * ldb), 16);
#endif
        }
        return;
    }
    #pragma unroll
    for (int l = 0; l < B_UNITS; l++) {
        const int id = tid + l * COPY_THREADS, n = B_UNIT_N(id), k = B_UNIT_K(id);
        const int left = n0 + n < N ? clamp4(K - k0 - k) : 0;
        const __global float* src = B + (k0 + k) + (n0 + n) * ldb;
        COPY16(Bs + B_AT(n, k), left ? src : B, 4 * left);
#if PRESPLIT
        COPY16(Bs + B_FLOATS + B_AT(n, k), left ? src + (size_t)N * ldb : B, 4 * left);
#endif
    }
}
#else
// Columns not 16-byte aligned: through registers as A's (load_a), rounded and
// split when stored.
HELPER void load_b(float4* r, const __global float* B, const int ldb, const int N, const int K, const int n0,
                   const int k0, const int tid)
{
    #pragma unroll
    for (int l = 0; l < B_UNITS; l++) {
        const int id = tid + l * COPY_THREADS, n = B_UNIT_N(id), k = B_UNIT_K(id);
        const int left = n0 + n < N ? clamp4(K - k0 - k) : 0;
        const __global float* src = B + (k0 + k) + (n0 + n) * ldb;
        r[l] = load4_checked(src, 0, left);
    }
}

HELPER void store_b(__local float* Bs, __local float* Bsmall, const float4* r, const int tid)
{
    #pragma unroll
    for (int l = 0; l < B_UNITS; l++) {
        const int at = B_AT(B_UNIT_N(tid + l * COPY_THREADS), B_UNIT_K(tid + l * COPY_THREADS));
        const float4 big = (float4)(tf32_of(r[l].x), tf32_of(r[l].y), tf32_of(r[l].z), tf32_of(r[l].w));
        *(__local float4*)(Bs + at) = big;
#if SPLIT
        *(__local float4*)(Bsmall + at) = (float4)(tf32_of(r[l].x - big.x), tf32_of(r[l].y - big.y),
                                                 tf32_of(r[l].z - big.z), tf32_of(r[l].w - big.w));
#endif
    }
}
#endif

// 3xTF32: this work-item's copied float4 of a B tile rounded in place to TF32
// (big), their small parts at the same places of Bsmall. TF32 (SPLIT=0)
// leaves B as copied: the tensor cores read its top 19 bits (the TF32 bound
// of tools/check allows one operand truncated).
HELPER void round_b(__local float* Bs, __local float* Bsmall, const int tid)
{
#if SPLIT && !PRESPLIT
    #pragma unroll
    for (int l = 0; l < B_UNITS; l++) {
        const int at = B_AT(B_UNIT_N(tid + l * COPY_THREADS), B_UNIT_K(tid + l * COPY_THREADS));
        split4_in_place((__local float4*)(Bs + at), (__local float4*)(Bsmall + at));
    }
#endif
}
#endif

#define B_STAGE(s) (L + (s) * STAGE_FLOATS)
#define B_SMALL(s) (B_STAGE(s) + (SPLIT ? B_FLOATS : 0))
#define A_STAGE(s) (B_STAGE(s) + (SPLIT + 1) * B_FLOATS)
#define A_SMALL(s) (A_STAGE(s) + (SPLIT ? TSK * TSM : 0)) // A_DESC

#if A_FROM_LOCAL && (SPLIT || A_DESC == 1) && !PRESPLIT
// A_DESC: this work-item's copied float4 of an A tile rounded in place (TF32)
// or split into big, in place, and small at the same place of Asmall
// (3xTF32), as round_b's.
HELPER void round_a(__local float* As, __local float* Asmall, const int tid)
{
    #pragma unroll
    for (int u = 0; u < A_UNITS; u++) {
        A_PLACE(u);
#if SPLIT
        split4_in_place((__local float4*)(As + A_AT(m, k)), (__local float4*)(Asmall + A_AT(m, k)));
#else
        round4_in_place((__local float4*)(As + A_AT(m, k)));
#endif
    }
}
#define ROUND_A(tile) round_a(A_STAGE((tile) % STAGES) + A_AT(wm_copy, 0), A_SMALL((tile) % STAGES) + A_AT(wm_copy, 0), ctid)
#else
#define ROUND_A(tile)
#endif
// COPY_TILE issues the copies of a tile into its stage; an operand that goes
// through registers (unaligned A; B N-contiguous or unaligned) is loaded into
// ra / rb there and stored by STORE_TILE; ROUND_B rounds and splits B copied
// by cp.async.
#if VEC_A
#define COPY_A(tile) copy_a(A_STAGE((tile) % STAGES) + A_AT(wm_copy, 0), A, lda, M, K, m0 + wm_copy, (tile) * TSK, ctid)
#define STORE_A(tile)
#else
#define COPY_A(tile) load_a(ra, A, lda, M, K, m0 + wm_copy, (tile) * TSK, ctid)
#define STORE_A(tile) store_a(A_STAGE((tile) % STAGES) + A_AT(wm_copy, 0), ra, M, K, m0, ctid)
#endif
#if TRANS_B || !VEC_B
#define COPY_B(tile) load_b(rb, B, ldb, N, K, n0 + wn_copy, (tile) * TSK, ctid)
#define STORE_B(tile) store_b(B_STAGE((tile) % STAGES) + B_COLUMNS(wn_copy), B_SMALL((tile) % STAGES) + B_COLUMNS(wn_copy), rb, ctid)
#define ROUND_B(tile)
#else
#define COPY_B(tile) copy_b(B_STAGE((tile) % STAGES) + B_COLUMNS(wn_copy), B, ldb, N, K, n0 + wn_copy, (tile) * TSK, ctid)
#define STORE_B(tile)
#define ROUND_B(tile) round_b(B_STAGE((tile) % STAGES) + B_COLUMNS(wn_copy), B_SMALL((tile) % STAGES) + B_COLUMNS(wn_copy), ctid)
#endif
#define COPY_TILE(tile)                                                                                        \
    do {                                                                                                       \
        COPY_A(tile);                                                                                          \
        COPY_B(tile);                                                                                          \
    } while (0)
#define STORE_TILE(tile)                                                                                       \
    do {                                                                                                       \
        STORE_A(tile);                                                                                         \
        STORE_B(tile);                                                                                         \
    } while (0)

// This warp's A fragments of a stage (rows wm0 + g, + 8; k t, t + 4 of each 8),
// rounded to TF32 (big) and, for 3xTF32, the remainders (small).
HELPER void load_fragments(const __local float* as, uint (*big)[4], uint (*small)[4], const int r, const int t)
{
    #pragma unroll
    for (int kk = 0; kk < TSK / 8; kk++) {
        const int k = 8 * kk;
        const float x[4] = {as[A_AT(r, k + t)], as[A_AT(r + 8, k + t)], as[A_AT(r, k + t + 4)],
                            as[A_AT(r + 8, k + t + 4)]};
        #pragma unroll
        for (int q = 0; q < 4; q++) split_tf32(x[q], &big[kk][q], &small[kk][q]);
    }
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
#if SPLITK
void gk_xgemm_wgmma(SPLIT_K_ARGS)
{
    SPLIT_K_SLICE();
#else
void gk_xgemm_wgmma(const int M, const int N, const int K, const float alpha,
                    const __global float* A, const int offA, const int lda,
                    const __global float* B, const int offB, const int ldb,
                    const float beta, __global float* C, const int offC, const int ldc)
{
    A += offA;
    B += offB;
    C += offC;
#endif
    const int tid = get_local_id(0);
    const int lane = tid % 32, warp = tid / 32;
    const int g = lane / 4, t = lane % 4;
    const int wm0 = warp * 16;
    int tile_m, tile_n;
    tile_of_group(SWIZZLE, &tile_m, &tile_n);
    const int m0 = tile_m * TSM;
    const int n0 = tile_n * TSN;
    // The block (sized at launch with 1024 bytes to spare) from its first 1024-byte boundary on.
    extern __local float4 dynamic_local[];
    __local float* L = (__local float*)dynamic_local + ((1024 - (LOCAL_ADDRESS(dynamic_local) & 1023)) & 1023) / 4;

    float acc[NI][4];
    #pragma unroll
    for (int j = 0; j < NI; j++)
        #pragma unroll
        for (int q = 0; q < 4; q++) acc[j][q] = 0.0f;

    // Each warpgroup copies (and rounds) its own rows of A and its share of
    // B's columns, and runs on its own: instead of one barrier per tile, per
    // slot of the ring an mbarrier READY (all work-items have copied and
    // rounded the tile in it) and FREE (all have waited for the wgmmas that
    // read it), so one warpgroup's wgmmas run while the other waits for its
    // own and adds its partial.
    const int wg = tid / 128, ctid = tid % 128;
#if !PRODUCER
    const int wm_copy = wg * COPY_M, wn_copy = wg * COPY_N; // the share of the tiles this warpgroup copies
#endif
    __local ulong* ready = (__local ulong*)(L + STAGES * STAGE_FLOATS);
    __local ulong* free_slot = ready + STAGES;
    if (tid == 0)
        for (int s = 0; s < STAGES; s++) {
            phase_init(ready + s, PRODUCER ? 128 : CONSUMERS); // who copies
            phase_init(free_slot + s, CONSUMERS);
        }
    barrier(CLK_LOCAL_MEM_FENCE);

    // The ring's first AHEAD tiles, one copy group each (empty past the end:
    // the count of groups per tile stays fixed for COPY_WAIT).
    const int tiles = (K + TSK - 1) / TSK;
#if !VEC_A
    float4 ra[A_UNITS];
#endif
#if TRANS_B
    float4 rb[B_BLOCKS][4];
#elif !VEC_B
    float4 rb[B_UNITS];
#endif
#if PRODUCER
    if (wg == WGS) { // the producer: every warpgroup's share of each tile, a tile behind its copies (header)
        for (int tile = 0; tile <= tiles; tile++) {
            if (tile < tiles) {
                if (tile >= STAGES) phase_wait(free_slot + tile % STAGES, (tile / STAGES - 1) & 1);
                #pragma unroll
                for (int part = 0; part < WGS; part++) {
                    const int wm_copy = part * COPY_M, wn_copy = part * COPY_N;
                    COPY_TILE(tile);
                    STORE_TILE(tile);
                }
            }
            COPY_COMMIT();
            if (tile > 0) {
                COPY_WAIT(1); // tile - 1's copies by this work-item have landed
                #pragma unroll
                for (int part = 0; part < WGS; part++) {
                    const int wm_copy = part * COPY_M, wn_copy = part * COPY_N;
                    (void)wm_copy, (void)wn_copy;
                    ROUND_A(tile - 1);
                    ROUND_B(tile - 1);
                }
                FENCE_PROXY_ASYNC();
                phase_arrive(ready + (tile - 1) % STAGES);
            }
        }
        return;
    }
#else
    for (int s = 0; s < AHEAD; s++) {
        if (s < tiles) {
            COPY_TILE(s);
            STORE_TILE(s);
        }
        COPY_COMMIT();
    }
    COPY_WAIT(AHEAD - 1); // tile 0 has landed
    ROUND_A(0);
    ROUND_B(0);
    FENCE_PROXY_ASYNC();
    phase_arrive(ready);
#endif

#if A_FROM_LOCAL
    // Both operands through descriptors: tile t's wgmmas are issued, tile t -
    // 1's waited for (one group stays in flight while this work-item rounds
    // tile t + 1 and copies tile t + STAGES - 1 into tile t - 1's slot, free
    // once every work-item has waited for its wgmmas). 3xTF32 sums SUM_TILES
    // tiles in the tensor cores (the first product: scale-d = 0), then waits
    // for all and adds the sum to acc in fp32 (ptxas serializes wgmmas if a
    // group's accumulators are read while a later group runs: C7514).
#if SPLIT
    float part[NI][4];
#define SUM part
#define PER_SUM SUM_TILES
#else
#define SUM acc
#define PER_SUM 1
#endif
    const int wm_desc = wm0 / 64 * 64; // this warpgroup's 64 rows of the A tile
    for (int first = 0; first < tiles; first += PER_SUM) {
        #pragma unroll
        for (int i = 0; i < PER_SUM; i++) {
            const int tile = first + i, s = tile % STAGES;
            if (tile < tiles) {
#if WGS == 2 && SPLIT
                STAGGER_WAIT(tile, wg); // as below (no A_DESC)
#endif
                phase_wait(ready + s, (tile / STAGES) & 1);
                wgmma_tile_ss(SUM, tile_descriptor(A_STAGE(s) + A_AT(wm_desc, 0)),
                              tile_descriptor(A_SMALL(s) + A_AT(wm_desc, 0)), tile_descriptor(B_STAGE(s)),
                              tile_descriptor(B_SMALL(s)), SPLIT ? i : 1, SPLIT);

                WGMMA_WAIT(1); // tile - 1's
                if (tile > 0) phase_arrive(free_slot + (tile - 1) % STAGES);
#if !PRODUCER
                // Tile t + 1 (copied STAGES - 2 groups ago) rounded and announced.
                COPY_WAIT(STAGES - 3);
                if (tile + 1 < tiles) {
                    ROUND_A(tile + 1);
                    ROUND_B(tile + 1);
                    FENCE_PROXY_ASYNC();
                    phase_arrive(ready + (tile + 1) % STAGES);
                }
                // Tile t + STAGES - 1 into tile t - 1's slot; a B loaded through
                // registers (N-contiguous or unaligned: the policy copies such a
                // B first) is stored at once, waiting for its loads.
                const int ahead = tile + STAGES - 1;
                if (ahead < tiles) {
                    if (tile > 0) phase_wait(free_slot + (tile - 1) % STAGES, ((tile - 1) / STAGES) & 1);
                    COPY_TILE(ahead);
                    STORE_TILE(ahead);
                }
                COPY_COMMIT();
#endif
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
#elif PIPE
    // One group of wgmmas stays in flight: tile t's run while this work-item
    // copies, rounds, waits for tile t - 1's (WGMMA_WAIT(1)) and loads tile t
    // + 1's fragments into the other of two register sets (h: static, as the
    // loops over tiles are unrolled by SUM_TILES, an even count), so that no
    // register a running wgmma reads is written meanwhile (ptxas would
    // serialize the wgmmas: its warning C7513). 3xTF32 sums SUM_TILES tiles
    // in the tensor cores before adding the sum to acc in fp32, with no
    // wgmma in flight: ptxas serializes wgmmas if an earlier group's
    // accumulators are read while a later one runs (C7514). A slot is free
    // once tile t - 1's wgmmas are done, a tile later than without PIPE: the
    // copies run STAGES - 2 tiles ahead, into the slot of tile t - 2.
    uint a_big[2][TSK / 8][4], a_small[2][TSK / 8][4];
#if SPLIT
    float part[NI][4]; // SUM_TILES tiles' sum in the tensor cores (its first product: scale-d = 0)
#define SUM part
#else
#define SUM acc
#endif
    phase_wait(ready, 0);
    load_fragments(A_STAGE(0), a_big[0], a_small[0], wm0 + g, t);
    for (int first = 0; first < tiles; first += SUM_TILES) {
        #pragma unroll
        for (int i = 0; i < SUM_TILES; i++) {
            const int tile = first + i, h = i % 2;
            if (tile < tiles) {
                const int s = tile % STAGES;
                const ulong big = tile_descriptor(B_STAGE(s)), small = tile_descriptor(B_SMALL(s));
                WGMMA_FENCE();
                #pragma unroll
                for (int kk = 0; kk < TSK / 8; kk++) {
#if SPLIT
                    WGMMA(SUM, a_small[h][kk], big + B_STEP(kk), i + kk);
                    WGMMA(SUM, a_big[h][kk], small + B_STEP(kk), 1);
#endif
                    WGMMA(SUM, a_big[h][kk], big + B_STEP(kk), 1);
                }
                WGMMA_COMMIT();

                // While they run: tile t + STAGES - 2 into the slot of tile t - 2
                // (free: every work-item has waited for its wgmmas), tile t + 1
                // rounded and announced.
                const int ahead = tile + AHEAD;
                if (tile >= 2) phase_wait(free_slot + (tile - 2) % STAGES, ((tile - 2) / STAGES) & 1);
                if (ahead < tiles) COPY_TILE(ahead);
                COPY_COMMIT();
                COPY_WAIT(AHEAD - 1);
                if (tile + 1 < tiles) ROUND_B(tile + 1);
                if (ahead < tiles) STORE_TILE(ahead);
                FENCE_PROXY_ASYNC();
                if (tile + 1 < tiles) phase_arrive(ready + (tile + 1) % STAGES);

                // Tile t - 1's wgmmas done (3xTF32, at a sum's last tile: all
                // of them): its slot freed, its fragment registers take tile
                // t + 1's.
                if (SPLIT && i == SUM_TILES - 1)
                    WGMMA_WAIT(0);
                else
                    WGMMA_WAIT(1);
                if (tile > 0) phase_arrive(free_slot + (tile - 1) % STAGES);
                if (tile + 1 < tiles) {
                    phase_wait(ready + (tile + 1) % STAGES, ((tile + 1) / STAGES) & 1);
                    load_fragments(A_STAGE((tile + 1) % STAGES), a_big[h ^ 1], a_small[h ^ 1], wm0 + g, t);
                }
            }
        }
#if SPLIT
        WGMMA_WAIT(0); // the sum's last tile may have been the matrix's
        add_partial(acc, part);
#endif
    }
#undef SUM
    WGMMA_WAIT(0);
    fence_registers(acc);
#else
    // Each tile's wgmmas are waited for within it: A's fragments come from
    // registers, and ptxas serializes wgmmas whose register inputs are written
    // while an earlier group still runs (its warning C7513), so a group cannot
    // stay in flight across the next tile's fragment loads. The parity of a
    // slot's phase for tile t is (t / STAGES) & 1.
    uint a_big[TSK / 8][4], a_small[TSK / 8][4];
    for (int tile = 0; tile < tiles; tile++) {
        const int s = tile % STAGES;
#if WGS == 2 && SPLIT
        STAGGER_WAIT(tile, wg); // wgmma.h (TF32 without it: 256 against 250 TFLOPS)
#endif
        phase_wait(ready + s, (tile / STAGES) & 1);
        load_fragments(A_STAGE(s), a_big, a_small, wm0 + g, t);
#if SPLIT
        float part[NI][4]; // this tile's sum in the tensor cores (its first product: scale-d = 0)
#define SUM part
#else
#define SUM acc
#endif
        const ulong big = tile_descriptor(B_STAGE(s)), small = tile_descriptor(B_SMALL(s));
        WGMMA_FENCE();
        #pragma unroll
        for (int kk = 0; kk < TSK / 8; kk++) {
#if SPLIT
            WGMMA(SUM, a_small[kk], big + B_STEP(kk), kk);
            WGMMA(SUM, a_big[kk], small + B_STEP(kk), 1);
#endif
            WGMMA(SUM, a_big[kk], big + B_STEP(kk), 1);
        }
        WGMMA_COMMIT();

        // While the tensor cores work: the slot tile - 1 used (free once every
        // work-item has waited for its wgmmas; the first tile's is still
        // empty) takes tile + STAGES - 1; tile + 1's copies by this work-item,
        // rounded; the loads into registers issued with them, stored.
#if !PRODUCER
        if (tile > 0) phase_wait(free_slot + (tile - 1) % STAGES, ((tile - 1) / STAGES) & 1);
        if (tile + STAGES - 1 < tiles) COPY_TILE(tile + STAGES - 1);
        COPY_COMMIT();
        COPY_WAIT(AHEAD - 1);
        if (tile + 1 < tiles) ROUND_B(tile + 1);
        if (tile + STAGES - 1 < tiles) STORE_TILE(tile + STAGES - 1);
        FENCE_PROXY_ASYNC();
        if (tile + 1 < tiles) phase_arrive(ready + (tile + 1) % STAGES);
#endif

        WGMMA_WAIT(0);
#if SPLIT
        add_partial(acc, part);
#else
        fence_registers(acc);
#endif
#undef SUM
        if (tile + 1 < tiles) phase_arrive(free_slot + s);
#if WGS == 2 && SPLIT
        STAGGER_ARRIVE(tile, wg);
#endif
    }

#endif // PIPE

    // C = alpha * acc + beta * C (c0..c3 as in the header).
    #pragma unroll
    for (int j = 0; j < NI; j++) store_m16n8(C, ldc, M, N, m0 + wm0 + g, n0 + j * 8 + 2 * t, acc[j], alpha, beta);
}
