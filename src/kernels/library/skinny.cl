// SGEMM where one edge of C is small (up to MR, e.g. 16) and the other two
// dimensions are large: a matrix-vector-like product, bound by reading the
// large operand once (2 x 8192 x 8192 reads 256 MB of B to write 64 KB of C).
// Contract GK_CONTRACT_GEMM_DIRECT: any sizes, TRANS_A/TRANS_B, offsets,
// leading dimensions; column-major C = alpha * op(A) * op(B) + beta * C, C not
// read when beta == 0.
//
// One source, two registry rows, by SKINNY_N:
//   skinny-m (SKINNY_N=0): M small. S = op(A) (M x K), L = op(B) (K x N).
//   skinny-n (SKINNY_N=1): N small. S = op(B)^T (N x K), L = op(A)^T (K x M);
//   C^T = op(B)^T op(A)^T is the same product with the roles swapped.
// "Rows" r are the small dimension, "columns" c the long one.
//
// Built with -DSPLITK=1 (GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM, rows skinny-m-splitk
// and skinny-n-splitk): work-group z takes one slice of K into partial z
// (split_k.h), so that a small C over a long K fills every compute unit. Built
// with SUM_HERE=1 (the plan passes sum_here), the last of a tile's slices to
// finish sums the tile's partials in slice order and writes C with alpha and
// beta, its few results spread over all its work-items (tile_count.h): one
// launch. Without, the plan's reduction does that after.
//
// A work-group of LC x LK work-items computes MR rows by LC*NB columns of the
// result over all of K (no split over work-groups, no atomics): LC lanes across
// columns (each lane NB columns, LC apart), LK lanes along K. Per chunk of
// KC = LK*KU values of K:
//   - S's MR x KC block is staged in local memory (read along S's contiguous
//     dimension, stored k-major: RS below);
//   - each lane loads its KU x NB values of L into registers (all loads issued
//     before any use; with PF=1 one chunk ahead, so that their latency hides
//     behind the staging of S and the arithmetic) and accumulates MR x NB
//     partial sums. L is read coalesced in both storage orders, chosen at
//     compile time:
//       DOT (L contiguous along K: skinny-m with B not transposed, skinny-n
//       with A transposed): consecutive lanes take consecutive k of a column;
//       STREAM (L contiguous along the columns): consecutive lanes take
//       consecutive columns of one k.
// The LK partial sums of each result are then added through local memory in
// a fixed order. Rows at or past the small dimension are skipped by a
// branch that is the same for the whole work-group, so M = 2 costs 2 rows of
// arithmetic, not MR.

#ifndef SKINNY_N
#define SKINNY_N 0 // 0: M is the small dimension (skinny-m); 1: N is (skinny-n)
#endif
#ifndef MR
#define MR 16 // rows of the small dimension per work-group
#endif
#ifndef LC
#define LC 16 // lanes across the long dimension
#endif
#ifndef LK
#define LK 16 // lanes along K
#endif
#ifndef NB
#define NB 1 // long-dimension columns per lane
#endif
#ifndef KU
#define KU 8 // K values per lane per chunk
#endif
#ifndef PF
#define PF 0 // 1: each chunk's values of L loaded one chunk ahead, in registers
#endif
#ifndef SPLITK
#define SPLITK 0
#endif
#ifndef SUM_HERE
#define SUM_HERE 0 // 1: the plan has this split build's tiles sum their partials (its sum compiled in only then)
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif

#define WG (LC * LK)
#define KC (LK * KU)  // K per staged chunk
#define TL (LC * NB)  // long-dimension columns per work-group

// A, B and C point at the operands' first elements (offsets added once, at the start).
#include "skinny_roles.h" // A_AT, B_AT, S_AT, L_AT, OUT, S_K_FASTEST, L_K_FASTEST, SMALL, LONG
#define DOT L_K_FASTEST

// A staged k's MR values of S, stride RS apart. Where lanes along the long edge share their k (STREAM: a warp
// reads one k at a time, a broadcast) they are read back four rows at a time, one float4 serving 4 x NB
// multiply-adds where a float served NB, so RS is whole float4s (an odd number of them, which spreads the staging
// stores of consecutive k over 8 banks). Where lanes along K read different k (DOT), one float each, conflict-free
// at an odd RS.
#define MR4 ((MR + 3) / 4)                  // float4s of rows per staged k
#if DOT
#define RS (MR + 1)
#else
#define RS (4 * (MR4 + 1 - MR4 % 2))
#endif
#define LDS_FLOATS ((KC > WG ? KC : WG) * RS)

#if SKINNY_N
#define GK_SKINNY_FUNCTION gk_sgemm_skinny_n
// The groups of one block of columns run side by side (the small dimension's
// fastest): the few of them over MR rows each (N = 9 over MR = 4: three) read
// the same columns of op(A) at about the same time, from L2 after the first,
// instead of each a whole pass over it from memory.
#define GROUP_LINEAR ((int)get_group_id(0) + (int)get_num_groups(0) * (int)get_group_id(1))
#define GROUP_SMALL (GROUP_LINEAR % (int)get_num_groups(1))
#define GROUP_LONG (GROUP_LINEAR / (int)get_num_groups(1))
#define LANE get_local_id(0)
#define WG_X WG
#define WG_Y 1
#else
#define GK_SKINNY_FUNCTION gk_sgemm_skinny_m
#define GROUP_SMALL get_group_id(0)
#define GROUP_LONG get_group_id(1)
#define LANE get_local_id(1)
#define WG_X 1
#define WG_Y WG
#endif

// Which lane (by its linear id) holds partial sum q (of LK) of column slot tc.
#if DOT
#define LANE_OF(q, tc) ((tc) * LK + (q))
#else
#define LANE_OF(q, tc) ((q) * LC + (tc))
#endif

// A lane's KU x NB values of L for the chunk of K from k0 (zeros past K or the long edge).
#define LOAD_L(l, k0)                                                                  \
    do {                                                                               \
        _Pragma("unroll") for (int u = 0; u < KU; u++)                                 \
            _Pragma("unroll") for (int j = 0; j < NB; j++) {                           \
                const int k_ = (k0) + kl + LK * u, c_ = c0 + cl + LC * j;              \
                (l)[u][j] = k_ < K && c_ < LONG ? L_AT(k_, c_) : 0.0f;                 \
            }                                                                          \
    } while (0)

#if SPLITK
#include "split_k.h"    // SPLIT_K_SUM_ARGS_AS, SPLIT_K_SUM_INTO_PARTIAL
#include "tile_count.h" // COUNT_IN, sum_partials
#endif

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
#if SPLITK
void GK_SKINNY_FUNCTION(SPLIT_K_SUM_ARGS_AS(sum_alpha, sum_beta, sum_C, sum_ldc))
{
    SPLIT_K_SUM_INTO_PARTIAL(); // C, ldc, alpha, beta: this slice's partial
#if SUM_HERE
    __local int last; // this work-group is its tile's last slice to finish
#endif
#else
void GK_SKINNY_FUNCTION(const int M, const int N, const int K, const float alpha,
                        const __global float* A, const int offA, const int lda,
                        const __global float* B, const int offB, const int ldb,
                        const float beta, __global float* C, const int offC, const int ldc)
{
    A += offA;
    B += offB;
    C += offC;
#endif
    __local float4 lds4[(LDS_FLOATS + 3) / 4]; // float4s, so that four staged rows are read back as one aligned float4
    __local float* lds = (__local float*)lds4;
    const int lane = LANE;
#if DOT
    const int kl = lane % LK, cl = lane / LK;
#else
    const int cl = lane % LC, kl = lane / LC;
#endif
    const int r0 = GROUP_SMALL * MR;
    const int rows = min(MR, SMALL - r0);
    const int c0 = GROUP_LONG * TL;

    float acc[NB][MR];
#pragma unroll
    for (int j = 0; j < NB; j++)
#pragma unroll
        for (int r = 0; r < MR; r++) acc[j][r] = 0.0f;

#if PF
    float l[KU][NB];
    LOAD_L(l, 0);
#endif
    for (int k0 = 0; k0 < K; k0 += KC) {
        barrier(CLK_LOCAL_MEM_FENCE); // the previous chunk's reads are done
        // S(r0 + r, k0 + kk) -> lds[kk * RS + r], consecutive lanes along S's contiguous dimension.
        for (int t = lane; t < MR * KC; t += WG) {
#if S_K_FASTEST
            const int kk = t % KC, r = t / KC;
#else
            const int r = t % MR, kk = t / MR;
#endif
            if (r < rows) lds[kk * RS + r] = k0 + kk < K ? S_AT(r0 + r, k0 + kk) : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);

#if PF
        float next[KU][NB]; // the next chunk's L in flight while this one's is used
        LOAD_L(next, k0 + KC);
#else
        float l[KU][NB];
        LOAD_L(l, k0);
#endif
#if DOT
#pragma unroll
        for (int r = 0; r < MR; r++)
            if (r < rows) { // the same for the whole work-group
#pragma unroll
                for (int u = 0; u < KU; u++) {
                    const float s = lds[(kl + LK * u) * RS + r];
#pragma unroll
                    for (int j = 0; j < NB; j++) acc[j][r] = fma(s, l[u][j], acc[j][r]);
                }
            }
#else
        // Rows at or past the small edge (the same for the whole work-group) are skipped; their staged values,
        // never written, only ride along in the float4s.
#define ROW_FMA(r, sv)                                                                                 \
    if ((r) < MR && (r) < rows) {                                                                      \
        _Pragma("unroll") for (int j = 0; j < NB; j++) acc[j][r] = fma(sv, l[u][j], acc[j][r]);        \
    }
#pragma unroll
        for (int q = 0; q < MR4; q++)
            if (4 * q < rows) {
#pragma unroll
                for (int u = 0; u < KU; u++) {
                    const float4 s = lds4[((kl + LK * u) * RS) / 4 + q];
                    ROW_FMA(4 * q, s.x)
                    ROW_FMA(4 * q + 1, s.y)
                    ROW_FMA(4 * q + 2, s.z)
                    ROW_FMA(4 * q + 3, s.w)
                }
            }
#undef ROW_FMA
#endif
#if PF
#pragma unroll
        for (int u = 0; u < KU; u++)
#pragma unroll
            for (int j = 0; j < NB; j++) l[u][j] = next[u][j];
#endif
    }

    // Each result's LK partial sums, added in lane order through local memory, one column slot at a time.
#pragma unroll
    for (int j = 0; j < NB; j++) {
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int r = 0; r < MR; r++)
            if (r < rows) lds[lane * RS + r] = acc[j][r];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int t = lane; t < LC * MR; t += WG) {
#if SKINNY_N
            const int tc = t % LC, r = t / LC; // consecutive lanes write consecutive elements of a column of C
#else
            const int r = t % MR, tc = t / MR;
#endif
            const int c = c0 + tc + LC * j;
            if (r < rows && c < LONG) {
                float sum = 0.0f;
                for (int q = 0; q < LK; q++) sum += lds[LANE_OF(q, tc) * RS + r];
                __global float* out = &OUT(r0 + r, c);
                // BLAS: with beta == 0, C is not read (NaN in C must not leak).
                *out = beta == 0.0f ? alpha * sum : alpha * sum + beta * *out;
            }
        }
    }
#if SPLITK && SUM_HERE
    // The sum after the conditional block that holds the barriers, not inside it: there PoCL stored the first
    // work-item's results twice.
    if (sum_here) COUNT_IN(tile_counts, lane, last);
    if (sum_here && last)
        sum_partials(P, ldp, strideP, (int)get_num_groups(2), C_BLOCK(r0, rows, c0, min(TL, LONG - c0)), sum_alpha,
                     sum_beta, sum_C, sum_ldc, lane, WG);
#endif
}
