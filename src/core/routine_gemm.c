/* The GEMM routine: argument preparation (all row-major and operand swapping
 * happens here, once), the plan (one direct kernel, after copies of its operands
 * where the policy's copy rows hold, or pack -> tiled kernel ->
 * unpack around a kernel that needs padded, packed operands, tutorial kernel
 * 10's approach; for split-K pack -> K-slices into partials -> reduce), and
 * the public entry points on host arrays and buffers. */
#include <stdint.h>

#include "math_mode.h"
#include "multi_gemm.h"
#include "route_gemm.h"
#include "sgemm.h"
#include "status.h"
#include "transpose.h"

static int is_trans(gemmkit_transpose t) { return t == GEMMKIT_TRANS || t == GEMMKIT_CONJ_TRANS; }

static int64_t extent_a(const gk_sgemm_problem *p)
{
    return gk_extent(gk_stored_rows(p->trans_a, p->m, p->k), p->trans_a ? p->m : p->k, p->a.ld);
}

static int64_t extent_b(const gk_sgemm_problem *p)
{
    return gk_extent(gk_stored_rows(p->trans_b, p->k, p->n), p->trans_b ? p->k : p->n, p->b.ld);
}

gemmkit_status gk_sgemm_prepare_dims(const gk_gemm_call *call, gk_sgemm_problem *p)
{
    GK_TRY(gk_check_layout(call->layout));
    GK_TRY(gk_check_trans(call->trans_a, "trans_a"));
    GK_TRY(gk_check_trans(call->trans_b, "trans_b"));
    const int64_t m = call->m, n = call->n, k = call->k;
    if (m < 0) return gk_fail(GEMMKIT_ERROR_INVALID_SIZE, "m = %lld is negative", (long long)m);
    if (n < 0) return gk_fail(GEMMKIT_ERROR_INVALID_SIZE, "n = %lld is negative", (long long)n);
    if (k < 0) return gk_fail(GEMMKIT_ERROR_INVALID_SIZE, "k = %lld is negative", (long long)k);
    const int ta = is_trans(call->trans_a), tb = is_trans(call->trans_b);
    /* A stored matrix's leading dimension covers its rows (column-major) or
     * its row length (row-major). */
    const int row_major = call->layout == GEMMKIT_ROW_MAJOR;
    GK_TRY(gk_check_ld("lda", call->lda, row_major ? (ta ? m : k) : (ta ? k : m)));
    GK_TRY(gk_check_ld("ldb", call->ldb, row_major ? (tb ? k : n) : (tb ? n : k)));
    GK_TRY(gk_check_ld("ldc", call->ldc, row_major ? n : m));

    const gk_matrix caller_a = {NULL, call->offset_a, call->lda}, caller_b = {NULL, call->offset_b, call->ldb};
    /* C^T = op(B)^T op(A)^T in column-major terms. Every field named: a
     * partial initialiser costs a block clear of the whole struct per call. */
    *p = (gk_sgemm_problem){.trans_a = row_major ? tb : ta, .trans_b = row_major ? ta : tb,
                            .m = row_major ? n : m, .n = row_major ? m : n, .k = k,
                            .alpha = call->alpha, .beta = call->beta,
                            .a = row_major ? caller_b : caller_a, .b = row_major ? caller_a : caller_b,
                            .c = {NULL, call->offset_c, call->ldc},
                            .source_a = row_major ? call->b : call->a, .source_b = row_major ? call->a : call->b,
                            .source_c = call->c,
                            .name_a = row_major ? "B" : "A", .name_b = row_major ? "A" : "B",
                            .math = GK_MATH_FP32};
    /* Kernels index with 32-bit integers; checking the lds first also keeps
     * the extents (gk_sgemm_check_spans) from overflowing int64. */
    if (call->lda > INT32_MAX || call->ldb > INT32_MAX || call->ldc > INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "leading dimensions above 2^31-1 are not supported");
    if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "dimensions above 2^31-1 are not supported");
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_sgemm_check_spans(const gk_sgemm_problem *p)
{
    if (extent_a(p) > INT32_MAX || extent_b(p) > INT32_MAX || gk_extent(p->m, p->n, p->c.ld) > INT32_MAX ||
        (double)p->m * (double)p->n > (double)INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW,
                       "matrices of more than 2^31-1 elements (%lld x %lld x %lld, column-major) are not supported "
                       "by this call (host-array gemmkit_sgemm tiles them)",
                       (long long)p->m, (long long)p->n, (long long)p->k);
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_sgemm_prepare(const gk_gemm_call *call, gk_sgemm_problem *p)
{
    GK_TRY(gk_sgemm_prepare_dims(call, p));
    return gk_sgemm_check_spans(p);
}


/* The kernel: the caller's (checked to be an SGEMM kernel for this backend) or the policy's. */
static gemmkit_status choose_kernel(const gemmkit_context *ctx, const gemmkit_options *options,
                                    const gk_sgemm_problem *p, gk_config *config)
{
    const gk_kernel_def *def = NULL;
    if (options && options->kernel) {
        def = gk_kernel_find(options->kernel);
        if (!def) return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "no kernel named \"%s\" (see `gemmkit list`)",
                                 options->kernel);
        if (gk_kernel_op(def) != GK_OP_SGEMM)
            return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "kernel \"%s\" is not an SGEMM kernel", def->name);
        GK_TRY(gk_plan_check_backend(ctx, def));
        GK_TRY(gk_math_supported(ctx, def->math));
    } else {
        gk_sgemm_choice choice = gk_sgemm_default_kernel_for(ctx, p);
        if (!choice.def && p->math != GK_MATH_FP32)
            return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_MATH, "no SGEMM kernel of math mode %s for this shape on %s",
                           gemmkit_math_name(gk_math_to_public(p->math)), ctx->info.name);
        if (!choice.def) return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "no SGEMM kernel resolves on this device");
        def = choice.def;
        /* The policy's configuration (a tuned line or the defaults), unless the caller gives parameters. */
        if (!(options && options->params)) {
            *config = choice.config;
            return GEMMKIT_SUCCESS;
        }
    }
    /* Explicit parameters, else this device's tuned ones, else the defaults. */
    return gk_context_resolve(ctx, def, options ? options->params : NULL, config);
}

/* What runs where the policy's packed kernel cannot pad a problem (packed_fits): any size, transposes and
 * offsets read in place. */
#define GK_UNPACKED_FALLBACK "xgemm-direct"

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

/* Copies an operand (op(X) rows x cols, X^T stored when *trans) into scratch `slot`, stored transposed when
 * want_trans, with a leading dimension of whole float4 from offset 0; *x and *trans then describe the copy.
 * Nothing is planned when the operand is stored so already, or when the copy would pass 2^31-1 elements. */
static gemmkit_status plan_copy(gemmkit_context *ctx, int slot, gk_matrix *x, int *trans, int64_t rows,
                                int64_t cols, int want_trans, gk_plan *plan)
{
    if (*trans == want_trans && gk_matrix_float4_columns(x)) return GEMMKIT_SUCCESS;
    const int64_t stored_rows = want_trans ? cols : rows, stored_cols = want_trans ? rows : cols;
    const int64_t ld = gk_round_up(stored_rows, 4);
    /* The kernels index operands in 32 bits: a copy that would outgrow them (ld rounded up, at the limit) is
     * not made, and the kernel reads the operand as stored. */
    if (ld * stored_cols > INT32_MAX) return GEMMKIT_SUCCESS;
    gk_mem *mem = NULL;
    GK_TRY(gk_context_scratch(ctx, slot, (size_t)(ld * stored_cols) * sizeof(float), &mem));
    /* The copy is X as stored, or its transpose where the orientation changes. */
    GK_TRY(gk_omatcopy_plan_pack(ctx, x, *trans != want_trans, stored_rows, stored_cols, ld, stored_cols, GK_PAD_ALL,
                                 mem, plan));
    *x = (gk_matrix){mem, 0, ld};
    *trans = want_trans;
    return GEMMKIT_SUCCESS;
}

/* The policy's copy rows for a kernel reading the operands as stored: A and B copied into the layout a row
 * chooses (k-major: op(X) with K contiguous; aligned: as stored) before the kernel, which then reads `o`. */
static gemmkit_status plan_copies(gemmkit_context *ctx, const gk_config *config, const gk_sgemm_problem *p,
                                  gk_operands *o, gk_plan *plan)
{
    const gk_policy *policy = gk_policy_builtin();
    const gk_policy_copy copy_a = gk_sgemm_copy_choose(policy, &ctx->info, config, p, 0);
    const gk_policy_copy copy_b = gk_sgemm_copy_choose(policy, &ctx->info, config, p, 1);
    if (copy_a != GK_COPY_NONE)
        GK_TRY(plan_copy(ctx, GK_SCRATCH_A, &o->a, &o->trans_a, p->m, p->k,
                         copy_a == GK_COPY_KMAJOR ? 1 : p->trans_a, plan));
    if (copy_b != GK_COPY_NONE)
        GK_TRY(plan_copy(ctx, GK_SCRATCH_B, &o->b, &o->trans_b, p->k, p->n,
                         copy_b == GK_COPY_KMAJOR ? 0 : p->trans_b, plan));
    return GEMMKIT_SUCCESS;
}

/* One operand of a kernel on split operands (GK_CONTRACT_GEMM_SPLIT, _SPLIT_TMA, _SPLIT_TMA_K): op(X) (rows x
 * cols, X^T stored when trans) stored transposed when want_trans, in scratch `slot` with a leading dimension of
 * whole float4, its TF32 big parts there and its small parts a matrix further (the split helper: from X itself
 * where it is stored so already, else in place after a transposing copy); *out describes the big parts. */
static gemmkit_status plan_split_operand(gemmkit_context *ctx, int slot, const gk_matrix *x, int trans, int64_t rows,
                                         int64_t cols, int want_trans, gk_matrix *out, gk_plan *plan)
{
    const int64_t stored_rows = want_trans ? cols : rows, stored_cols = want_trans ? rows : cols;
    const int64_t ld = gk_round_up(stored_rows, 4);
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
    GK_TRY(plan_copy(ctx, GK_SCRATCH_A, &all.a, &all.trans_a, p->m, p->k, 1, plan));
    GK_TRY(plan_copy(ctx, GK_SCRATCH_B, &all.b, &all.trans_b, p->k, p->n, 0, plan));
    if (!all.trans_a || all.trans_b || !gk_matrix_float4_columns(&all.a) || !gk_matrix_float4_columns(&all.b))
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW,
                       "kernel %s reads A and B K-contiguous with aligned columns: their copies (%lld x %lld and "
                       "%lld x %lld, leading dimensions rounded up to 4) would pass 2^31-1 elements",
                       config->def->name, (long long)p->k, (long long)p->m, (long long)p->k, (long long)p->n);
    return gk_plan_add(ctx, plan, config, g, &all, 1);
}

/* The reduction of split-K's partials: one row per work-item for results under 512 x 512, whose four rows per
 * work-item left too few work-items to keep the partials' loads in flight (H200, 128 x 128 x 131072: 128
 * partials summed in 17-19 us by 4096 work-items, 1 warp per SM). */
static gk_helper reduce_helper(const gk_sgemm_problem *p)
{
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
    return mp * kp <= INT32_MAX && np * kp <= INT32_MAX && splits * mp * np <= INT32_MAX;
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
    return gk_plan_add_helper(ctx, plan, splits > 1 ? reduce_helper(p) : GK_HELPER_UNPACK, &unpack, 0);
}

/* Split-K on the operands as stored (or as split, GK_CONTRACT_GEMM_SPLIT_TMA_K): slice z of K into partial z
 * (m x n, leading dimension m rounded up to 4 floats, so that the kernel stores whole float4), then the reduction
 * applies alpha and beta. */
static gemmkit_status plan_direct_split(gemmkit_context *ctx, const gk_config *config, const gk_geometry *g,
                                        const gk_sgemm_problem *p, const gk_operands *operands, gk_plan *plan)
{
    const int64_t ldp = gk_round_up(p->m, 4);
    const int64_t tiles = (p->m + g->tile_m - 1) / g->tile_m * ((p->n + g->tile_n - 1) / g->tile_n);
    int64_t kslice = p->k;
    const int64_t splits = split_k(ctx, config, tiles, ldp * p->n, p, &kslice);
    if (splits * ldp * p->n > INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW,
                       "kernel %s: %lld partial results of %lld x %lld pass 2^31-1 floats, which it indexes in 32 bits",
                       config->def->name, (long long)splits, (long long)ldp, (long long)p->n);
    gk_mem *partials = NULL;
    GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_C, (size_t)(splits * ldp * p->n) * sizeof(float), &partials));
    const gk_operands main = {.m = p->m, .n = p->n, .k = p->k, .k_slice = kslice, .batch = splits,
                              .trans_a = operands->trans_a, .trans_b = operands->trans_b, .a = operands->a,
                              .b = operands->b, .c = {partials, 0, ldp}, .stride_c = ldp * p->n};
    GK_TRY(gk_plan_add(ctx, plan, config, g, &main, 1));
    const gk_operands reduce = {.m = p->m, .n = p->n, .k = splits, .alpha = p->alpha, .beta = p->beta,
                                .a = {partials, 0, ldp}, .stride_a = ldp * p->n, .c = p->c};
    return gk_plan_add_helper(ctx, plan, reduce_helper(p), &reduce, 0);
}

/* The whole problem's steps, appended to the plan. */
static gemmkit_status plan_whole(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *p,
                                 gk_plan *plan)
{
    gk_config config;
    GK_TRY(choose_kernel(ctx, options, p, &config));
    /* Reject what the device cannot run before anything is planned. */
    gk_geometry g;
    GK_TRY(gk_config_geometry(&config, p->m, p->n, p->k, &g));
    GK_TRY(gk_config_check_device(&config, &g, &ctx->info));
    if (!gk_sgemm_writes_c(p)) return GEMMKIT_SUCCESS;
    if (!gk_sgemm_reads_ab(p)) {
        const gk_operands scale = {.m = p->m, .n = p->n, .beta = p->beta, .c = p->c};
        return gk_plan_add_helper(ctx, plan, GK_HELPER_SCALE, &scale, 0);
    }
    if (gk_kernel_splits_operands(config.def)) return plan_split(ctx, &config, &g, p, plan);
    if (config.def->contract == GK_CONTRACT_GEMM_TMA) return plan_tma(ctx, &config, &g, p, plan);
    int direct = config.def->contract == GK_CONTRACT_GEMM_DIRECT;
    const int direct_split = config.def->contract == GK_CONTRACT_GEMM_DIRECT_SPLIT;
    const int named = options && (options->kernel || options->params);
    int64_t mp, np, kp;
    padded_sizes(&g, p, &mp, &np, &kp);
    if (!direct && !direct_split && !named && !packed_fits(mp, np, kp, 1)) {
        /* The policy's packed kernel would pad past the 32-bit indices: the no-copy kernel instead. */
        GK_TRY(gk_context_resolve(ctx, gk_kernel_find(GK_UNPACKED_FALLBACK), NULL, &config));
        GK_TRY(gk_config_geometry(&config, p->m, p->n, p->k, &g));
        GK_TRY(gk_config_check_device(&config, &g, &ctx->info));
        direct = 1;
    }
    if (!direct && !direct_split) return plan_packed(ctx, &config, &g, p, plan);
    /* Kernels reading the operands as stored. A kernel the caller names runs on them as given (what `bench
     * --kernel` times); the policy's choice may first copy them into another layout (its copy rows). */
    gk_operands all = {.m = p->m, .n = p->n, .k = p->k, .trans_a = p->trans_a, .trans_b = p->trans_b,
                       .alpha = p->alpha, .beta = p->beta, .a = p->a, .b = p->b, .c = p->c};
    if (!(options && options->kernel)) GK_TRY(plan_copies(ctx, &config, p, &all, plan));
    if (direct_split) return plan_direct_split(ctx, &config, &g, p, &all, plan);
    return gk_plan_add(ctx, plan, &config, &g, &all, 1);
}

/* The rows [row0, row0 + rows) and columns [col0, col0 + cols) of p's C, with the parts of A and B they read. */
static gk_sgemm_problem sub_problem(const gk_sgemm_problem *p, int64_t row0, int64_t rows, int64_t col0, int64_t cols)
{
    gk_sgemm_problem s = *p;
    s.m = rows;
    s.n = cols;
    s.a.offset += (size_t)(p->trans_a ? row0 * p->a.ld : row0);
    s.b.offset += (size_t)(p->trans_b ? col0 : col0 * p->b.ld);
    s.c.offset += (size_t)(row0 + col0 * p->c.ld);
    return s;
}

/* A strip runs in one step on the operands as stored (the skinny kernels): no scratch buffer, which the main
 * block's steps hold. */
static int strip_runs_in_place(const gemmkit_context *ctx, const gk_sgemm_problem *strip)
{
    const gk_sgemm_choice choice = gk_sgemm_default_kernel_for(ctx, strip);
    return choice.def && choice.def->contract == GK_CONTRACT_GEMM_DIRECT &&
           gk_sgemm_copy_choose(gk_policy_builtin(), &ctx->info, &choice.config, strip, 0) == GK_COPY_NONE &&
           gk_sgemm_copy_choose(gk_policy_builtin(), &ctx->info, &choice.config, strip, 1) == GK_COPY_NONE;
}

/* The policy's peel row (multiple > 0): C's rows and columns past the last multiple, where at most
 * GK_PEEL_MAX_EDGE, are strips of their own (the bottom one across all of C's columns, the right one beside
 * the main block), so that the main block has no partial tile; 0 when nothing is cut off. The strips run in
 * fp32 whatever the call's mode: at least as accurate as any (docs/MATH.md), on the skinny kernels. */
static int plan_peeled(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *p,
                       int64_t multiple, gk_plan *plan, gemmkit_status *status)
{
    const int64_t edge_m = p->m % multiple <= GK_PEEL_MAX_EDGE ? p->m % multiple : 0;
    const int64_t edge_n = p->n % multiple <= GK_PEEL_MAX_EDGE ? p->n % multiple : 0;
    const int64_t main_m = p->m - edge_m, main_n = p->n - edge_n;
    if ((edge_m == 0 && edge_n == 0) || main_m == 0 || main_n == 0) return 0;
    const gk_sgemm_problem main = sub_problem(p, 0, main_m, 0, main_n);
    gk_sgemm_problem right = sub_problem(p, 0, main_m, main_n, edge_n), bottom = sub_problem(p, main_m, edge_m, 0, p->n);
    right.math = bottom.math = GK_MATH_FP32;
    if ((edge_n && !strip_runs_in_place(ctx, &right)) || (edge_m && !strip_runs_in_place(ctx, &bottom))) return 0;
    *status = plan_whole(ctx, options, &main, plan);
    if (*status == GEMMKIT_SUCCESS && edge_n) *status = plan_whole(ctx, options, &right, plan);
    if (*status == GEMMKIT_SUCCESS && edge_m) *status = plan_whole(ctx, options, &bottom, plan);
    return 1;
}

gemmkit_status gk_sgemm_plan(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *p,
                             gk_plan *plan)
{
    plan->count = 0;
    /* A kernel the caller names, or parameters, apply to the whole problem (what `bench --kernel` times). */
    if (!(options && (options->kernel || options->params)) && gk_sgemm_reads_ab(p)) {
        const int64_t multiple = gk_sgemm_peel_choose(gk_policy_builtin(), &ctx->info, p);
        gemmkit_status status = GEMMKIT_SUCCESS;
        if (multiple && plan_peeled(ctx, options, p, multiple, plan, &status)) return status;
    }
    return plan_whole(ctx, options, p, plan);
}

/* Columns of C per call where the backend's grid holds at most 65535 work-groups along N (the second
 * dimension): 65535 tiles of 16 columns, the narrowest tile of the library's kernels and helpers. */
#define GK_STRIP_COLUMNS ((int64_t)65535 * 16)

/* One plan; its times added to *kernel_ms and *total_ms where given. */
static gemmkit_status run_plan(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *p,
                               double *kernel_ms, double *total_ms)
{
    gk_plan plan;
    double kernel = 0.0, total = 0.0;
    GK_TRY(gk_sgemm_plan(ctx, options, p, &plan));
    GK_TRY(gk_plan_execute(ctx, &plan, kernel_ms ? &kernel : NULL, total_ms ? &total : NULL));
    if (kernel_ms) *kernel_ms += kernel;
    if (total_ms) *total_ms += total;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_sgemm_run(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *p)
{
    double *kernel_ms = options ? options->kernel_ms : NULL, *total_ms = options ? options->total_ms : NULL;
    if (kernel_ms) *kernel_ms = 0.0;
    if (total_ms) *total_ms = 0.0;
    if (!(ctx->ops->caps & GK_CAP_GRID_Y_64K) || p->n <= GK_STRIP_COLUMNS)
        return run_plan(ctx, options, p, kernel_ms, total_ms);
    /* C's columns in strips, a plan each: every column of C reads only its own column of op(B). */
    for (int64_t col0 = 0; col0 < p->n; col0 += GK_STRIP_COLUMNS) {
        const int64_t cols = p->n - col0 < GK_STRIP_COLUMNS ? p->n - col0 : GK_STRIP_COLUMNS;
        const gk_sgemm_problem strip = sub_problem(p, 0, p->m, col0, cols);
        GK_TRY(run_plan(ctx, options, &strip, kernel_ms, total_ms));
    }
    return GEMMKIT_SUCCESS;
}

typedef struct host_problem {
    const gemmkit_options *options;
    gk_sgemm_problem *problem;
} host_problem;

static gemmkit_status run_host(gemmkit_context *ctx, void *data)
{
    const host_problem *h = data;
    return gk_sgemm_run(ctx, h->options, h->problem);
}

/* The pointers' checks of a host-array call that writes C. */
static inline __attribute__((always_inline)) gemmkit_status check_host_pointers(const gk_sgemm_problem *p, const float *a, const float *b, float *c)
{
    GK_TRY(gk_check_pointer(c, "C"));
    if (gk_sgemm_reads_ab(p)) {
        GK_TRY(gk_check_pointer(a, "A"));
        GK_TRY(gk_check_pointer(b, "B"));
    }
    return GEMMKIT_SUCCESS;
}

/* A host-array call on the device: tiled, or its operands staged whole. */
static gemmkit_status __attribute__((noinline))
run_on_device(gemmkit_context *ctx, const gemmkit_options *options, gk_sgemm_problem *p, gk_policy_route route,
              const float *a, const float *b, float *c)
{
    /* Tiles are within the kernels' 32-bit limits whatever the spans of the whole matrices. */
    const int tiled = gk_sgemm_route_tiled(ctx, p, route);
    if (!tiled) GK_TRY(gk_sgemm_check_spans(p));
    GK_TRY(gk_sgemm_math(ctx, options, &p->math));
    if (!gk_sgemm_writes_c(p)) return GEMMKIT_SUCCESS;
    GK_TRY(check_host_pointers(p, a, b, c));
    if (tiled) return gk_sgemm_tiled(ctx, options, p);
    const int reads = gk_sgemm_reads_ab(p);
    /* C is uploaded when it is read (beta != 0). */
    gk_host_operand staged[] = {
        {p->beta != 0.0f ? c : NULL, c, p->m, p->n, p->c.ld, GK_SCRATCH_HOST_C, &p->c.mem, 1, 0},
        {reads ? p->source_a : NULL, NULL, gk_stored_rows(p->trans_a, p->m, p->k), p->trans_a ? p->m : p->k, p->a.ld,
         GK_SCRATCH_HOST_A, &p->a.mem, 1, 0},
        {reads ? p->source_b : NULL, NULL, gk_stored_rows(p->trans_b, p->k, p->n), p->trans_b ? p->k : p->n, p->b.ld,
         GK_SCRATCH_HOST_B, &p->b.mem, 1, 0},
    };
    host_problem h = {options, p};
    return gk_host_call(ctx, staged, 3, run_host, &h);
}

/* gemmkit_sgemm_ex and gemmkit_sgemm (inlined into both: no call through the PLT). */
static inline gemmkit_status sgemm_host_arrays(gemmkit_context *ctx, const gemmkit_options *options,
                                               gemmkit_layout layout, gemmkit_transpose trans_a,
                                               gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k,
                                               float alpha, const float *a, int64_t lda, const float *b,
                                               int64_t ldb, float beta, float *c, int64_t ldc)
{
    GK_TRY(gk_check_pointer(ctx, "ctx"));
    const gk_gemm_call call = {layout, trans_a, trans_b, m, n, k, alpha, beta, a, b, c, 0, 0, 0, lda, ldb, ldc};
    gk_sgemm_problem p;
    GK_TRY(gk_sgemm_prepare_dims(&call, &p));
    const gk_policy_route route = gk_sgemm_route_choice(ctx, &p);
    /* A call the CPU BLAS takes multiplies (reads A and B), so it writes C,
     * and its spans fit 2^31-1 unless the tiler would take it: the device
     * path's gk_sgemm_route_tiled and span check cannot fail it, and are
     * left to that path. */
    const gk_host_blas *host = gk_sgemm_route_host(options, &p, route);
    if (!host) return run_on_device(ctx, options, &p, route, a, b, c);
    GK_TRY(gk_sgemm_math(ctx, options, &p.math));
    GK_TRY(check_host_pointers(&p, a, b, c));
    return gk_sgemm_run_host(host, options, &p);
}

gemmkit_status gemmkit_sgemm_ex(gemmkit_context *ctx, const gemmkit_options *options, gemmkit_layout layout,
                                gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m, int64_t n,
                                int64_t k, float alpha, const float *a, int64_t lda, const float *b,
                                int64_t ldb, float beta, float *c, int64_t ldc)
{
    return sgemm_host_arrays(ctx, options, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

gemmkit_status gemmkit_sgemm(gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans_a,
                             gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                             const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                             int64_t ldc)
{
    return sgemm_host_arrays(ctx, NULL, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

gemmkit_status gemmkit_sgemm_buffers(gemmkit_context *ctx, const gemmkit_options *options,
                                     gemmkit_layout layout, gemmkit_transpose trans_a,
                                     gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                                     const gemmkit_buffer *a, size_t offset_a, int64_t lda,
                                     const gemmkit_buffer *b, size_t offset_b, int64_t ldb, float beta,
                                     gemmkit_buffer *c, size_t offset_c, int64_t ldc)
{
    GK_TRY(gk_check_pointer(ctx, "ctx"));
    const gk_gemm_call call = {layout, trans_a, trans_b, m, n, k, alpha, beta, a, b, c,
                               offset_a, offset_b, offset_c, lda, ldb, ldc};
    gk_sgemm_problem p;
    GK_TRY(gk_sgemm_prepare(&call, &p));
    GK_TRY(gk_sgemm_math(ctx, options, &p.math));
    if (!gk_sgemm_writes_c(&p)) return GEMMKIT_SUCCESS;
    GK_TRY(gk_check_buffer(ctx, c, "C", offset_c, gk_extent(p.m, p.n, p.c.ld)));
    p.c.mem = c->mem;
    if (gk_sgemm_reads_ab(&p)) {
        const gemmkit_buffer *ba = p.source_a, *bb = p.source_b;
        GK_TRY(gk_check_buffer(ctx, ba, p.name_a, p.a.offset, extent_a(&p)));
        GK_TRY(gk_check_buffer(ctx, bb, p.name_b, p.b.offset, extent_b(&p)));
        p.a.mem = ba->mem;
        p.b.mem = bb->mem;
    }
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = gk_sgemm_run(ctx, options, &p);
    if (status == GEMMKIT_SUCCESS) status = ctx->ops->finish(ctx->device);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}
