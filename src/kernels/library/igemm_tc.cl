// The Ozaki scheme II's products on the tensor cores of NVIDIA GPUs (compute capability 8.0 and newer; GK_MATH_INT8X,
// contract GK_CONTRACT_GEMM_OZAKI, as igemm.cl): (Mp, Np, Kp, RA, RB, S). Work-group z multiplies modulus z's
// residues with inline PTX mma.sync.m16n8k32 (s8 x s8 -> s32, exact), and stores each sum's symmetric residue mod
// p_z as int8 at S + z Mp Np, column-major with leading dimension Mp. One source for NVIDIA's OpenCL and NVRTC
// (cl_to_cuda.h); other devices cannot build it (the registry's min_capability keeps it from them).
// The operands come as the plan's slicing leaves them: A's residues Mp x Kp and B's Np x Kp, K contiguous, each
// row Kp bytes (a multiple of TSK), after each operand's Mp (Np) int32 exponents; Mp, Np multiples of the tiles, so
// no access checks bounds. |residue| <= 128: a product is at most 2^14 and 2^16 of them (plus a residue carried
// over) fit an int32, so the sums are reduced mod p every 65536 k.
//
// Work-group: WARPS_M x WARPS_N warps, a TSM x TSN tile (TSM = WARPS_M*MI*16, TSN = WARPS_N*NI*8), each warp
// MI x NI mma tiles; the work-groups take the tiles in the order of tile_order.h (SWIZZLE), so that those in
// flight share panels of A and B in the L2. Local memory is static arrays, at most 48 KiB (all that NVIDIA's
// OpenCL gives a work-group): the default 128 x 128 tile with 3 slots of 64 k fills it, and two such work-groups
// (4 warps of 64 x 64, up to 255 registers each) share a multiprocessor, one's barrier covered by the other.
// The K loop: a ring of STAGES slots in local memory, each a K tile of TSK bytes of the TSM rows of A and the TSN
// rows of B, filled by cp.async (async_copy.h) STAGES - 1 tiles ahead: one barrier per tile, after which the slot
// read before it is refilled. The fragments of the next 32 k are loaded while the mmas of the current 32 run (two
// register sets, whose indices are constants once the loop over a turn of two 32-k steps is unrolled).
//
// Fragments (PTX ISA, "mma.m16n8k32", .s8; g = lane / 4, t = lane % 4, four k per register, lowest k in the
// lowest byte):
//   A (16 x 32, 4 regs): a0 (row g, k 4t..4t+3), a1 (g+8, 4t..), a2 (g, 16+4t..), a3 (g+8, 16+4t..)
//   B (32 x 8, 2 regs):  b0 (k 4t..4t+3, col g), b1 (k 16+4t.., col g)
//   C (16 x 8, 4 s32):   c0 (g, 2t), c1 (g, 2t+1), c2 (g+8, 2t), c3 (g+8, 2t+1)
// are exactly what ldmatrix.m8n8.x4.b16 gives for 8-bit data stored K-major: each 8 x 8 b16 matrix is 8 rows x 16
// bytes, and work-item (g, t) receives bytes 4t..4t+3 of row g of each. One x4 load: an A fragment (rows 0-7 and
// 8-15 at k 0-15, then at k 16-31) or the B fragments of two n8 tiles.
// Local layout: row r of a slot's tile is TSK bytes, its 16-byte chunks permuted by c ^ SWZ(r), so that the 8
// rows of one 8 x 8 matrix (rows 8i..8i+7 at one chunk) lie in 8 different 16-byte columns of the 128 bytes the
// banks cover: ldmatrix and the copies' 16-byte stores then meet every bank once.
//
// The result: each sum's symmetric residue (residue_of) put column by column into local memory (the ring, once
// every fragment is read), then stored 16 bytes a work-item: a column's TSM rows are whole 32-byte sectors, where
// byte stores from the registers would touch four columns per instruction.

#include "ozaki.h"

#ifndef WARPS_M
#define WARPS_M 2 // warps along M
#endif
#ifndef WARPS_N
#define WARPS_N 2 // warps along N
#endif
#ifndef MI
#define MI 4 // m16 tiles per warp along M
#endif
#ifndef NI
#define NI 8 // n8 tiles per warp along N
#endif
#ifndef TSK
#define TSK 64 // k (bytes) per slot: 32, 64 or 128
#endif
#ifndef STAGES
#define STAGES 3 // slots in the ring: 2 to 6
#endif
#ifndef SWIZZLE
#define SWIZZLE 8 // tile rows per band of the work-group order (library/tile_order.h; 1: plain order)
#endif

#define THREADS (WARPS_M * WARPS_N * 32)
#define TSM (WARPS_M * MI * 16)
#define TSN (WARPS_N * NI * 8)
#define UNITS (TSK / 32) // 32-k steps per slot
#define CHUNKS (TSK / 16) // 16-byte chunks per row of a slot
#define SWZ(r) (((r) * TSK / 128) & (CHUNKS - 1)) // the permutation of row r's chunks (header)
#define COPIES ((TSM + TSN) * CHUNKS) // 16-byte copies per slot
#define LOADS ((COPIES + THREADS - 1) / THREADS) // per work-item
// Whether copy l is one of the slot's: the last round is partial where THREADS does not divide COPIES.
#if COPIES % THREADS == 0
#define COPIES_SLOT(l) 1
#else
#define COPIES_SLOT(l) (tid + (l) * THREADS < COPIES)
#endif
#define SLOT_BYTES ((TSM + TSN) * TSK) // A's rows, then B's
#define RING_BYTES (STAGES * SLOT_BYTES)
// The result's staging: TSN columns of TSM rows, COLUMN bytes apart (16 more than the rows, so that the byte
// stores of a warp, rows g and g + 8 of columns 2t and 2t + 1, fall in different banks).
#define COLUMN (TSM + 16)
#define OUT_BYTES (TSN * COLUMN)
#define LOCAL_BYTES (RING_BYTES > OUT_BYTES ? RING_BYTES : OUT_BYTES)
#define REDUCE_STEPS (65536 / 32) // 32-k steps between reductions mod p
#if TSK != 32 && TSK != 64 && TSK != 128
#error "TSK must be 32, 64 or 128"
#endif
#if NI % 2
#error "NI must be even (one ldmatrix.x4 serves two n8 tiles)"
#endif

#define ASYNC_STAGES STAGES
#include "async_copy.h" // COPY_ASYNC16, COMMIT_ASYNC, WAIT_ASYNC, IN_FLIGHT, LOCAL_ADDRESS
#include "tile_order.h" // tile_of_group

#define HELPER static inline __attribute__((always_inline))

// d += a * b on one m16n8k32 tile.
#define MMA(d, a, b)                                                                                          \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "                                          \
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"                        \
                 : "=r"((d)[0]), "=r"((d)[1]), "=r"((d)[2]), "=r"((d)[3])                                      \
                 : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]),              \
                   "r"((d)[0]), "r"((d)[1]), "r"((d)[2]), "r"((d)[3]))

// Four 8 x 8 b16 matrices from local memory: work-item l gives the address of row l % 8 of matrix l / 8.
#define LDMATRIX_X4(r0, r1, r2, r3, address)                                                                  \
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"                           \
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)                                                     \
                 : "r"(address)                                                                               \
                 : "memory")

// x's symmetric residue mod p (gk_symmetric's, |x| < 2^31 - p) without an integer division: x becomes a double as
// the low word of 2^52 + 2^31 + x less that constant, exactly; fma(x, 1/p, 1.5 2^52) rounds x / p to an integer q
// held in its low word. x (1/p) is within 2^-28 of x / p, whose distance to a half-integer is 0 (p = 256, where
// 1/p and the product are exact) or at least 1 / (2p), so q is x / p rounded to nearest and |x - q p| <= p / 2;
// a tie (p = 256) leaves +128, moved to -128.
HELPER int residue_of(const int x, const int p, const double inv_p)
{
#ifdef GK_CUDA
    const double xd = __hiloint2double(0x43300000, x ^ (int)0x80000000) - 4503601774854144.0; // 2^52 + 2^31
    const int q = __double2loint(fma(xd, inv_p, 6755399441055744.0)); // 1.5 2^52
#else
    const double xd = as_double(((ulong)0x43300000 << 32) | (uint)(x ^ (int)0x80000000)) - 4503601774854144.0;
    const int q = (int)(uint)as_ulong(fma(xd, inv_p, 6755399441055744.0));
#endif
    const int r = x - q * p;
    return 2 * r >= p ? r - p : r;
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gk_ozaki_igemm_tc(const int Mp, const int Np, const int Kp, const __global char* RA, const __global char* RB,
                       __global char* S)
{
    __local uint4 L4[LOCAL_BYTES / 16]; // uint4: the copies' and the result's 16-byte accesses are aligned
    __local uchar* L = (__local uchar*)L4;
    const int z = (int)get_group_id(2), p = gk_modulus(z);
    const double inv_p = 1.0 / (double)p;
    const int tid = (int)get_local_id(0), lane = tid % 32, warp = tid / 32;
    const int g = lane / 4, t = lane % 4;
    const int wm = (warp % WARPS_M) * MI * 16, wn = (warp / WARPS_M) * NI * 8;
    int tile_m, tile_n;
    tile_of_group(SWIZZLE, &tile_m, &tile_n);
    const int m0 = tile_m * TSM, n0 = tile_n * TSN;
    const int tiles = Kp / TSK, steps = tiles * UNITS;

    // This work-item's copies: rows r of the slot (A's TSM rows, then B's TSN) from their operand, 16-byte chunk c,
    // permuted in the slot by the row. The slot's rows are TSK bytes whichever operand they hold.
    const __global char* src[LOADS];
    int dst[LOADS];
#pragma unroll
    for (int l = 0; l < LOADS; l++) {
        const int id = min(tid + l * THREADS, COPIES - 1), r = id / CHUNKS, c = id % CHUNKS;
        src[l] = r < TSM ? RA + (size_t)Mp * 4 + (size_t)z * Mp * Kp + (size_t)(m0 + r) * Kp + 16 * c
                         : RB + (size_t)Np * 4 + (size_t)z * Np * Kp + (size_t)(n0 + r - TSM) * Kp + 16 * c;
        dst[l] = r * TSK + ((c ^ SWZ(r)) * 16);
    }
    // The rows this work-item addresses for ldmatrix (header): A's matrices 0-3 are rows 0-7, 8-15, 0-7, 8-15 of
    // a fragment at k 0-15, 0-15, 16-31, 16-31; B's are rows 0-7 at k 0-15 and 16-31 of one n8 tile, then of the
    // next. Every such row is lane % 8's mod 8, so its permutation is lane's.
    const int row_a = wm + lane % 8 + 8 * ((lane / 8) % 2), half_a = lane / 16;
    const int row_b = TSM + wn + lane % 8 + 8 * (lane / 16), half_b = (lane / 8) % 2, swz = SWZ(lane % 8);
    const uint local0 = LOCAL_ADDRESS(L);

    int acc[MI][NI][4];
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int ni = 0; ni < NI; ni++)
#pragma unroll
            for (int r = 0; r < 4; r++) acc[mi][ni][r] = 0;

    // The first STAGES - 1 tiles' copies (a round past COPIES, where there is one, copies nothing).
    for (int s = 0; s < STAGES - 1; s++) {
        __local uchar* slot = L + s * SLOT_BYTES;
#pragma unroll
        for (int l = 0; l < LOADS; l++)
            if (s < tiles && COPIES_SLOT(l))
                COPY_ASYNC16((__local float4*)(slot + dst[l]), (const __global float*)(src[l] + (size_t)s * TSK));
        COMMIT_ASYNC();
    }
    WAIT_ASYNC(IN_FLIGHT); // tile 0 has landed
    barrier(CLK_LOCAL_MEM_FENCE);

    // Two register sets of fragments, a[h] and b[h]: step `step + h` multiplies set h while set h ^ 1 is loaded
    // with the next step's (h a constant once the loop over it is unrolled, so the sets stay in registers).
    uint a[2][MI][4], b[2][NI][2];
    {
        const uint ca = (uint)((half_a ^ swz) * 16), cb = (uint)((half_b ^ swz) * 16);
#pragma unroll
        for (int mi = 0; mi < MI; mi++)
            LDMATRIX_X4(a[0][mi][0], a[0][mi][1], a[0][mi][2], a[0][mi][3],
                        local0 + (uint)((row_a + mi * 16) * TSK) + ca);
#pragma unroll
        for (int ni = 0; ni < NI; ni += 2)
            LDMATRIX_X4(b[0][ni][0], b[0][ni][1], b[0][ni + 1][0], b[0][ni + 1][1],
                        local0 + (uint)((row_b + ni * 8) * TSK) + cb);
    }
    // The sums reduced mod p every 65536 k, outside the loop of steps (an even count between reductions, so the
    // sets keep their turns).
    for (int first = 0; first < steps; first += REDUCE_STEPS) {
        if (first > 0) // rare: K past 65536; gk_symmetric needs fewer registers than residue_of beside the fragments
#pragma unroll
            for (int mi = 0; mi < MI; mi++)
#pragma unroll
                for (int ni = 0; ni < NI; ni++)
#pragma unroll
                    for (int r = 0; r < 4; r++) acc[mi][ni][r] = gk_symmetric(acc[mi][ni][r], p);
        const int last = min(steps, first + REDUCE_STEPS);
        for (int step = first; step < last; step += 2) {
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int now = step + h, tile = now / UNITS, kk = now % UNITS;
                if (h == 0 || now < last) { // an odd count of steps: the last turn has one
                    // At a tile's first step, the copy of the tile STAGES - 1 ahead, into the slot the tile before
                    // used, which every warp finished reading before the last barrier; at its last, the wait for the
                    // next tile and the barrier.
                    if (kk == 0) {
                        const int ahead = tile + STAGES - 1;
                        __local uchar* slot = L + (ahead % STAGES) * SLOT_BYTES;
#pragma unroll
                        for (int l = 0; l < LOADS; l++)
                            if (ahead < tiles && COPIES_SLOT(l))
                                COPY_ASYNC16((__local float4*)(slot + dst[l]),
                                             (const __global float*)(src[l] + (size_t)ahead * TSK));
                        COMMIT_ASYNC();
                    }
                    if (kk == UNITS - 1) {
                        WAIT_ASYNC(IN_FLIGHT);
                        barrier(CLK_LOCAL_MEM_FENCE);
                    }
                    // The next step's fragments into set h ^ 1, its 16-byte chunks permuted by the rows' swz.
                    if (now + 1 < steps) {
                        const int nt = (now + 1) / UNITS, nk = (now + 1) % UNITS;
                        const uint slot = local0 + (uint)((nt % STAGES) * SLOT_BYTES);
                        const uint ca = (uint)(((2 * nk + half_a) ^ swz) * 16);
                        const uint cb = (uint)(((2 * nk + half_b) ^ swz) * 16);
#pragma unroll
                        for (int mi = 0; mi < MI; mi++)
                            LDMATRIX_X4(a[h ^ 1][mi][0], a[h ^ 1][mi][1], a[h ^ 1][mi][2], a[h ^ 1][mi][3],
                                        slot + (uint)((row_a + mi * 16) * TSK) + ca);
#pragma unroll
                        for (int ni = 0; ni < NI; ni += 2)
                            LDMATRIX_X4(b[h ^ 1][ni][0], b[h ^ 1][ni][1], b[h ^ 1][ni + 1][0], b[h ^ 1][ni + 1][1],
                                        slot + (uint)((row_b + ni * 8) * TSK) + cb);
                    }
#pragma unroll
                    for (int mi = 0; mi < MI; mi++)
#pragma unroll
                        for (int ni = 0; ni < NI; ni++) MMA(acc[mi][ni], a[h][mi], b[h][ni]);
                }
            }
        }
    }

    // Every fragment is read (and every copy has landed) before the ring holds the result.
    WAIT_ASYNC(0);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int ni = 0; ni < NI; ni++)
#pragma unroll
            for (int r = 0; r < 4; r++) {
                const int row = wm + mi * 16 + g + 8 * (r / 2), col = wn + ni * 8 + 2 * t + r % 2;
                L[col * COLUMN + row] = (uchar)residue_of(acc[mi][ni][r], p, inv_p);
            }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global char* s = S + (size_t)z * Mp * Np + (size_t)n0 * Mp + m0;
    for (int id = tid; id < TSN * (TSM / 16); id += THREADS) {
        const int col = id / (TSM / 16), c = id % (TSM / 16);
        *(__global uint4*)(s + (size_t)col * Mp + 16 * c) = *(const __local uint4*)(L + col * COLUMN + 16 * c);
    }
}
