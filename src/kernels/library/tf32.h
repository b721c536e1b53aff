// What the tensor-core kernels (xgemm_tc.cl's mma.sync, xgemm_wgmma.cl's
// wgmma) share: TF32 rounding and splitting, loads at the matrices' edges, and
// writing an m16n8 tile of C.
// Not a kernel: the build (cmake/embed_kernels.cmake) puts this text in place
// of their `#include "tf32.h"`. Include it after HELPER and SPLIT are defined.
#ifndef GK_TF32_H
#define GK_TF32_H

// x rounded to TF32 (10 explicit mantissa bits, ties away from zero), as bits:
// cvt.rna.tf32.f32's result, in integer operations, so that the kernels round
// exactly as the host model (tools/check/tf32_model.h).
HELPER uint tf32_bits(const float x) { return (as_uint(x) + 0x1000u) & 0xffffe000u; }
HELPER float tf32_of(const float x) { return as_float(tf32_bits(x)); }

// x as TF32 operands: big = tf32(x) and, for 3xTF32 (SPLIT), small =
// tf32(x - big) (x - big is exact).
HELPER void split_tf32(const float x, uint* big, uint* small)
{
    *big = tf32_bits(x);
#if SPLIT
    *small = tf32_bits(x - as_float(*big));
#endif
}

// Four consecutive floats of X from index i, only those before `limit` (the
// rest zeros): an operand's last, partial float4.
HELPER float4 load4_checked(const __global float* X, const int i, const int limit)
{
    return (float4)(limit > 0 ? X[i] : 0.0f, limit > 1 ? X[i + 1] : 0.0f, limit > 2 ? X[i + 2] : 0.0f,
                    limit > 3 ? X[i + 3] : 0.0f);
}

// C = alpha * d + beta * C on one m16n8 accumulator tile whose work-item
// holds rows m, m + 8 and columns n, n + 1 (c0 (m, n), c1 (m, n+1), c2 (m+8,
// n), c3 (m+8, n+1): g = lane / 4 rows and 2 t columns on from the tile's
// corner); C is not read when beta == 0, elements outside M x N not written.
HELPER void store_m16n8(__global float* C, const int ldc, const int M, const int N, const int m, const int n,
                        const float* d, const float alpha, const float beta)
{
    #pragma unroll
    for (int q = 0; q < 4; q++) {
        const int row = m + (q / 2) * 8, col = n + q % 2;
        if (row < M && col < N) {
            __global float* out = C + row + col * ldc;
            const float v = alpha * d[q];
            *out = beta == 0.0f ? v : fma(beta, *out, v);
        }
    }
}

#endif
