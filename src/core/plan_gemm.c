/* How each SGEMM contract is planned: the steps around the chosen kernel, by contract, from one table
 * (`planners`): on the operands as stored (after the policy's copies of them, where its copy rows hold), over
 * K-slices into partials and their reduction, on packed and padded operands (tutorial kernel 10's approach: pack
 * -> tiled kernel -> unpack, or pack -> K-slices -> reduce), on operands split into TF32 parts, through the
 * tensor memory accelerator's layout. A new contract's planner is one function and one row. */
#include "plan_gemm.h"

#include <stdint.h>

#include "math_mode.h"
#include "status.h"
#include "transpose.h"

static int already_packed(const gk_matrix *x, int trans, int64_t rows, int64_t cols, int64_t rows_p,
                          int64_t cols_p)
{
    return !trans && x->offset == 0 && rows == rows_p && cols == cols_p && x->ld == rows;
}

/* Packs op(X) (rows x cols) into a rows_p x cols_p scratch buffer, its padding along K zeroed (`zero`: the
 * rows or the columns, gk_omatcopy_plan_pack). */
static gemmkit_status plan_pack(gemmkit_context *ctx, int slot, const gk_matrix *x, int trans, int64_t rows,
                                int64_t cols, int64_t rows_p, int64_t cols_p, unsigned zero, gk_mem **out,
                                gk_plan *plan)
{
    GK_TRY(gk_context_scratch(ctx, slot, (size_t)(rows_p * cols_p) * sizeof(float), out));
    return gk_omatcopy_plan_pack(ctx, x, trans, rows, cols, rows_p, cols_p, zero, *out, plan);
}

/* The leading dimension of the copies the tensor memory accelerator reads (plan_tma, plan_split_operand): whole
 * 128-byte lines, so that every column starts on a 32-byte sector. The copy engine reads 128-byte rows: with
 * columns 16 bytes off a sector each row touches five sectors instead of four (3xtf32 at 2048 x 2048 x 2049 ran
 * its main kernel 49% slower on split operands 2052 floats apart than at K = 2048). Other copies keep whole
 * float4 (GK_COPY_LD_FLOATS), whose padding the pack zeroes for the float4 loads past K. */
#define GK_TMA_LD_FLOATS 32
#define GK_COPY_LD_FLOATS 4

/* Copies an operand (op(X) rows x cols, X^T stored when *trans) into scratch `slot`, stored transposed when
 * want_trans, with a leading dimension of whole ld_floats from offset 0, its padding zeroed as `zero` says
 * (gk_omatcopy_plan_pack: GK_PAD_ALL for kernels whose float4 loads pass K, none for the copy engine, which
 * reads none of it); *x and *trans then describe the copy.
 * Nothing is planned when the operand is stored so already, or when the copy would pass 2^31-1 elements. */
static gemmkit_status plan_copy(gemmkit_context *ctx, int slot, gk_matrix *x, int *trans, int64_t rows,
                                int64_t cols, int want_trans, int64_t ld_floats, unsigned zero, gk_plan *plan)
{
    if (*trans == want_trans && gk_matrix_float4_columns(x)) return GEMMKIT_SUCCESS;
    const int64_t stored_rows = want_trans ? cols : rows, stored_cols = want_trans ? rows : cols;
    const int64_t ld = gk_round_up(stored_rows, ld_floats);
    /* The kernels index operands in 32 bits: a copy that would outgrow them (ld rounded up, at the limit) is
     * not made, and the kernel reads the operand as stored. */
    if (ld * stored_cols > INT32_MAX) return GEMMKIT_SUCCESS;
    gk_mem *mem = NULL;
    GK_TRY(gk_context_scratch(ctx, slot, (size_t)(ld * stored_cols) * sizeof(float), &mem));
    /* The copy is X as stored, or its transpose where the orientation changes. */
    GK_TRY(gk_omatcopy_plan_pack(ctx, x, *trans != want_trans, stored_rows, stored_cols, ld, stored_cols, zero, mem,
                                 plan));
    *x = (gk_matrix){mem, 0, ld};
    *trans = want_trans;
    return GEMMKIT_SUCCESS;
}

/* The policy's copy rows for a kernel reading the operands as stored: A and B copied into the layout a row
 * chooses (k-major: op(X) with K contiguous; outer: M or N contiguous; aligned: as stored) before the kernel,
 * which then reads `o`. */
static gemmkit_status plan_copies(gemmkit_context *ctx, const gk_config *config, const gk_sgemm_problem *p,
                                  gk_operands *o, gk_plan *plan)
{
    const gk_policy *policy = gk_policy_builtin();
    const gk_policy_copy copy_a = gk_sgemm_copy_choose(policy, &ctx->info, config, p, 0);
    const gk_policy_copy copy_b = gk_sgemm_copy_choose(policy, &ctx->info, config, p, 1);
    if (copy_a != GK_COPY_NONE)
        GK_TRY(plan_copy(ctx, GK_SCRATCH_A, &o->a, &o->trans_a, p->m, p->k,
                         gk_policy_copied_trans(copy_a, 0, p->trans_a), GK_COPY_LD_FLOATS, GK_PAD_ALL, plan));
    if (copy_b != GK_COPY_NONE)
        GK_TRY(plan_copy(ctx, GK_SCRATCH_B, &o->b, &o->trans_b, p->k, p->n,
                         gk_policy_copied_trans(copy_b, 1, p->trans_b), GK_COPY_LD_FLOATS, GK_PAD_ALL, plan));
    return GEMMKIT_SUCCESS;
}

/* One operand of a kernel on split operands (GK_CONTRACT_GEMM_SPLIT, _SPLIT_TMA, _SPLIT_TMA_K): op(X) (rows x
 * cols, X^T stored when trans) stored transposed when want_trans, in scratch `slot` with a leading dimension of
 * whole lines (GK_TMA_LD_FLOATS), its TF32 big parts there and its small parts a matrix further (the split helper: from X itself
 * where it is stored so already, else in place after a transposing copy); *out describes the big parts. */
static gemmkit_status plan_split_operand(gemmkit_context *ctx, int slot, const gk_matrix *x, int trans, int64_t rows,
                                         int64_t cols, int want_trans, gk_matrix *out, gk_plan *plan)
{
    const int64_t stored_rows = want_trans ? cols : rows, stored_cols = want_trans ? rows : cols;
    const int64_t ld = gk_round_up(stored_rows, GK_TMA_LD_FLOATS);
    if (2 * ld * stored_cols > INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW,
                       "the split operands of a %lld x %lld matrix (big and small parts) pass 2^31-1 elements",
                       (long long)stored_rows, (long long)stored_cols);
    gk_mem *mem = NULL;
    GK_TRY(gk_context_scratch(ctx, slot, (size_t)(2 * ld * stored_cols) * sizeof(float), &mem));
    gk_matrix source = *x;
    if (trans != want_trans) { /* the rows past stored_rows are never read: nothing to zero */
        GK_TRY(gk_omatcopy_plan_pack(ctx, x, 1, stored_rows, stored_cols, ld, stored_cols, 0, mem, plan));
        source = (gk_matrix){mem, 0, ld};
    }
    *out = (gk_matrix){mem, 0, ld};
    const gk_operands split = {.m = stored_rows, .n = stored_cols, .a = source, .b = *out};
    return gk_plan_add_helper(ctx, plan, GK_HELPER_SPLIT, &split, 0);
}

static gemmkit_status plan_direct_split(gemmkit_context *ctx, const gk_config *config, const gk_geometry *g,
                                        const gk_sgemm_problem *p, const gk_operands *operands, gk_plan *plan);

/* 3xTF32 on split operands: A as A^T and B, both K-contiguous, split, then the kernel (over K-slices and the
 * reduction for GK_CONTRACT_GEMM_SPLIT_TMA_K). */
static gemmkit_status plan_split(gemmkit_context *ctx, const gk_config *config, const gk_geometry *g,
                                 const gk_sgemm_problem *p, gk_plan *plan)
{
    gk_operands all = {.m = p->m, .n = p->n, .k = p->k, .trans_a = 1, .trans_b = 0, .alpha = p->alpha,
                       .beta = p->beta, .c = p->c};
    GK_TRY(plan_split_operand(ctx, GK_SCRATCH_A, &p->a, p->trans_a, p->m, p->k, 1, &all.a, plan));
    GK_TRY(plan_split_operand(ctx, GK_SCRATCH_B, &p->b, p->trans_b, p->k, p->n, 0, &all.b, plan));
    if (gk_kernel_slices_k(config->def)) return plan_direct_split(ctx, config, g, p, &all, plan);
    return gk_plan_add(ctx, plan, config, g, &all, 1);
}

/* The tensor memory accelerator's kernels (GK_CONTRACT_GEMM_TMA): op(A) as A^T and B, K contiguous with 16-byte
 * aligned columns, copied so first where the caller's are not, whether the kernel was named or chosen: it reads
 * no other layout. */
static gemmkit_status plan_tma(gemmkit_context *ctx, const gk_config *config, const gk_geometry *g,
                               const gk_sgemm_problem *p, gk_plan *plan)
{
    gk_operands all = {.m = p->m, .n = p->n, .k = p->k, .trans_a = p->trans_a, .trans_b = p->trans_b,
                       .alpha = p->alpha, .beta = p->beta, .a = p->a, .b = p->b, .c = p->c};
    GK_TRY(plan_copy(ctx, GK_SCRATCH_A, &all.a, &all.trans_a, p->m, p->k, 1, GK_TMA_LD_FLOATS, 0, plan));
    GK_TRY(plan_copy(ctx, GK_SCRATCH_B, &all.b, &all.trans_b, p->k, p->n, 0, GK_TMA_LD_FLOATS, 0, plan));
    if (!all.trans_a || all.trans_b || !gk_matrix_float4_columns(&all.a) || !gk_matrix_float4_columns(&all.b))
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW,
                       "kernel %s reads A and B K-contiguous with aligned columns: their copies (%lld x %lld and "
                       "%lld x %lld, leading dimensions rounded up to whole lines) would pass 2^31-1 elements",
                       config->def->name, (long long)p->k, (long long)p->m, (long long)p->k, (long long)p->n);
    return gk_plan_add(ctx, plan, config, g, &all, 1);
}

/* The reduction of split-K's partials: one row per work-item for results under 512 x 512, whose four rows per
 * work-item left too few work-items to keep the partials' loads in flight; from GK_REDUCE_DEEP_SPLITS partials on
 * a small C (under GK_REDUCE_DEEP_RESULTS), lanes along the partials too (its few work-items would each wait on
 * many partials in turn). On a larger C the work-items per result fill the device already, and reduce-deep's
 * work-groups of 1024 lanes for 32 results would run in tens of short waves (docs/PERFORMANCE.md, 2026-11-28). */
#define GK_REDUCE_DEEP_SPLITS 16
#define GK_REDUCE_DEEP_RESULTS (256 * 256)
static gk_helper reduce_helper(const gk_sgemm_problem *p, int64_t splits)
{
    if (splits >= GK_REDUCE_DEEP_SPLITS && p->m * p->n < GK_REDUCE_DEEP_RESULTS) return GK_HELPER_REDUCE_DEEP;
    return p->m * p->n < 512 * 512 ? GK_HELPER_REDUCE_ROWS : GK_HELPER_REDUCE;
}

/* Split-K's slices: SPLITS of them (gk_sgemm_splits' count when 0), no more than the device's largest buffer
 * holds as partials of `partial` floats each, each kslice long (a multiple of the kernel's K step, TSK), and
 * only as many as hold part of k, so that no slice is all padding (SPLITS above k / TSK clamps). */
static int64_t split_k(const gemmkit_context *ctx, const gk_config *config, int64_t tiles, int64_t partial_floats,
                       const gk_sgemm_problem *p, int64_t *kslice)
{
    const int64_t k = p->k;
    int64_t splits = gk_config_value(config, "SPLITS", 1);
    if (splits == 0)
        splits = gk_sgemm_splits_for(config->def, gk_config_value(config, "TSK", 1), ctx->info.compute_units, tiles,
                                     p->m, p->n, k);
    const int64_t partial = partial_floats * (int64_t)sizeof(float);
    if (ctx->info.max_alloc_bytes && splits * partial > (int64_t)ctx->info.max_alloc_bytes)
        splits = (int64_t)ctx->info.max_alloc_bytes / partial;
    if (splits < 1) splits = 1;
    *kslice = gk_round_up((k + splits - 1) / splits, gk_config_value(config, "TSK", 1));
    return (k + *kslice - 1) / *kslice;
}

/* M, N and K padded to the kernel's tiles and K multiple: the sizes of its packed operands. */
static void padded_sizes(const gk_geometry *g, const gk_sgemm_problem *p, int64_t *mp, int64_t *np, int64_t *kp)
{
    *mp = gk_round_up(p->m, g->tile_m);
    *np = gk_round_up(p->n, g->tile_n);
    *kp = gk_round_up(p->k, g->k_multiple);
}

/* The packed operands (mp x kp, np x kp) and C's tiles (splits of mp x np) within the 32-bit indices of the
 * kernels and copies that use them. */
static int packed_fits(int64_t mp, int64_t np, int64_t kp, int64_t splits)
{
    if (mp < 1 || np < 1 || kp < 1) return 1; /* an empty operand: nothing is packed */
    return mp <= INT32_MAX / kp && np <= INT32_MAX / kp && mp <= INT32_MAX / np / splits;
}

/* Pack, the tiled kernel, unpack; a strided (split-K) kernel runs `splits` K-slices of the packed operands
 * along the grid's third dimension into as many partials, which the reduction sums into C. */
static gemmkit_status plan_packed(gemmkit_context *ctx, const gk_config *config, const gk_geometry *g,
                                  const gk_sgemm_problem *p, gk_plan *plan)
{
    int64_t mp, np, kp;
    padded_sizes(g, p, &mp, &np, &kp);
    if ((config->def->flags & GK_FLAG_SQUARE_ONLY) && !(mp == np && np == kp)) {
        /* Pad to the common size; the padding is zeros, so the product is unchanged. */
        int64_t s = mp > np ? mp : np;
        s = s > kp ? s : kp;
        int64_t step = g->tile_m > g->tile_n ? g->tile_m : g->tile_n;
        step = step > g->k_multiple ? step : g->k_multiple;
        mp = np = kp = gk_round_up(s, step);
    }
    const int strided = config->def->contract == GK_CONTRACT_GEMM_PACKED_BT_STRIDED;
    int64_t splits = 1, kslice = kp;
    if (strided) {
        splits = split_k(ctx, config, mp / g->tile_m * (np / g->tile_n), mp * np, p, &kslice);
        kp = splits * kslice;
    }
    if (!packed_fits(mp, np, kp, splits))
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW,
                       "kernel %s packs op(A) into %lld x %lld, op(B) into %lld x %lld and C into %lld x %lld x %lld "
                       "(padded to its tiles): past 2^31-1 floats, which its copies index in 32 bits (xgemm-direct "
                       "reads the operands as stored)",
                       config->def->name, (long long)mp, (long long)kp, (long long)np, (long long)kp, (long long)splits,
                       (long long)mp, (long long)np);
    gk_operands main = {.m = mp, .n = np, .k = kslice, .batch = splits, .a = p->a, .b = p->b, .c = p->c,
                        .stride_a = kslice * mp, .stride_b = kslice * np, .stride_c = mp * np};
    if (!already_packed(&p->a, p->trans_a, p->m, p->k, mp, kp))
        GK_TRY(plan_pack(ctx, GK_SCRATCH_A, &p->a, p->trans_a, p->m, p->k, mp, kp, GK_PAD_COLS, &main.a.mem, plan));
    /* A transposed-B kernel wants op(B)^T, an np x kp matrix. */
    if (config->def->contract == GK_CONTRACT_GEMM_PACKED_BT || strided)
        GK_TRY(plan_pack(ctx, GK_SCRATCH_B, &p->b, !p->trans_b, p->n, p->k, np, kp, GK_PAD_COLS, &main.b.mem, plan));
    else if (!already_packed(&p->b, p->trans_b, p->k, p->n, kp, np))
        GK_TRY(plan_pack(ctx, GK_SCRATCH_B, &p->b, p->trans_b, p->k, p->n, kp, np, GK_PAD_ROWS, &main.b.mem, plan));
    const int direct_c = p->m == mp && p->n == np && p->c.ld == mp && p->c.offset == 0 && p->alpha == 1.0f &&
                         p->beta == 0.0f && splits == 1;
    if (!direct_c)
        GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_C, (size_t)(splits * mp * np) * sizeof(float), &main.c.mem));
    /* Geometry may depend on the padded sizes (one row per work-item, ...): gk_plan_add evaluates it. */
    GK_TRY(gk_plan_add(ctx, plan, config, NULL, &main, 1));
    if (direct_c) return GEMMKIT_SUCCESS;
    const gk_operands unpack = {.m = p->m, .n = p->n, .k = splits, .alpha = p->alpha, .beta = p->beta,
                                .a = {main.c.mem, 0, mp}, .stride_a = mp * np, .c = p->c};
    return gk_plan_add_helper(ctx, plan, splits > 1 ? reduce_helper(p, splits) : GK_HELPER_UNPACK, &unpack, 0);
}

/* Split-K on the operands as stored (or as split, GK_CONTRACT_GEMM_SPLIT_TMA_K): slice z of K into partial z
 * (m x n, leading dimension m rounded up to 4 floats, so that the kernel stores whole float4), then the reduction
 * step, or in the same launch each tile's last slice (gk_split_sums_in_kernel), sums them and applies alpha and
 * beta. */
static gemmkit_status plan_direct_split(gemmkit_context *ctx, const gk_config *config, const gk_geometry *g,
                                        const gk_sgemm_problem *p, const gk_operands *operands, gk_plan *plan)
{
    const int64_t ldp = gk_round_up(p->m, 4);
    const int64_t tiles = (p->m + g->tile_m - 1) / g->tile_m * ((p->n + g->tile_n - 1) / g->tile_n);
    int64_t kslice = p->k;
    const int64_t splits = split_k(ctx, config, tiles, ldp * p->n, p, &kslice);
    if (!gk_sgemm_partials_fit(p->m, p->n, splits))
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW,
                       "kernel %s: %lld partial results of %lld x %lld pass 2^31-1 floats, which it indexes in 32 bits",
                       config->def->name, (long long)splits, (long long)ldp, (long long)p->n);
    gk_mem *partials = NULL;
    GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_C, (size_t)(splits * ldp * p->n) * sizeof(float), &partials));
    const gk_matrix partial = {partials, 0, ldp};
    gk_operands main = {.m = p->m, .n = p->n, .k = p->k, .k_slice = kslice, .batch = splits,
                        .trans_a = operands->trans_a, .trans_b = operands->trans_b, .a = operands->a, .b = operands->b,
                        .c = partial, .stride_c = ldp * p->n};
    if (config->def->contract == GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM) {
        /* The caller's C beside the partials; the tiles' last slices sum them into it where the context's counters
         * serve: not in a caller's workspace, which two streams may use at once (gemmkit_cuda.h) and whose contents
         * are the caller's. */
        main.alpha = p->alpha, main.beta = p->beta, main.c = p->c, main.stride_c = 0;
        main.partials = partial, main.stride_p = ldp * p->n;
        if (gk_split_sums_in_kernel(config->def, splits, tiles) && !gk_workspace_serves(ctx))
            GK_TRY(gk_context_tile_counts(ctx, &main.tile_counts));
    }
    GK_TRY(gk_plan_add(ctx, plan, config, g, &main, 1));
    if (main.tile_counts) return GEMMKIT_SUCCESS;
    const gk_operands reduce = {.m = p->m, .n = p->n, .k = splits, .alpha = p->alpha, .beta = p->beta,
                                .a = {partials, 0, ldp}, .stride_a = ldp * p->n, .c = p->c};
    return gk_plan_add_helper(ctx, plan, reduce_helper(p, splits), &reduce, 0);
}

/* The kernel on the operands as stored, after the policy's copies of them (where the policy chose it). */
static gemmkit_status plan_in_place(const gk_sgemm_planning *s, gk_plan *plan)
{
    const gk_sgemm_problem *p = s->p;
    gk_operands all = {.m = p->m, .n = p->n, .k = p->k, .trans_a = p->trans_a, .trans_b = p->trans_b,
                       .alpha = p->alpha, .beta = p->beta, .a = p->a, .b = p->b, .c = p->c};
    if (s->policy_chose) GK_TRY(plan_copies(s->ctx, s->config, p, &all, plan));
    return gk_plan_add(s->ctx, plan, s->config, s->g, &all, 1);
}

/* The same over K-slices into partials, then their reduction. */
static gemmkit_status plan_in_place_sliced(const gk_sgemm_planning *s, gk_plan *plan)
{
    const gk_sgemm_problem *p = s->p;
    gk_operands all = {.m = p->m, .n = p->n, .k = p->k, .trans_a = p->trans_a, .trans_b = p->trans_b,
                       .alpha = p->alpha, .beta = p->beta, .a = p->a, .b = p->b, .c = p->c};
    if (s->policy_chose) GK_TRY(plan_copies(s->ctx, s->config, p, &all, plan));
    return plan_direct_split(s->ctx, s->config, s->g, p, &all, plan);
}

static gemmkit_status plan_packed_step(const gk_sgemm_planning *s, gk_plan *plan)
{
    return plan_packed(s->ctx, s->config, s->g, s->p, plan);
}

static gemmkit_status plan_split_step(const gk_sgemm_planning *s, gk_plan *plan)
{
    return plan_split(s->ctx, s->config, s->g, s->p, plan);
}

static gemmkit_status plan_tma_step(const gk_sgemm_planning *s, gk_plan *plan)
{
    return plan_tma(s->ctx, s->config, s->g, s->p, plan);
}

typedef gemmkit_status (*planner)(const gk_sgemm_planning *s, gk_plan *plan);
static const struct {
    gk_contract contract;
    planner plan;
} planners[] = {
    {GK_CONTRACT_GEMM_DIRECT, plan_in_place},
    {GK_CONTRACT_GEMM_DIRECT_SPLIT, plan_in_place_sliced},
    {GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM, plan_in_place_sliced},
    {GK_CONTRACT_GEMM_PACKED, plan_packed_step},
    {GK_CONTRACT_GEMM_PACKED_BT, plan_packed_step},
    {GK_CONTRACT_GEMM_PACKED_BT_STRIDED, plan_packed_step},
    {GK_CONTRACT_GEMM_SPLIT, plan_split_step},
    {GK_CONTRACT_GEMM_SPLIT_TMA, plan_split_step},
    {GK_CONTRACT_GEMM_SPLIT_TMA_K, plan_split_step},
    {GK_CONTRACT_GEMM_TMA, plan_tma_step},
    {GK_CONTRACT_GEMM_OZAKI, gk_sgemm_plan_ozaki},
    {GK_CONTRACT_GEMM_OZAKI_TMA, gk_sgemm_plan_ozaki},
};

gemmkit_status gk_sgemm_plan_kernel(const gk_sgemm_planning *s, gk_plan *plan)
{
    /* The kernel's contract plans what its mode's row says (math_mode.c): the Ozaki scheme's steps for its
     * products only. */
    const gk_math_mode *mode = gk_math_mode_of(s->config->def->math);
    if ((mode->plan == GK_MATH_PLAN_OZAKI) != gk_kernel_ozaki(s->config->def))
        return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "kernel %s: its contract does not plan math mode %s",
                       s->config->def->name, mode->name);
    for (size_t i = 0; i < sizeof planners / sizeof planners[0]; i++)
        if (planners[i].contract == s->config->def->contract) return planners[i].plan(s, plan);
    return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "kernel %s: no SGEMM plan for its contract (%d)", s->config->def->name,
                   (int)s->config->def->contract);
}

int gk_sgemm_packed_fits(const gk_geometry *g, int64_t m, int64_t n, int64_t k, int64_t splits)
{
    const int64_t k_step = g->k_multiple > 0 ? g->k_multiple : 1;
    const int64_t kslice = gk_round_up((k + splits - 1) / splits, k_step);
    return packed_fits(gk_round_up(m, g->tile_m), gk_round_up(n, g->tile_n), kslice * splits, splits);
}

int gk_sgemm_partials_fit(int64_t m, int64_t n, int64_t splits)
{
    return n < 1 || gk_round_up(m, 4) <= INT32_MAX / n / splits;
}
