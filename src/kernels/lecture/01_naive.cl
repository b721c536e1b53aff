// CUDA matmul lecture, steps 1 and 2: the naive kernel. Each thread computes
// one element of C from global memory. The lecture runs it with two thread
// block shapes: 1 x 128 (step 1: the 32 threads of a warp walk down a column
// of C, so their reads of A and writes of C are strided and B is a broadcast,
// 3.9 GFlops) and 128 x 1 (step 2: a warp walks along a row, reads of B and
// writes of C are coalesced and A is a broadcast, 36.6 GFlops). Both registry
// entries use this file; BX x BY is the block shape (blockDim.x x blockDim.y).
//
// Mapping to gemmkit (column-major C = A * B, packed, arguments M, N, K, A, B, C):
// the lecture's kernels are row-major. Read row-major, gemmkit's buffers hold
// C^T (N x M), A^T (K x M) and B^T (N x K), and C^T = B^T * A^T. So the
// lecture's code runs unchanged on the row-major operands Cr = Ar * Br with
//   Ar = B (N x K), Br = A (K x M), Cr = C (N x M)
// (same memory layout and access pattern; the square n becomes K for Ar's
// row stride and M for Br's and Cr's). CUDA's x (column of Cr) is NDRange
// dimension 0, which spans M; y (row of Cr) is dimension 1. M and N are
// multiples of BX and BY (the library pads), so there are no bounds checks.

#ifndef BX
#define BX 128 // threads per block along x (columns of Cr, dimension 0)
#endif
#ifndef BY
#define BY 1 // threads per block along y (rows of Cr, dimension 1)
#endif

__kernel __attribute__((reqd_work_group_size(BX, BY, 1)))
void lecture_naive(const int M, const int N, const int K,
                   const __global float* A, const __global float* B, __global float* C)
{
    const __global float* Ar = B; // N x K, row-major
    const __global float* Br = A; // K x M, row-major
    __global float* Cr = C;       // N x M, row-major
    const int NC = M;             // columns of Cr

    const int x = get_group_id(0) * BX + get_local_id(0);
    const int y = get_group_id(1) * BY + get_local_id(1);

    float tmp = 0.0f;
    for (int k = 0; k < K; k++)
        tmp += Ar[y * K + k] * Br[k * NC + x];
    Cr[y * NC + x] = tmp;
}
