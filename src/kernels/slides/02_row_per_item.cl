// OpenCL memory-hierarchy slides, step 2: "C row per work-item, all global".
// Fewer, bigger work-items: each one computes a whole row of C, so the
// NDRange is one-dimensional over the rows (less work-item overhead, but far
// less parallelism, and neighbouring work-items now read A and write C with
// a stride of a whole row).
//
// Mapping to gemmkit (column-major C = A * B, packed, arguments M, N, K, A, B, C):
// the slides' kernels are row-major. Read row-major, gemmkit's buffers hold
// C^T (N x M), A^T (K x M) and B^T (N x K), and C^T = B^T * A^T. So the slides'
// code runs unchanged on the row-major operands Cr = Ar * Br with
//   Ar = B (N x K), Br = A (K x M), Cr = C (N x M).
// A row of Cr is a column of gemmkit's C. The rows run along NDRange
// dimension 1 (gemmkit's dimension 0 spans M and holds a single work-item per
// group here: the registry sets tile_m = M). The slides leave the work-group
// size to the runtime; WG picks it. N is a multiple of WG (the library pads).

#ifndef WG
#define WG 64 // work-items (rows of Cr) per work-group
#endif

__kernel __attribute__((reqd_work_group_size(1, WG, 1)))
void slides_row_per_item(const int M, const int N, const int K,
                         const __global float* A, const __global float* B, __global float* C)
{
    const __global float* Ar = B; // N x K, row-major
    const __global float* Br = A; // K x M, row-major
    __global float* Cr = C;       // N x M, row-major
    const int NC = M;             // columns of Cr: the slides' "width of rows in C"

    const int i = get_global_id(1); // this work-item's row of Cr
    for (int j = 0; j < NC; j++) {
        float tmp = 0.0f;
        for (int k = 0; k < K; k++)
            tmp += Ar[i * K + k] * Br[k * NC + j];
        Cr[i * NC + j] = tmp;
    }
}
