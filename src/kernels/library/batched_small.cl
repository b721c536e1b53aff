// Batched SGEMM for tiny matrices (up to about 32 x 32): several whole
// products per work-group, bound by memory traffic, not arithmetic.
//
// Contract (GK_CONTRACT_GEMM_BATCHED_SMALL), column-major, for z < batch:
//   C_z = alpha * op(A_z) * op(B_z) + beta * C_z, C_z not read when beta == 0,
//   X_z = X + offX + z * strideX (strides in floats; 0 broadcasts A or B).
// The shape is compiled in (SIZE_M, SIZE_N, SIZE_K problem defines), so every
// loop has constant bounds and every index divides by constants; the
// run-time M, N, K arguments are the same numbers. DENSE_A, DENSE_B, DENSE_C
// (problem defines, each operand on its own) are 1 when that operand's batch
// is one dense run: leading dimension = stored rows, stride = rows * cols
// (never 0), offset and stride multiples of 4 floats. A work-group's matrices
// of that operand are then one contiguous block starting on 16 bytes.
//
// A work-group takes MPG consecutive matrices (ELEMS elements of C in all, or
// fewer matrices where they would need more than 48 KiB of local memory):
// 1. it copies their stored A and B into local memory: a dense operand's block
//    as float4, consecutive work-items on consecutive float4 (512 bytes per
//    warp-wide load); any other operand float by float, consecutive work-items
//    on consecutive elements of the stored matrices (rows fastest);
// 2. each work-item computes RM x RN micro-tiles of C in registers, rows TM
//    apart and columns TN apart, so that consecutive work-items hold
//    consecutive rows (conflict-free local reads);
// 3. a dense C where a work-item holds whole columns (RM = M, a multiple of 4):
//    float4 stores from the registers; any other dense C: the work-group writes alpha * op(A) op(B) into local memory
//    (over A and B, once every work-item has read them), then stores the block
//    of C as float4 (beta != 0: fma with float4 reads of C), consecutive
//    work-items on consecutive float4; any other C element by element from
//    the registers, rows consecutive across work-items.
//
// Local memory. A and B keep an odd local leading dimension (stored rows | 1):
// the products read one of them strided by it across work-items (plain B,
// transposed A), and an odd stride spreads up to 32 such reads over distinct
// banks. The products read each element TN or TM times, the copy stores it
// once, so the copy takes the cost: the four floats of a float4 go in one by
// one (a float4 does not fit an odd stride). A stride that is a multiple of 4
// would take whole float4, but strided reads would then reach 8 distinct banks
// only (conflicts beyond 8 columns in a warp), and 8 x 8 matrices would need a
// third more memory (12 floats a column instead of 9). Each matrix takes the
// slot of its larger transpose, and a dense C's block (M*N floats a matrix,
// contiguous) overlays A and B, so that the local memory depends on M, N, K
// and the parameters alone: LOCAL4 float4 = the registry's local_mem_bytes.

#ifndef SIZE_M
#define SIZE_M 8
#endif
#ifndef SIZE_N
#define SIZE_N 8
#endif
#ifndef SIZE_K
#define SIZE_K 8
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef DENSE_A
#define DENSE_A 0
#endif
#ifndef DENSE_B
#define DENSE_B 0
#endif
#ifndef DENSE_C
#define DENSE_C 0
#endif
#ifndef ELEMS
#define ELEMS 1024 // C elements per work-group: MPG = ELEMS / (M*N) matrices
#endif
#ifndef RM
#define RM 2 // micro-tile rows per work-item (1 where it does not divide M)
#endif
#ifndef RN
#define RN 2
#endif

#define MAX_(a, b) ((a) > (b) ? (a) : (b))
#define MIN_(a, b) ((a) < (b) ? (a) : (b))
#define MN (SIZE_M * SIZE_N)
#define RM_ (SIZE_M % RM == 0 ? RM : 1)
#define RN_ (SIZE_N % RN == 0 ? RN : 1)
#define TM (SIZE_M / RM_) // work-items along a matrix's rows
#define TN (SIZE_N / RN_)
#define TILES (TM * TN) // micro-tiles per matrix

// Stored operands (column-major): A is M x K, or K x M when transposed.
#define ROWS_A (TRANS_A ? SIZE_K : SIZE_M)
#define COLS_A (TRANS_A ? SIZE_M : SIZE_K)
#define ROWS_B (TRANS_B ? SIZE_N : SIZE_K)
#define COLS_B (TRANS_B ? SIZE_K : SIZE_N)
#define A_ELEMS (ROWS_A * COLS_A)
#define B_ELEMS (ROWS_B * COLS_B)

// Local layout (floats): odd leading dimensions, one slot per matrix for either transpose.
#define ODD(rows) ((rows) | 1)
#define LDA_L ODD(ROWS_A)
#define LDB_L ODD(ROWS_B)
#define A_SLOT MAX_(ODD(SIZE_M) * SIZE_K, ODD(SIZE_K) * SIZE_M)
#define B_SLOT MAX_(ODD(SIZE_K) * SIZE_N, ODD(SIZE_N) * SIZE_K)
#define SLOT MAX_(A_SLOT + B_SLOT, MN) // A and B, or later a dense C's block

// The registry's tile_m, local_x and local_mem_bytes (registry_batched.c) are the same formulas:
// ELEMS / (M*N) matrices a work-group, fewer where their slots would pass 48 KiB (any parameters
// fit a GPU's static local memory at every size up to 32^3; at least one matrix).
#define LOCAL_FLOATS 12288
#define MPG MAX_(1, MIN_(ELEMS / MN, LOCAL_FLOATS / SLOT))
#define WG (ELEMS / (RM * RN))
#define ITERS ((MPG * TILES + WG - 1) / WG) // micro-tiles per work-item
#define LOCAL4 ((MPG * SLOT + 3) / 4)

// Dense paths only where float4 tile the matrices (the library's defines imply it; a hand build may not).
#define DENSE_A_ (DENSE_A && A_ELEMS % 4 == 0)
#define DENSE_B_ (DENSE_B && B_ELEMS % 4 == 0)
#define DENSE_C_ (DENSE_C && MN % 4 == 0)

// op(A)(i, k) and op(B)(k, j) of one matrix in local memory.
#if TRANS_A
#define OP_A(a, i, k) a[(k) + (i) * LDA_L]
#else
#define OP_A(a, i, k) a[(i) + (k) * LDA_L]
#endif
#if TRANS_B
#define OP_B(b, k, j) b[(j) + (k) * LDB_L]
#else
#define OP_B(b, k, j) b[(k) + (j) * LDB_L]
#endif

// Inlined at every use, so that every argument but e and v is a constant (PoCL
// would also copy a local array passed to a call that is not inlined).
#define HELPER static inline __attribute__((always_inline))

// Element e of a dense block of stored matrices (rows x cols = elems each) in local memory.
HELPER int local_at(const int e, const int rows, const int elems, const int ld, const int slot)
{
    const int r = e % elems;
    return e / elems * slot + r / rows * ld + r % rows;
}

// Elements e..e+3 of a dense block (e a multiple of 4) into their local places.
HELPER void put4(__local float* s, const int e, const float4 v, const int rows, const int elems, const int ld,
                 const int slot)
{
    if (rows % 4 == 0) { // the four share a column
        __local float* p = s + local_at(e, rows, elems, ld, slot);
        p[0] = v.x;
        p[1] = v.y;
        p[2] = v.z;
        p[3] = v.w;
    } else {
        s[local_at(e, rows, elems, ld, slot)] = v.x;
        s[local_at(e + 1, rows, elems, ld, slot)] = v.y;
        s[local_at(e + 2, rows, elems, ld, slot)] = v.z;
        s[local_at(e + 3, rows, elems, ld, slot)] = v.w;
    }
}

// The work-group's `count` stored matrices of one operand (rows x elems / rows each, the first at X, the next
// stride floats on) into their local slots: a dense block as float4, consecutive work-items on consecutive
// float4; otherwise float by float, consecutive work-items on consecutive elements (rows fastest).
HELPER void copy_in(__local float* s, const __global float* X, const long stride, const int ld, const int rows,
                    const int elems, const int ld_l, const int slot, const int dense, const int tid, const int count)
{
    if (dense) {
        const __global float4* x4 = (const __global float4*)X;
        #pragma unroll
        for (int l = 0; l < (MPG * elems / 4 + WG - 1) / WG; l++) {
            const int f = tid + l * WG;
            if (f < count * (elems / 4)) put4(s, 4 * f, x4[f], rows, elems, ld_l, slot);
        }
    } else {
        #pragma unroll
        for (int l = 0; l < (MPG * elems + WG - 1) / WG; l++) {
            const int e = tid + l * WG, z = e / elems, r = e % elems;
            if (z < count) s[z * slot + (r / rows) * ld_l + r % rows] = X[z * stride + (r / rows) * ld + r % rows];
        }
    }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void gk_sgemm_batched_small(const int batch, const int M, const int N, const int K, const float alpha,
                            const __global float* A, const int offA, const int lda, const long strideA,
                            const __global float* B, const int offB, const int ldb, const long strideB,
                            const float beta, __global float* C, const int offC, const int ldc,
                            const long strideC)
{
    __local float4 L4[LOCAL4];
    __local float* As = (__local float*)L4;
    __local float* Bs = As + MPG * A_SLOT;
    const int tid = get_local_id(0);
    const int first = get_group_id(0) * MPG;
    const int count = min(MPG, batch - first); // the last work-group may hold fewer

    // 1. Whole stored matrices into local memory.
    copy_in(As, A + offA + first * strideA, strideA, lda, ROWS_A, A_ELEMS, LDA_L, A_SLOT, DENSE_A_, tid, count);
    copy_in(Bs, B + offB + first * strideB, strideB, ldb, ROWS_B, B_ELEMS, LDB_L, B_SLOT, DENSE_B_, tid, count);
    barrier(CLK_LOCAL_MEM_FENCE);

    // 2. Micro-tiles: rows ti + p*TM, columns tj + q*TN of matrix z = u / TILES.
    float acc[ITERS][RM_][RN_];
    #pragma unroll
    for (int it = 0; it < ITERS; it++) {
        const int u = tid + it * WG, z = u / TILES, t = u % TILES, ti = t % TM, tj = t / TM;
        #pragma unroll
        for (int p = 0; p < RM_; p++)
            #pragma unroll
            for (int q = 0; q < RN_; q++) acc[it][p][q] = 0.0f;
        if (z < count) {
            const __local float* a = As + z * A_SLOT;
            const __local float* b = Bs + z * B_SLOT;
            #pragma unroll
            for (int k = 0; k < SIZE_K; k++) {
                float av[RM_], bv[RN_];
                #pragma unroll
                for (int p = 0; p < RM_; p++) av[p] = OP_A(a, ti + p * TM, k);
                #pragma unroll
                for (int q = 0; q < RN_; q++) bv[q] = OP_B(b, k, tj + q * TN);
                #pragma unroll
                for (int p = 0; p < RM_; p++)
                    #pragma unroll
                    for (int q = 0; q < RN_; q++) acc[it][p][q] = fma(av[p], bv[q], acc[it][p][q]);
            }
        }
    }

    // 3. C.
#if DENSE_C_ && TM == 1 && SIZE_M % 4 == 0
    // Each work-item holds whole columns of C (RM = M), contiguous in a dense C: float4 straight from the
    // registers, consecutive work-items on consecutive columns.
    __global float4* c4 = (__global float4*)(C + offC + first * strideC);
    #pragma unroll
    for (int it = 0; it < ITERS; it++) {
        const int u = tid + it * WG, z = u / TILES, tj = u % TILES;
        if (z < count) {
            #pragma unroll
            for (int q = 0; q < RN_; q++)
                #pragma unroll
                for (int p = 0; p < SIZE_M / 4; p++) {
                    const int f = (z * MN + (tj + q * TN) * SIZE_M) / 4 + p;
                    float4 v = alpha * (float4)(acc[it][4 * p][q], acc[it][4 * p + 1][q], acc[it][4 * p + 2][q],
                                                acc[it][4 * p + 3][q]);
                    if (beta != 0.0f) v = fma((float4)(beta), c4[f], v);
                    c4[f] = v;
                }
        }
    }
#elif DENSE_C_
    barrier(CLK_LOCAL_MEM_FENCE); // every work-item has read A and B: C's block goes over them
    __local float* Cs = As;
    #pragma unroll
    for (int it = 0; it < ITERS; it++) {
        const int u = tid + it * WG, z = u / TILES, t = u % TILES, ti = t % TM, tj = t / TM;
        if (z < count) {
            #pragma unroll
            for (int q = 0; q < RN_; q++)
                #pragma unroll
                for (int p = 0; p < RM_; p++)
                    Cs[z * MN + (ti + p * TM) + (tj + q * TN) * SIZE_M] = alpha * acc[it][p][q];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global float4* c4 = (__global float4*)(C + offC + first * strideC);
    #pragma unroll
    for (int l = 0; l < (MPG * MN / 4 + WG - 1) / WG; l++) {
        const int f = tid + l * WG;
        if (f < count * (MN / 4)) {
            float4 v = L4[f];
            if (beta != 0.0f) v = fma((float4)(beta), c4[f], v);
            c4[f] = v;
        }
    }
#else
    #pragma unroll
    for (int it = 0; it < ITERS; it++) {
        const int u = tid + it * WG, z = u / TILES, t = u % TILES, ti = t % TM, tj = t / TM;
        if (z < count) {
            __global float* c = C + offC + (first + z) * strideC;
            #pragma unroll
            for (int q = 0; q < RN_; q++)
                #pragma unroll
                for (int p = 0; p < RM_; p++) {
                    __global float* out = c + (ti + p * TM) + (tj + q * TN) * ldc;
                    const float v = alpha * acc[it][p][q];
                    *out = beta == 0.0f ? v : fma(beta, *out, v);
                }
        }
    }
#endif
}
