// Batched SGEMM for tiny matrices (up to about 32 x 32): several whole
// products per work-group, bound by memory traffic, not arithmetic.
//
// Contract (GK_CONTRACT_GEMM_BATCHED_SMALL), column-major, for z < batch:
//   C_z = alpha * op(A_z) * op(B_z) + beta * C_z, C_z not read when beta == 0,
//   X_z = X + offX + z * strideX (strides in floats; 0 broadcasts A or B).
// The shape is compiled in (SIZE_M, SIZE_N, SIZE_K problem defines), so every
// loop has constant bounds and every index divides by constants; the
// run-time M, N, K arguments are the same numbers.
//
// A work-group takes MPG consecutive matrices (ELEMS elements of C in all):
// 1. it copies their stored A and B into local memory, consecutive work-items
//    on consecutive elements of the stored matrices (rows fastest), so that
//    densely stored batches are read as one contiguous, coalesced run;
// 2. each work-item computes an RM x RN micro-tile of one C in registers,
//    rows TM apart and columns TN apart, so that consecutive work-items hold
//    consecutive rows: conflict-free local reads and coalesced stores.
// Local leading dimensions get one float of padding, so that transposed
// reads (stride = rows) do not hit one bank.

#ifndef SIZE_M
#define SIZE_M 8
#endif
#ifndef SIZE_N
#define SIZE_N 8
#endif
#ifndef SIZE_K
#define SIZE_K 8
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef ELEMS
#define ELEMS 1024 // C elements per work-group: MPG = ELEMS / (M*N) matrices
#endif
#ifndef RM
#define RM 2 // micro-tile rows per work-item (1 where it does not divide M)
#endif
#ifndef RN
#define RN 2
#endif

// The registry's tile_m and local_x (registry_library.c) are the same formulas.
#define MN (SIZE_M * SIZE_N)
#define MPG (ELEMS / MN > 1 ? ELEMS / MN : 1)
#define WG (ELEMS / (RM * RN))
#define RM_ (SIZE_M % RM == 0 ? RM : 1)
#define RN_ (SIZE_N % RN == 0 ? RN : 1)
#define TM (SIZE_M / RM_) // work-items along a matrix's rows
#define TN (SIZE_N / RN_)
#define TILES (TM * TN) // micro-tiles per matrix

// Stored operands (column-major): A is M x K, or K x M when transposed.
#define ROWS_A (TRANS_A ? SIZE_K : SIZE_M)
#define COLS_A (TRANS_A ? SIZE_M : SIZE_K)
#define ROWS_B (TRANS_B ? SIZE_N : SIZE_K)
#define COLS_B (TRANS_B ? SIZE_K : SIZE_N)
#define LDA_L (ROWS_A + 1)
#define LDB_L (ROWS_B + 1)
#define A_L (LDA_L * COLS_A) // local floats per matrix
#define B_L (LDB_L * COLS_B)
#define A_ELEMS (ROWS_A * COLS_A)
#define B_ELEMS (ROWS_B * COLS_B)

// op(A)(i, k) and op(B)(k, j) of one matrix in local memory.
#if TRANS_A
#define OP_A(a, i, k) a[(k) + (i) * LDA_L]
#else
#define OP_A(a, i, k) a[(i) + (k) * LDA_L]
#endif
#if TRANS_B
#define OP_B(b, k, j) b[(j) + (k) * LDB_L]
#else
#define OP_B(b, k, j) b[(k) + (j) * LDB_L]
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void gk_sgemm_batched_small(const int batch, const int M, const int N, const int K, const float alpha,
                            const __global float* A, const int offA, const int lda, const long strideA,
                            const __global float* B, const int offB, const int ldb, const long strideB,
                            const float beta, __global float* C, const int offC, const int ldc,
                            const long strideC)
{
    __local float As[MPG * A_L];
    __local float Bs[MPG * B_L];
    const int tid = get_local_id(0);
    const int first = get_group_id(0) * MPG;
    const int count = min(MPG, batch - first); // the last work-group may hold fewer

    // 1. Whole stored matrices into local memory.
    const __global float* a0 = A + offA + first * strideA;
    #pragma unroll
    for (int l = 0; l < (MPG * A_ELEMS + WG - 1) / WG; l++) {
        const int e = tid + l * WG, z = e / A_ELEMS, r = e % A_ELEMS;
        if (z < count) As[z * A_L + (r / ROWS_A) * LDA_L + r % ROWS_A] = a0[z * strideA + (r / ROWS_A) * lda + r % ROWS_A];
    }
    const __global float* b0 = B + offB + first * strideB;
    #pragma unroll
    for (int l = 0; l < (MPG * B_ELEMS + WG - 1) / WG; l++) {
        const int e = tid + l * WG, z = e / B_ELEMS, r = e % B_ELEMS;
        if (z < count) Bs[z * B_L + (r / ROWS_B) * LDB_L + r % ROWS_B] = b0[z * strideB + (r / ROWS_B) * ldb + r % ROWS_B];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // 2. Micro-tiles: rows ti + p*TM, columns tj + q*TN of matrix z.
    #pragma unroll
    for (int l = 0; l < (MPG * TILES + WG - 1) / WG; l++) {
        const int u = tid + l * WG, z = u / TILES, t = u % TILES, ti = t % TM, tj = t / TM;
        if (z >= count) break;
        const __local float* a = As + z * A_L;
        const __local float* b = Bs + z * B_L;
        float acc[RM_][RN_];
        #pragma unroll
        for (int p = 0; p < RM_; p++)
            #pragma unroll
            for (int q = 0; q < RN_; q++) acc[p][q] = 0.0f;
        #pragma unroll
        for (int k = 0; k < SIZE_K; k++) {
            float av[RM_], bv[RN_];
            #pragma unroll
            for (int p = 0; p < RM_; p++) av[p] = OP_A(a, ti + p * TM, k);
            #pragma unroll
            for (int q = 0; q < RN_; q++) bv[q] = OP_B(b, k, tj + q * TN);
            #pragma unroll
            for (int p = 0; p < RM_; p++)
                #pragma unroll
                for (int q = 0; q < RN_; q++) acc[p][q] = fma(av[p], bv[q], acc[p][q]);
        }
        __global float* c = C + offC + (first + z) * strideC;
        #pragma unroll
        for (int q = 0; q < RN_; q++)
            #pragma unroll
            for (int p = 0; p < RM_; p++) {
                __global float* out = c + (ti + p * TM) + (tj + q * TN) * ldc;
                const float v = alpha * acc[p][q];
                *out = beta == 0.0f ? v : fma(beta, *out, v);
            }
    }
}
