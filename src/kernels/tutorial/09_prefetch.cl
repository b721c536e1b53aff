// SGEMM tutorial, kernel 9: software prefetching. Kernel 7 with two tiles of
// local memory per operand: while the work-group computes on one, the next
// tile is fetched. The next tile's global loads are issued into registers
// before the inner loop and stored to the other local buffer after it, so
// their latency hides behind the FMAs, and one barrier per tile suffices
// (the buffer written in iteration t was last read in iteration t-1).
// KREM=1 (tutorial kernel 10) lets K be any size: loads beyond K read zeros,
// so only M and N need padding to whole tiles.
// Column-major C = A * B with Bt = B^T (N x K); M, N are multiples of TSM,
// TSN, and K of TSK unless KREM=1.

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
#define VLOCAL 1 // 1: vector reads of local memory in the inner loop (see kernel 7)
#endif
#ifndef KREM
#define KREM 0 // 1: K need not be a multiple of TSK (bounds-checked loads along K)
#endif
#define RTSM (TSM / WPTM)            // work-items along M
#define RTSN (TSN / WPTN)            // work-items along N
#define THREADS (RTSM * RTSN)        // work-items per work-group
#define LPTA ((TSK * TSM) / THREADS) // floats per work-item, tile of A
#define LPTB ((TSK * TSN) / THREADS) // floats per work-item, tile of B
#define VLA (LPTA / WIDTH)           // vectors per work-item, tile of A
#define VLB (LPTB / WIDTH)           // vectors per work-item, tile of B

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

#if VLOCAL
#define ROW_OF(wm) ((((wm) / WIDTH) * RTSM + tidm) * WIDTH + (wm) % WIDTH)
#define COL_OF(wn) ((((wn) / WIDTH) * RTSN + tidn) * WIDTH + (wn) % WIDTH)
#else
#define ROW_OF(wm) (tidm + (wm) * RTSM)
#define COL_OF(wn) (tidn + (wn) * RTSN)
#endif

// Global -> registers for tile t: vectors of A's and B^T's tile columns.
#if KREM
#define FETCH(X, LD, OFF, k) ((k) < K ? X[(k) * (LD) + (OFF)] : (floatX)(0.0f))
#else
#define FETCH(X, LD, OFF, k) X[(k) * (LD) + (OFF)]
#endif
#define LOAD_TILE(t)                                                                  \
    do {                                                                              \
        _Pragma("unroll") for (int la = 0; la < VLA; la++) {                          \
            const int id = la * THREADS + tid;                                        \
            const int k = TSK * (t) + id / (TSM / WIDTH);                             \
            ra[la] = FETCH(A, M / WIDTH, offsetM / WIDTH + id % (TSM / WIDTH), k);    \
        }                                                                             \
        _Pragma("unroll") for (int lb = 0; lb < VLB; lb++) {                          \
            const int id = lb * THREADS + tid;                                        \
            const int k = TSK * (t) + id / (TSN / WIDTH);                             \
            rb[lb] = FETCH(B, N / WIDTH, offsetN / WIDTH + id % (TSN / WIDTH), k);    \
        }                                                                             \
    } while (0)
// Registers -> local buffer s; the vectors of a warp land side by side.
#define STORE_TILE(s)                                                                 \
    do {                                                                              \
        _Pragma("unroll") for (int la = 0; la < VLA; la++) {                          \
            const int id = la * THREADS + tid;                                        \
            Asub[s][id / (TSM / WIDTH)][id % (TSM / WIDTH)] = ra[la];                 \
        }                                                                             \
        _Pragma("unroll") for (int lb = 0; lb < VLB; lb++) {                          \
            const int id = lb * THREADS + tid;                                        \
            Bsub[s][id / (TSN / WIDTH)][id % (TSN / WIDTH)] = rb[lb];                 \
        }                                                                             \
    } while (0)

__kernel __attribute__((reqd_work_group_size(RTSM, RTSN, 1)))
void tutorial_gemm9(const int M, const int N, const int K,
                    const __global floatX* A,
                    const __global floatX* B, // B^T, N x K
                    __global float* C)
{
    const int tidm = get_local_id(0); // 0..RTSM
    const int tidn = get_local_id(1); // 0..RTSN
    const int tid = tidn * RTSM + tidm;
    const int offsetM = TSM * get_group_id(0);
    const int offsetN = TSN * get_group_id(1);

    __local floatX Asub[2][TSK][TSM / WIDTH]; // two tiles: Asub[buffer][k][m / WIDTH]
    __local floatX Bsub[2][TSK][TSN / WIDTH]; // two tiles: Bsub[buffer][k][n / WIDTH]

    floatX ra[VLA], rb[VLB]; // the next tile, in flight
    float Areg[WPTM];
    float Breg[WPTN];
    float acc[WPTN][WPTM]; // acc[wn][wm]: a work-item's rows are contiguous, for vector stores
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTM; wm++) acc[wn][wm] = 0.0f;

#if KREM
    const int numTiles = (K + TSK - 1) / TSK;
#else
    const int numTiles = K / TSK;
#endif
    // Tile 0 goes straight to buffer 0.
    LOAD_TILE(0);
    STORE_TILE(0);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int t = 0; t < numTiles; t++) {
        const int s = t % 2;
        const int more = t + 1 < numTiles;
        if (more) LOAD_TILE(t + 1); // issued now, consumed after the inner loop

#pragma unroll
        for (int k = 0; k < TSK; k++) {
#if VLOCAL
#pragma unroll
            for (int v = 0; v < WPTN / WIDTH; v++) VSTOREX(Bsub[s][k][v * RTSN + tidn], v, Breg);
#pragma unroll
            for (int v = 0; v < WPTM / WIDTH; v++) VSTOREX(Asub[s][k][v * RTSM + tidm], v, Areg);
#else
            const __local float* a = (const __local float*)Asub[s][k];
            const __local float* b = (const __local float*)Bsub[s][k];
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

        if (more) STORE_TILE(1 - s);
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
