// SGEMM tutorial, kernel 6: 2D register blocking. Each work-item computes a
// WPTM x WPTN block of C (rows RTSM apart, columns RTSN apart, so that the
// work-group's C stores and local reads stay contiguous). Per k it caches
// WPTN values of Bsub in registers (Breg) and one value of Asub at a time
// (Areg): WPTM + WPTN local loads feed WPTM * WPTN FMAs. Tile loads number
// the work-items 0..RTSM*RTSN and spread them over the tile (LPTA / LPTB
// loads each), so TSM and TSN may differ.
// Column-major C = A * B with Bt = B^T (N x K); M, N, K are multiples of
// TSM, TSN, TSK.

#ifndef TSM
#define TSM 128 // tile size along M
#endif
#ifndef TSN
#define TSN 128 // tile size along N
#endif
#ifndef TSK
#define TSK 16 // tile size along K
#endif
#ifndef WPTM
#define WPTM 8 // C rows per work-item
#endif
#ifndef WPTN
#define WPTN 8 // C columns per work-item
#endif
#ifndef PADB
#define PADB 2 // padding of Bsub rows against bank conflicts (2 keeps 64-bit alignment)
#endif
#define RTSM (TSM / WPTM)                     // work-items along M
#define RTSN (TSN / WPTN)                     // work-items along N
#define THREADS (RTSM * RTSN)                 // work-items per work-group
#define LPTA ((TSK * TSM) / THREADS)          // loads per work-item, tile of A
#define LPTB ((TSK * TSN) / THREADS)          // loads per work-item, tile of B

__kernel __attribute__((reqd_work_group_size(RTSM, RTSN, 1)))
void tutorial_gemm6(const int M, const int N, const int K,
                    const __global float* A,
                    const __global float* B, // B^T, N x K
                    __global float* C)
{
    const int tidm = get_local_id(0); // 0..RTSM
    const int tidn = get_local_id(1); // 0..RTSN
    const int tid = tidn * RTSM + tidm;
    const int offsetM = TSM * get_group_id(0);
    const int offsetN = TSN * get_group_id(1);

    __local float Asub[TSK][TSM];        // Asub[k][m]
    __local float Bsub[TSN][TSK + PADB]; // Bsub[n][k]

    float Areg;
    float Breg[WPTN];
    float acc[WPTM][WPTN];
#pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
#pragma unroll
        for (int wn = 0; wn < WPTN; wn++) acc[wm][wn] = 0.0f;

    const int numTiles = K / TSK;
    for (int t = 0; t < numTiles; t++) {
        // Consecutive work-items take consecutive rows of a column: coalesced.
#pragma unroll
        for (int la = 0; la < LPTA; la++) {
            const int id = la * THREADS + tid;
            const int row = id % TSM;
            const int col = id / TSM;
            Asub[col][row] = A[(TSK * t + col) * M + offsetM + row];
        }
#pragma unroll
        for (int lb = 0; lb < LPTB; lb++) {
            const int id = lb * THREADS + tid;
            const int row = id % TSN;
            const int col = id / TSN;
            Bsub[row][col] = B[(TSK * t + col) * N + offsetN + row];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int k = 0; k < TSK; k++) {
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++) Breg[wn] = Bsub[tidn + wn * RTSN][k];
#pragma unroll
            for (int wm = 0; wm < WPTM; wm++) {
                Areg = Asub[k][tidm + wm * RTSM];
#pragma unroll
                for (int wn = 0; wn < WPTN; wn++) acc[wm][wn] += Areg * Breg[wn];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int wm = 0; wm < WPTM; wm++) {
        const int globalRow = offsetM + tidm + wm * RTSM;
#pragma unroll
        for (int wn = 0; wn < WPTN; wn++) {
            const int globalCol = offsetN + tidn + wn * RTSN;
            C[globalCol * M + globalRow] = acc[wm][wn];
        }
    }
}
