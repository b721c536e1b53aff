// xgemm's tiles on the caller's matrices as they are: no packing, no padding.
// The same register blocking, float4 local-memory reads and double-buffered
// local memory with register prefetching as xgemm.cl, but the tiles are read
// from A and B in their stored order (either transpose, offsets, leading
// dimensions), the tiles on the edges of C and the last K step are
// bounds-checked (zeros outside), and C is written with alpha and beta.
// Odd sizes thus cost neither padded work nor pack/unpack copies.
//
// Contract (GK_CONTRACT_GEMM_DIRECT), column-major:
//   C = alpha * op(A) * op(B) + beta * C, C not read when beta == 0.
// Problem defines: TRANS_A/TRANS_B pick each operand's storage order;
// VEC_A/VEC_B/VEC_C are 1 when that matrix's offset and leading dimension are
// multiples of 4 floats, so whole float4 can be loaded and stored.
//
// Loading a tile: an operand whose contiguous dimension is M (plain A) or N
// (transposed B) is read as float4 along it, like xgemm's packed operands. An
// operand whose contiguous dimension is K (transposed A, plain B) is read as
// float4 along K, consecutive work-items covering one column's TSK floats
// (whole 32-byte sectors), and written transposed into local memory; a float4
// of padding per local row staggers those scalar stores over the banks.
//
// Built with -DSTRIDED=1 (registry row xgemm-direct-batched, contract
// GK_CONTRACT_GEMM_DIRECT_STRIDED) it runs a strided batch along the grid's
// third dimension: work-group z adds z * strideX (floats, 64-bit) to each
// operand's offset. Without the define the file is the plain kernel.
//
// Work-item (tx, ty) owns the C elements at rows 4*(tx + i*RTSM) + {0..3}
// and columns 4*(ty + j*RTSN) + {0..3} of the tile, as in xgemm.cl.
//
// ASYNC_STAGES = S >= 2 replaces the register prefetch with xgemm.cl's ring:
// S local tiles filled by asynchronous copies (library/async_copy.h: cp.async
// on NVIDIA sm_80 and newer, plain copies elsewhere), S - 1 tiles in flight
// while one is multiplied, one barrier per tile. The local layout is the same;
// the copies differ from the loads above: an operand contiguous along M or N
// whose columns are 16-byte aligned (VEC_A/VEC_B) is copied a float4 at a time
// as above; any other, K-contiguous ones included, a float at a time, with
// consecutive work-items on consecutive floats as stored (a 16-byte copy
// cannot transpose, and the inner loop reads float4 along M and N). On the
// edges the copies zero-fill instead of branching: elements outside the
// matrix are copies of 0 bytes, from the matrix's first element (an address
// inside the buffer). ASYNC_STAGES = 0 is the kernel above, unchanged.
//
// TPG = T > 1 (with the ring): a work-group multiplies T tiles of C along N
// back to back, its ring running across their boundaries: the first steps of
// tile j + 1 are copied while tile j is multiplied, and tile j's C is stored
// while they land, so a short K (where loading a tile's first steps and
// storing its C take as long as multiplying it) keeps the multiprocessor busy.
//
// Built with -DSPLITK=1 (GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM, the registry's
// xgemm-direct-splitk): split-K without packing. Work-group z along the grid's
// third dimension multiplies the K-slice [z*kslice, min(K, (z+1)*kslice)) of
// op(A) and op(B), read in place, into partial z, P + z*strideP (leading
// dimension ldp). With sum_here, the last of a tile's slices to finish sums
// the tile's partials in slice order and writes C with alpha and beta
// (tile_count.h): one launch. Without, the plan's reduction does that after.

#ifndef MIN_GROUPS
#define MIN_GROUPS 0 // CUDA: work-groups an SM must hold at once (registers capped to fit); 0: the compiler's choice
#endif
#ifndef TSM
#define TSM 128 // tile of C in M per work-group
#endif
#ifndef TSN
#define TSN 128 // tile of C in N per work-group
#endif
#ifndef TSK
#define TSK 8 // K step per tile (a multiple of 4)
#endif
#ifndef WPTM
#define WPTM 8 // C rows per work-item (multiple of 4)
#endif
#ifndef WPTN
#define WPTN 8 // C columns per work-item (multiple of 4)
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef STRIDED
#define STRIDED 0
#endif
#ifndef VEC_A
#define VEC_A 0
#endif
#ifndef VEC_B
#define VEC_B 0
#endif
#ifndef VEC_C
#define VEC_C 0
#endif
#ifndef SPLITK
#define SPLITK 0
#endif
#ifndef ASYNC_STAGES
#define ASYNC_STAGES 0 // local tiles in an asynchronously filled ring; 0: two, through registers
#endif
#ifndef TPG
#define TPG 1 // tiles of C along N per work-group, back to back (ASYNC_STAGES >= 2)
#endif
#if TPG > 1 && ASYNC_STAGES < 2
#error "TPG > 1 needs the ring (ASYNC_STAGES >= 2)"
#endif

#define RTSM (TSM / WPTM) // work-items along M
#define RTSN (TSN / WPTN) // work-items along N
#define THREADS (RTSM * RTSN)
#define VM (WPTM / 4) // float4 groups per work-item along M
#define VN (WPTN / 4)
#define LPTA (TSK * TSM / 4 / THREADS) // float4 loads of A per work-item per tile
#define LPTB (TSK * TSN / 4 / THREADS)
#define ROW_A (TSM / 4 + 1) // local row lengths in float4, one of padding
#define ROW_B (TSN / 4 + 1)

// Inlined at every use: the tile pointers stay in local memory (PoCL copies an
// array passed to a call that is not inlined).
#define HELPER static inline __attribute__((always_inline))

// Four consecutive floats of X from index i, only those before `limit`
// (the rest zeros): for tiles on the edges.
HELPER float4 load4_checked(const __global float* X, const int i, const int limit)
{
    return (float4)(limit > 0 ? X[i] : 0.0f, limit > 1 ? X[i + 1] : 0.0f, limit > 2 ? X[i + 2] : 0.0f,
                    limit > 3 ? X[i + 3] : 0.0f);
}

// Four consecutive floats of X from index i, inside the matrix; one float4
// load when `vec` (i is then a multiple of 4).
HELPER float4 load4(const __global float* X, const int i, const int vec)
{
    if (vec) return *(const __global float4*)(X + i);
    return (float4)(X[i], X[i + 1], X[i + 2], X[i + 3]);
}

// Where the id-th float4 of a tile with origin (x0, k0) starts: an operand
// whose x (M or N) is contiguous, element (x, k) at X[x + k*ld], is read as
// float4 along x; one whose K is contiguous, element (x, k) at X[k + x*ld],
// as float4 along k.
#define OUTER_X(x0, id, tile) ((x0) + 4 * ((id) % ((tile) / 4)))
#define OUTER_K(k0, id, tile) ((k0) + (id) / ((tile) / 4))
#define KMAJOR_X(x0, id) ((x0) + (id) / (TSK / 4))
#define KMAJOR_K(k0, id) ((k0) + 4 * ((id) % (TSK / 4)))

// Loads this work-item's float4 of a tile into r: unchecked inside the
// matrix (`full`, uniform over the work-group, so a real branch around the
// loop rather than a check per load), bounds-checked on the edges.
HELPER void load_outer(float4* r, const __global float* X, const int ld, const int size, const int K, const int x0,
                       const int k0, const int tid, const int tile, const int loads, const int full, const int vec)
{
    if (full) {
        #pragma unroll
        for (int l = 0; l < loads; l++) {
            const int id = tid + l * THREADS;
            r[l] = load4(X, OUTER_X(x0, id, tile) + OUTER_K(k0, id, tile) * ld, vec);
        }
    } else {
        #pragma unroll
        for (int l = 0; l < loads; l++) {
            const int id = tid + l * THREADS, x = OUTER_X(x0, id, tile), k = OUTER_K(k0, id, tile);
            r[l] = load4_checked(X, x + k * ld, k < K ? size - x : 0);
        }
    }
}

HELPER void load_kmajor(float4* r, const __global float* X, const int ld, const int size, const int K, const int x0,
                        const int k0, const int tid, const int loads, const int full, const int vec)
{
    if (full) {
        #pragma unroll
        for (int l = 0; l < loads; l++) {
            const int id = tid + l * THREADS;
            r[l] = load4(X, KMAJOR_K(k0, id) + KMAJOR_X(x0, id) * ld, vec);
        }
    } else {
        #pragma unroll
        for (int l = 0; l < loads; l++) {
            const int id = tid + l * THREADS, x = KMAJOR_X(x0, id), k = KMAJOR_K(k0, id);
            r[l] = load4_checked(X, k + x * ld, x < size ? K - k : 0);
        }
    }
}

// Stores the loads into a local tile of `row` float4 per k: as they are
// (outer) or transposed, each load's four k rows at its column (K-major).
HELPER void store_outer(__local float4* t, const float4* r, const int tid, const int tile, const int row,
                        const int loads)
{
    #pragma unroll
    for (int l = 0; l < loads; l++) {
        const int id = tid + l * THREADS;
        t[(id / (tile / 4)) * row + id % (tile / 4)] = r[l];
    }
}

HELPER void store_kmajor(__local float4* tile, const float4* r, const int tid, const int row, const int loads)
{
    __local float* t = (__local float*)tile;
    #pragma unroll
    for (int l = 0; l < loads; l++) {
        const int id = tid + l * THREADS;
        const int k = 4 * (id % (TSK / 4)), x = id / (TSK / 4);
        t[(k + 0) * row * 4 + x] = r[l].x;
        t[(k + 1) * row * 4 + x] = r[l].y;
        t[(k + 2) * row * 4 + x] = r[l].z;
        t[(k + 3) * row * 4 + x] = r[l].w;
    }
}

// The tile at k0 of each operand into registers, and from registers into local memory.
#if TRANS_A
#define LOAD_A(k0, full) load_kmajor(ra, A, lda, M, K, m0, k0, tid, LPTA, full, VEC_A)
#define STORE_A(buf) store_kmajor(As[buf], ra, tid, ROW_A, LPTA)
#else
#define LOAD_A(k0, full) load_outer(ra, A, lda, M, K, m0, k0, tid, TSM, LPTA, full, VEC_A)
#define STORE_A(buf) store_outer(As[buf], ra, tid, TSM, ROW_A, LPTA)
#endif
#if TRANS_B
#define LOAD_B(k0, full) load_outer(rb, B, ldb, N, K, n0, k0, tid, TSN, LPTB, full, VEC_B)
#define STORE_B(buf) store_outer(Bs[buf], rb, tid, TSN, ROW_B, LPTB)
#else
#define LOAD_B(k0, full) load_kmajor(rb, B, ldb, N, K, n0, k0, tid, LPTB, full, VEC_B)
#define STORE_B(buf) store_kmajor(Bs[buf], rb, tid, ROW_B, LPTB)
#endif

#include "async_copy.h" // COPY_ASYNC*, COMMIT_ASYNC, WAIT_ASYNC, IN_FLIGHT, TILES_IN_LOCAL
#include "split_k.h"    // SPLIT_K_SUM_ARGS, SPLIT_K_SUM_SLICE
#if SPLITK
#include "tile_count.h" // PARTIALS_FENCE, COUNT_IN, load_partial4
#endif

#if ASYNC_STAGES >= 2
// The ring's copies of one operand's tile at (x0, k0) into the local tile t
// (`row` float4 per k, as store_outer/store_kmajor lay it out). Whole tiles
// copy unchecked (`full`, uniform over the work-group); on the edges every
// copy is made, zero-filled past the matrix, from X (its first element) where
// nothing of it is inside.

// A float4 along x (contiguous, columns 16-byte aligned) per copy, as load_outer's.
HELPER void copy_outer4(__local float4* t, const __global float* X, const int ld, const int size, const int K,
                        const int x0, const int k0, const int tid, const int tile, const int row, const int loads,
                        const int full)
{
    if (full) {
        #pragma unroll
        for (int l = 0; l < loads; l++) {
            const int id = tid + l * THREADS;
            COPY_ASYNC16(t + (id / (tile / 4)) * row + id % (tile / 4),
                         X + OUTER_X(x0, id, tile) + OUTER_K(k0, id, tile) * ld);
        }
    } else {
        #pragma unroll
        for (int l = 0; l < loads; l++) {
            const int id = tid + l * THREADS, x = OUTER_X(x0, id, tile), k = OUTER_K(k0, id, tile);
            const int n = k < K ? min(max(size - x, 0), 4) : 0; // floats inside the matrix
            COPY_ASYNC16_ZFILL(t + (id / (tile / 4)) * row + id % (tile / 4), n ? X + x + k * ld : X, 4 * n);
        }
    }
}

// A float per copy, element e = tid + c*THREADS of the tile: consecutive
// work-items on consecutive floats along x (kmajor 0: element (x, k) at
// X[x + k*ld]) or along k (kmajor 1: at X[k + x*ld]), so that each copy
// instruction of a warp reads whole sectors. The local stores of a K-major
// tile land on banks 4*k + x: conflict-free at TSK = 8, two-way at 16.
HELPER void copy_floats(__local float4* tile, const __global float* X, const int ld, const int size, const int K,
                        const int x0, const int k0, const int tid, const int tile_x, const int row, const int loads,
                        const int kmajor, const int full)
{
    __local float* t = (__local float*)tile;
    #pragma unroll
    for (int c = 0; c < 4 * loads; c++) {
        const int e = tid + c * THREADS;
        const int dx = kmajor ? e / TSK : e % tile_x, dk = kmajor ? e % TSK : e / tile_x;
        const int x = x0 + dx, k = k0 + dk;
        const __global float* src = X + (kmajor ? k + x * ld : x + k * ld);
        if (full) {
            COPY_ASYNC4(t + dk * row * 4 + dx, src);
        } else {
            const int inside = x < size && k < K;
            COPY_ASYNC4_ZFILL(t + dk * row * 4 + dx, inside ? src : X, inside ? 4 : 0);
        }
    }
}

// Tile k0 of each operand into ring slot s.
#if TRANS_A
#define COPY_A(s, k0, full) copy_floats(As[s], A, lda, M, K, m0, k0, tid, TSM, ROW_A, LPTA, 1, full)
#elif VEC_A
#define COPY_A(s, k0, full) copy_outer4(As[s], A, lda, M, K, m0, k0, tid, TSM, ROW_A, LPTA, full)
#else
#define COPY_A(s, k0, full) copy_floats(As[s], A, lda, M, K, m0, k0, tid, TSM, ROW_A, LPTA, 0, full)
#endif
#if !TRANS_B
#define COPY_B(s, n0, k0, full) copy_floats(Bs[s], B, ldb, N, K, n0, k0, tid, TSN, ROW_B, LPTB, 1, full)
#elif VEC_B
#define COPY_B(s, n0, k0, full) copy_outer4(Bs[s], B, ldb, N, K, n0, k0, tid, TSN, ROW_B, LPTB, full)
#else
#define COPY_B(s, n0, k0, full) copy_floats(Bs[s], B, ldb, N, K, n0, k0, tid, TSN, ROW_B, LPTB, 0, full)
#endif
#endif

// C = alpha * acc + beta * C for the tile at (m0, n0_); whole float4 inside the matrix where C allows (inside_). A
// macro rather than a helper: PoCL miscompiles the split build when acc is passed to a function after its barriers.
#define STORE_TILE(n0_, inside_)                                                                                \
    do {                                                                                                       \
        _Pragma("unroll") for (int j_ = 0; j_ < VN; j_++) {                                                    \
            _Pragma("unroll") for (int c_ = 0; c_ < 4; c_++) {                                                 \
                const int n = (n0_) + 4 * (ty + j_ * RTSN) + c_;                                               \
                _Pragma("unroll") for (int i_ = 0; i_ < VM; i_++) {                                            \
                    const int m = m0 + 4 * (tx + i_ * RTSM);                                                   \
                    __global float* out = C + m + n * ldc;                                                     \
                    float4 v = alpha * acc[4 * j_ + c_][i_];                                                   \
                    if ((inside_) && VEC_C) {                                                                  \
                        if (beta != 0.0f) v = fma((float4)(beta), *(__global float4*)out, v);                  \
                        *(__global float4*)out = v;                                                            \
                    } else if (n < N) {                                                                        \
                        if (m + 0 < M) out[0] = beta == 0.0f ? v.x : fma(beta, out[0], v.x);                   \
                        if (m + 1 < M) out[1] = beta == 0.0f ? v.y : fma(beta, out[1], v.y);                   \
                        if (m + 2 < M) out[2] = beta == 0.0f ? v.z : fma(beta, out[2], v.z);                   \
                        if (m + 3 < M) out[3] = beta == 0.0f ? v.w : fma(beta, out[3], v.w);                   \
                    }                                                                                          \
                }                                                                                              \
            }                                                                                                  \
        }                                                                                                      \
    } while (0)

// CUDA with MIN_GROUPS > 0 (xgemm-direct-batched's parameter): launch bounds that also ask for MIN_GROUPS
// work-groups an SM, so the registers are capped to fit them (more groups resident: shorter last waves of
// small matrices). OpenCL has no such attribute; 0 is the plain work-group size.
#if defined(__CUDACC__) && MIN_GROUPS > 0
__kernel __attribute__((launch_bounds(RTSM * RTSN, MIN_GROUPS)))
#else
__kernel __attribute__((reqd_work_group_size(RTSM, RTSN, 1)))
#endif
#if SPLITK
void gk_xgemm_direct(SPLIT_K_SUM_ARGS)
{
    SPLIT_K_SUM_SLICE();
#else
void gk_xgemm_direct(const int M, const int N, const int K, const float alpha,
                     const __global float* A, const int offA, const int lda,
#if STRIDED
                     const long strideA,
#endif
                     const __global float* B, const int offB, const int ldb,
#if STRIDED
                     const long strideB,
#endif
                     const float beta, __global float* C, const int offC, const int ldc
#if STRIDED
                     , const long strideC
#endif
                     )
{
    A += offA;
    B += offB;
    C += offC;
#if STRIDED
    A += get_group_id(2) * strideA;
    B += get_group_id(2) * strideB;
    C += get_group_id(2) * strideC;
#endif
#endif
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int tid = ty * RTSM + tx;
    const int m0 = get_group_id(0) * TSM;
    const int n_group = get_group_id(1) * (TSN * TPG); // its first tile's; TPG tiles along N from there
    const int inside_m = m0 <= M - TSM; // m0 + TSM would wrap past 2^31 - TSM

    __local float4 As[TILES_IN_LOCAL][TSK * ROW_A];
    __local float4 Bs[TILES_IN_LOCAL][TSK * ROW_B];
#if SPLITK
    __local int last; // this work-group is its tile's last slice to finish
#endif

    float4 acc[WPTN][VM];
    #pragma unroll
    for (int j = 0; j < WPTN; j++)
        #pragma unroll
        for (int i = 0; i < VM; i++)
            acc[j][i] = (float4)(0.0f);

#if ASYNC_STAGES >= 2
    // As xgemm.cl's ring: tiles 0 .. S-2 in flight before the loop; tile
    // t + S - 1 goes into the slot tile t - 1 used, once the barrier shows
    // everyone is done with it. Every iteration commits one group (empty past
    // the last tile), so "all but IN_FLIGHT groups done" means "tile t landed".
    // With TPG > 1 the ring runs over steps t = j * tiles + (K step) of the group's tiles j of C.
    const int tiles = (K + TSK - 1) / TSK;
    const int subs = TPG == 1 ? 1 : min(TPG, (N - n_group + TSN - 1) / TSN); // its tiles of C inside N
    const int steps = tiles * subs;
    #pragma unroll
    for (int s = 0; s < ASYNC_STAGES - 1; s++) {
        if (s < steps) {
            const int j = TPG == 1 ? 0 : s / tiles, k0 = (s - j * tiles) * TSK, full_k = k0 + TSK <= K;
            const int n0 = n_group + j * TSN;
            COPY_A(s, k0, inside_m && full_k);
            COPY_B(s, n0, k0, n0 <= N - TSN && full_k);
        }
        COMMIT_ASYNC();
    }
    int cur = 0, next = ASYNC_STAGES - 1; // slots of steps t and t + S - 1
    for (int t = 0; t < steps; t++) {
        WAIT_ASYNC(IN_FLIGHT);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t + ASYNC_STAGES - 1 < steps) {
            const int s = t + ASYNC_STAGES - 1, j = TPG == 1 ? 0 : s / tiles;
            const int k0 = (s - j * tiles) * TSK, full_k = k0 + TSK <= K, n0 = n_group + j * TSN;
            COPY_A(next, k0, inside_m && full_k);
            COPY_B(next, n0, k0, n0 <= N - TSN && full_k);
        }
        COMMIT_ASYNC();
        next = next + 1 == ASYNC_STAGES ? 0 : next + 1;
#else
    // The first tile, then (as xgemm) each step prefetches the next tile into
    // registers, computes the current one, and stores the next.
    const int n0 = n_group, inside_n = n0 <= N - TSN;
    float4 ra[LPTA], rb[LPTB];
    LOAD_A(0, inside_m && TSK <= K);
    LOAD_B(0, inside_n && TSK <= K);
    STORE_A(0);
    STORE_B(0);
    barrier(CLK_LOCAL_MEM_FENCE);

    const int tiles = (K + TSK - 1) / TSK;
    for (int t = 0; t < tiles; t++) {
        const int cur = t & 1;
        const int has_next = t + 1 < tiles;
        if (has_next) {
            const int k0 = (t + 1) * TSK, full_k = k0 + TSK <= K;
            LOAD_A(k0, inside_m && full_k);
            LOAD_B(k0, inside_n && full_k);
        }
#endif

        #pragma unroll
        for (int k = 0; k < TSK; k++) {
            float4 a[VM], b[VN];
            #pragma unroll
            for (int i = 0; i < VM; i++) a[i] = As[cur][k * ROW_A + tx + i * RTSM];
            #pragma unroll
            for (int j = 0; j < VN; j++) b[j] = Bs[cur][k * ROW_B + ty + j * RTSN];
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
#if TPG > 1
        // Tile j's last step: store its C (the ring already holds tile j + 1's first steps) and start the next.
        if (t % tiles == tiles - 1 && t + 1 < steps) {
            const int n0 = n_group + (t / tiles) * TSN;
            STORE_TILE(n0, inside_m && n0 <= N - TSN);
            #pragma unroll
            for (int j = 0; j < WPTN; j++)
                #pragma unroll
                for (int i = 0; i < VM; i++)
                    acc[j][i] = (float4)(0.0f);
        }
#endif
    }
    const int n0 = n_group + (subs - 1) * TSN, inside_n = n0 <= N - TSN; // the last tile, stored below
#else
        // The other buffer was last read before the previous barrier: safe to fill.
        if (has_next) {
            STORE_A(cur ^ 1);
            STORE_B(cur ^ 1);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
    int write_c = 1; // this work-group writes C (no return before the barriers below: PoCL mishandles one)
#if SPLITK
    // This slice's partial, whole float4s (its columns ldp apart, ldp = M rounded up to 4).
    __global float* own = P + get_group_id(2) * (size_t)strideP;
    #pragma unroll
    for (int j = 0; j < VN; j++)
        #pragma unroll
        for (int c = 0; c < 4; c++) {
            const int n = n0 + 4 * (ty + j * RTSN) + c;
            #pragma unroll
            for (int i = 0; i < VM; i++) {
                const int m = m0 + 4 * (tx + i * RTSM);
                if (m < M && n < N) *(__global float4*)(own + m + (size_t)n * ldp) = acc[4 * j + c][i];
            }
        }
    write_c = 0;
    if (sum_here) {
        // Count this slice in on the tile's counter; the last to arrive writes C.
        COUNT_IN(tile_counts, tid, last);
        write_c = last;
    }
    if (write_c) {
        PARTIALS_FENCE();
        // acc = P_0 + P_1 + ... in that order (this slice's own too, as stored): the same sum whichever slice is
        // last. A block of 4 columns' loads are all issued before their adds: one wait on the L2 per block and
        // slice, not one per float4 (the loads are volatile, kept in the order written).
        for (int z = 0; z < (int)get_num_groups(2); z++) {
            const __global float* pz = P + z * (size_t)strideP;
            #pragma unroll
            for (int j = 0; j < VN; j++) {
                float4 v[4][VM];
                #pragma unroll
                for (int c = 0; c < 4; c++) {
                    const int n = n0 + 4 * (ty + j * RTSN) + c;
                    #pragma unroll
                    for (int i = 0; i < VM; i++) {
                        const int m = m0 + 4 * (tx + i * RTSM);
                        v[c][i] = m < M && n < N ? load_partial4(pz + m + (size_t)n * ldp) : (float4)(0.0f);
                    }
                }
                #pragma unroll
                for (int c = 0; c < 4; c++)
                    #pragma unroll
                    for (int i = 0; i < VM; i++) acc[4 * j + c][i] = z == 0 ? v[c][i] : acc[4 * j + c][i] + v[c][i];
            }
        }
    }
#endif
    if (!write_c) return;
    STORE_TILE(n0, inside_m && inside_n);
}
