// CUDA matmul lecture, step 6: "one block in shared memory". Instead of
// multiplying two tiles that both sit in local memory (two local operands per
// multiply-add), the tile of C is built by rank-1 updates: C_tile += (column
// of the A tile) x (row of the B strip). Only the A tile (TH x TK) lives in
// local memory; each thread owns one column of the TH x TW tile of C in
// registers and reads the matching element of each B row into a register, so
// every multiply-add has a single local-memory operand (a broadcast: all
// threads read the same As element). The lecture's best: A in 16 x 16 tiles,
// B in 64 x 1 pieces, C in 64 x 16 tiles (64 threads) -> 375 GFlops.
//
// Mapping to gemmkit (column-major C = A * B, packed, arguments M, N, K, A, B, C):
// the lecture's kernels are row-major. Read row-major, gemmkit's buffers hold
// C^T (N x M), A^T (K x M) and B^T (N x K), and C^T = B^T * A^T. So the
// lecture's algorithm runs on the row-major operands Cr = Ar * Br with
//   Ar = B (N x K), Br = A (K x M), Cr = C (N x M).
// A work-group of TW threads (NDRange dimension 0, along the columns of Cr,
// which span M) computes TH rows (dimension 1, along N) by TW columns of Cr.
// Reads of Br and writes of Cr are coalesced across the threads. M, N and K
// are multiples of TW, TH and TK (the library pads).

#ifndef TW
#define TW 64 // threads per work-group = columns of the C tile = length of a B piece
#endif
#ifndef TH
#define TH 16 // rows of the C tile and of the A tile
#endif
#ifndef TK
#define TK 16 // columns of the A tile: rank-1 updates per local-memory refill
#endif

__kernel __attribute__((reqd_work_group_size(TW, 1, 1)))
void lecture_one_block_shared(const int M, const int N, const int K,
                              const __global float* A, const __global float* B, __global float* C)
{
    const __global float* Ar = B; // N x K, row-major
    const __global float* Br = A; // K x M, row-major
    __global float* Cr = C;       // N x M, row-major
    const int NC = M;             // columns of Cr

    const int tx = get_local_id(0);
    const int col = get_group_id(0) * TW + tx; // this thread's column of Cr
    const int row0 = get_group_id(1) * TH;     // first row of the tile
    __local float As[TH][TK];

    float c[TH]; // this thread's column of the C tile (registers: all loops over it unrolled)
#pragma unroll
    for (int r = 0; r < TH; r++) c[r] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TK) {
        // B: this thread's element of the next TK rows, into registers.
        float b[TK];
#pragma unroll
        for (int kk = 0; kk < TK; kk++)
            b[kk] = Br[(k0 + kk) * NC + col];
        // A: the TH x TK tile, cooperatively, into local memory.
        barrier(CLK_LOCAL_MEM_FENCE); // everyone is done with the previous tile
        for (int e = tx; e < TH * TK; e += TW)
            As[e / TK][e % TK] = Ar[(row0 + e / TK) * K + k0 + e % TK];
        barrier(CLK_LOCAL_MEM_FENCE);

        // TK rank-1 updates: column kk of the A tile times row kk of B.
#pragma unroll
        for (int kk = 0; kk < TK; kk++) {
#pragma unroll
            for (int r = 0; r < TH; r++)
                c[r] += As[r][kk] * b[kk];
        }
    }
#pragma unroll
    for (int r = 0; r < TH; r++)
        Cr[(row0 + r) * NC + col] = c[r];
}
