// gemmkit's fast SGEMM kernel: the tutorial's later steps combined and tuned
// for current GPUs. 2D register blocking (WPTM x WPTN per work-item, kernel 6),
// float4 loads and local-memory reads (kernel 7), double-buffered local memory
// with register prefetching (kernel 9), on packed operands padded by the
// library (kernel 10).
//
// Contract (GK_CONTRACT_GEMM_PACKED_BT): column-major C (M x N) = A (M x K) * B,
// where B is given as its transpose, N x K column-major, so that both tiles
// arrive with their M or N index contiguous and need no transposition in
// local memory. M % TSM == 0, N % TSN == 0, K % TSK == 0.
//
// Work-item (tx, ty) owns the C elements at rows 4*(tx + i*RTSM) + {0..3}
// and columns 4*(ty + j*RTSN) + {0..3}: float4 groups strided by the
// work-group width, so a quarter-warp reads 16 consecutive float4 from local
// memory (no bank conflicts) and stores 256 contiguous bytes of C.
//
// Built with -DSTRIDED=1 (GK_CONTRACT_GEMM_PACKED_BT_STRIDED, the registry's
// xgemm-splitk) the arguments gain a stride (in floats) after each matrix,
// and work-group z along the grid's third dimension computes
// C + z*strideC = (A + z*strideA) * (B + z*strideB): split-K runs one K-slice
// per z into its own partial result (the packed A and B^T hold the slices one
// after the other along K), a strided batch one matrix per z. Without STRIDED
// the kernel compiles exactly as before.
//
// ASYNC_STAGES = S >= 2 replaces the register prefetch with a ring of S local
// tiles filled by asynchronous copies (cp.async on NVIDIA sm_80 and newer:
// global to local without registers, S - 1 tiles in flight while one is
// multiplied; one barrier per tile). Elsewhere the same ring is filled by
// plain copies, so the pipeline's order is tested on any device. The copies
// are library/async_copy.h's, shared with xgemm_direct.cl.

#ifndef TSM
#define TSM 128 // tile of C in M per work-group
#endif
#ifndef TSN
#define TSN 128 // tile of C in N per work-group
#endif
#ifndef TSK
#define TSK 8 // K step per tile
#endif
#ifndef WPTM
#define WPTM 8 // C rows per work-item (multiple of 4)
#endif
#ifndef WPTN
#define WPTN 8 // C columns per work-item (multiple of 4)
#endif
#ifndef SWIZZLE
#define SWIZZLE 1 // tile rows per band of the work-group order (1: plain order)
#endif
#ifndef ASYNC_STAGES
#define ASYNC_STAGES 0 // local tiles in an asynchronously filled ring; 0: two, through registers
#endif

#define RTSM (TSM / WPTM) // work-items along M
#define RTSN (TSN / WPTN) // work-items along N
#define THREADS (RTSM * RTSN)
#define VM (WPTM / 4) // float4 groups per work-item along M
#define VN (WPTN / 4)
#define LPTA (TSK * TSM / 4 / THREADS) // float4 loads of A per work-item per tile
#define LPTB (TSK * TSN / 4 / THREADS)

#ifdef STRIDED
#define STRIDE_ARG(name) , const int name
#else
#define STRIDE_ARG(name)
#endif

#include "async_copy.h" // COPY_ASYNC16, COMMIT_ASYNC, WAIT_ASYNC, IN_FLIGHT, TILES_IN_LOCAL
#include "tile_order.h" // tile_of_group

__kernel __attribute__((reqd_work_group_size(RTSM, RTSN, 1)))
void gk_xgemm(const int M, const int N, const int K,
              const __global float4* A STRIDE_ARG(strideA), const __global float4* B STRIDE_ARG(strideB),
              __global float4* C STRIDE_ARG(strideC))
{
#ifdef STRIDED
    const size_t z = get_group_id(2); // strides are multiples of 4 floats (tile multiples)
    A += z * (size_t)(strideA / 4);
    B += z * (size_t)(strideB / 4);
    C += z * (size_t)(strideC / 4);
#endif
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int tid = ty * RTSM + tx;
    int tile_m, tile_n;
    tile_of_group(SWIZZLE, &tile_m, &tile_n);
    const int m4 = tile_m * (TSM / 4); // tile origin, in float4 units
    const int n4 = tile_n * (TSN / 4);
    const int M4 = M / 4, N4 = N / 4;

    __local float4 As[TILES_IN_LOCAL][TSK][TSM / 4];
    __local float4 Bs[TILES_IN_LOCAL][TSK][TSN / 4];

    float4 acc[WPTN][VM];
    #pragma unroll
    for (int j = 0; j < WPTN; j++)
        #pragma unroll
        for (int i = 0; i < VM; i++)
            acc[j][i] = (float4)(0.0f);

    // This work-item's float4 of the tile at k0: consecutive work-items read consecutive float4.
#define A_AT(k0, l) A[((k0) + (tid + (l) * THREADS) / (TSM / 4)) * M4 + m4 + (tid + (l) * THREADS) % (TSM / 4)]
#define B_AT(k0, l) B[((k0) + (tid + (l) * THREADS) / (TSN / 4)) * N4 + n4 + (tid + (l) * THREADS) % (TSN / 4)]
#define AS_AT(s, l) As[s][(tid + (l) * THREADS) / (TSM / 4)][(tid + (l) * THREADS) % (TSM / 4)]
#define BS_AT(s, l) Bs[s][(tid + (l) * THREADS) / (TSN / 4)][(tid + (l) * THREADS) % (TSN / 4)]

    const int tiles = K / TSK;
#if ASYNC_STAGES >= 2
    // Tiles 0 .. S-2 in flight before the loop; tile t + S - 1 goes into the
    // slot tile t - 1 used, once the barrier shows everyone is done with it.
    // Every iteration commits one group (empty past the last tile), so that
    // "all but IN_FLIGHT groups done" always means "tile t has landed".
    #pragma unroll
    for (int s = 0; s < ASYNC_STAGES - 1; s++) {
        if (s < tiles) {
            #pragma unroll
            for (int l = 0; l < LPTA; l++) COPY_ASYNC16(&AS_AT(s, l), &A_AT(s * TSK, l));
            #pragma unroll
            for (int l = 0; l < LPTB; l++) COPY_ASYNC16(&BS_AT(s, l), &B_AT(s * TSK, l));
        }
        COMMIT_ASYNC();
    }
    int cur = 0, next = ASYNC_STAGES - 1; // slots of tiles t and t + S - 1
    for (int t = 0; t < tiles; t++) {
        WAIT_ASYNC(IN_FLIGHT);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t + ASYNC_STAGES - 1 < tiles) {
            const int k0 = (t + ASYNC_STAGES - 1) * TSK;
            #pragma unroll
            for (int l = 0; l < LPTA; l++) COPY_ASYNC16(&AS_AT(next, l), &A_AT(k0, l));
            #pragma unroll
            for (int l = 0; l < LPTB; l++) COPY_ASYNC16(&BS_AT(next, l), &B_AT(k0, l));
        }
        COMMIT_ASYNC();
        next = next + 1 == ASYNC_STAGES ? 0 : next + 1;
#else
    // Load the first tile.
    #pragma unroll
    for (int l = 0; l < LPTA; l++) AS_AT(0, l) = A_AT(0, l);
    #pragma unroll
    for (int l = 0; l < LPTB; l++) BS_AT(0, l) = B_AT(0, l);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int t = 0; t < tiles; t++) {
        const int cur = t & 1;
        // Prefetch the next tile into registers while this one is computed.
        float4 ra[LPTA], rb[LPTB];
        const int has_next = t + 1 < tiles;
        if (has_next) {
            #pragma unroll
            for (int l = 0; l < LPTA; l++) ra[l] = A_AT((t + 1) * TSK, l);
            #pragma unroll
            for (int l = 0; l < LPTB; l++) rb[l] = B_AT((t + 1) * TSK, l);
        }
#endif

        #pragma unroll
        for (int k = 0; k < TSK; k++) {
            float4 a[VM], b[VN];
            #pragma unroll
            for (int i = 0; i < VM; i++) a[i] = As[cur][k][tx + i * RTSM];
            #pragma unroll
            for (int j = 0; j < VN; j++) b[j] = Bs[cur][k][ty + j * RTSN];
            #pragma unroll
            for (int j = 0; j < VN; j++) {
                #pragma unroll
                for (int i = 0; i < VM; i++) {
                    acc[4 * j + 0][i] = fma(a[i], (float4)(b[j].x), acc[4 * j + 0][i]);
                    acc[4 * j + 1][i] = fma(a[i], (float4)(b[j].y), acc[4 * j + 1][i]);
                    acc[4 * j + 2][i] = fma(a[i], (float4)(b[j].z), acc[4 * j + 2][i]);
                    acc[4 * j + 3][i] = fma(a[i], (float4)(b[j].w), acc[4 * j + 3][i]);
                }
            }
        }

#if ASYNC_STAGES >= 2
        cur = cur + 1 == ASYNC_STAGES ? 0 : cur + 1;
    }
#else
        // The other buffer was last read before the previous barrier: safe to fill.
        if (has_next) {
            #pragma unroll
            for (int l = 0; l < LPTA; l++) AS_AT(cur ^ 1, l) = ra[l];
            #pragma unroll
            for (int l = 0; l < LPTB; l++) BS_AT(cur ^ 1, l) = rb[l];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif

    #pragma unroll
    for (int j = 0; j < VN; j++) {
        #pragma unroll
        for (int c = 0; c < 4; c++) {
            const int n = 4 * (n4 + ty + j * RTSN) + c;
            #pragma unroll
            for (int i = 0; i < VM; i++) C[n * M4 + m4 + tx + i * RTSM] = acc[4 * j + c][i];
        }
    }
}
