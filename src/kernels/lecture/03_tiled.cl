// CUDA matmul lecture, step 3: the tiled algorithm. Each BLOCK x BLOCK thread
// block walks along the inner dimension, reading a BLOCK x BLOCK tile of A and
// of B into shared (local) memory, one element per thread, and multiplying the
// tiles from there: data moved into local memory once is read BLOCK times.
// Global accesses are coalesced; As[ty][k] is a broadcast and Bs[k][tx] reads a
// contiguous line, so local memory has no bank conflicts (198 GFlops).
//
// Mapping to gemmkit (column-major C = A * B, packed, arguments M, N, K, A, B, C):
// the lecture's kernels are row-major. Read row-major, gemmkit's buffers hold
// C^T (N x M), A^T (K x M) and B^T (N x K), and C^T = B^T * A^T. So the
// lecture's code runs unchanged on the row-major operands Cr = Ar * Br with
//   Ar = B (N x K), Br = A (K x M), Cr = C (N x M)
// (the square n becomes K for Ar's row stride and M for Br's and Cr's). CUDA's
// x (tx, bx: columns of Cr) is NDRange dimension 0, which spans M; y is
// dimension 1. M, N and K are multiples of BLOCK (the library pads).

#ifndef BLOCK
#define BLOCK 16 // thread block and tile edge
#endif

__kernel __attribute__((reqd_work_group_size(BLOCK, BLOCK, 1)))
void lecture_tiled(const int M, const int N, const int K,
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
    __local float As[BLOCK][BLOCK];
    __local float Bs[BLOCK][BLOCK];

    float Csub = 0.0f;
    for (int b = 0; b < K / BLOCK; b++) {
        As[ty][tx] = Ar[(ty + by * BLOCK) * K + b * BLOCK + tx];
        Bs[ty][tx] = Br[(ty + b * BLOCK) * NC + bx * BLOCK + tx];
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int k = 0; k < BLOCK; k++)
            Csub += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    Cr[(ty + by * BLOCK) * NC + bx * BLOCK + tx] = Csub;
}
