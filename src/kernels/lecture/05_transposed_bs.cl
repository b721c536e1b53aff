// CUDA matmul lecture, step 5: "removing the ADD instruction". Step 4's inner
// loop reads Bs[k][tx], a stride of a whole row per k, which the compiler
// could not fold into the load's constant offset (one extra integer ADD per
// load). Storing the B tile transposed makes the inner loop read Bs[tx][k],
// so k only changes a constant offset. Reading and writing the transposed
// tile then walks down a column of Bs, a bank conflict, which a padding
// column (PAD = 1) removes (276 GFlops). PAD = 0 shows the conflict.
//
// Mapping to gemmkit (column-major C = A * B, packed, arguments M, N, K, A, B, C):
// the lecture's kernels are row-major. Read row-major, gemmkit's buffers hold
// C^T (N x M), A^T (K x M) and B^T (N x K), and C^T = B^T * A^T. So the
// lecture's code runs unchanged on the row-major operands Cr = Ar * Br with
//   Ar = B (N x K), Br = A (K x M), Cr = C (N x M)
// (the square n becomes K for Ar's row stride and M for Br's and Cr's). CUDA's
// x (tx: columns of Cr) is NDRange dimension 0, which spans M; y is dimension
// 1. M, N and K are multiples of TILE (the library pads).

#ifndef TILE
#define TILE 32 // tile edge and block width
#endif
#ifndef BY
#define BY 16 // block height; TILE % BY == 0
#endif
#ifndef PAD
#define PAD 1 // extra column of Bs against bank conflicts
#endif
#define WPT (TILE / BY) // rows of the tile per thread

__kernel __attribute__((reqd_work_group_size(TILE, BY, 1)))
void lecture_transposed_bs(const int M, const int N, const int K,
                           const __global float* A, const __global float* B, __global float* C)
{
    const __global float* Ar = B; // N x K, row-major
    const __global float* Br = A; // K x M, row-major
    __global float* Cr = C;       // N x M, row-major
    const int NC = M;             // columns of Cr

    const int bx = get_group_id(0);
    const int by = get_group_id(1);
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE + PAD]; // Bs[col][k]: the B tile transposed

    float Csub[WPT]; // registers: all loops over it unrolled
#pragma unroll
    for (int r = 0; r < WPT; r++) Csub[r] = 0.0f;

    for (int b = 0; b < K / TILE; b++) {
#pragma unroll
        for (int r = 0; r < WPT; r++) {
            const int row = ty + r * BY;
            As[row][tx] = Ar[(row + by * TILE) * K + b * TILE + tx];
            Bs[tx][row] = Br[(row + b * TILE) * NC + bx * TILE + tx]; // coalesced read, transposed store
        }
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int k = 0; k < TILE; k++) {
            const float bk = Bs[tx][k];
#pragma unroll
            for (int r = 0; r < WPT; r++)
                Csub[r] += As[ty + r * BY][k] * bk;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int r = 0; r < WPT; r++)
        Cr[(ty + r * BY + by * TILE) * NC + bx * TILE + tx] = Csub[r];
}
