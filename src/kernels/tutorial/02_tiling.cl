// SGEMM tutorial, kernel 2: tiling in local memory. A work-group of TS x TS
// work-items computes a TS x TS tile of C; each step over K first copies a
// TS x TS tile of A and of B into local memory (one element each per
// work-item, coalesced), then every work-item reads its row and column from
// there: TS times fewer global loads than kernel 1.
// Column-major C = A * B; M, N and K are multiples of TS.

#ifndef TS
#define TS 32 // tile edge: work-group of TS x TS, K step of TS
#endif

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void tutorial_gemm2(const int M, const int N, const int K,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    const int row = get_local_id(0); // local row (0..TS)
    const int col = get_local_id(1); // local column (0..TS)
    const int globalRow = TS * get_group_id(0) + row; // row of C (0..M)
    const int globalCol = TS * get_group_id(1) + col; // column of C (0..N)

    __local float Asub[TS][TS]; // Asub[k][m]
    __local float Bsub[TS][TS]; // Bsub[n][k]

    float acc = 0.0f;
    const int numTiles = K / TS;
    for (int t = 0; t < numTiles; t++) {
        // Lanes along dimension 0 read consecutive addresses of A and of B.
        const int tiledRow = TS * t + row;
        const int tiledCol = TS * t + col;
        Asub[col][row] = A[tiledCol * M + globalRow];
        Bsub[col][row] = B[globalCol * K + tiledRow];

        barrier(CLK_LOCAL_MEM_FENCE); // the tile is complete

        for (int k = 0; k < TS; k++) {
            acc += Asub[k][row] * Bsub[col][k];
        }

        barrier(CLK_LOCAL_MEM_FENCE); // everyone is done with the tile
    }
    C[globalCol * M + globalRow] = acc;
}
