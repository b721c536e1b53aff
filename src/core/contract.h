/* Kernel contracts (registry.h, gk_contract): from the operands of one step,
 * the argument list and the 3-D launch grid of a kernel with that contract. */
#ifndef GK_CONTRACT_H
#define GK_CONTRACT_H

#include "kernel_config.h"

#define GK_MAX_ARGS 20

typedef struct gk_matrix {
    gk_mem *mem;
    size_t offset; /* elements */
    int64_t ld;
} gk_matrix;

/* Every column starts on 16 bytes (offset and leading dimension whole float4): the kernels' float4 copies
 * (VEC_A, VEC_B, VEC_C) can read it. */
static inline int gk_matrix_float4_columns(const gk_matrix *x) { return x->offset % 4 == 0 && x->ld % 4 == 0; }

/* Everything a contract may take. GEMM contracts: m x n x k, A, B, C; 2-D
 * contracts (transpose, copy, scale, unpack, reduce): rows = m, cols = n, source a
 * (P for unpack and reduce), destination b (transpose, copy) or c (scale,
 * unpack, reduce); reduce sums k partials, stride_a apart. */
typedef struct gk_operands {
    int64_t m, n, k;
    int64_t k_slice; /* GK_CONTRACT_GEMM_DIRECT_SPLIT: K per slice (batch = slices) */
    int64_t batch; /* the grid's third dimension; 0 counts as 1 */
    int64_t stride_a, stride_b, stride_c; /* strided contracts: floats from one batch entry to the next */
    int trans_a, trans_b;
    float alpha, beta;
    gk_matrix a, b, c;
    /* GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM: the partials (stride_p floats apart) and, when the kernel sums them,
     * its tile counters (else NULL: the plan's reduction sums them) */
    gk_matrix partials;
    int64_t stride_p;
    gk_mem *tile_counts;
    /* The Ozaki scheme's steps (GK_CONTRACT_GEMM_OZAKI, _OZAKI_SLICE, _OZAKI_CRT, registry.h): the moduli, the
     * padded sizes of the sliced operands; the slice step's rows of op(X) (m: rows_p, its grid) and whether they
     * are strided by ld (else its K), its output in ra; the spread step's the same, its int of ra spread_at. */
    struct {
        int moduli, rows_strided, spread_at;
        int64_t rows;
        int64_t mp, np, kp;
        gk_mem *ra, *rb, *s;
    } ozaki;
} gk_operands;

/* A bound kernel: its arguments, and global/local work-items per dimension. */
typedef struct gk_binding {
    gk_arg args[GK_MAX_ARGS];
    unsigned arg_count;
    unsigned dims;
    size_t global[3], local[3];
} gk_binding;

/* Binds a kernel with geometry g to the operands through its contract. */
void gk_contract_bind(const gk_kernel_def *def, const gk_geometry *g, const gk_operands *o, gk_binding *out);

/* The value of a problem define (gk_problem_define) for these operands. */
int64_t gk_contract_define_value(unsigned define, const gk_operands *o);

/* Shared integer helpers: x rounded up to a multiple; work-items of a grid
 * dimension that gives `local` work-items to each tile of `size`. */
int64_t gk_round_up(int64_t x, int64_t multiple);
size_t gk_groups_times(int64_t size, int64_t tile, int64_t local);

#endif
