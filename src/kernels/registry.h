/* The kernel registry: every kernel gemmkit can run, described as data
 * (source file, parameters, constraints, launch geometry). The library, the
 * tests, the tuner and the benchmark all read this one table.
 *
 * Geometry and constraints are integer expressions (see expr.h) over the
 * kernel's parameters and the problem sizes M, N, K (for transposes: ROWS,
 * COLS). Operators: + - * / % ( ) == != < <= > >= && || ! and min(a,b)/max(a,b). */
#ifndef GK_REGISTRY_H
#define GK_REGISTRY_H

#include <stddef.h>

#include "backend.h"

#define GK_MAX_PARAMS 10
#define GK_MAX_CONSTRAINTS 10

/* A kernel's argument contract: its argument list and launch grid, built by
 * one function per contract from the operands (src/core/contract.c).
 * Column-major throughout; offsets in elements. */
typedef enum gk_contract {
    /* The full BLAS contract in one kernel, any size, op() through the problem
     * defines TRANS_A/TRANS_B:
     *   (M, N, K, alpha, A, offA, lda, B, offB, ldb, beta, C, offC, ldc). */
    GK_CONTRACT_GEMM_DIRECT,
    /* C = A * B on packed buffers (A: M x K, B: K x N, C: M x N, leading
     * dimension = rows, no offsets), sizes multiples of tile_m, tile_n and
     * k_multiple; the library pads around it (tutorial kernel 10) and applies
     * alpha/beta afterwards: (M, N, K, A, B, C). */
    GK_CONTRACT_GEMM_PACKED,
    GK_CONTRACT_GEMM_PACKED_BT, /* the same with B as N x K (tutorial kernel 5 onwards) */
    /* GK_CONTRACT_GEMM_PACKED_BT along the grid's third dimension (batch): work-group z
     * computes C + z*strideC = (A + z*strideA) * (B + z*strideB) (strides in floats):
     *   (M, N, K, A, strideA, B, strideB, C, strideC).
     * Split-K runs one K-slice per z (K = the slice's length) into its own partial. */
    GK_CONTRACT_GEMM_PACKED_BT_STRIDED,
    /* Split-K on the operands as stored (GK_CONTRACT_GEMM_DIRECT's A and B): work-group z
     * multiplies the K-slice [z*kslice, min(K, (z+1)*kslice)) into partial z, P + z*strideP:
     *   (M, N, K, kslice, A, offA, lda, B, offB, ldb, P, ldp, strideP). */
    GK_CONTRACT_GEMM_DIRECT_SPLIT,
    /* The same slices with the sum in the kernel (xgemm-direct-splitk, the skinny kernels' split-K builds): partial
     * z is P + z*strideP; when
     * sum_here, the last slice of each tile to finish sums the partials in order into C = alpha * sum + beta * C,
     * counting on tile_counts (an int per tile, in work-group order along M first, zero between calls); else the
     * plan's reduction follows, as for GK_CONTRACT_GEMM_DIRECT_SPLIT (gk_split_sums_in_kernel):
     *   (M, N, K, kslice, A, offA, lda, B, offB, ldb, P, ldp, strideP, alpha, beta, C, offC, ldc, tile_counts,
     *    sum_here). */
    GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM,
    /* GK_CONTRACT_GEMM_DIRECT along the grid's third dimension (batch): work-group z computes
     * C_z = alpha op(A_z) op(B_z) + beta C_z with X_z = X + offX + z*strideX (strides in floats,
     * 64-bit; 0 broadcasts A or B):
     *   (M, N, K, alpha, A, offA, lda, strideA, B, offB, ldb, strideB, beta, C, offC, ldc, strideC). */
    GK_CONTRACT_GEMM_DIRECT_STRIDED,
    /* GK_CONTRACT_GEMM_DIRECT's arguments on operands the plan has split into TF32 big and small
     * parts (GK_CONTRACT_SPLIT): A as A^T (K x M, K contiguous) and B (K x N), each leading
     * dimension a multiple of 4, the big parts at the offset and the small parts a matrix further
     * (A + offA + M*lda, B + offB + N*ldb); TRANS_A = 1, TRANS_B = 0 (xgemm-wgmma-3xtf32-split). */
    GK_CONTRACT_GEMM_SPLIT,
    /* The tensor memory accelerator's kernels (CUDA, GK_CAP_TENSOR_MAPS): op(A) as A^T (K x M, K contiguous)
     * and B (K x N), each with 16-byte aligned columns (offset and leading dimension whole float4; the plan
     * copies an operand that is not so), as tensor maps (gk_tensor_view: boxes of 32 k by tile_m rows of A^T,
     * tile_n of B):
     *   (M, N, K, alpha, mapA, mapB, beta, C, offC, ldc). */
    GK_CONTRACT_GEMM_TMA,
    /* The same on operands split by the plan (GK_CONTRACT_GEMM_SPLIT's layout): each map's second part the
     * small parts, a matrix (M lda, N ldb) further. */
    GK_CONTRACT_GEMM_SPLIT_TMA,
    /* GK_CONTRACT_GEMM_SPLIT_TMA over K-slices (as GK_CONTRACT_GEMM_DIRECT_SPLIT): work-group z multiplies
     * the K-slice [z*kslice, min(K, (z+1)*kslice)) into partial z, P + z*strideP:
     *   (M, N, K, kslice, mapA, mapB, P, ldp, strideP). */
    GK_CONTRACT_GEMM_SPLIT_TMA_K,
    /* The same batch with several whole matrices per work-group (tiny matrices): tile_m of the
     * registry geometry is the matrices per work-group, the grid is 1-D over the batch:
     *   (batch, M, N, K, alpha, A, offA, lda, strideA, B, offB, ldb, strideB, beta, C, offC, ldc, strideC). */
    GK_CONTRACT_GEMM_BATCHED_SMALL,
    /* Transposes and copies, any sizes (bounds-checked), A(r, c) = A[offA + r + c*lda]:
     *   (rows, cols, alpha, A, offA, lda, B, offB, ldb).
     * A transpose writes B[offB + c + r*ldb] = alpha * A(r, c) (B is cols x rows),
     * a copy B[offB + r + c*ldb] = alpha * A(r, c) (the bandwidth reference). */
    GK_CONTRACT_TRANSPOSE,
    GK_CONTRACT_COPY,
    /* Helpers around the packed kernels: C = beta * C (C not read when beta == 0),
     *   (rows, cols, beta, C, offC, ldc); */
    GK_CONTRACT_SCALE,
    /* C = alpha * P + beta * C from a padded result P (leading dimension ldp):
     *   (rows, cols, alpha, P, ldp, beta, C, offC, ldc). */
    GK_CONTRACT_UNPACK,
    /* C = alpha * (P_0 + ... + P_{splits-1}) + beta * C, summed in that order, from
     * padded partials P_z = P + z*strideP (leading dimension ldp; C not read when beta == 0):
     *   (rows, cols, splits, alpha, P, ldp, strideP, beta, C, offC, ldc). */
    GK_CONTRACT_REDUCE,
    /* 3xTF32's operand split (split.cl): Y = tf32(X) and Y + cols*ldy = tf32(X - tf32(X)) over
     * the rows x cols of X (in place when Y is X):
     *   (rows, cols, X, offX, ldx, Y, ldy). */
    GK_CONTRACT_SPLIT,
    /* The Ozaki scheme II (GK_MATH_INT8X, plan_ozaki.c, docs/MATH.md). Its main kernel: one exact INT8 x INT8 ->
     * INT32 product per modulus (work-group z: modulus z) of the sliced operands, each reduced to its symmetric
     * residue: RA (4 Mp bytes of row exponents, then per modulus Mp x Kp residues, K contiguous), RB likewise
     * (Np x Kp), S (per modulus an Mp x Np residue matrix, leading dimension Mp): (Mp, Np, Kp, RA, RB, S). */
    GK_CONTRACT_GEMM_OZAKI,
    /* The same products with RA's and RB's residues as tensor maps (CUDA, GK_CAP_TENSOR_MAPS; gk_tensor_view
     * over the bytes as floats: Kp / 4 a row, Mp or Np rows, one part per modulus, boxes of 128 k by tile_m or
     * tile_n rows), S as GK_CONTRACT_GEMM_OZAKI's: (Mp, Np, Kp, mapA, mapB, S). */
    GK_CONTRACT_GEMM_OZAKI_TMA,
    /* Its slicing, second step: each row r < rows of X (element k at X[offX + r*sr + k*sk]) scaled by the power
     * of two GK_CONTRACT_OZAKI_NORMS left in R, rounded to an integer and reduced mod each of the MODULI moduli
     * into R (GK_CONTRACT_GEMM_OZAKI's RA/RB; MODULI and K_CONTIGUOUS compiled in), a rows_p x Kp grid:
     *   (rows, K, Kp, rows_p, X, offX, sr, sk, R). */
    GK_CONTRACT_OZAKI_SLICE,
    /* Its recombination: C = alpha * CRT(S) * 2^-(eA_i + eB_j) + beta * C in fp64, and fp32 dot products of the
     * caller's A and B (TRANS_A, TRANS_B) for rows and columns that hold Inf or NaN (MODULI compiled in):
     *   (M, N, K, S, ldS, Np, RA, RB, alpha, beta, C, offC, ldc, A, offA, lda, B, offB, ldb). */
    GK_CONTRACT_OZAKI_CRT,
    /* Its slicing, first step: each row's exponent from its 2-norm into R's first rows_p ints (K_CONTIGUOUS
     * compiled in): (rows, K, rows_p, moduli, X, offX, sr, sk, R). */
    GK_CONTRACT_OZAKI_NORMS,
    /* The spread of an operand's rows (ozaki_norms.cl with SPREAD=1; the plan's choice of moduli): the largest
     * ceil(4 log2(sqrt(K) |x|_2 / |x|_1)) over rows r < rows of X (element k at X[offX + r*sr + k*sk]) into Q[q]
     * by an atomic max (K_CONTIGUOUS compiled in): (rows, K, X, offX, sr, sk, Q, q). */
    GK_CONTRACT_OZAKI_SPREAD,
    GK_CONTRACT_COUNT
} gk_contract;

/* The public routine a kernel serves (derived from its contract). */
typedef enum gk_operation {
    GK_OP_SGEMM,
    GK_OP_TRANSPOSE,
    GK_OP_COPY,
    GK_OP_SGEMM_BATCHED, /* strided batched SGEMM (routine_gemm_batched.c) */
    GK_OP_HELPER /* internal steps of other routines' plans: not listed in the ladder */
} gk_operation;

/* Which documents a kernel comes from; the ladder prints each group in order. */
typedef enum gk_family {
    GK_FAMILY_LIBRARY,  /* helper or production kernels */
    GK_FAMILY_TUTORIAL, /* SGEMM tutorial, kernels 1-10 */
    GK_FAMILY_SLIDES,   /* OpenCL memory-hierarchy slides */
    GK_FAMILY_LECTURE   /* CUDA transpose and matmul lecture */
} gk_family;

/* Shape restrictions beyond the contract's. */
enum gk_kernel_flags {
    GK_FLAG_SQUARE_ONLY = 1u << 0, /* M == N == K only, as in the slides' kernels: padded to a cube */
    /* Its local memory (local_mem_bytes) is one block sized at launch: CUDA's extern __shared__, up to the
     * device's opt-in limit (227 KiB on Hopper) rather than the 48 KiB of static arrays; the backend checks
     * the size when it launches. CUDA-only kernels (OpenCL would need a __local argument). */
    GK_FLAG_DYNAMIC_LOCAL = 1u << 1,
    /* A split-K build whose slice count comes from the waves of work-groups (gk_sgemm_splits_by_waves), not
     * from filling each compute unit several times over (gk_sgemm_splits): kernels one work-group of which
     * fills a compute unit (the wgmma kernels), where more work-groups per unit add nothing. */
    GK_FLAG_SPLIT_BY_WAVES = 1u << 2
};

/* Defines a kernel takes from the problem (not tuning parameters). */
enum gk_problem_define {
    GK_DEFINE_TRANS_A = 1u << 0, /* -DTRANS_A=0|1: op(A) */
    GK_DEFINE_TRANS_B = 1u << 1, /* -DTRANS_B=0|1: op(B) */
    /* -DVEC_A/VEC_B/VEC_C=1 when that matrix's offset and leading dimension are
     * multiples of 4 floats (its columns start on 16-byte boundaries), else 0 */
    GK_DEFINE_VEC_A = 1u << 2,
    GK_DEFINE_VEC_B = 1u << 3,
    GK_DEFINE_VEC_C = 1u << 4,
    /* -DSIZE_M/SIZE_N/SIZE_K: the problem's M, N, K compiled in (tiny batched kernels: constant loops) */
    GK_DEFINE_SIZE_M = 1u << 5,
    GK_DEFINE_SIZE_N = 1u << 6,
    GK_DEFINE_SIZE_K = 1u << 7,
    /* -DDENSE_A/DENSE_B/DENSE_C=1 when that operand's batch is one dense run: leading
     * dimension = stored rows, stride = rows * cols (not 0), offset and stride multiples
     * of 4 floats, so that consecutive matrices form one contiguous block starting on
     * 16 bytes (tiny batched kernels: float4 copies of whole blocks), else 0 */
    GK_DEFINE_DENSE_A = 1u << 8,
    GK_DEFINE_DENSE_B = 1u << 9,
    GK_DEFINE_DENSE_C = 1u << 10,
    /* -DMODULI: the Ozaki scheme's moduli (GK_MATH_INT8X's helpers: unrolled loops, constant moduli) */
    GK_DEFINE_MODULI = 1u << 11,
    /* -DK_CONTIGUOUS=1 when the Ozaki slicing's rows have K contiguous (sk == 1), 0 when the rows are (sr == 1):
     * which dimension the helpers' loads run along */
    GK_DEFINE_K_CONTIGUOUS = 1u << 12,
    /* -DSUM_HERE=1 when the plan has a split-K build's tiles sum their partials in the kernel (it passed the tile
     * counters), else 0: the skinny kernels compile their sum only where it runs, so that the registers it takes
     * cost nothing to the runs that leave the sum to the reduction step */
    GK_DEFINE_SUM_HERE = 1u << 13
};

/* The arithmetic a kernel computes in (gemmkit_math in gemmkit.h, docs/MATH.md):
 * zero, fp32, for every kernel that does not say; the others run only where
 * gk_math_supported() holds and only for calls in their mode. The order is gemmkit_math's less one
 * (GEMMKIT_MATH_FP32 + gk_math is the public value): the rows of math_mode.c's table. */
typedef enum gk_math { GK_MATH_FP32 = 0, GK_MATH_3XTF32, GK_MATH_TF32, GK_MATH_INT8X, GK_MATH_COUNT } gk_math;

/* The library's internal helper kernels, referenced directly by plans. */
typedef enum gk_helper {
    GK_HELPER_SCALE,
    GK_HELPER_UNPACK,
    GK_HELPER_REDUCE,
    GK_HELPER_REDUCE_ROWS, /* the same kernel, one row per work-item (WPT=1): small results, many partials */
    GK_HELPER_REDUCE_DEEP, /* reduce_deep.cl: lanes along the partials too, for dozens to thousands of them */
    GK_HELPER_SPLIT,
    GK_HELPER_OZAKI_NORMS, /* ozaki_norms.cl: an operand's row exponents (GK_MATH_INT8X) */
    GK_HELPER_OZAKI_SLICE, /* ozaki_slice.cl: an operand's scaled residues */
    GK_HELPER_OZAKI_CRT,   /* ozaki_crt.cl: the residues' recombination into C */
    GK_HELPER_OZAKI_SPREAD, /* ozaki_norms.cl, SPREAD=1: an operand's spread, which sets the number of moduli */
    GK_HELPER_COUNT
} gk_helper;

typedef struct gk_param_def {
    const char *name;    /* the -D define */
    int default_value;
    const char *choices; /* values the tuner tries, "8,16,32" */
    const char *help;
    int plan_only; /* read by the plan, not a -D define (xgemm-splitk's SPLITS): no rebuild per value */
} gk_param_def;

/* The MIN_GROUPS parameter of the kernels built with CUDA launch bounds (library/xgemm_direct.cl,
 * transpose/vector.cl): work-groups an SM must hold at once, which caps the registers to fit them; 0 leaves the
 * count to the compiler. OpenCL builds ignore it, so each choice besides 0 makes `gemmkit tune` time every OpenCL
 * configuration once more. */
#define GK_MIN_GROUPS_PARAM(choices)                                                                                  \
    {"MIN_GROUPS", 0, choices, "CUDA: work-groups per SM the registers must allow (0: any)"}
#define GK_MIN_GROUPS_CONSTRAINT "MIN_GROUPS >= 0 && MIN_GROUPS <= 32"

typedef struct gk_kernel_def {
    const char *name;     /* unique, user-facing: "tutorial-5-transposed" */
    gk_contract contract; /* its arguments and grid */
    gk_family family;
    int step;             /* position within the family's ladder */
    const char *source;   /* file under src/kernels/ ("tutorial/05_transposed.cl") */
    const char *function; /* kernel function name */
    const char *summary;  /* one line for `gemmkit list` */
    gk_param_def params[GK_MAX_PARAMS];
    const char *constraints[GK_MAX_CONSTRAINTS]; /* each must evaluate non-zero */
    /* Launch geometry: a work-group of local_x * local_y work-items computes a
     * tile_m x tile_n block of C (transposes: of A's rows x cols). */
    const char *local_x, *local_y;
    const char *tile_m, *tile_n;
    const char *k_multiple;      /* K is padded to a multiple of this ("1" = none) */
    const char *k_loop;          /* the K its loop steps by, short last step computed in full: what the cost
                                  * model charges for a short K (NULL: k_multiple) */
    const char *local_mem_bytes; /* static local memory the kernel declares */
    unsigned flags;    /* gk_kernel_flags */
    unsigned backends; /* gk_backend_bit mask of the backends it runs on; 0: all */
    unsigned defines;  /* gk_problem_define mask */
    gk_math math;      /* its arithmetic; GK_MATH_FP32 (0) unless it uses tensor cores */
    /* A compute capability whose architecture-specific instructions it uses (90: sm_90a's
     * wgmma): it runs only on devices of exactly that capability, through a backend that
     * compiles for the "a" target (the define GK_ARCH_SPECIFIC=1 asks for it); 0: none. */
    int arch_specific;
    /* The least NVIDIA compute capability its instructions need (80: mma.sync with s8 operands), either backend;
     * 0: none. For kernels whose math mode's device test does not imply it (int8x runs everywhere; its
     * tensor-core kernel only on NVIDIA GPUs from 8.0). */
    int min_capability;
    /* GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM: the most K-slices whose partials its tiles' last slices sum in the kernel
     * (gk_split_sums_in_kernel); past them the plan's reduction step does. 0: GK_SUM_IN_KERNEL_SPLITS. */
    int sum_splits;
} gk_kernel_def;

/* All registered kernels, in ladder order; count via gk_kernel_count(). */
const gk_kernel_def *gk_kernel_at(size_t index);
size_t gk_kernel_count(void);
const gk_kernel_def *gk_kernel_find(const char *name);
const gk_kernel_def *gk_kernel_helper(gk_helper which);
/* The Ozaki scheme's helpers (registry_ozaki.c; gk_kernel_helper answers for them too). */
const gk_kernel_def *gk_ozaki_helper(gk_helper which);
/* The parameters a helper runs with (NULL: its defaults), resolved once per context. */
const char *gk_kernel_helper_params(gk_helper which);

/* The routine a kernel serves; whether it is an internal helper. */
gk_operation gk_kernel_op(const gk_kernel_def *def);
int gk_kernel_is_helper(const gk_kernel_def *def);
/* An SGEMM kernel on packed, padded operands (the plan copies them), not on the operands as stored. */
int gk_kernel_packs_operands(const gk_kernel_def *def);
/* 3xTF32 on operands the plan splits first (GK_CONTRACT_GEMM_SPLIT, _SPLIT_TMA, _SPLIT_TMA_K). */
int gk_kernel_splits_operands(const gk_kernel_def *def);
/* Split-K: K-slices along the grid's third dimension into partials, then a reduction
 * (GK_CONTRACT_GEMM_PACKED_BT_STRIDED, _DIRECT_SPLIT, _SPLIT_TMA_K). */
int gk_kernel_slices_k(const gk_kernel_def *def);
/* Whether its split-K run over `splits` slices of `tiles` tiles sums the partials in the kernel
 * (GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM) rather than in a reduction step after it: one launch. Up to the kernel's
 * sum_splits slices and GK_TILE_COUNTS tiles (the context's counters). The cap is the kernel's because the last
 * slice's tail is: GK_SUM_IN_KERNEL_SPLITS (4), the default, for xgemm-direct-splitk, whose last work-group adds a
 * large tile's partials one slice after another (past 4 that tail outlasted the launch it saved,
 * docs/PERFORMANCE.md); the skinny kernels' tiles hold a result or so per work-item, each summed with its loads
 * issued ahead, so they sum more (their sum_splits, registry_library.c). */
#define GK_SUM_IN_KERNEL_SPLITS 4
#define GK_TILE_COUNTS 16384
int gk_split_sums_in_kernel(const gk_kernel_def *def, int64_t splits, int64_t tiles);
/* Whether it runs on a backend (a gk_backend_bit). */
int gk_kernel_runs_on(const gk_kernel_def *def, unsigned backend_bit);

/* The Ozaki scheme's products (GK_CONTRACT_GEMM_OZAKI, _OZAKI_TMA): the plan slices the operands first and recombines after. */
int gk_kernel_ozaki(const gk_kernel_def *def);

/* The embedded text of a kernel source file, or NULL. */
const char *gk_kernel_source(const char *file);

#endif
