/* The plan of math mode int8x, the Ozaki scheme II (GK_CONTRACT_GEMM_OZAKI, docs/MATH.md): slice op(A)'s rows
 * and op(B)'s columns into scaled integer residues (ozaki_norms.cl then ozaki_slice.cl, once per operand), one
 * exact INT8 product per modulus (the chosen kernel, moduli along its grid's third dimension), and their
 * recombination into C with alpha and beta (ozaki_crt.cl). The number of moduli: GEMMKIT_OZAKI_MODULI, read by each
 * call, else from the operands' spread, measured on the device before the plan is built (ozaki_norms.cl, SPREAD=1). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "plan_gemm.h"
#include "status.h"

#define GK_OZAKI_DEFAULT_MODULI 8
#define GK_OZAKI_MIN_MODULI 2
#define GK_OZAKI_MAX_MODULI 20 /* ozaki.h's table */

/* The moduli of ozaki.h, in order: their product bounds the integers a call may reach. */
static const int moduli_table[GK_OZAKI_MAX_MODULI] = {256, 255, 253, 251, 247, 241, 239, 233, 229, 227,
                                                      223, 217, 211, 199, 197, 193, 191, 181, 179, 173};

/* ozaki.h's gk_ozaki_norm_bound on the host: the largest norm a scaled row may have. */
static double norm_bound(int moduli, int64_t k)
{
    double p = 1.0;
    for (int i = 0; i < moduli; i++) p *= moduli_table[i];
    return sqrt(0.5 * p) * (1.0 - 9.5367431640625e-07) - 0.5 * sqrt((double)k) - 1.0;
}

/* GEMMKIT_OZAKI_MODULI's value where it is set at all (not empty), else NULL. */
static const char *moduli_variable(void)
{
    const char *env = getenv("GEMMKIT_OZAKI_MODULI");
    return env && *env ? env : NULL;
}

int gk_ozaki_scheme_asked(void) { return moduli_variable() != NULL; }

/* GEMMKIT_OZAKI_MODULI: *count and *set = 1 where it is set to a count, *set = 0 where unset or "auto" (which
 * counts from the operands as unset does; set at all, it also keeps int8x on the scheme, math_mode.c); an error
 * where it is invalid. */
static gemmkit_status explicit_moduli(int *count, int *set)
{
    const char *env = moduli_variable();
    *set = env && strcasecmp(env, "auto") != 0;
    if (!*set) return GEMMKIT_SUCCESS;
    char *end = NULL;
    const long value = strtol(env, &end, 10);
    if (*end || value < GK_OZAKI_MIN_MODULI || value > GK_OZAKI_MAX_MODULI)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT,
                       "GEMMKIT_OZAKI_MODULI=\"%s\": expected auto or an integer from %d to %d (math mode int8x)", env,
                       GK_OZAKI_MIN_MODULI, GK_OZAKI_MAX_MODULI);
    *count = (int)value;
    return GEMMKIT_SUCCESS;
}

/* Spread past which each 2 bits more (of rho_A rho_B) cost a modulus, and the count for an operand at the
 * statistic's cap (below). */
#define GK_OZAKI_FREE_SPREAD_BITS 7
#define GK_OZAKI_CAPPED_MODULI 12
#define GK_OZAKI_CAP_MIN_K 16

int gk_ozaki_moduli_for_spread(int quarter_bits_a, int quarter_bits_b, int64_t k)
{
    /* The scaling keeps each row's 2-norm, and |x|_2 = rho |x|_1 / sqrt(K): the error relative to (|A||B|)ij grows
     * with rho_A rho_B, each modulus giving about 4 bits back. Fit to the fewest moduli at or below fp32's error
     * (docs/MATH.md): 8 hold up to 2^7, then one per 2 bits (not 4: the max over rows understates the worst
     * pairs). */
    const int quarter_bits = quarter_bits_a + quarter_bits_b;
    const int beyond = quarter_bits - 4 * GK_OZAKI_FREE_SPREAD_BITS;
    int count = GK_OZAKI_DEFAULT_MODULI + (beyond > 0 ? (beyond + 7) / 8 : 0);
    /* rho <= sqrt(K), reached by a row that one element dominates: the statistic then says nothing of how far
     * below it the others lie, so the cap gets what phi = 4 of docs/MATH.md needs. Below K = 16 a ratio of 5
     * between two elements reaches it: no signal there. */
    const int cap = k > 1 ? (int)ceil(2.0 * log2((double)k)) : 0;
    const int capped = k >= GK_OZAKI_CAP_MIN_K && (quarter_bits_a >= cap || quarter_bits_b >= cap);
    if (capped && count < GK_OZAKI_CAPPED_MODULI) count = GK_OZAKI_CAPPED_MODULI;
    return count < GK_OZAKI_MAX_MODULI ? count : GK_OZAKI_MAX_MODULI;
}

/* One operand's spread pass: the rows of op(X) (K strided where rows_strided) into the int `at` of q. */
static gemmkit_status add_spread(gemmkit_context *ctx, gk_plan *plan, gk_matrix x, int64_t rows, int64_t k,
                                 int rows_strided, gk_mem *q, int at)
{
    const gk_operands spread = {.m = rows, .n = 1, .k = k, .a = x,
                                .ozaki = {.rows_strided = rows_strided, .rows = rows, .ra = q, .spread_at = at}};
    return gk_plan_add_helper(ctx, plan, GK_HELPER_OZAKI_SPREAD, &spread, 0);
}

/* The two passes, then their ints zeroed and the passes run: the plan's steps are checked before anything is
 * enqueued. */
static gemmkit_status run_spread(gemmkit_context *ctx, const gk_sgemm_problem *p, gk_mem *q, gk_plan *plan)
{
    static const int zeros[2] = {0, 0}; /* stays put until the read-back: write_pending's condition */
    plan->count = 0;
    GK_TRY(add_spread(ctx, plan, p->a, p->m, p->k, p->trans_a, q, 0));
    GK_TRY(add_spread(ctx, plan, p->b, p->n, p->k, !p->trans_b, q, 1));
    GK_TRY(ctx->ops->write_pending ? ctx->ops->write_pending(ctx->device, q, 0, sizeof zeros, zeros)
                                   : ctx->ops->write(ctx->device, q, 0, sizeof zeros, zeros));
    return gk_plan_execute(ctx, plan, NULL, NULL);
}

/* The largest spread of op(A)'s rows and of op(B)'s columns in quarter bits: two passes into two ints and one
 * read-back (the call's one wait for the device before its plan). */
static gemmkit_status measure_spread(gemmkit_context *ctx, const gk_sgemm_problem *p, int quarter_bits[2])
{
    gk_mem *q = NULL;
    GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_SPREAD, 2 * sizeof(int), &q));
    gk_plan *plan = malloc(sizeof *plan); /* 40 KB, beside the call's own plan: not on the caller's stack */
    if (!plan) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "int8x's spread passes: %zu bytes", sizeof *plan);
    const gemmkit_status status = run_spread(ctx, p, q, plan);
    free(plan);
    GK_TRY(status);
    return ctx->ops->read(ctx->device, q, 0, 2 * sizeof(int), quarter_bits);
}

/* The count from the operands' spread, where the call may wait for the device. A call enqueued on the caller's
 * queue or stream (or a dry run counting its workspace, which has no operands to read) returns before its work
 * runs: it cannot measure, so it takes the default, as an unspread call would. */
static gemmkit_status automatic_moduli(gemmkit_context *ctx, const gk_sgemm_problem *p, int *count)
{
    *count = GK_OZAKI_DEFAULT_MODULI;
    if (ctx->on_caller_queue) return GEMMKIT_SUCCESS;
    int quarter_bits[2] = {0, 0};
    const gemmkit_status status = measure_spread(ctx, p, quarter_bits);
    if (status != GEMMKIT_SUCCESS) {
        char why[512];
        snprintf(why, sizeof why, "%s", gemmkit_last_error_message());
        return gk_fail(status, "math mode int8x: measuring the operands' spread for the number of moduli: %s", why);
    }
    *count = gk_ozaki_moduli_for_spread(quarter_bits[0], quarter_bits[1], p->k);
    if (ctx->trace)
        fprintf(stderr, "gemmkit trace: int8x spread 2^%.2f (op(A)'s rows) x 2^%.2f (op(B)'s columns): %d moduli\n",
                quarter_bits[0] / 4.0, quarter_bits[1] / 4.0, *count);
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_ozaki_moduli(gemmkit_context *ctx, const gk_sgemm_problem *p, int *moduli)
{
    int count = 0, set = 0;
    GK_TRY(explicit_moduli(&count, &set));
    if (!set) GK_TRY(automatic_moduli(ctx, p, &count));
    /* Each element keeps about log2(bound) bits of its row's norm: fewer than 4 leave nothing worth computing. */
    if (norm_bound(count, p->k) < 16.0)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT,
                       "math mode int8x: %d moduli are too few for K = %lld (their product bounds the integer "
                       "products; set GEMMKIT_OZAKI_MODULI higher)",
                       count, (long long)p->k);
    *moduli = count;
    return GEMMKIT_SUCCESS;
}

/* rows x Kp residues per modulus after the rows' exponents, in bytes; 0 past what 64-bit sizes hold. */
static size_t sliced_bytes(int64_t rows, int64_t kp, int moduli)
{
    if (rows > INT64_MAX / 4 / kp / moduli) return 0;
    return (size_t)(4 * rows + (int64_t)moduli * rows * kp);
}

/* One operand's slicing: the rows' exponents (a 1-D grid over the rows), then the residues (rows x Kp). */
static gemmkit_status add_slicing(gemmkit_context *ctx, gk_plan *plan, gk_operands *slice)
{
    slice->n = 1;
    GK_TRY(gk_plan_add_helper(ctx, plan, GK_HELPER_OZAKI_NORMS, slice, 0));
    slice->n = slice->ozaki.kp;
    return gk_plan_add_helper(ctx, plan, GK_HELPER_OZAKI_SLICE, slice, 0);
}

gemmkit_status gk_sgemm_plan_ozaki(const gk_sgemm_planning *s, gk_plan *plan)
{
    const gk_sgemm_problem *p = s->p;
    gemmkit_context *ctx = s->ctx;
    int moduli = 0;
    GK_TRY(gk_ozaki_moduli(ctx, p, &moduli));
    /* The product kernel's tiles and K step, as padding: zero residues there, no bounds checks in its loops. */
    const int64_t mp = gk_round_up(p->m, s->g->tile_m), np = gk_round_up(p->n, s->g->tile_n),
                  kp = gk_round_up(p->k, s->g->k_multiple);
    const size_t bytes_a = sliced_bytes(mp, kp, moduli), bytes_b = sliced_bytes(np, kp, moduli),
                 bytes_s = sliced_bytes(mp, np, moduli);
    if (!bytes_a || !bytes_b || !bytes_s || mp > INT32_MAX || np > INT32_MAX || kp > INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "math mode int8x: %lld x %lld x %lld with %d moduli is too large",
                       (long long)p->m, (long long)p->n, (long long)p->k, moduli);
    gk_mem *ra = NULL, *rb = NULL, *res = NULL;
    GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_A, bytes_a, &ra));
    GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_B, bytes_b, &rb));
    GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_C, bytes_s, &res));
    /* op(A)'s rows: strided by lda (K contiguous) where A is stored transposed; op(B)'s columns: where B is not. */
    gk_operands slice = {.m = mp, .n = 1, .k = p->k, .a = p->a,
                         .ozaki = {.moduli = moduli, .rows_strided = p->trans_a, .rows = p->m, .kp = kp, .ra = ra}};
    GK_TRY(add_slicing(ctx, plan, &slice));
    slice.m = np;
    slice.a = p->b;
    slice.ozaki.rows_strided = !p->trans_b;
    slice.ozaki.rows = p->n;
    slice.ozaki.ra = rb;
    GK_TRY(add_slicing(ctx, plan, &slice));
    const gk_operands products = {.m = mp, .n = np, .k = kp, .batch = moduli,
                                  .ozaki = {.moduli = moduli, .mp = mp, .np = np, .kp = kp, .ra = ra, .rb = rb, .s = res}};
    GK_TRY(gk_plan_add(ctx, plan, s->config, s->g, &products, 1));
    const gk_operands crt = {.m = p->m, .n = p->n, .k = p->k, .trans_a = p->trans_a, .trans_b = p->trans_b,
                             .alpha = p->alpha, .beta = p->beta, .a = p->a, .b = p->b, .c = p->c,
                             .ozaki = {.moduli = moduli, .mp = mp, .np = np, .kp = kp, .ra = ra, .rb = rb, .s = res}};
    return gk_plan_add_helper(ctx, plan, GK_HELPER_OZAKI_CRT, &crt, 0);
}
