// SGEMM tutorial, kernel 8: CUDA-specific optimisations. Kernel 7 (the
// tutorial's layout: scalar local reads, rows RTSM apart) compiled as CUDA
// through an OpenCL-to-CUDA translation header, plus two intrinsics OpenCL
// lacks: __ldg (global loads through the read-only data cache, USE_LDG) and
// warp shuffles (USE_SHUFFLE): each lane of a group of WPTN lanes, which share
// tidn, reads one distinct value of Bsub and the group exchanges them with
// __shfl_sync instead of every lane reading all WPTN values.
// Meaningful under CUDA only (registered for the CUDA backend only); built as OpenCL,
// the intrinsics fall back to plain loads and local-memory reads.
// Written for the translation (__kernel, __global, __local, barrier,
// get_local_id, get_group_id as macros): no vector arithmetic, no float8, no
// address-space qualifiers on pointers, vectors read by their .x/.y/.z/.w.
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
#define WIDTH 4 // floats per vector: 1, 2 or 4 (CUDA has no float8)
#endif
#ifndef USE_LDG
#define USE_LDG 1 // global loads through __ldg
#endif
#ifndef USE_SHUFFLE
#define USE_SHUFFLE 1 // Breg through warp shuffles
#endif
#define RTSM (TSM / WPTM)            // work-items along M
#define RTSN (TSN / WPTN)            // work-items along N
#define THREADS (RTSM * RTSN)        // work-items per work-group
#define LPTA ((TSK * TSM) / THREADS) // floats per work-item, tile of A
#define LPTB ((TSK * TSN) / THREADS) // floats per work-item, tile of B

#if WIDTH == 1
typedef float floatX;
#elif WIDTH == 2
typedef float2 floatX;
#elif WIDTH == 4
typedef float4 floatX;
#else
#error "WIDTH must be 1, 2 or 4"
#endif

#ifdef __CUDACC__
#define WORK_GROUP_SIZE(x, y) // CUDA: the launch alone sets the block size
#if USE_LDG
#define LOAD(p) __ldg(p)
#else
#define LOAD(p) (*(p))
#endif
#else
#define WORK_GROUP_SIZE(x, y) __attribute__((reqd_work_group_size(x, y, 1)))
#define LOAD(p) (*(p))
#endif

// Scatters vector v into WIDTH consecutive floats of a local row.
#if WIDTH == 1
#define STORE_VEC(dst, v) (dst)[0] = (v)
#elif WIDTH == 2
#define STORE_VEC(dst, v) (dst)[0] = (v).x, (dst)[1] = (v).y
#else
#define STORE_VEC(dst, v) (dst)[0] = (v).x, (dst)[1] = (v).y, (dst)[2] = (v).z, (dst)[3] = (v).w
#endif

__kernel WORK_GROUP_SIZE(RTSM, RTSN)
void tutorial_gemm8(const int M, const int N, const int K,
                    const __global floatX* A,
                    const __global floatX* B, // B^T, N x K
                    __global float* C)
{
    const int tidm = get_local_id(0); // 0..RTSM
    const int tidn = get_local_id(1); // 0..RTSN
    const int tid = tidn * RTSM + tidm;
    const int offsetM = TSM * get_group_id(0);
    const int offsetN = TSN * get_group_id(1);

    // Aligned so that the WIDTH scalar stores of a vector become one wide store.
    __local float Asub[TSK][TSM] __attribute__((aligned(16))); // Asub[k][m]
    __local float Bsub[TSK][TSN] __attribute__((aligned(16))); // Bsub[k][n]

    float Areg;
    float Breg[WPTN];
    float acc[WPTM][WPTN];
#pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
#pragma unroll
        for (int wn = 0; wn < WPTN; wn++) acc[wm][wn] = 0.0f;

    const int numTiles = K / TSK;
    for (int t = 0; t < numTiles; t++) {
#pragma unroll
        for (int la = 0; la < LPTA / WIDTH; la++) {
            const int id = la * THREADS + tid;
            const int row = id % (TSM / WIDTH);
            const int col = id / (TSM / WIDTH);
            const floatX vecA = LOAD(&A[(TSK * t + col) * (M / WIDTH) + offsetM / WIDTH + row]);
            STORE_VEC(&Asub[col][WIDTH * row], vecA);
        }
#pragma unroll
        for (int lb = 0; lb < LPTB / WIDTH; lb++) {
            const int id = lb * THREADS + tid;
            const int row = id % (TSN / WIDTH);
            const int col = id / (TSN / WIDTH);
            const floatX vecB = LOAD(&B[(TSK * t + col) * (N / WIDTH) + offsetN / WIDTH + row]);
            STORE_VEC(&Bsub[col][WIDTH * row], vecB);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int k = 0; k < TSK; k++) {
#if defined(__CUDACC__) && USE_SHUFFLE
            // Lane j of each group of WPTN lanes (one tidn) reads column j;
            // the group then broadcasts column wn from lane wn.
            const float val = Bsub[k][tidn + (tidm % WPTN) * RTSN];
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++) Breg[wn] = __shfl_sync(0xffffffffu, val, wn, WPTN);
#else
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++) Breg[wn] = Bsub[k][tidn + wn * RTSN];
#endif
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
