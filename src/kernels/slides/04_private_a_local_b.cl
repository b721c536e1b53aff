// OpenCL memory-hierarchy slides, step 4: "C row per work-item, A private,
// B local". On top of step 3, all work-items of a work-group use the same
// column of B for a given column of C, so they copy it cooperatively into
// local memory (Bwrk, shared by the work-group) and read it from there.
//
// Mapping to gemmkit (column-major C = A * B, packed, arguments M, N, K, A, B, C):
// the slides' kernels are row-major. Read row-major, gemmkit's buffers hold
// C^T (N x M), A^T (K x M) and B^T (N x K), and C^T = B^T * A^T. So the slides'
// code runs unchanged on the row-major operands Cr = Ar * Br with
//   Ar = B (N x K), Br = A (K x M), Cr = C (N x M).
// The private row of Ar is a column of gemmkit's B; the local column of Br is
// a row of gemmkit's A (stride M, as the slides' column had stride N). Rows of
// Cr run along NDRange dimension 1, one work-item each (tile_m = M in the
// registry); N is a multiple of WG (the library pads).
//
// The slides pass Bwrk as a __local kernel argument sized N floats; gemmkit's
// kernels declare their local memory statically, so Bwrk has PRIV floats, like
// Awrk. For K <= PRIV (the slides' case) this is exactly the slides' kernel;
// for larger K the row is processed in chunks of PRIV, each further chunk
// adding its partial dot products to the row of C written before.

#ifndef WG
#define WG 64 // work-items (rows of Cr) per work-group
#endif
#ifndef PRIV
#define PRIV 1024 // floats of Awrk (private) and Bwrk (local) per chunk of K
#endif

__kernel __attribute__((reqd_work_group_size(1, WG, 1)))
void slides_private_a_local_b(const int M, const int N, const int K,
                              const __global float* A, const __global float* B, __global float* C)
{
    const __global float* Ar = B; // N x K, row-major
    const __global float* Br = A; // K x M, row-major
    __global float* Cr = C;       // N x M, row-major
    const int NC = M;             // columns of Cr

    __local float Bwrk[PRIV];
    const int i = get_global_id(1); // this work-item's row of Cr
    const int iloc = get_local_id(1);
    const int nloc = get_local_size(1);
    float Awrk[PRIV];
    for (int k0 = 0; k0 < K; k0 += PRIV) {
        const int kn = min(PRIV, K - k0);
        for (int k = 0; k < kn; k++)
            Awrk[k] = Ar[i * K + k0 + k];
        for (int j = 0; j < NC; j++) {
            // Everyone is done with the previous column before it is overwritten.
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int k = iloc; k < kn; k += nloc)
                Bwrk[k] = Br[(k0 + k) * NC + j];
            barrier(CLK_LOCAL_MEM_FENCE);
            float tmp = k0 == 0 ? 0.0f : Cr[i * NC + j];
            for (int k = 0; k < kn; k++)
                tmp += Awrk[k] * Bwrk[k];
            Cr[i * NC + j] = tmp;
        }
    }
}
