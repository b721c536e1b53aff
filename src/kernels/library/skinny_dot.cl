// SGEMM where one edge of C is small (up to MR per work-group) and the large
// operand is contiguous along K: skinny-m with B not transposed, skinny-n with
// A transposed (skinny.cl's "DOT" orientation). The product is bound by
// reading the large operand once, so this kernel reads it the way a copy
// would: each column of it in whole float4s along K, KL lanes side by side
// covering 16*KL contiguous bytes per load, U loads per column in flight per
// lane; the small operand's rows are staged in local memory k-contiguous per
// chunk of K and read back as float4 too, one read serving NB columns (and,
// with KL under 32, every column lane of a warp that shares its k: a broadcast).
// Contract GK_CONTRACT_GEMM_DIRECT (any sizes, TRANS_A/TRANS_B, offsets,
// leading dimensions; column-major C = alpha * op(A) * op(B) + beta * C, C
// not read when beta == 0); in the other orientation it is correct, and slow.
//
// Roles and names as in skinny.cl (skinny_roles.h): S is the small operand
// (SMALL x K), L the large one (K x LONG), "rows" r the small edge, "columns"
// c the long one; skinny-m-dot is SKINNY_N=0, skinny-n-dot SKINNY_N=1.
//
// A work-group of KL x CL lanes computes MR rows by CL*NB columns over all
// of K (or its slice, SPLITK=1: split_k.h; each tile's last slice sums the
// partials in order): lane (kl, cl) takes columns cl + CL*j (j < NB) and the
// float4s 4*(kl + KL*u) (u < U) of each chunk of KC = 4*KL*U values of K.
// Its MR x NB partial sums are added over the KL lanes of a column once, at
// the end, through local memory in lane order: no atomics, the same bits on
// every run. Rows past the small edge are skipped by a branch that is the
// same for the whole work-group.
//
// float4 loads need L's columns 16-byte aligned (VEC_B for skinny-m, VEC_A
// for skinny-n: offset and leading dimension multiples of 4 floats) and the
// slice to start on a multiple of 4; otherwise each float4 is four loads. A
// short last chunk of K is bounds-checked.
//
// The split-K build (GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM, rows *-dot-splitk)
// stores its slice's partial; built with SUM_HERE=1, the last of a tile's slices to
// finish sums the tile's partials in slice order and writes C with alpha and
// beta, its results spread over all its work-items (tile_count.h): one
// launch. Without, the plan's reduction does that after.

#ifndef SKINNY_N
#define SKINNY_N 0
#endif
#ifndef MR
#define MR 4 // rows of the small edge per work-group
#endif
#ifndef KL
#define KL 32 // lanes along K per column
#endif
#ifndef CL
#define CL 4 // lanes across the long edge
#endif
#ifndef NB
#define NB 2 // columns per lane
#endif
#ifndef U
#define U 4 // float4 loads per column per lane per chunk
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
#ifndef VEC_A
#define VEC_A 0
#endif
#ifndef VEC_B
#define VEC_B 0
#endif

#define WG (KL * CL)
#define KC (4 * KL * U)      // K per staged chunk
#define RSK (KC + 4)         // a staged row's stride: a float4 of padding staggers the rows over the banks
#define RED_ROW (KL + 1)     // the final sums' stride per column: odd, conflict-free
#define LDS_FLOATS (MR * RSK > MR * CL * RED_ROW ? MR * RSK : MR * CL * RED_ROW)
#define LDS_FLOAT4S ((LDS_FLOATS + 3) / 4)

#include "skinny_roles.h" // A_AT, B_AT, S_AT, L_AT, OUT, S_K_FASTEST, L_K_FASTEST, SMALL, LONG

#if SKINNY_N
#define GK_SKINNY_DOT_FUNCTION gk_sgemm_skinny_n_dot
#define VEC_L VEC_A
#define GROUP_LONG get_group_id(0)
#define GROUP_SMALL get_group_id(1)
#define LANE get_local_id(0)
#define WG_X WG
#define WG_Y 1
#else
#define GK_SKINNY_DOT_FUNCTION gk_sgemm_skinny_m_dot
#define VEC_L VEC_B
#define GROUP_SMALL get_group_id(0)
#define GROUP_LONG get_group_id(1)
#define LANE get_local_id(1)
#define WG_X 1
#define WG_Y WG
#endif

#if SPLITK
#include "split_k.h"    // SPLIT_K_SUM_ARGS_AS, SPLIT_K_SUM_INTO_PARTIAL
#include "tile_count.h" // COUNT_IN, sum_partials
#endif

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
#if SPLITK
void GK_SKINNY_DOT_FUNCTION(SPLIT_K_SUM_ARGS_AS(sum_alpha, sum_beta, sum_C, sum_ldc))
{
    SPLIT_K_SUM_INTO_PARTIAL(); // C, ldc, alpha, beta: this slice's partial
    const int vec = L_K_FASTEST && VEC_L && kz % 4 == 0;
#if SUM_HERE
    __local int last; // this work-group is its tile's last slice to finish
#endif
#else
void GK_SKINNY_DOT_FUNCTION(const int M, const int N, const int K, const float alpha,
                            const __global float* A, const int offA, const int lda,
                            const __global float* B, const int offB, const int ldb,
                            const float beta, __global float* C, const int offC, const int ldc)
{
    A += offA;
    B += offB;
    C += offC;
    const int vec = L_K_FASTEST && VEC_L;
#endif
    __local float4 lds4[LDS_FLOAT4S]; // float4s, so that the staged rows are read back as aligned float4s
    __local float* lds = (__local float*)lds4;
    const int lane = LANE;
    const int kl = lane % KL, cl = lane / KL;
    const int r0 = GROUP_SMALL * MR;
    const int rows = min(MR, SMALL - r0);
    const int c0 = GROUP_LONG * (CL * NB);

    float acc[NB][MR];
#pragma unroll
    for (int j = 0; j < NB; j++)
#pragma unroll
        for (int r = 0; r < MR; r++) acc[j][r] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += KC) {
        barrier(CLK_LOCAL_MEM_FENCE); // the previous chunk's reads are done
        // S(r0 + r, k0 + kk) -> lds[r * RSK + kk], consecutive lanes along S's contiguous dimension.
        for (int t = lane; t < rows * KC; t += WG) {
#if S_K_FASTEST
            const int kk = t % KC, r = t / KC;
#else
            const int r = t % rows, kk = t / rows;
#endif
            lds[r * RSK + kk] = k0 + kk < K ? S_AT(r0 + r, k0 + kk) : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        // This lane's U float4s of each of its NB columns, all loads issued before any is used.
        float4 l[U][NB];
        const int whole = k0 + KC <= K; // the same for the whole work-group
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int j = 0; j < NB; j++) {
                const int k = k0 + 4 * (kl + KL * u), c = c0 + cl + CL * j;
                if (c >= LONG) {
                    l[u][j] = (float4)(0.0f);
                } else if (vec && whole) {
                    l[u][j] = *(const __global float4*)&L_AT(k, c);
                } else if (whole) {
                    l[u][j] = (float4)(L_AT(k, c), L_AT(k + 1, c), L_AT(k + 2, c), L_AT(k + 3, c));
                } else {
                    l[u][j] = (float4)(k < K ? L_AT(k, c) : 0.0f, k + 1 < K ? L_AT(k + 1, c) : 0.0f,
                                       k + 2 < K ? L_AT(k + 2, c) : 0.0f, k + 3 < K ? L_AT(k + 3, c) : 0.0f);
                }
            }
#pragma unroll
        for (int r = 0; r < MR; r++)
            if (r < rows) { // the same for the whole work-group
#pragma unroll
                for (int u = 0; u < U; u++) {
                    const float4 s = *(const __local float4*)&lds[r * RSK + 4 * (kl + KL * u)];
#pragma unroll
                    for (int j = 0; j < NB; j++) {
                        float a = acc[j][r];
                        a = fma(s.x, l[u][j].x, a);
                        a = fma(s.y, l[u][j].y, a);
                        a = fma(s.z, l[u][j].z, a);
                        acc[j][r] = fma(s.w, l[u][j].w, a);
                    }
                }
            }
    }

    // Each result's KL partial sums, added in lane order through local memory, one column slot at a time.
#pragma unroll
    for (int j = 0; j < NB; j++) {
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int r = 0; r < MR; r++)
            if (r < rows) lds[(r * CL + cl) * RED_ROW + kl] = acc[j][r];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int t = lane; t < CL * MR; t += WG) {
#if SKINNY_N
            const int tc = t % CL, r = t / CL; // consecutive lanes write consecutive elements of a column of C
#else
            const int r = t % MR, tc = t / MR;
#endif
            const int c = c0 + tc + CL * j;
            if (r < rows && c < LONG) {
                float sum = 0.0f;
                for (int q = 0; q < KL; q++) sum += lds[(r * CL + tc) * RED_ROW + q];
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
        sum_partials(P, ldp, strideP, (int)get_num_groups(2), C_BLOCK(r0, rows, c0, min(CL * NB, LONG - c0)),
                     sum_alpha, sum_beta, sum_C, sum_ldc, lane, WG);
#endif
}
