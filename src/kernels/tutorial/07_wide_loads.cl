// SGEMM tutorial, kernel 7: wider loads with register blocking. Kernel 6's
// 2D register blocking, with tiles moved from global to local memory as
// vectors of WIDTH floats (float2/4/8: one 64/128/256-bit load and store
// instead of WIDTH scalar ones). Bsub goes back to the [k][n] layout of Asub,
// so both tiles are stored with vector stores; no padding is needed, since a
// warp's stores cover consecutive addresses.
// VLOCAL=1 extends the same idea to the local-memory reads of the inner loop:
// each work-item owns WIDTH-wide runs of rows and columns of its C block, so
// Areg / Breg are filled with vector loads and C is stored as vectors.
// VLOCAL=0 is the tutorial's kernel exactly (scalar reads, rows RTSM apart).
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
#ifndef WIDTH
#define WIDTH 4 // floats per vector: 1, 2, 4 or 8
#endif
#ifndef VLOCAL
#define VLOCAL 1 // 1: vector reads of local memory in the inner loop
#endif
#define RTSM (TSM / WPTM)            // work-items along M
#define RTSN (TSN / WPTN)            // work-items along N
#define THREADS (RTSM * RTSN)        // work-items per work-group
#define LPTA ((TSK * TSM) / THREADS) // floats per work-item, tile of A
#define LPTB ((TSK * TSN) / THREADS) // floats per work-item, tile of B

#if WIDTH == 1
typedef float floatX;
#define VLOADX(o, p) ((p)[o])
#define VSTOREX(v, o, p) ((p)[o] = (v))
#elif WIDTH == 2
typedef float2 floatX;
#define VLOADX vload2
#define VSTOREX vstore2
#elif WIDTH == 4
typedef float4 floatX;
#define VLOADX vload4
#define VSTOREX vstore4
#elif WIDTH == 8
typedef float8 floatX;
#define VLOADX vload8
#define VSTOREX vstore8
#else
#error "WIDTH must be 1, 2, 4 or 8"
#endif

// Row (within the tile) of a work-item's C row wm, and column of wn.
#if VLOCAL
#define ROW_OF(wm) ((((wm) / WIDTH) * RTSM + tidm) * WIDTH + (wm) % WIDTH)
#define COL_OF(wn) ((((wn) / WIDTH) * RTSN + tidn) * WIDTH + (wn) % WIDTH)
#else
#define ROW_OF(wm) (tidm + (wm) * RTSM)
#define COL_OF(wn) (tidn + (wn) * RTSN)
#endif

__kernel __attribute__((reqd_work_group_size(RTSM, RTSN, 1)))
void tutorial_gemm7(const int M, const int N, const int K,
                    const __global floatX* A,
                    const __global floatX* B, // B^T, N x K
                    __global float* C)
{
    const int tidm = get_local_id(0); // 0..RTSM
    const int tidn = get_local_id(1); // 0..RTSN
    const int tid = tidn * RTSM + tidm;
    const int offsetM = TSM * get_group_id(0);
    const int offsetN = TSN * get_group_id(1);

    __local floatX Asub[TSK][TSM / WIDTH]; // Asub[k][m / WIDTH]
    __local floatX Bsub[TSK][TSN / WIDTH]; // Bsub[k][n / WIDTH]

    float Areg[WPTM];
    float Breg[WPTN];
    float acc[WPTN][WPTM]; // acc[wn][wm]: a work-item's rows are contiguous, for vector stores
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTM; wm++) acc[wn][wm] = 0.0f;

    const int numTiles = K / TSK;
    for (int t = 0; t < numTiles; t++) {
        // One vector per load; consecutive work-items take consecutive vectors.
#pragma unroll
        for (int la = 0; la < LPTA / WIDTH; la++) {
            const int id = la * THREADS + tid;
            const int row = id % (TSM / WIDTH);
            const int col = id / (TSM / WIDTH);
            Asub[col][row] = A[(TSK * t + col) * (M / WIDTH) + offsetM / WIDTH + row];
        }
#pragma unroll
        for (int lb = 0; lb < LPTB / WIDTH; lb++) {
            const int id = lb * THREADS + tid;
            const int row = id % (TSN / WIDTH);
            const int col = id / (TSN / WIDTH);
            Bsub[col][row] = B[(TSK * t + col) * (N / WIDTH) + offsetN / WIDTH + row];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int k = 0; k < TSK; k++) {
#if VLOCAL
#pragma unroll
            for (int v = 0; v < WPTN / WIDTH; v++) VSTOREX(Bsub[k][v * RTSN + tidn], v, Breg);
#pragma unroll
            for (int v = 0; v < WPTM / WIDTH; v++) VSTOREX(Asub[k][v * RTSM + tidm], v, Areg);
#else
            const __local float* a = (const __local float*)Asub[k];
            const __local float* b = (const __local float*)Bsub[k];
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++) Breg[wn] = b[COL_OF(wn)];
#pragma unroll
            for (int wm = 0; wm < WPTM; wm++) Areg[wm] = a[ROW_OF(wm)];
#endif
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
                for (int wm = 0; wm < WPTM; wm++) acc[wn][wm] += Areg[wm] * Breg[wn];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int wn = 0; wn < WPTN; wn++) {
        const int globalCol = offsetN + COL_OF(wn);
#if VLOCAL
        __global floatX* c = (__global floatX*)(C + globalCol * M + offsetM);
#pragma unroll
        for (int v = 0; v < WPTM / WIDTH; v++) c[v * RTSM + tidm] = VLOADX(v, acc[wn]);
#else
#pragma unroll
        for (int wm = 0; wm < WPTM; wm++) C[globalCol * M + offsetM + ROW_OF(wm)] = acc[wn][wm];
#endif
    }
}
