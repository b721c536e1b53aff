/* The GEMM routine: argument preparation (all row-major and operand swapping
 * happens here, once), the kernel's choice and the plan around it (scale only,
 * peeled strips, or the kernel's contract's planner, plan_gemm.c), and the
 * public entry points on host arrays and buffers. */
#include <stdint.h>
#include <stdlib.h>

#include "math_mode.h"
#include "multi_gemm.h"
#include "plan_gemm.h"
#include "route_gemm.h"
#include "sgemm.h"
#include "status.h"

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

/* The whole problem's steps on config's kernel, appended to the plan. */
static gemmkit_status plan_config(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *p,
                                  gk_config config, gk_plan *plan)
{
    /* Reject what the device cannot run before anything is planned. */
    gk_geometry g;
    GK_TRY(gk_config_geometry(&config, p->m, p->n, p->k, &g));
    GK_TRY(gk_config_check_device(&config, &g, &ctx->info));
    if (!gk_sgemm_writes_c(p)) return GEMMKIT_SUCCESS;
    if (!gk_sgemm_reads_ab(p)) {
        const gk_operands scale = {.m = p->m, .n = p->n, .beta = p->beta, .c = p->c};
        return gk_plan_add_helper(ctx, plan, GK_HELPER_SCALE, &scale, 0);
    }
    const int named = options && (options->kernel || options->params);
    if (gk_kernel_packs_operands(config.def) && !named && !gk_sgemm_packed_fits(&g, p->m, p->n, p->k, 1)) {
        /* The policy's packed kernel would pad past the 32-bit indices: the no-copy kernel instead. */
        GK_TRY(gk_context_resolve(ctx, gk_kernel_find(GK_UNPACKED_FALLBACK), NULL, &config));
        GK_TRY(gk_config_geometry(&config, p->m, p->n, p->k, &g));
        GK_TRY(gk_config_check_device(&config, &g, &ctx->info));
    }
    /* A kernel the caller names runs on the operands as given (what `bench --kernel` times); the policy's choice
     * may first copy them into another layout (its copy rows). */
    const gk_sgemm_planning planning = {ctx, &config, &g, p, !(options && options->kernel)};
    return gk_sgemm_plan_kernel(&planning, plan);
}

/* The whole problem's steps, appended to the plan. */
static gemmkit_status plan_whole(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *p,
                                 gk_plan *plan)
{
    gk_config config;
    GK_TRY(choose_kernel(ctx, options, p, &config));
    return plan_config(ctx, options, p, config, plan);
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

/* A choice that runs a strip in one step on the operands as stored (the skinny kernels): no scratch buffer,
 * which the main block's steps hold. */
static int runs_in_place(const gemmkit_context *ctx, const gk_sgemm_choice *choice, const gk_sgemm_problem *strip)
{
    return choice->def && choice->def->contract == GK_CONTRACT_GEMM_DIRECT &&
           gk_sgemm_copy_choose(gk_policy_builtin(), &ctx->info, &choice->config, strip, 0) == GK_COPY_NONE &&
           gk_sgemm_copy_choose(gk_policy_builtin(), &ctx->info, &choice->config, strip, 1) == GK_COPY_NONE;
}

/* A strip's configuration: the policy's choice where it runs in place, else the model's cheapest candidate
 * that does (a strip's best choice is often a split-K build whose partials need scratch, with an in-place
 * skinny line predicted within a few percent of it); 0 when none does. */
static int strip_config(const gemmkit_context *ctx, const gk_sgemm_problem *strip, gk_config *config)
{
    const gk_sgemm_choice choice = gk_sgemm_default_kernel_for(ctx, strip);
    if (runs_in_place(ctx, &choice, strip)) {
        *config = choice.config;
        return 1;
    }
    gk_sgemm_candidate *cands = malloc(GK_SGEMM_MAX_CANDIDATES * sizeof *cands);
    const int count = cands ? gk_sgemm_candidates_for(ctx, strip, cands, GK_SGEMM_MAX_CANDIDATES) : 0;
    int found = 0;
    for (int i = 0; i < count && !found; i++)
        if (runs_in_place(ctx, &cands[i].choice, strip)) {
            *config = cands[i].choice.config;
            found = 1;
        }
    free(cands);
    return found;
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
    gk_config right_config, bottom_config;
    if ((edge_n && !strip_config(ctx, &right, &right_config)) || (edge_m && !strip_config(ctx, &bottom, &bottom_config)))
        return 0;
    *status = plan_whole(ctx, options, &main, plan);
    if (*status == GEMMKIT_SUCCESS && edge_n) *status = plan_config(ctx, options, &right, right_config, plan);
    if (*status == GEMMKIT_SUCCESS && edge_m) *status = plan_config(ctx, options, &bottom, bottom_config, plan);
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
    /* The CPU BLAS computes in fp32: a call in another mode the device runs (int8x on a CPU device) keeps it. */
    if (p.math != GK_MATH_FP32) return run_on_device(ctx, options, &p, route, a, b, c);
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

gemmkit_status gk_sgemm_buffers_problem(gemmkit_context *ctx, const gemmkit_options *options, const gk_gemm_call *call,
                                        gk_sgemm_problem *p, int *writes_c)
{
    GK_TRY(gk_check_pointer(ctx, "ctx"));
    GK_TRY(gk_sgemm_prepare(call, p));
    GK_TRY(gk_sgemm_math(ctx, options, &p->math));
    *writes_c = gk_sgemm_writes_c(p);
    if (!*writes_c) return GEMMKIT_SUCCESS;
    const gemmkit_buffer *c = call->c;
    GK_TRY(gk_check_buffer(ctx, c, "C", call->offset_c, gk_extent(p->m, p->n, p->c.ld)));
    p->c.mem = c->mem;
    if (gk_sgemm_reads_ab(p)) {
        const gemmkit_buffer *ba = p->source_a, *bb = p->source_b;
        GK_TRY(gk_check_buffer(ctx, ba, p->name_a, p->a.offset, extent_a(p)));
        GK_TRY(gk_check_buffer(ctx, bb, p->name_b, p->b.offset, extent_b(p)));
        p->a.mem = ba->mem;
        p->b.mem = bb->mem;
    }
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_sgemm_buffers(gemmkit_context *ctx, const gemmkit_options *options,
                                     gemmkit_layout layout, gemmkit_transpose trans_a,
                                     gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                                     const gemmkit_buffer *a, size_t offset_a, int64_t lda,
                                     const gemmkit_buffer *b, size_t offset_b, int64_t ldb, float beta,
                                     gemmkit_buffer *c, size_t offset_c, int64_t ldc)
{
    const gk_gemm_call call = {layout, trans_a, trans_b, m, n, k, alpha, beta, a, b, c,
                               offset_a, offset_b, offset_c, lda, ldb, ldc};
    gk_sgemm_problem p;
    int writes_c = 0;
    GK_TRY(gk_sgemm_buffers_problem(ctx, options, &call, &p, &writes_c));
    if (!writes_c) return GEMMKIT_SUCCESS;
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = gk_sgemm_run(ctx, options, &p);
    if (status == GEMMKIT_SUCCESS) status = ctx->ops->finish(ctx->device);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}
