/* One function per contract builds its argument list: the only place where a
 * kernel's arguments are spelt out (their meaning: registry.h). */
#include "contract.h"

#include <string.h>

#define I(x) GK_INT((int)(x))
#define RETURN_ARGS(out, ...)                                                                      \
    do {                                                                                           \
        const gk_arg list_[] = {__VA_ARGS__};                                                      \
        memcpy(out, list_, sizeof list_);                                                          \
        return sizeof list_ / sizeof list_[0];                                                     \
    } while (0)

int64_t gk_round_up(int64_t x, int64_t multiple) { return (x + multiple - 1) / multiple * multiple; }

size_t gk_groups_times(int64_t size, int64_t tile, int64_t local)
{
    return (size_t)((size + tile - 1) / tile * local);
}

static unsigned gemm_direct(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), I(o->k), GK_FLOAT(o->alpha), GK_MEM(o->a.mem), I(o->a.offset), I(o->a.ld),
                GK_MEM(o->b.mem), I(o->b.offset), I(o->b.ld), GK_FLOAT(o->beta), GK_MEM(o->c.mem), I(o->c.offset),
                I(o->c.ld));
}

static unsigned gemm_packed(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), I(o->k), GK_MEM(o->a.mem), GK_MEM(o->b.mem), GK_MEM(o->c.mem));
}

static unsigned gemm_packed_strided(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), I(o->k), GK_MEM(o->a.mem), I(o->stride_a), GK_MEM(o->b.mem), I(o->stride_b),
                GK_MEM(o->c.mem), I(o->stride_c));
}

static unsigned gemm_direct_split(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), I(o->k), I(o->k_slice), GK_MEM(o->a.mem), I(o->a.offset), I(o->a.ld),
                GK_MEM(o->b.mem), I(o->b.offset), I(o->b.ld), GK_MEM(o->c.mem), I(o->c.ld), I(o->stride_c));
}

static unsigned gemm_direct_split_sum(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), I(o->k), I(o->k_slice), GK_MEM(o->a.mem), I(o->a.offset), I(o->a.ld),
                GK_MEM(o->b.mem), I(o->b.offset), I(o->b.ld), GK_MEM(o->partials.mem), I(o->partials.ld),
                I(o->stride_p), GK_FLOAT(o->alpha), GK_FLOAT(o->beta), GK_MEM(o->c.mem), I(o->c.offset),
                I(o->c.ld), GK_MEM(o->tile_counts ? o->tile_counts : o->partials.mem), I(o->tile_counts != NULL));
}

#define L(x) GK_LONG((int64_t)(x))

static unsigned gemm_direct_strided(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), I(o->k), GK_FLOAT(o->alpha), GK_MEM(o->a.mem), I(o->a.offset), I(o->a.ld),
                L(o->stride_a), GK_MEM(o->b.mem), I(o->b.offset), I(o->b.ld), L(o->stride_b), GK_FLOAT(o->beta),
                GK_MEM(o->c.mem), I(o->c.offset), I(o->c.ld), L(o->stride_c));
}

static unsigned gemm_batched_small(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->batch), I(o->m), I(o->n), I(o->k), GK_FLOAT(o->alpha), GK_MEM(o->a.mem), I(o->a.offset),
                I(o->a.ld), L(o->stride_a), GK_MEM(o->b.mem), I(o->b.offset), I(o->b.ld), L(o->stride_b),
                GK_FLOAT(o->beta), GK_MEM(o->c.mem), I(o->c.offset), I(o->c.ld), L(o->stride_c));
}

static unsigned transpose_or_copy(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), GK_FLOAT(o->alpha), GK_MEM(o->a.mem), I(o->a.offset), I(o->a.ld),
                GK_MEM(o->b.mem), I(o->b.offset), I(o->b.ld));
}

static unsigned scale(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), GK_FLOAT(o->beta), GK_MEM(o->c.mem), I(o->c.offset), I(o->c.ld));
}

static unsigned unpack(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), GK_FLOAT(o->alpha), GK_MEM(o->a.mem), I(o->a.ld), GK_FLOAT(o->beta),
                GK_MEM(o->c.mem), I(o->c.offset), I(o->c.ld));
}

static unsigned split(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), GK_MEM(o->a.mem), I(o->a.offset), I(o->a.ld), GK_MEM(o->b.mem), I(o->b.ld));
}

static unsigned reduce(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), I(o->k), GK_FLOAT(o->alpha), GK_MEM(o->a.mem), I(o->a.ld), I(o->stride_a),
                GK_FLOAT(o->beta), GK_MEM(o->c.mem), I(o->c.offset), I(o->c.ld));
}

/* The Ozaki scheme's steps (their arguments: registry.h). */
static unsigned gemm_ozaki(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->ozaki.mp), I(o->ozaki.np), I(o->ozaki.kp), GK_MEM(o->ozaki.ra), GK_MEM(o->ozaki.rb),
                GK_MEM(o->ozaki.s));
}

/* The residues of one operand (4 rows bytes of exponents, then rows x Kp bytes per modulus) seen by the copy engine
 * as floats: Kp / 4 a row, a part per modulus, in boxes of 128 k by box_rows rows. */
#define MAP_RESIDUES(residues, count, box)                                                                         \
    GK_TENSOR_MAP(.mem = (residues), .offset = (count), .ld = o->ozaki.kp / 4, .part_stride = (count) * o->ozaki.kp / 4, \
                  .inner = o->ozaki.kp / 4, .rows = (count), .parts = o->ozaki.moduli, .box_rows = (int)(box))

static unsigned gemm_ozaki_tma(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->ozaki.mp), I(o->ozaki.np), I(o->ozaki.kp), MAP_RESIDUES(o->ozaki.ra, o->ozaki.mp, g->tile_m),
                MAP_RESIDUES(o->ozaki.rb, o->ozaki.np, g->tile_n), GK_MEM(o->ozaki.s));
}

/* The slicing's strides of op(X)'s rows: row r, element k at X[offX + r*sr + k*sk]. */
#define SLICE_SR(o) ((o)->ozaki.rows_strided ? (o)->a.ld : 1)
#define SLICE_SK(o) ((o)->ozaki.rows_strided ? 1 : (o)->a.ld)

static unsigned ozaki_norms(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->ozaki.rows), I(o->k), I(o->m), I(o->ozaki.moduli), GK_MEM(o->a.mem), I(o->a.offset),
                I(SLICE_SR(o)), I(SLICE_SK(o)), GK_MEM(o->ozaki.ra));
}

static unsigned ozaki_spread(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->ozaki.rows), I(o->k), GK_MEM(o->a.mem), I(o->a.offset), I(SLICE_SR(o)), I(SLICE_SK(o)),
                GK_MEM(o->ozaki.ra), I(o->ozaki.spread_at));
}

static unsigned ozaki_slice(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->ozaki.rows), I(o->k), I(o->ozaki.kp), I(o->m), GK_MEM(o->a.mem), I(o->a.offset),
                I(SLICE_SR(o)), I(SLICE_SK(o)), GK_MEM(o->ozaki.ra));
}

static unsigned ozaki_crt(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), I(o->k), GK_MEM(o->ozaki.s), I(o->ozaki.mp),
                I(o->ozaki.np), GK_MEM(o->ozaki.ra), GK_MEM(o->ozaki.rb), GK_FLOAT(o->alpha), GK_FLOAT(o->beta),
                GK_MEM(o->c.mem), I(o->c.offset), I(o->c.ld), GK_MEM(o->a.mem), I(o->a.offset), I(o->a.ld),
                GK_MEM(o->b.mem), I(o->b.offset), I(o->b.ld));
}

/* The tensor-memory-accelerator kernels' operands: op(A) as A^T and B, K contiguous, in boxes of 32 k by the
 * tile's rows; `parts` matrices each (2: big and small parts, a matrix apart, as the split step leaves them). */
#define MAP_A(count)                                                                                      \
    GK_TENSOR_MAP(.mem = o->a.mem, .offset = (int64_t)o->a.offset, .ld = o->a.ld, .part_stride = o->m * o->a.ld, \
                  .inner = o->k, .rows = o->m, .parts = (count), .box_rows = (int)g->tile_m)
#define MAP_B(count)                                                                                      \
    GK_TENSOR_MAP(.mem = o->b.mem, .offset = (int64_t)o->b.offset, .ld = o->b.ld, .part_stride = o->n * o->b.ld, \
                  .inner = o->k, .rows = o->n, .parts = (count), .box_rows = (int)g->tile_n)

static unsigned gemm_tma_parts(const gk_operands *o, const gk_geometry *g, gk_arg *out, int parts)
{
    RETURN_ARGS(out, I(o->m), I(o->n), I(o->k), GK_FLOAT(o->alpha), MAP_A(parts), MAP_B(parts), GK_FLOAT(o->beta),
                GK_MEM(o->c.mem), I(o->c.offset), I(o->c.ld));
}

static unsigned gemm_tma(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    return gemm_tma_parts(o, g, out, 1);
}

static unsigned gemm_split_tma(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    return gemm_tma_parts(o, g, out, 2);
}

static unsigned gemm_split_tma_k(const gk_operands *o, const gk_geometry *g, gk_arg *out)
{
    RETURN_ARGS(out, I(o->m), I(o->n), I(o->k), I(o->k_slice), MAP_A(2), MAP_B(2), GK_MEM(o->c.mem), I(o->c.ld),
                I(o->stride_c));
}

static const struct {
    gk_operation op;
    unsigned (*args)(const gk_operands *o, const gk_geometry *g, gk_arg *out);
    int packed;         /* SGEMM on packed, padded operands: the plan copies them around the kernel */
    int split_operands; /* 3xTF32 on operands the plan splits into big and small parts first */
    int slices_k;       /* split-K: K-slices along the grid's third dimension into partials, then a reduction */
    int ozaki;          /* INT8 products of residues: the plan slices the operands first and recombines after */
} contracts[GK_CONTRACT_COUNT] = {
    [GK_CONTRACT_GEMM_DIRECT] = {GK_OP_SGEMM, gemm_direct, 0},
    [GK_CONTRACT_GEMM_PACKED] = {GK_OP_SGEMM, gemm_packed, 1},
    [GK_CONTRACT_GEMM_PACKED_BT] = {GK_OP_SGEMM, gemm_packed, 1},
    [GK_CONTRACT_GEMM_PACKED_BT_STRIDED] = {GK_OP_SGEMM, gemm_packed_strided, 1, .slices_k = 1},
    [GK_CONTRACT_GEMM_DIRECT_SPLIT] = {GK_OP_SGEMM, gemm_direct_split, 0, .slices_k = 1},
    [GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM] = {GK_OP_SGEMM, gemm_direct_split_sum, 0, .slices_k = 1},
    [GK_CONTRACT_GEMM_DIRECT_STRIDED] = {GK_OP_SGEMM_BATCHED, gemm_direct_strided},
    [GK_CONTRACT_GEMM_SPLIT] = {GK_OP_SGEMM, gemm_direct, 0, .split_operands = 1},
    [GK_CONTRACT_GEMM_TMA] = {GK_OP_SGEMM, gemm_tma, 0},
    [GK_CONTRACT_GEMM_SPLIT_TMA] = {GK_OP_SGEMM, gemm_split_tma, 0, .split_operands = 1},
    [GK_CONTRACT_GEMM_SPLIT_TMA_K] = {GK_OP_SGEMM, gemm_split_tma_k, 0, .split_operands = 1, .slices_k = 1},
    [GK_CONTRACT_GEMM_BATCHED_SMALL] = {GK_OP_SGEMM_BATCHED, gemm_batched_small},
    [GK_CONTRACT_TRANSPOSE] = {GK_OP_TRANSPOSE, transpose_or_copy},
    [GK_CONTRACT_COPY] = {GK_OP_COPY, transpose_or_copy},
    [GK_CONTRACT_SCALE] = {GK_OP_HELPER, scale},
    [GK_CONTRACT_UNPACK] = {GK_OP_HELPER, unpack},
    [GK_CONTRACT_REDUCE] = {GK_OP_HELPER, reduce},
    [GK_CONTRACT_SPLIT] = {GK_OP_HELPER, split},
    [GK_CONTRACT_GEMM_OZAKI] = {GK_OP_SGEMM, gemm_ozaki, 0, .ozaki = 1},
    [GK_CONTRACT_GEMM_OZAKI_TMA] = {GK_OP_SGEMM, gemm_ozaki_tma, 0, .ozaki = 1},
    [GK_CONTRACT_OZAKI_SLICE] = {GK_OP_HELPER, ozaki_slice},
    [GK_CONTRACT_OZAKI_CRT] = {GK_OP_HELPER, ozaki_crt},
    [GK_CONTRACT_OZAKI_NORMS] = {GK_OP_HELPER, ozaki_norms},
    [GK_CONTRACT_OZAKI_SPREAD] = {GK_OP_HELPER, ozaki_spread},
};

gk_operation gk_kernel_op(const gk_kernel_def *def) { return contracts[def->contract].op; }

int gk_kernel_is_helper(const gk_kernel_def *def) { return gk_kernel_op(def) == GK_OP_HELPER; }

int gk_kernel_packs_operands(const gk_kernel_def *def) { return contracts[def->contract].packed; }

int gk_kernel_splits_operands(const gk_kernel_def *def) { return contracts[def->contract].split_operands; }

int gk_kernel_slices_k(const gk_kernel_def *def) { return contracts[def->contract].slices_k; }

int gk_split_sums_in_kernel(const gk_kernel_def *def, int64_t splits, int64_t tiles)
{
    const int most = def->sum_splits > 0 ? def->sum_splits : GK_SUM_IN_KERNEL_SPLITS;
    return def->contract == GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM && splits > 1 && splits <= most &&
           tiles <= GK_TILE_COUNTS;
}

int gk_kernel_ozaki(const gk_kernel_def *def) { return contracts[def->contract].ozaki; }

int gk_kernel_runs_on(const gk_kernel_def *def, unsigned backend_bit)
{
    return def->backends == 0 || (def->backends & backend_bit) != 0;
}

/* Every contract but the tiny batched one launches one work-group of
 * local_x x local_y per tile_m x tile_n tile of the m x n result (of A for
 * transposes), and a batch along the third dimension. */
void gk_contract_bind(const gk_kernel_def *def, const gk_geometry *g, const gk_operands *o, gk_binding *out)
{
    out->arg_count = contracts[def->contract].args(o, g, out->args);
    const size_t batch = o->batch > 1 ? (size_t)o->batch : 1;
    if (def->contract == GK_CONTRACT_GEMM_BATCHED_SMALL) { /* tile_m whole matrices per work-group, 1-D */
        out->dims = 1;
        out->global[0] = gk_groups_times((int64_t)batch, g->tile_m, g->local_x);
        out->global[1] = out->global[2] = 1;
        out->local[0] = (size_t)g->local_x;
        out->local[1] = out->local[2] = 1;
        return;
    }
    out->dims = batch > 1 ? 3 : 2;
    out->global[0] = gk_groups_times(o->m, g->tile_m, g->local_x);
    out->global[1] = gk_groups_times(o->n, g->tile_n, g->local_y);
    out->global[2] = batch;
    out->local[0] = (size_t)g->local_x;
    out->local[1] = (size_t)g->local_y;
    out->local[2] = 1;
}

/* Every column of the matrix (of every batch entry) starts on 16 bytes. */
static int float4_aligned(const gk_matrix *x, int64_t stride)
{
    return gk_matrix_float4_columns(x) && stride % 4 == 0;
}

/* The batch of a rows x cols matrix is one dense run starting on 16 bytes: no gaps within or
 * between matrices (ld = rows, stride = rows * cols; a broadcast, stride 0, never), offset and
 * stride multiples of 4 floats, so that every run of consecutive matrices is float4-aligned. */
static int dense_batch(const gk_matrix *x, int64_t rows, int64_t cols, int64_t stride)
{
    return stride > 0 && x->ld == rows && stride == rows * cols && x->offset % 4 == 0 && stride % 4 == 0;
}

int64_t gk_contract_define_value(unsigned define, const gk_operands *o)
{
    switch (define) {
    case GK_DEFINE_TRANS_A: return o->trans_a;
    case GK_DEFINE_TRANS_B: return o->trans_b;
    case GK_DEFINE_VEC_A: return float4_aligned(&o->a, o->stride_a);
    case GK_DEFINE_VEC_B: return float4_aligned(&o->b, o->stride_b);
    case GK_DEFINE_VEC_C: return float4_aligned(&o->c, o->stride_c);
    case GK_DEFINE_SIZE_M: return o->m;
    case GK_DEFINE_SIZE_N: return o->n;
    case GK_DEFINE_SIZE_K: return o->k;
    case GK_DEFINE_DENSE_A: /* stored A: M x K, K x M when transposed */
        return dense_batch(&o->a, o->trans_a ? o->k : o->m, o->trans_a ? o->m : o->k, o->stride_a);
    case GK_DEFINE_DENSE_B: /* stored B: K x N, N x K when transposed */
        return dense_batch(&o->b, o->trans_b ? o->n : o->k, o->trans_b ? o->k : o->n, o->stride_b);
    case GK_DEFINE_DENSE_C: return dense_batch(&o->c, o->m, o->n, o->stride_c);
    case GK_DEFINE_MODULI: return o->ozaki.moduli;
    case GK_DEFINE_K_CONTIGUOUS: return o->ozaki.rows_strided;
    case GK_DEFINE_SUM_HERE: return o->tile_counts != NULL;
    default: return 0;
    }
}
