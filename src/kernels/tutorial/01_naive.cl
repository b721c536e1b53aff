// SGEMM tutorial, kernel 1: the naive implementation. One work-item computes
// one element of C by looping over K, straight from global memory.
// Column-major C = A * B with A: M x K, B: K x N, C: M x N (sizes are
// multiples of TS; the library pads around the kernel for other sizes).

#ifndef TS
#define TS 32 // work-group edge (TS x TS work-items)
#endif

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void tutorial_gemm1(const int M, const int N, const int K,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    // The M dimension goes to the first work-item dimension: neighbouring
    // work-items then touch neighbouring elements of A and C (coalesced).
    const int globalRow = get_global_id(0); // row of C (0..M)
    const int globalCol = get_global_id(1); // column of C (0..N)

    float acc = 0.0f;
    for (int k = 0; k < K; k++) {
        acc += A[k * M + globalRow] * B[globalCol * K + k];
    }
    C[globalCol * M + globalRow] = acc;
}
