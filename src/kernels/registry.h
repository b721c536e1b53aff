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

#define GK_MAX_PARAMS 10
#define GK_MAX_CONSTRAINTS 10

typedef enum gk_operation {
    GK_OP_SGEMM,     /* C = A * B, column-major (see the flags for the exact contract) */
    /* Transposes and copies share one argument list, column-major:
     *   (rows, cols, alpha, A, offA, lda, B, offB, ldb), A(r, c) = A[offA + r + c*lda],
     * rows x cols, any sizes (bounds-checked), offsets in elements. The launch
     * covers A: ceil(ROWS / tile_m) * local_x by ceil(COLS / tile_n) * local_y.
     * (GK_FLAG_HELPER kernels have arguments of their own.) */
    GK_OP_TRANSPOSE, /* B = alpha * A^T: B[offB + c + r*ldb] = alpha * A(r, c), B is cols x rows */
    GK_OP_COPY       /* B = alpha * A: B[offB + r + c*ldb] = alpha * A(r, c) (the bandwidth reference) */
} gk_operation;

/* Which documents a kernel comes from; the ladder prints each group in order. */
typedef enum gk_family {
    GK_FAMILY_LIBRARY,  /* helper or production kernels */
    GK_FAMILY_TUTORIAL, /* SGEMM tutorial, kernels 1-10 */
    GK_FAMILY_SLIDES,   /* OpenCL memory-hierarchy slides */
    GK_FAMILY_LECTURE   /* CUDA transpose and matmul lecture */
} gk_family;

enum gk_kernel_flags {
    /* SGEMM kernels without this flag compute C = A*B on packed column-major
     * buffers (A: M x K, B: K x N, C: M x N, no offsets) whose sizes are
     * multiples of tile_m, tile_n and k_multiple; the library pads around them
     * (tutorial kernel 10) and applies alpha/beta afterwards. */
    GK_FLAG_B_TRANSPOSED = 1u << 0, /* takes B as N x K (tutorial kernel 5 onwards) */
    /* Full BLAS contract in one kernel: arguments (M, N, K, alpha, A, offA, lda,
     * B, offB, ldb, beta, C, offC, ldc) with -DTRANS_A/-DTRANS_B, any size. */
    GK_FLAG_DIRECT = 1u << 1,
    GK_FLAG_CUDA_ONLY = 1u << 2, /* needs the CUDA backend (tutorial kernel 8) */
    /* Square problems only (M == N == K), as in the slides' kernels. */
    GK_FLAG_SQUARE_ONLY = 1u << 3,
    GK_FLAG_HELPER = 1u << 4 /* internal helper kernel (padding, scaling): not listed in the ladder */
};

typedef struct gk_param_def {
    const char *name;    /* the -D define */
    int default_value;
    const char *choices; /* values the tuner tries, "8,16,32" */
    const char *help;
} gk_param_def;

typedef struct gk_kernel_def {
    const char *name;     /* unique, user-facing: "tutorial-5-transposed" */
    gk_operation op;
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
    const char *local_mem_bytes; /* static local memory the kernel declares */
    unsigned flags;
} gk_kernel_def;

/* All registered kernels, in ladder order; count via gk_kernel_count(). */
const gk_kernel_def *gk_kernel_at(size_t index);
size_t gk_kernel_count(void);
const gk_kernel_def *gk_kernel_find(const char *name);

/* The embedded text of a kernel source file, or NULL. */
const char *gk_kernel_source(const char *file);

#endif
