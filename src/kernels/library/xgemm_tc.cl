// SGEMM on the tensor cores of NVIDIA GPUs (compute capability 8.0 and newer)
// through inline PTX mma.sync.m16n8k8 with TF32 operands: the math modes
// `3xtf32` (SPLIT=1, fp32 accuracy) and `tf32` (SPLIT=0, TF32 accuracy).
// docs/MATH.md has the modes, their accuracy and the host model behind them.
//
// Contract (GK_CONTRACT_GEMM_DIRECT), column-major, any shape, as
// xgemm_direct.cl: C = alpha * op(A) * op(B) + beta * C, C not read when
// beta == 0; TRANS_A/TRANS_B pick each operand's storage order, VEC_A/VEC_B
// allow float4 loads. Edge tiles and the last K step are bounds-checked
// (zeros outside). One source for NVIDIA's OpenCL and NVRTC (cl_to_cuda.h);
// other OpenCL devices cannot build it (the library refuses the modes first).
// SPLITK=1 (the registry's xgemm-3xtf32-splitk, contract
// GK_CONTRACT_GEMM_DIRECT_SPLIT; library/split_k.h): one K-slice per work-group
// z into its own partial, which the plan's reduction sums, for tiles that
// leave compute units idle (1024^3 in the 256 x 64 tiles of the H200's line:
// 64 work-groups for 132 SMs).
//
// Work-group: WARPS_M x WARPS_N warps of 32 work-items (one dimension), a
// TSM x TSN tile of C (TSM = WARPS_M*MI*16, TSN = WARPS_N*NI*8); each warp an
// (MI*16) x (NI*8) block of MI x NI mma tiles. Operand tiles of TSK k are
// staged in local memory as [k][m] and [k][n] (double-buffered, the next one
// prefetched into registers while the current one is multiplied).
//
// Fragments (PTX ISA, "Matrix Fragments for mma.m16n8k8", .tf32), with
// g = lane / 4 and t = lane % 4:
//   A (16 x 8, 4 regs): a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4)
//   B (8 x 8, 2 regs):  b0 (k=t, n=g), b1 (k=t+4, n=g)
//   C (16 x 8, 4 f32):  c0 (g, 2t), c1 (g, 2t+1), c2 (g+8, 2t), c3 (g+8, 2t+1)
// A local row of TSM + 8 floats puts the four k rows of one fragment load on
// different banks (8t + g covers all 32). A K-contiguous operand (A with
// TRANS_A, B without TRANS_B) is stored transposed, one float per store: the
// four work-items of one row's k chunks then write k rows 4 apart, which that
// row length puts on one bank (4-way conflicts). LOCAL_SWIZZLE=1 XORs bits 3-4
// of the column with (k / 4) % 4, so those four writes meet four bank groups,
// while a fragment load (one k / 4 per instruction, 8 aligned columns) still
// meets 32 banks; float4 stores along the columns stay whole.
//
// 3xTF32 (SPLIT=1): x = big + small, big = tf32(x), small = tf32(x - big)
// (x - big is exact). Each K tile sums small*big + big*small + big*big (small
// terms first) per mma step into a tensor-core partial that starts from zero,
// and adds the partial to an fp32 register at the end of the tile: the tensor
// core truncates its sums, so a partial over TSK terms stays short, and the
// long sum over K is fp32 adds rounded to nearest (tools/check/tf32_model.h:
// one accumulator over all K has about 3x this error, above fp32's).
// small*small (below 2^-22 of the product) is dropped.
// TF32 (SPLIT=0): big*big accumulated in the tensor core, as cuBLAS's TF32.
// Rounding is done in integer arithmetic, as cvt.rna.tf32.f32 does it (ties
// away from zero), so the kernel rounds exactly as the host model.
// Non-finite inputs: where fp32 gives +-Inf, 3xTF32 may give NaN (Inf - Inf in
// the split, Inf * 0 in a small term).

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
#define TSK 16 // K per local-memory tile (a multiple of 8)
#endif
#ifndef SPLITK
#define SPLITK 0 // 1: one K-slice per work-group z into its own partial (header)
#endif
#ifndef SPLIT
#define SPLIT 1 // 1: 3xTF32; 0: 1xTF32
#endif
#ifndef LOCAL_SWIZZLE
#define LOCAL_SWIZZLE 0 // 1: local columns XOR-swizzled by k (header)
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

#define TSM (WARPS_M * MI * 16)
#define TSN (WARPS_N * NI * 8)
#define THREADS (WARPS_M * WARPS_N * 32)
#define LPTA (TSK * TSM / 4 / THREADS) // float4 loads of A per work-item per tile
#define LPTB (TSK * TSN / 4 / THREADS)
#define ROW_A (TSM / 4 + 2) // local row lengths in float4: TSM + 8 floats
#define ROW_B (TSN / 4 + 2)
// Element (k, x) of a local tile `width` floats wide with rows of `stride`
// floats (widths are powers of two from 16: the XOR stays inside the tile).
#if LOCAL_SWIZZLE
#define SWIZZLE_GROUPS(width) ((width) / 8 < 4 ? (width) / 8 : 4)
#define LOCAL_AT(k, x, stride, width) ((k) * (stride) + ((x) ^ (8 * (((k) / 4) % SWIZZLE_GROUPS(width)))))
#else
#define LOCAL_AT(k, x, stride, width) ((k) * (stride) + (x))
#endif
// A fragment load's element: k = 4 kq + t (kq a constant of the unrolled loop,
// t < 4), column base + off with base = the warp's first column + g (bits 3-4
// clear where FOLD: warp offsets are multiples of 32) and off = 16 i (+ 8) a
// constant: the XOR then falls on off alone and folds into the load's
// immediate offset (as LOCAL_AT, ptxas kept an XOR per fragment: 3xTF32 went
// from 233 registers to 255 and spilled).
#define FRAGMENT_AT(kq, t, base, off, stride, width, FOLD)                                                       \
    (FOLD ? (4 * (kq) + (t)) * (stride) + (base) + LOCAL_AT(4 * (kq), off, 0, width)                             \
          : LOCAL_AT(4 * (kq) + (t), (base) + (off), stride, width))
#define FOLD_A (MI % 2 == 0 || WARPS_M == 1)
#define FOLD_B (NI % 4 == 0 || WARPS_N == 1)

// Inlined at every use, so that private arrays stay in registers.
#define HELPER static inline __attribute__((always_inline))

#include "tf32.h" // tf32_bits, split_tf32, store_m16n8
#include "split_k.h" // SPLIT_K_ARGS, SPLIT_K_SLICE

// d = a * b + d on one m16n8k8 tile (fragments as in the header).
#define MMA(d, a, b)                                                                                          \
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "                                       \
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"                        \
                 : "=f"((d)[0]), "=f"((d)[1]), "=f"((d)[2]), "=f"((d)[3])                                      \
                 : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]),              \
                   "f"((d)[0]), "f"((d)[1]), "f"((d)[2]), "f"((d)[3]))

// Four consecutive floats inside the matrix; one float4 load when `vec`.
HELPER float4 load4(const __global float* X, const int i, const int vec)
{
    if (vec) return *(const __global float4*)(X + i);
    return (float4)(X[i], X[i + 1], X[i + 2], X[i + 3]);
}

// The id-th float4 of a tile with origin (x0, k0): along x where x (M or N)
// is contiguous (element (x, k) at X[x + k*ld]), along k where K is.
#define OUTER_X(x0, id, tile) ((x0) + 4 * ((id) % ((tile) / 4)))
#define OUTER_K(k0, id, tile) ((k0) + (id) / ((tile) / 4))
#define KMAJOR_X(x0, id) ((x0) + (id) / (TSK / 4))
#define KMAJOR_K(k0, id) ((k0) + 4 * ((id) % (TSK / 4)))

// This work-item's float4 of a tile into registers: unchecked when `full`
// (uniform over the work-group), bounds-checked otherwise.
HELPER void load_outer(float4* r, const __global float* X, const int ld, const int size, const int K, const int x0,
                       const int k0, const int tid, const int tile, const int loads, const int full, const int vec)
{
    #pragma unroll
    for (int l = 0; l < loads; l++) {
        const int id = tid + l * THREADS, x = OUTER_X(x0, id, tile), k = OUTER_K(k0, id, tile);
        r[l] = full ? load4(X, x + k * ld, vec) : load4_checked(X, x + k * ld, k < K ? size - x : 0);
    }
}

HELPER void load_kmajor(float4* r, const __global float* X, const int ld, const int size, const int K, const int x0,
                        const int k0, const int tid, const int loads, const int full, const int vec)
{
    #pragma unroll
    for (int l = 0; l < loads; l++) {
        const int id = tid + l * THREADS, x = KMAJOR_X(x0, id), k = KMAJOR_K(k0, id);
        r[l] = full ? load4(X, k + x * ld, vec) : load4_checked(X, k + x * ld, x < size ? K - k : 0);
    }
}

// Registers into a local tile `width` floats wide with `row` float4 per k: as
// they are, or each load's four k values down its column.
HELPER void store_outer(__local float4* tile, const float4* r, const int tid, const int width, const int row,
                        const int loads)
{
    __local float* t = (__local float*)tile;
    #pragma unroll
    for (int l = 0; l < loads; l++) {
        const int id = tid + l * THREADS;
        const int k = id / (width / 4), x = 4 * (id % (width / 4));
        *(__local float4*)(t + LOCAL_AT(k, x, row * 4, width)) = r[l];
    }
}

HELPER void store_kmajor(__local float4* tile, const float4* r, const int tid, const int width, const int row,
                         const int loads)
{
    __local float* t = (__local float*)tile;
    #pragma unroll
    for (int l = 0; l < loads; l++) {
        const int id = tid + l * THREADS;
        const int k = 4 * (id % (TSK / 4)), x = id / (TSK / 4);
        t[LOCAL_AT(k + 0, x, row * 4, width)] = r[l].x;
        t[LOCAL_AT(k + 1, x, row * 4, width)] = r[l].y;
        t[LOCAL_AT(k + 2, x, row * 4, width)] = r[l].z;
        t[LOCAL_AT(k + 3, x, row * 4, width)] = r[l].w;
    }
}

#if TRANS_A
#define LOAD_A(k0, full) load_kmajor(ra, A, lda, M, K, m0, k0, tid, LPTA, full, VEC_A)
#define STORE_A(buf) store_kmajor(As[buf], ra, tid, TSM, ROW_A, LPTA)
#else
#define LOAD_A(k0, full) load_outer(ra, A, lda, M, K, m0, k0, tid, TSM, LPTA, full, VEC_A)
#define STORE_A(buf) store_outer(As[buf], ra, tid, TSM, ROW_A, LPTA)
#endif
#if TRANS_B
#define LOAD_B(k0, full) load_outer(rb, B, ldb, N, K, n0, k0, tid, TSN, LPTB, full, VEC_B)
#define STORE_B(buf) store_outer(Bs[buf], rb, tid, TSN, ROW_B, LPTB)
#else
#define LOAD_B(k0, full) load_kmajor(rb, B, ldb, N, K, n0, k0, tid, LPTB, full, VEC_B)
#define STORE_B(buf) store_kmajor(Bs[buf], rb, tid, TSN, ROW_B, LPTB)
#endif

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
#if SPLITK
void gk_xgemm_tc(SPLIT_K_ARGS)
{
    SPLIT_K_SLICE();
#else
void gk_xgemm_tc(const int M, const int N, const int K, const float alpha,
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
    const int wm0 = (warp % WARPS_M) * MI * 16, wn0 = (warp / WARPS_M) * NI * 8;
    const int m0 = get_group_id(0) * TSM;
    const int n0 = get_group_id(1) * TSN;
    const int inside_m = m0 <= M - TSM, inside_n = n0 <= N - TSN; // m0 + TSM would wrap past 2^31 - TSM

    __local float4 As[2][TSK * ROW_A];
    __local float4 Bs[2][TSK * ROW_B];

    float acc[MI][NI][4];
    #pragma unroll
    for (int i = 0; i < MI; i++)
        #pragma unroll
        for (int j = 0; j < NI; j++)
            #pragma unroll
            for (int q = 0; q < 4; q++) acc[i][j][q] = 0.0f;

    float4 ra[LPTA], rb[LPTB];
    LOAD_A(0, inside_m && TSK <= K);
    LOAD_B(0, inside_n && TSK <= K);
    STORE_A(0);
    STORE_B(0);
    barrier(CLK_LOCAL_MEM_FENCE);

    const int tiles = (K + TSK - 1) / TSK;
    for (int tile = 0; tile < tiles; tile++) {
        const int cur = tile & 1;
        const int has_next = tile + 1 < tiles;
        if (has_next) {
            const int k0 = (tile + 1) * TSK, full_k = k0 + TSK <= K;
            LOAD_A(k0, inside_m && full_k);
            LOAD_B(k0, inside_n && full_k);
        }
        const __local float* as = (const __local float*)As[cur];
        const __local float* bs = (const __local float*)Bs[cur];
#if SPLIT
        float part[MI][NI][4]; // this tile's sum in the tensor core, from zero
        #pragma unroll
        for (int i = 0; i < MI; i++)
            #pragma unroll
            for (int j = 0; j < NI; j++)
                #pragma unroll
                for (int q = 0; q < 4; q++) part[i][j][q] = 0.0f;
#endif
        #pragma unroll
        for (int kk = 0; kk < TSK; kk += 8) {
            uint a_big[MI][4], b_big[NI][2], a_small[MI][4], b_small[NI][2]; // small: 3xTF32 only
            #pragma unroll
            for (int i = 0; i < MI; i++) {
                const int r = wm0 + g, kq = kk / 4;
                const float x[4] = {as[FRAGMENT_AT(kq, t, r, i * 16, ROW_A * 4, TSM, FOLD_A)],
                                    as[FRAGMENT_AT(kq, t, r, i * 16 + 8, ROW_A * 4, TSM, FOLD_A)],
                                    as[FRAGMENT_AT(kq + 1, t, r, i * 16, ROW_A * 4, TSM, FOLD_A)],
                                    as[FRAGMENT_AT(kq + 1, t, r, i * 16 + 8, ROW_A * 4, TSM, FOLD_A)]};
                #pragma unroll
                for (int q = 0; q < 4; q++) split_tf32(x[q], &a_big[i][q], &a_small[i][q]);
            }
            #pragma unroll
            for (int j = 0; j < NI; j++) {
                const int c = wn0 + g, kq = kk / 4;
                const float y[2] = {bs[FRAGMENT_AT(kq, t, c, j * 8, ROW_B * 4, TSN, FOLD_B)],
                                    bs[FRAGMENT_AT(kq + 1, t, c, j * 8, ROW_B * 4, TSN, FOLD_B)]};
                #pragma unroll
                for (int q = 0; q < 2; q++) split_tf32(y[q], &b_big[j][q], &b_small[j][q]);
            }
            #pragma unroll
            for (int i = 0; i < MI; i++)
                #pragma unroll
                for (int j = 0; j < NI; j++) {
#if SPLIT
                    MMA(part[i][j], a_small[i], b_big[j]);
                    MMA(part[i][j], a_big[i], b_small[j]);
                    MMA(part[i][j], a_big[i], b_big[j]);
#else
                    MMA(acc[i][j], a_big[i], b_big[j]);
#endif
                }
        }
#if SPLIT
        #pragma unroll
        for (int i = 0; i < MI; i++)
            #pragma unroll
            for (int j = 0; j < NI; j++)
                #pragma unroll
                for (int q = 0; q < 4; q++) acc[i][j][q] += part[i][j][q];
#endif
        // The other buffer was last read before the previous barrier: safe to fill.
        if (has_next) {
            STORE_A(cur ^ 1);
            STORE_B(cur ^ 1);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // C = alpha * acc + beta * C (c0..c3 as in the header).
    #pragma unroll
    for (int i = 0; i < MI; i++)
        #pragma unroll
        for (int j = 0; j < NI; j++)
            store_m16n8(C, ldc, M, N, m0 + wm0 + i * 16 + g, n0 + wn0 + j * 8 + 2 * t, acc[i][j], alpha, beta);
}
