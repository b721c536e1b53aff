// SGEMM tutorial, kernel 3: more work per work-item. Each work-item computes
// WPT elements of C in one row (columns RTS = TS/WPT apart), so one value of
// Asub read from local memory feeds WPT multiply-adds: fewer local-memory
// loads per FMA. The tile stays TS x TS; the work-group is TS x RTS.
// Column-major C = A * B; M, N and K are multiples of TS.

#ifndef TS
#define TS 32 // tile edge and K step
#endif
#ifndef WPT
#define WPT 8 // C elements per work-item (along N)
#endif
#define RTS (TS / WPT) // reduced tile size: work-items along N

__kernel __attribute__((reqd_work_group_size(TS, RTS, 1)))
void tutorial_gemm3(const int M, const int N, const int K,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    const int row = get_local_id(0); // local row (0..TS)
    const int col = get_local_id(1); // local column (0..RTS)
    const int globalRow = TS * get_group_id(0) + row; // row of C (0..M)
    const int globalCol = TS * get_group_id(1) + col; // first column of C (0..N)

    __local float Asub[TS][TS]; // Asub[k][m]
    __local float Bsub[TS][TS]; // Bsub[n][k]

    float acc[WPT];
#pragma unroll
    for (int w = 0; w < WPT; w++) acc[w] = 0.0f;

    const int numTiles = K / TS;
    for (int t = 0; t < numTiles; t++) {
        // Each work-item now loads WPT elements of each tile.
#pragma unroll
        for (int w = 0; w < WPT; w++) {
            const int tiledRow = TS * t + row;
            const int tiledCol = TS * t + col;
            Asub[col + w * RTS][row] = A[(tiledCol + w * RTS) * M + globalRow];
            Bsub[col + w * RTS][row] = B[(globalCol + w * RTS) * K + tiledRow];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; k++) {
            const float a = Asub[k][row]; // one local load for WPT FMAs
#pragma unroll
            for (int w = 0; w < WPT; w++) acc[w] += a * Bsub[col + w * RTS][k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int w = 0; w < WPT; w++) C[(globalCol + w * RTS) * M + globalRow] = acc[w];
}
