// OpenCL memory-hierarchy slides, step 1: "C(i,j) per work-item, all global".
// One work-item computes one element of C as the dot product of a row of A
// and a column of B, reading both straight from global memory.
//
// Mapping to gemmkit (column-major C = A * B, packed, arguments M, N, K, A, B, C):
// the slides' kernels are row-major. Read row-major, gemmkit's buffers hold
// C^T (N x M), A^T (K x M) and B^T (N x K), and C^T = B^T * A^T. So the slides'
// code runs unchanged on the row-major operands Cr = Ar * Br with
//   Ar = B (N x K), Br = A (K x M), Cr = C (N x M)
// (same memory layout and access pattern as the slides; only the square N
// becomes N rows, M columns and K inner). The excerpt of the slides shows no
// code for this step, only the dot product per element and a 2-D NDRange.
// Here the columns j of Cr run along NDRange dimension 0 (gemmkit's geometry
// spans M there) and the rows i along dimension 1, so neighbouring work-items
// touch neighbouring Br and Cr elements (the coalesced arrangement; lecture
// steps 1 and 2 contrast both). The work-group is LX x LY.
// Sizes are multiples of the work-group (the library pads), so no bounds checks.

#ifndef LX
#define LX 16 // work-group width (dimension 0, columns of Cr)
#endif
#ifndef LY
#define LY 16 // work-group height (dimension 1, rows of Cr)
#endif

__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void slides_elem_per_item(const int M, const int N, const int K,
                          const __global float* A, const __global float* B, __global float* C)
{
    const __global float* Ar = B; // N x K, row-major
    const __global float* Br = A; // K x M, row-major
    __global float* Cr = C;       // N x M, row-major
    const int NC = M;             // columns of Cr (the slides' N)

    const int i = get_global_id(1); // row of Cr
    const int j = get_global_id(0); // column of Cr
    float tmp = 0.0f;
    for (int k = 0; k < K; k++)
        tmp += Ar[i * K + k] * Br[k * NC + j];
    Cr[i * NC + j] = tmp;
}
