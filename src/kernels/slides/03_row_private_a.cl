// OpenCL memory-hierarchy slides, step 3: "C row per work-item, A row private".
// Every element of a row of C reuses the same row of A, so the work-item
// first copies that row into a private array Awrk and then computes the row
// of C from it. As the slides point out, 1024 floats is far more private
// memory than a work-item has, so on a GPU Awrk spills to (cached) global
// memory; the step is about telling the compiler the data is private.
//
// Mapping to gemmkit (column-major C = A * B, packed, arguments M, N, K, A, B, C):
// the slides' kernels are row-major. Read row-major, gemmkit's buffers hold
// C^T (N x M), A^T (K x M) and B^T (N x K), and C^T = B^T * A^T. So the slides'
// code runs unchanged on the row-major operands Cr = Ar * Br with
//   Ar = B (N x K), Br = A (K x M), Cr = C (N x M).
// The "row of A" kept private is therefore a column of gemmkit's B. Rows of Cr
// run along NDRange dimension 1, one work-item each (tile_m = M in the
// registry); N is a multiple of WG (the library pads).
//
// The slides' Awrk[1024] limits the inner size to 1024. To serve any K, the
// row is processed in chunks of PRIV: for K <= PRIV (the slides' case) this is
// exactly the slides' kernel; for larger K each further chunk adds its partial
// dot products to the row of C written by the previous chunk.

#ifndef WG
#define WG 64 // work-items (rows of Cr) per work-group
#endif
#ifndef PRIV
#define PRIV 1024 // private floats per work-item (the slides' Awrk[1024])
#endif

__kernel __attribute__((reqd_work_group_size(1, WG, 1)))
void slides_row_private_a(const int M, const int N, const int K,
                          const __global float* A, const __global float* B, __global float* C)
{
    const __global float* Ar = B; // N x K, row-major
    const __global float* Br = A; // K x M, row-major
    __global float* Cr = C;       // N x M, row-major
    const int NC = M;             // columns of Cr

    const int i = get_global_id(1); // this work-item's row of Cr
    float Awrk[PRIV];
    for (int k0 = 0; k0 < K; k0 += PRIV) {
        const int kn = min(PRIV, K - k0);
        for (int k = 0; k < kn; k++)
            Awrk[k] = Ar[i * K + k0 + k];
        for (int j = 0; j < NC; j++) {
            float tmp = k0 == 0 ? 0.0f : Cr[i * NC + j];
            for (int k = 0; k < kn; k++)
                tmp += Awrk[k] * Br[(k0 + k) * NC + j];
            Cr[i * NC + j] = tmp;
        }
    }
}
