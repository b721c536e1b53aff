// The Ozaki scheme II's row exponents, the first half of slicing an operand (GK_MATH_INT8X; contract
// GK_CONTRACT_OZAKI_NORMS): (rows, K, rows_p, moduli, X, offX, sr, sk, R)
// With SPREAD=1 the same loads and sums give the operand's spread instead (contract GK_CONTRACT_OZAKI_SPREAD,
// function gk_ozaki_spread): (rows, K, X, offX, sr, sk, Q, q), below.
// Row r of op(X) (element k at X[offX + r*sr + k*sk]; A's rows, or B's columns) is scaled by 2^e, the largest
// power of two that keeps its 2-norm within gk_ozaki_norm_bound after rounding each element to an integer
// (exact in fp64: an fp32 times a power of two, rounded), so that every product of a row of A and a column of B
// stays below P/2 (Cauchy-Schwarz) and the residues recover it exactly. The scale is per row, so that rows of
// very different magnitudes keep their own accuracy.
// Writes the first rows_p ints of R (the layout: ozaki_slice.cl): each row's e, GK_OZAKI_NONFINITE where it
// holds Inf or NaN, 0 past rows. ozaki_slice.cl then reads them to write the residues.
//
// The sum of squares has one order whatever the layout: 64 classes (k mod 64), each summed in k order by fma
// from zero, then the classes pairwise (class c += class c + s, s = 32, 16, ..., 1), in fp64. So both
// orientations of an operand give the same exponents bit for bit.
// Work-group: 256 work-items, 32 rows, each work-item 8 (row, class) sums, two runs of 4 along the contiguous
// dimension, so that it loads a float4 per run (where X's offset and stride allow: 16-byte aligned) and a warp
// reads 512 bytes in runs of 128 or 256: K_CONTIGUOUS (sk == 1): 4 consecutive classes (k) of a row, a warp 2
// rows; otherwise (sr == 1: rows contiguous, K strided) 4 consecutive rows of one class, a warp 32 rows at 4
// consecutive k. The work-groups are few (rows / 32: 2 an SM on an H100 at 8192), so each work-item issues
// all its loads of STEPS steps of 64 k (STEPS * 2 float4s) before it uses them; those passes, wholly inside the
// matrix, load unconditionally (conditional loads compiled to loads issued one use at a time: 2 in flight,
// latency-bound: 0.43 ms for 8192 x 8192, 628 GB/s). The edges (and unaligned X) take per-element loads, a
// square past K or rows being +0, which leaves the sums as they are; both paths add each class in k order.
//
// SPREAD=1: each row's rho = sqrt(K) |x|_2 / |x|_1 (1 for equal magnitudes, up to sqrt(K) for one nonzero
// element), from the sum of squares above and a sum of |x| beside it (same classes, same order), as quarter
// bits ceil(4 log2(rho)), 0..255; Q[q] = the largest over the rows, by an integer atomic max (Q[q] starts at 0;
// max is order-free, so the result is the same however the work-groups run). Zero rows and rows holding Inf or
// NaN are left out (the recombination computes the latter in fp32). The plan picks its moduli from it
// (plan_ozaki.c).

#include "ozaki.h"

#ifndef K_CONTIGUOUS
#define K_CONTIGUOUS 1
#endif
#ifndef SPREAD
#define SPREAD 0
#endif

#define NORM_ROWS 32
#define CLASSES 64
#define THREADS 256
#define STEPS 4 // steps of 64 k per pass of the vector loop: 2 * STEPS float4 loads in flight per work-item

// Sum v (0..3) of run j (0, 1) of work-item t: its row (0..31) and class (0..63).
#if K_CONTIGUOUS
#define ROW_OF(t, j, v) ((t) / 16 + 16 * (j))
#define CLASS_OF(t, j, v) (4 * ((t) % 16) + (v))
#else
#define ROW_OF(t, j, v) (4 * ((t) % 8) + (v))
#define CLASS_OF(t, j, v) ((t) / 8 + 32 * (j))
#endif

// The float4s of one pass (STEPS steps of 64 k from k0) into x[STEPS][2], unconditionally.
#define LOAD_PASS(x, k0)                                                                                       \
    do {                                                                                                       \
        _Pragma("unroll") for (int h = 0; h < STEPS; h++) _Pragma("unroll") for (int j = 0; j < 2; j++)        \
            x[h][j] = *(const __global float4*)(X + offX + (size_t)(row0 + ROW_OF(t, j, 0)) * sr +             \
                                                (size_t)((k0) + h * CLASSES + CLASS_OF(t, j, 0)) * sk);        \
    } while (0)

// Sum v of run j takes element x (a double): its square, and under SPREAD its magnitude.
#if SPREAD
#define ACCUMULATE(j, v, x)                                                                                    \
    do {                                                                                                       \
        acc[j][v] = fma((x), (x), acc[j][v]);                                                                  \
        mag[j][v] += fabs(x);                                                                                  \
    } while (0)
#else
#define ACCUMULATE(j, v, x) acc[j][v] = fma((x), (x), acc[j][v]) // Inf or NaN stays so
#endif

// The (row, class) sums s[2][4] of the work-group added over the classes (class c += class c + h, h = 32, 16,
// ..., 1) into total: row t's for work-items t < NORM_ROWS. part is free again after it.
#define ROW_TOTAL(s, total)                                                                                    \
    do {                                                                                                       \
        _Pragma("unroll") for (int j = 0; j < 2; j++) _Pragma("unroll") for (int v = 0; v < 4; v++)            \
            part[ROW_OF(t, j, v)][CLASS_OF(t, j, v)] = s[j][v];                                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                          \
        for (int h = CLASSES / 2; h > 0; h >>= 1) {                                                            \
            for (int i = t; i < NORM_ROWS * h; i += THREADS) part[i / h][i % h] += part[i / h][i % h + h];     \
            barrier(CLK_LOCAL_MEM_FENCE);                                                                      \
        }                                                                                                      \
        total = t < NORM_ROWS ? part[t][0] : 0.0;                                                              \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                          \
    } while (0)

#if SPREAD
// The quarter bits of rho = sqrt(K) |x|_2 / |x|_1 from the sums of squares and magnitudes: ceil(2 log2(K |x|_2^2
// / |x|_1^2)), 0..255 (in fp64 neither sum nor their products overflow or underflow for fp32 elements); -1 for a
// zero row or one holding Inf or NaN.
static inline int gk_spread_quarter_bits(const double squares, const double magnitudes, const int K)
{
    if (!(magnitudes > 0.0) || !isfinite(squares) || !isfinite(magnitudes)) return -1;
    const double bits = ceil(2.0 * log2((double)K * squares / (magnitudes * magnitudes)));
    return (int)fmin(fmax(bits, 0.0), 255.0);
}

#ifdef GK_CUDA
#define GK_ATOMIC_MAX(p, v) atomicMax((int*)(p), (v))
#else
#define GK_ATOMIC_MAX(p, v) atomic_max((p), (v))
#endif
#endif

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
#if SPREAD
void gk_ozaki_spread(const int rows, const int K, const __global float* X, const int offX, const int sr,
                     const int sk, __global int* Q, const int q)
#else
void gk_ozaki_norms(const int rows, const int K, const int rows_p, const int moduli, const __global float* X,
                    const int offX, const int sr, const int sk, __global char* R)
#endif
{
    __local double part[NORM_ROWS][CLASSES + 1];
    const int t = (int)get_local_id(0), row0 = (int)get_group_id(0) * NORM_ROWS;
    double acc[2][4];
#pragma unroll
    for (int j = 0; j < 2; j++)
#pragma unroll
        for (int v = 0; v < 4; v++) acc[j][v] = 0.0;
#if SPREAD
    double mag[2][4];
#pragma unroll
    for (int j = 0; j < 2; j++)
#pragma unroll
        for (int v = 0; v < 4; v++) mag[j][v] = 0.0;
#endif
    int k0 = 0;
#if K_CONTIGUOUS
    const int aligned = offX % 4 == 0 && sr % 4 == 0;
#else
    const int aligned = offX % 4 == 0 && sk % 4 == 0;
#endif
    // Software-pipelined: the next pass's loads are issued before this pass's squares, so that they stay in
    // flight while it computes (left to itself, ptxas interleaves each load with its first use).
    if (aligned && row0 + NORM_ROWS <= rows && STEPS * CLASSES <= K) {
        float4 x[STEPS][2];
        LOAD_PASS(x, 0);
        for (;;) {
            const int next = k0 + STEPS * CLASSES, more = next + STEPS * CLASSES <= K;
            float4 y[STEPS][2];
            if (more) LOAD_PASS(y, next);
#pragma unroll
            for (int h = 0; h < STEPS; h++)
#pragma unroll
                for (int j = 0; j < 2; j++) {
                    ACCUMULATE(j, 0, (double)x[h][j].x);
                    ACCUMULATE(j, 1, (double)x[h][j].y);
                    ACCUMULATE(j, 2, (double)x[h][j].z);
                    ACCUMULATE(j, 3, (double)x[h][j].w);
                }
            k0 = next;
            if (!more) break;
#pragma unroll
            for (int h = 0; h < STEPS; h++)
#pragma unroll
                for (int j = 0; j < 2; j++) x[h][j] = y[h][j];
        }
    }
    for (; k0 < K; k0 += 2 * CLASSES) {
        double x[2][2][4];
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int j = 0; j < 2; j++)
#pragma unroll
                for (int v = 0; v < 4; v++) {
                    const int row = row0 + ROW_OF(t, j, v), k = k0 + h * CLASSES + CLASS_OF(t, j, v);
                    x[h][j][v] = row < rows && k < K ? (double)X[offX + (size_t)row * sr + (size_t)k * sk] : 0.0;
                }
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int j = 0; j < 2; j++)
#pragma unroll
                for (int v = 0; v < 4; v++) ACCUMULATE(j, v, x[h][j][v]);
    }
    double squares;
    ROW_TOTAL(acc, squares);
#if SPREAD
    double magnitudes;
    ROW_TOTAL(mag, magnitudes);
    if (t < NORM_ROWS && row0 + t < rows) {
        const int bits = gk_spread_quarter_bits(squares, magnitudes, K);
        if (bits > 0) GK_ATOMIC_MAX(Q + q, bits);
    }
#else
    if (t < NORM_ROWS && row0 + t < rows_p) {
        const double norm = sqrt(squares);
        const int finite = isfinite(norm);
        const int e = finite && norm > 0.0 ? gk_ozaki_exponent(norm, gk_ozaki_norm_bound(moduli, K)) : 0;
        ((__global int*)R)[row0 + t] = finite ? e : GK_OZAKI_NONFINITE;
    }
#endif
}
