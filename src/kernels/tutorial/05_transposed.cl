// SGEMM tutorial, kernel 5: transposed input B and rectangular tiles. B comes
// pre-transposed (N x K, the library packs op(B)^T), so A and B tiles are read
// alike, along their M / N dimension, and the tile can have independent sizes
// TSM x TSN with a K step of TSK. A work-group of TSM x TSN/WPTN work-items
// computes WPTN columns each (as kernel 3). Bsub is stored un-transposed,
// [n][k], so the inner loop reads consecutive k; its rows are padded by PADB
// floats so that the stores of a warp (consecutive n) avoid bank conflicts.
// Column-major C = A * B with Bt = B^T: M x K, N x K, M x N; M, N, K are
// multiples of TSM, TSN, TSK.

#ifndef TSM
#define TSM 64 // tile size along M
#endif
#ifndef TSN
#define TSN 64 // tile size along N
#endif
#ifndef TSK
#define TSK 32 // tile size along K
#endif
#ifndef WPTN
#define WPTN 8 // C elements per work-item along N
#endif
#ifndef PADB
#define PADB 2 // padding of Bsub rows (2 keeps 64-bit alignment for paired reads)
#endif
#define RTSN (TSN / WPTN)                     // work-items along N
#define LPTA ((TSK * TSM) / (TSM * RTSN))     // loads per work-item, tile of A
#define LPTB ((TSK * TSN) / (TSM * RTSN))     // loads per work-item, tile of B

__kernel __attribute__((reqd_work_group_size(TSM, RTSN, 1)))
void tutorial_gemm5(const int M, const int N, const int K,
                    const __global float* A,
                    const __global float* B, // B^T, N x K
                    __global float* C)
{
    const int row = get_local_id(0); // local row (0..TSM)
    const int col = get_local_id(1); // local column (0..RTSN)
    const int offsetM = TSM * get_group_id(0);
    const int offsetN = TSN * get_group_id(1);
    const int globalRow = offsetM + row;
    const int globalCol = offsetN + col;

    __local float Asub[TSK][TSM];        // Asub[k][m]
    __local float Bsub[TSN][TSK + PADB]; // Bsub[n][k]

    float acc[WPTN];
#pragma unroll
    for (int w = 0; w < WPTN; w++) acc[w] = 0.0f;

    const int numTiles = K / TSK;
    for (int t = 0; t < numTiles; t++) {
        // A: the work-group is TSM wide, so each work-item takes every
        // RTSN-th k of its own row.
#pragma unroll
        for (int l = 0; l < LPTA; l++) {
            const int k = col + l * RTSN;
            Asub[k][row] = A[(TSK * t + k) * M + globalRow];
        }
        // B^T: the same shape of read, but TSN may differ from TSM, so the
        // work-items are numbered 0..TSM*RTSN and laid over the TSN x TSK tile.
#pragma unroll
        for (int l = 0; l < LPTB; l++) {
            const int id = l * (TSM * RTSN) + col * TSM + row;
            const int n = id % TSN;
            const int k = id / TSN;
            Bsub[n][k] = B[(TSK * t + k) * N + offsetN + n];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TSK; k++) {
            const float a = Asub[k][row];
#pragma unroll
            for (int w = 0; w < WPTN; w++) acc[w] += a * Bsub[col + w * RTSN][k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int w = 0; w < WPTN; w++) C[(globalCol + w * RTSN) * M + globalRow] = acc[w];
}
